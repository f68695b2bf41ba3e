"""A finger-sized button as wide as its box, put into a box (a kept `Fill` or any widget: kiosk/widgets/keep.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import dp

from kiosk.widgets.keep import put
from kiosk.widgets.theme import TButton


def button(into: Any, text: str, test_id: str, on_press: Callable[[], Any], kind: str = "normal",
           height: float = 64, selected: bool = False, disabled: bool = False, why: str = "", key: str = "",
           **props: Any) -> TButton:
    """`height` in dp (a `size_hint_y` in `props` overrides it); `why`: shown while it is greyed; `key`: the kept
    button's own key in its Fill (else its place)."""
    props = {"size_hint_y": None, "height": dp(height), **props}
    return put(into, TButton, key, on_press, text=text, test_id=test_id, kind=kind, selected=selected,
               disabled=disabled, why=why, **props)
