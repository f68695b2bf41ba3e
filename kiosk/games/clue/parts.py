"""Small widgets and helpers shared by the Clue host and the notebook."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from engines.clue.content import CardSet
from kiosk.widgets.keep import box_in, put
from kiosk.widgets.theme import MUTED, PANEL, SMALL, TEXT, TButton

SUSPECT_RGBA = {
    "red": (0.80, 0.25, 0.25, 1), "yellow": (0.90, 0.78, 0.25, 1), "white": (0.92, 0.92, 0.90, 1),
    "green": (0.30, 0.65, 0.35, 1), "blue": (0.30, 0.45, 0.85, 1), "purple": (0.60, 0.35, 0.70, 1),
}


class ClueTitle(Label):
    pass


class ClueText(Label):
    pass


class FitBox(BoxLayout):
    """A vertical box as tall as its children (give it size_hint_y=None): the action panel, the board under it."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(minimum_height=self.setter("height"))


class ClueCell(Label):
    """A coloured cell: a player's token colour beside their row."""

    bg = ColorProperty(PANEL)


class PlayerRow(BoxLayout):
    """A player's row on the table: their token's colour; name, where they are and their cards or "out"; their
    notebook button. Kept between redraws: a move or a wrong accusation changes it in place (kiosk/widgets/keep.py;
    made again, its four widgets cost 5-7 ms of UI-thread CPU here, with the text drawn anew)."""

    colour = ColorProperty(MUTED)
    text = StringProperty("")
    out = BooleanProperty(False)
    KEEP_IN_PLACE = {"colour": (), "text": (), "out": ()}

    def __init__(self, seat: int, nb_text: str, notebook: Callable[[int], Any], **kw: Any) -> None:
        super().__init__(size_hint_y=None, height=dp(64), spacing=dp(8), **kw)
        self.cell = ClueCell(text="", bg=self.colour, size_hint_x=None, width=dp(16))
        self.label = ClueText(text=self.text, font_size=SMALL, size_hint_y=1, color=MUTED if self.out else TEXT)
        nb = TButton(text=nb_text, size_hint_x=None, width=dp(110), test_id=f"clue_notebook_{seat}", font_size=SMALL)
        nb.bind(on_release=lambda _w: notebook(seat))
        for w in (self.cell, self.label, nb):
            self.add_widget(w)
        self.bind(colour=lambda _w, c: setattr(self.cell, "bg", c), text=lambda _w, t: setattr(self.label, "text", t),
                  out=lambda _w, o: setattr(self.label, "color", MUTED if o else TEXT))


def card_name(cards: CardSet, cid: str, lang: str) -> str:
    try:
        return cards.card(cid).name(lang)
    except KeyError:
        return cid


def button_grid(into: Any, items: Sequence[tuple[str, str]], on_pick: Callable[[str], object], cols: int,
                selected: str | Collection[str] = "", prefix: str = "clue_pick", height: float = 64) -> None:
    """A grid of finger-sized buttons added to `into` (a kept Fill or any widget): (id, label) → on_pick(id)."""
    chosen = {selected} if isinstance(selected, str) else set(selected)
    rows = (len(items) + cols - 1) // cols
    with box_in(into, GridLayout, prefix, cols=cols, spacing=dp(8), size_hint_y=None,
                height=rows * dp(height) + (rows - 1) * dp(8)) as grid:
        for cid, text in items:
            put(grid, TButton, "", partial(on_pick, cid), text=text, font_size=SMALL, test_id=f"{prefix}_{cid}",
                selected=cid in chosen)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
