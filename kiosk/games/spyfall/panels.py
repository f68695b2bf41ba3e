"""Parts of the Spyfall DC table screen: player buttons, the searchable location list, the score table,
a count row for pointing votes, and the private card shown by pass-the-tablet."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from engines.spyfall.views import Me, Place
from kiosk.hangul import matches_search
from kiosk.widgets.buttons import button
from kiosk.widgets.handover import secret_text
from kiosk.widgets.keep import box_in, put
from kiosk.widgets.keyboard import lines_now
from kiosk.widgets.pieces import Pieces
from kiosk.widgets.theme import ACCENT, BODY, HEADLINE, LEAD, MUTED, SMALL, TEXT, FitGrid, TButton, TLabel

Tr = Callable[..., str]


def title(into: Any, text: str, size: str = LEAD, color: Any = ACCENT) -> TLabel:
    """A heading added to `into` (a kept `Fill` or any widget; kiosk.widgets.keep.put)."""
    return put(into, TLabel, text=text, font_size=size, color=color, bold=True)


def note(into: Any, text: str, size: str = SMALL) -> TLabel:
    return put(into, TLabel, text=text, font_size=size, color=MUTED)


def player_grid(into: Any, names: Sequence[str], on_pick: Callable[[int], object], prefix: str = "spy_pick",
                seats: Iterable[int] | None = None, selected: Iterable[int] = (), cols: int = 4) -> None:
    """One finger-sized button per player (only `seats` if given)."""
    chosen = set(selected)
    with box_in(into, FitGrid, prefix, cols=cols, spacing=dp(10)) as grid:
        for seat in (range(len(names)) if seats is None else seats):
            button(grid, names[seat], f"{prefix}_{seat}", partial(on_pick, seat), selected=seat in chosen)


class HarleyIcon(Widget):
    """Our own drawing of the Harley Quinn mark (red and black diamonds), shown at the session start."""

    test_id = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("size_hint", (None, None))
        kw.setdefault("size", (dp(120), dp(72)))
        super().__init__(**kw)
        self.bind(pos=self._draw, size=self._draw)
        self._draw()

    def _draw(self, *_: Any) -> None:
        from kivy.graphics import Color, Mesh

        self.canvas.clear()
        w, h = self.width / 2, self.height
        with self.canvas:
            for i, colour in enumerate(((0.85, 0.12, 0.16, 1), (0.08, 0.08, 0.08, 1))):
                x0 = self.x + i * w
                cx, cy = x0 + w / 2, self.y + h / 2
                Color(*colour)
                pts = [cx, self.top, cx + w / 2, cy, cx, self.y, x0, cy]
                Mesh(vertices=[v for k in range(4) for v in (pts[2 * k], pts[2 * k + 1], 0, 0)],
                     indices=[0, 1, 2, 3], mode="triangle_fan")


FIRST, LATER = 4, 4  # a location list's rows made at once, then per frame (a row ~1 ms of UI-thread CPU here with
# its text drawn; 12 at once made the list's frame 20-29 ms in bench/frames.py): they fill in below, nothing moves


class LocationList(BoxLayout):
    """The location list, searchable in both languages, each location shown in the guests' language only (never
    Korean and English in one line); rows are buttons when `on_pick` is given. Made without locations (`show`
    gives them later) it is the list's frame made ahead: its field and heading, no rows."""

    query = StringProperty("")
    on_pick = ObjectProperty(None, allownone=True)

    def __init__(self, locations: Sequence[Place], lang: str, tr: Tr,
                 on_pick: Callable[[str], object] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.locations = list(locations)
        self.lang = lang
        self.on_pick = on_pick
        self.pieces = Pieces()  # the rows past the first few, made in the frames after
        # set here, not in kv: a kv rule's test_id on a TextInput makes it a property of the class, which hides the
        # test_id attribute of every text field made before (the set-up form's, made before this list is made ahead)
        self.ids.search.test_id = "spy_loc_search"
        self.ids.search.hint_text = tr("spyfall.locations.search")
        lines_now(self.ids.search)
        self.ids.heading.text = tr("spyfall.locations.title")
        self.fill()

    def show(self, locations: Sequence[Place]) -> LocationList:
        """These locations' rows (the first few now, the rest in the frames after)."""
        self.locations = list(locations)
        self.fill()
        return self

    def label(self, loc: Place) -> str:
        return loc.en if self.lang == "en" else loc.ko

    def matches(self, loc: Place) -> bool:
        hay = [loc.ko, loc.en, *loc.aliases]
        return any(matches_search(self.query, h) for h in hay)  # 초성 (ㅂㅌㅋ) and half-typed syllables too

    def on_query(self, *_: Any) -> None:
        if not hasattr(self, "_refill"):  # rows rebuilt in the frame after a change: a typed letter shows first
            self._refill = Clock.create_trigger(lambda _dt: self.fill(), 0)
        self._refill()

    def fill(self) -> None:
        """The matching rows: `FIRST` now, the rest `LATER` a frame, appended below (nothing on show moves)."""
        rows = self.ids.rows
        rows.clear_widgets()
        self.pieces.cancel()
        found = [loc for loc in self.locations if self.matches(loc)]
        self._rows(found[:FIRST])
        for i in range(FIRST, len(found), LATER):
            self.pieces.add(partial(self._rows, found[i:i + LATER]))

    def _rows(self, locations: Sequence[Place]) -> None:
        rows = self.ids.rows
        for loc in locations:
            if self.on_pick is not None:
                button(rows, self.label(loc), f"spy_loc_{loc.id}", partial(self.on_pick, loc.id), height=64)
            else:
                rows.add_widget(TLabel(text=self.label(loc), font_size=SMALL, color=TEXT))

    def shown(self) -> list[str]:
        return [getattr(w, "test_id", "") or w.text for w in self.ids.rows.children][::-1]


class ScoreTable(GridLayout):
    """Name · this round · total, one row per player."""

    def __init__(self, names: Sequence[str], round_points: Sequence[int], totals: Sequence[int], tr: Tr,
                 **kw: Any) -> None:
        kw.setdefault("cols", 3)
        super().__init__(spacing=dp(6), size_hint_y=None, **kw)
        self.bind(minimum_height=self.setter("height"))
        for head in ("spyfall.score.name", "spyfall.score.round", "spyfall.score.total"):
            self.add_widget(_cell(tr(head), MUTED))
        best = max(totals) if totals else 0
        for seat, name in enumerate(names):
            colour = ACCENT if totals and totals[seat] == best and best > 0 else TEXT
            pts = round_points[seat] if seat < len(round_points) else 0
            self.add_widget(_cell(name, colour))
            self.add_widget(_cell(f"+{pts}" if pts else "0", colour))
            self.add_widget(_cell(str(totals[seat]), colour))


def _cell(text: str, colour: Any) -> Label:
    lbl = Label(text=text, font_size=BODY, color=colour, size_hint_y=None, height=dp(40), halign="left",
                valign="middle", shorten=True)
    lbl.bind(size=lambda w, s: setattr(w, "text_size", s))
    return lbl


class CountRow(BoxLayout):
    """name  [-]  n  [+]  for entering fingers per player."""

    def __init__(self, name: str, seat: int, on_change: Callable[[int, int], None], **kw: Any) -> None:
        super().__init__(orientation="horizontal", size_hint_y=None, height=dp(64), spacing=dp(10), **kw)
        self.seat = seat
        self.count = 0
        self.on_change = on_change
        self.name_label = Label(text=name, font_size=BODY, color=TEXT, halign="left", valign="middle",
                                shorten=True)
        self.name_label.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.add_widget(self.name_label)
        button(self, "-", f"spy_minus_{seat}", lambda: self.step(-1))
        self.value = Label(text="0", font_size=LEAD, bold=True, color=ACCENT, size_hint_x=None, width=dp(64))
        self.add_widget(self.value)
        button(self, "+", f"spy_plus_{seat}", lambda: self.step(1))
        for w in self.children:
            if isinstance(w, TButton):
                w.size_hint_x = None
                w.width = dp(84)

    def step(self, delta: int) -> None:
        self.count = max(0, self.count + delta)
        self.value.text = str(self.count)
        self.on_change(self.seat, self.count)


def private_card(me: Me | None, tr: Tr, lang: str, prank: bool) -> Widget:
    """What only this seat may see: its card (and ability card), from its own view."""
    box = BoxLayout(orientation="vertical", spacing=dp(12))
    card = me.card if me is not None else None
    if card is not None and card.kind == "joker":
        box.add_widget(secret_text(tr("spyfall.card.joker"), HEADLINE))
        note(box, tr("spyfall.card.joker_hint"), BODY)
        if prank:
            note(box, tr("spyfall.card.prank_hint"), BODY)
    elif card is not None:
        name = card.en if lang == "en" else card.ko
        note(box, tr("spyfall.card.location"), BODY)
        box.add_widget(secret_text(name, HEADLINE))
        if card.harley:
            title(box, tr("spyfall.card.harley"), LEAD)
    ability = me.ability if me is not None else None
    if ability is not None:
        name = ability.en if lang == "en" else ability.ko
        text = ability.text_en if lang == "en" else ability.text_ko
        title(box, tr("spyfall.card.ability", name=name), BODY, TEXT)
        note(box, text, SMALL)
    return box


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
