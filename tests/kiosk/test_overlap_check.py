"""The sweep's check for texts drawn over texts (kiosk.testing.overlapping_texts) catches a stacked layout."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


def test_the_sweep_sees_two_labels_drawn_over_each_other(driver: Any) -> None:
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    screen = driver.app.sm.current_screen
    assert driver.overlapping_texts() == []
    layer = FloatLayout()
    for text, dy in (("가나다라마바사", 0), ("아자차카타파하", 8)):  # 8 px apart: the second on the first
        layer.add_widget(Label(text=text, font_size=28, size_hint=(None, None), size=(400, 60), pos=(200, 300 + dy)))
    screen.add_widget(layer)
    try:
        driver.pump(3)
        pair = [f for f in driver.overlapping_texts(settle_frames=2) if "가나다라마바사" in f and "아자차카타파하" in f]
        assert len(pair) == 1
        layer.children[0].y = 420  # moved apart: that pair is no longer reported
        driver.pump(2)
        assert not [f for f in driver.overlapping_texts(settle_frames=2) if "가나다라마바사" in f and "아자차카타파하" in f]
    finally:
        screen.remove_widget(layer)
