"""A game's set-up form made once and reset for the game's next screen, instead of made again in the frame of
the tap that opens the game.

Making a set-up form (its kv rules, a dozen buttons, a text field per seat at 5-10 ms each here) took 20-50 ms
of UI-thread CPU in that frame. A game's screen takes its form from its game's `Kept`: the last screen's form,
reset, once that screen has closed and if it was made for the same content (and, when its texts are not bound
to the language, the same language); else a new one. The screen lets the form go when it closes (`let_go`), so
a kept form never keeps a closed screen alive. A reset puts every choice back to its default and clears what
the last table typed, undo history included (`clear_fields`): nothing of the last table is kept.
The warm-up (kiosk/warm_up.py) builds and closes each game's screen once, so the first opening takes a form too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar


class KeptForm:
    """A set-up form kept between the screens of its game (a mixin for the form's widget class). `host` is the
    screen showing it, None while it is kept; `made_for` what it was made for (compared, never hashed)."""

    host: Any
    made_for: Any = None

    def reset(self, host: Any) -> None:
        """Ready for the new screen `host` (off every screen, let go): every choice its default, every typed text
        gone."""
        raise NotImplementedError

    def let_go(self) -> None:
        """Its screen closed: off that screen, and holding no reference to it."""
        parent = getattr(self, "parent", None)
        if parent is not None:
            parent.remove_widget(self)
        self.host = None


F = TypeVar("F", bound=KeptForm)


class Kept(Generic[F]):
    """The one form kept for a game's next screen."""

    def __init__(self) -> None:
        self.form: F | None = None

    def take(self, host: Any, made_for: Any, make: Callable[[], F]) -> F:
        """The kept form, reset for `host`, if no screen shows it and it was made for `made_for`; else `make()`."""
        form = self.form
        if form is not None and form.host is None and form.made_for == made_for:
            form.let_go()  # off any screen still holding it
            form.reset(host)
            return form
        form = make()
        form.made_for = made_for
        self.form = form
        return form


def name_fields(count: int, cols: int, hint: Callable[[int], str], prefix: str) -> tuple[Any, list[Any]]:
    """A grid of `count` name fields (two rows of finger-sized fields), hinted with each seat's default name:
    (the grid, the fields), the fields' test ids `prefix` + the seat."""
    from kivy.metrics import dp
    from kivy.uix.gridlayout import GridLayout
    from kivy.uix.textinput import TextInput

    from kiosk.widgets.theme import BODY

    grid = GridLayout(cols=cols, spacing=dp(8), size_hint_y=None, height=dp(64) * 2 + dp(8))
    fields = []
    for i in range(count):
        field = TextInput(multiline=False, font_size=BODY, hint_text=hint(i + 1), padding=(dp(12), dp(16)))
        field.test_id = f"{prefix}{i}"
        fields.append(field)
        grid.add_widget(field)
    return grid, fields


def clear_fields(fields: Iterable[Any], test_ids: Iterable[str] = ()) -> None:
    """Text fields as new: no focus, no text, no undo history (the last table's names cannot come back)."""
    ids = list(test_ids)
    for i, field in enumerate(fields):
        field.focus = False
        field.text = ""
        field.reset_undo()
        if i < len(ids):
            # set again: a kv rule giving a TextInput a test_id made it a property of the class since, which hides
            # the plain attribute set when the field was made
            field.test_id = ids[i]
