"""A numeric keypad (PIN entry) as a widget: digits, erase, OK."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget
from kivy.weakmethod import WeakMethod

from kiosk.widgets.pieces import Pieces
from kiosk.widgets.theme import LEAD, SMALL, TButton

KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "back", "0", "ok")
LATER_A_FRAME = 6  # `later`: keys made per frame after the first (twelve made with a dialog were ~12 ms of its frame)


class Keypad(GridLayout):
    entered = StringProperty("")

    def __init__(self, ok_text: str, erase_text: str, on_ok: Callable[[str], None], prefix: str = "kp",
                 max_len: int = 8, later: bool = False, **kw: Any) -> None:
        """`later`: the keys in the frames after this one, each in the place kept for it (nothing moves)."""
        kw.setdefault("cols", 3)
        kw.setdefault("spacing", dp(10))
        super().__init__(**kw)
        self.on_ok, self.max_len = WeakMethod(on_ok), max_len  # a dialog's method held weakly: it holds the pad
        self.texts, self.prefix = {"back": erase_text, "ok": ok_text}, prefix
        self.pieces = Pieces()
        if not later:
            self._keys(0, len(KEYS))
            return
        for _ in KEYS:
            self.add_widget(Widget())  # its key's place
        for i in range(0, len(KEYS), LATER_A_FRAME):
            self.pieces.add(partial(self._keys, i, i + LATER_A_FRAME))

    def _keys(self, start: int, end: int) -> None:
        for i, key in enumerate(KEYS[start:end], start):
            b = TButton(text=self.texts.get(key, key), kind="primary" if key == "ok" else "normal",
                        test_id=f"{self.prefix}_{key}", font_size=LEAD if key.isdigit() else SMALL)
            b.bind(on_release=lambda _w, key=key: self.press(key))
            if len(self.children) == len(KEYS):  # in the place kept for it (children are in reverse order)
                self.remove_widget(self.children[len(KEYS) - 1 - i])
                self.add_widget(b, index=len(KEYS) - 1 - i)
            else:
                self.add_widget(b)

    def press(self, key: str) -> None:
        if key == "back":
            self.entered = self.entered[:-1]
        elif key == "ok":
            value, self.entered = self.entered, ""
            fn = self.on_ok()
            if fn is not None:
                fn(value)
        elif len(self.entered) < self.max_len:
            self.entered += key
