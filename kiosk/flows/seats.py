"""The seats of a game's set-up form: a row of options (the player count, a mode, a tablet seat's level), and a
name field per seat, hinted with its default name; a seat out of play greyed or hidden, a tablet seat greyed with
its tablet name; the names to start with, each left blank its default."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, TypeVar

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk.widgets.kept_form import clear_fields, name_fields
from kiosk.widgets.theme import BUTTON_H, TButton

K = TypeVar("K", bound=Hashable)


def row(into: Widget, label: Widget | None = None, height: float = 64) -> BoxLayout:
    """A row of a form, added to `into`, led by `label` if given."""
    line = BoxLayout(size_hint_y=None, height=dp(height), spacing=dp(8))
    if label is not None:
        line.add_widget(label)
    into.add_widget(line)
    return line


def options(into: Widget, choices: Iterable[tuple[K, str, str]], on_pick: Callable[[K], Any],
            **kw: Any) -> dict[K, TButton]:
    """A button per (value, text, test id), added to `into` (a row): a tap picks its value."""
    buttons: dict[K, TButton] = {}
    for value, text, test_id in choices:
        b = TButton(text=text, test_id=test_id, **kw)
        b.bind(on_release=lambda _w, v=value: on_pick(v))
        into.add_widget(b)
        buttons[value] = b
    return buttons


def weigh_by_text(buttons: Iterable[TButton], least: float = BUTTON_H) -> None:
    """Buttons sharing a row by the width their words need on one line (at least `least`): a long word (어려움,
    Normal) stays whole while a digit's button gives way. Their size_hint_x becomes that width in pixels, so give
    the row's other stretching widgets theirs in pixels too."""
    from kivy.core.text import Label as CoreLabel

    for b in buttons:
        words = CoreLabel(font_size=b.font_size, font_name=b.font_name, bold=b.bold).get_extents(b.text)[0]
        b.size_hint_x = max(least, words + dp(24))  # (the button's text box is 16 dp narrower than the button)


def select(buttons: Mapping[K, TButton], value: K) -> None:
    """The button of `value` shown chosen, the others not."""
    for v, b in buttons.items():
        b.selected = v == value


class Seats:
    """The player count's row and the seats' name fields of a set-up form (`prefix`: the test ids' start,
    `<prefix>_count_<n>`, `<prefix>_name_<i>`; `hint(n)`: seat n's default name, n from 1)."""

    def __init__(self, into: Widget, label: Widget | None, players: tuple[int, int], prefix: str,
                 on_count: Callable[[int], Any], hint: Callable[[int], str] = str, height: float = 64) -> None:
        lo, self.most = players  # the one player range: content's game.yaml
        self.prefix, self.hint = prefix, hint  # (a kept form's: `hint` reads its form's screen as it is then)
        self.counts = options(row(into, label, height), [(n, str(n), f"{prefix}_count_{n}")
                                                         for n in range(lo, self.most + 1)], on_count)
        self.fields: list[Any] = []

    def add_names(self, into: Widget, cols: int) -> list[Any]:
        """A name field per seat, `cols` to a row, added to `into`."""
        grid, self.fields = name_fields(self.most, cols, self.hint, f"{self.prefix}_name_")
        into.add_widget(grid)
        return self.fields

    def draw(self, count: int, guests: int | None = None, out: float = 0.3,
             tablet_hint: Callable[[int], str] | None = None) -> None:
        """`count` seats in play, the first `guests` of them the guests' (the rest tablet seats, hinted with
        `tablet_hint`); a field past `count` at opacity `out`."""
        guests = count if guests is None else guests
        select(self.counts, count)
        for i, field in enumerate(self.fields):
            field.disabled = i >= guests
            field.opacity = 1 if i < guests else 0.3 if i < count else out
            if tablet_hint is not None:
                field.hint_text = tablet_hint(i + 1) if guests <= i < count else self.hint(i + 1)

    def names(self, count: int) -> list[str]:
        """The first `count` seats' names, a blank one its default."""
        return [self.fields[i].text.strip() or self.hint(i + 1) for i in range(count)]

    def clear(self) -> None:
        """No typed name left, nor its undo history (kiosk/widgets/kept_form.py)."""
        clear_fields(self.fields, [f"{self.prefix}_name_{i}" for i in range(len(self.fields))])
