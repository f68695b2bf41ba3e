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


def test_text_too_big_for_its_box_is_reported_unless_a_parent_hides_it(driver: Any) -> None:
    """A label whose text overflows its box is a fault while it is drawn; inside a hidden parent (opacity 0: the mic
    button of a voice bar still loading) nobody sees it, and it is not reported."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    screen = driver.app.sm.current_screen
    layer = FloatLayout()
    holder = BoxLayout(size_hint=(None, None), size=(56, 60), pos=(200, 300))
    holder.add_widget(Label(text="누르고 말하기 누르고 말하기", font_size=28))
    layer.add_widget(holder)
    screen.add_widget(layer)
    try:
        driver.pump(3)
        assert [f for f in driver.overflowing_labels() if "누르고 말하기" in f]
        holder.opacity = 0
        driver.pump(2)
        assert not [f for f in driver.overflowing_labels() if "누르고 말하기" in f]
    finally:
        screen.remove_widget(layer)


def test_a_drawn_row_to_tap_is_a_target_the_sweep_sees_covered(driver: Any) -> None:
    """A row whose drawn cells take taps (kiosk/widgets/drawn.py, marked `takes_touch`: kiosk/widgets/marks.py) is
    a touch target like a button: a button drawn over its middle is reported, moved off it no longer."""
    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout

    from kiosk.widgets.drawn import Cell, DrawnRow

    screen = driver.app.sm.current_screen
    layer = FloatLayout()
    layer.add_widget(DrawnRow([Cell("가", on_tap=lambda: None)], size_hint=(None, None), size=(300, 80),
                              pos=(200, 300)))
    lid = Button(size_hint=(None, None), size=(120, 120), pos=(290, 280))
    lid.test_id = "lid"
    layer.add_widget(lid)
    screen.add_widget(layer)
    try:
        driver.pump(3)
        assert "'DrawnRow' under lid" in driver.covered_targets()
        lid.x = 600
        driver.pump(2)
        assert "'DrawnRow' under lid" not in driver.covered_targets()
    finally:
        screen.remove_widget(layer)


def test_a_text_under_the_host_bar_or_a_panel_is_reported(driver: Any) -> None:
    """A text a bar or a panel is drawn over (a layout pushed under the host bar: the centres of its controls can
    still be clear of it) is a fault; a text inside the panel, or beside it, is not."""
    from kivy.graphics import Color, Rectangle
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label
    from kivy.uix.widget import Widget

    screen = driver.app.sm.current_screen
    layer = FloatLayout()
    words = Label(text="가나다라마바사", font_size=28, size_hint=(None, None), size=(400, 60), pos=(200, 300))
    panel = Widget(size_hint=(None, None), size=(300, 40), pos=(250, 310))
    with panel.canvas.before:
        Color(0.1, 0.1, 0.1, 1)
        Rectangle(pos=panel.pos, size=panel.size)
    own = Label(text="아자차카", font_size=20, size_hint=(None, None), size=(200, 30), pos=(260, 315))
    panel.add_widget(own)
    layer.add_widget(words)
    layer.add_widget(panel)
    screen.add_widget(layer)
    try:
        driver.pump(3)
        found = [f for f in driver.covered_texts() if "가나다" in f or "아자차카" in f]
        assert found == ["text '가나다라마바사' under Widget"], found
        panel.x = 700  # beside the words, not over them (its rectangle is drawn where it was: only the box counts)
        driver.pump(2)
        assert not [f for f in driver.covered_texts() if "가나다" in f]
    finally:
        screen.remove_widget(layer)
