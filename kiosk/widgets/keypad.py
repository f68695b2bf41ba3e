"""A numeric keypad (PIN entry) as a widget: digits, erase, OK."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.weakmethod import WeakMethod

from kiosk.widgets.theme import LEAD, SMALL, TButton


class Keypad(GridLayout):
    entered = StringProperty("")

    def __init__(self, ok_text: str, erase_text: str, on_ok: Callable[[str], None], prefix: str = "kp",
                 max_len: int = 8, **kw: Any) -> None:
        kw.setdefault("cols", 3)
        kw.setdefault("spacing", dp(10))
        super().__init__(**kw)
        self.on_ok, self.max_len = WeakMethod(on_ok), max_len  # a dialog's method held weakly: it holds the pad
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "back", "0", "ok"):
            text = erase_text if key == "back" else ok_text if key == "ok" else key
            b = TButton(text=text, kind="primary" if key == "ok" else "normal", test_id=f"{prefix}_{key}",
                        font_size=LEAD if key.isdigit() else SMALL)
            b.bind(on_release=lambda _w, key=key: self.press(key))
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
