"""The sweep's check for controls under a scrolling list's bar (kiosk.layout_check.under_scroll_bars): Kivy draws a
ScrollView's bar over its content's right edge (bottom edge for a horizontal bar), so a row that reaches that edge has
the bar over its buttons wherever the list is scrolled to."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

pytestmark = pytest.mark.ui


def _list(rows: int, pad_right: float, bar_width: float = 10) -> Any:
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.scrollview import ScrollView

    scroll = ScrollView(do_scroll_x=False, bar_width=bar_width, size_hint=(None, None), size=(400, 300),
                        pos=(200, 200))
    box = BoxLayout(orientation="vertical", size_hint_y=None, height=rows * 80, padding=(0, 0, pad_right, 0))
    for i in range(rows):
        button = Button(text=f"{i}")
        button.test_id = f"row_{i}"
        box.add_widget(button)
    scroll.add_widget(box)
    return scroll


@contextmanager
def _shown(driver: Any, widget: Any) -> Iterator[None]:
    """`widget` on the current screen for the block's time."""
    from kivy.uix.floatlayout import FloatLayout

    layer = FloatLayout()
    layer.add_widget(widget)
    screen = driver.app.sm.current_screen
    screen.add_widget(layer)
    driver.pump(3)
    try:
        yield
    finally:
        screen.remove_widget(layer)


def test_buttons_that_reach_a_scrolling_lists_right_edge_are_under_its_bar(driver: Any) -> None:
    """Ten rows of 80 px in a 300 px view: it scrolls, its 10 px bar is drawn over the buttons' right edges; every
    row counts, scrolled into view or not. With 14 px of padding on the right the buttons end left of the bar."""
    with _shown(driver, _list(10, pad_right=0)):
        found = driver.under_scroll_bars()
        assert sorted(found) == sorted(f"'row_{i}' under the scroll bar of ScrollView (right edge)" for i in range(10))
        assert found[0] in driver.covered_targets()  # the sweep's covered controls include it
    with _shown(driver, _list(10, pad_right=14)):
        assert driver.under_scroll_bars() == []


def test_a_list_that_does_not_scroll_or_shows_no_bar_is_not_reported(driver: Any) -> None:
    """Three rows fit the view: no bar is drawn, the buttons may reach the edge. A bar of no width or colour neither."""
    unseen = _list(10, pad_right=0)
    unseen.bar_color = unseen.bar_inactive_color = (0, 0, 0, 0)
    for scroll in (_list(3, pad_right=0), _list(10, pad_right=0, bar_width=0), unseen):
        with _shown(driver, scroll):
            assert driver.under_scroll_bars() == []


def test_a_horizontal_list_keeps_its_controls_bottom_edge_clear(driver: Any) -> None:
    """A row that scrolls sideways: its bar runs along the bottom, over the buttons' bottom edges."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.scrollview import ScrollView

    for pad_bottom, faults in ((0, 8), (14, 0)):
        scroll = ScrollView(do_scroll_y=False, bar_width=10, size_hint=(None, None), size=(400, 100), pos=(200, 200))
        row = BoxLayout(size_hint_x=None, width=8 * 120, padding=(0, 0, 0, pad_bottom))
        for i in range(8):
            row.add_widget(Button(text=f"{i}"))
        scroll.add_widget(row)
        with _shown(driver, scroll):
            found = driver.under_scroll_bars()
            assert len(found) == faults and all("(bottom edge)" in f for f in found)


def test_a_drawn_row_cell_to_tap_under_the_bar_is_reported(driver: Any) -> None:
    """A notebook row's cells are drawn on one canvas (kiosk/widgets/drawn.py): its last cell, to tap, is under the
    bar when the row reaches the list's right edge (its first, a name, takes no tap)."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.scrollview import ScrollView

    from kiosk.widgets.drawn import Cell, DrawnRow

    for pad_right, faults in ((0, 10), (14, 0)):
        scroll = ScrollView(do_scroll_x=False, bar_width=10, size_hint=(None, None), size=(400, 300), pos=(200, 200))
        box = BoxLayout(orientation="vertical", size_hint_y=None, height=10 * 80, padding=(0, 0, pad_right, 0))
        for i in range(10):
            box.add_widget(DrawnRow([Cell(f"{i}"), Cell("O", test_id=f"cell_{i}_1", on_tap=lambda: None)]))
        scroll.add_widget(box)
        with _shown(driver, scroll):
            found = driver.under_scroll_bars()
            assert sorted(found) == [f"'cell_{i}_1' under the scroll bar of ScrollView (right edge)"
                                     for i in range(faults)]


def test_a_fit_scroll_keeps_its_form_clear_of_its_bar_only_while_it_scrolls(driver: Any) -> None:
    """A FitScroll (set-up forms, the staff menu, a game's table on a short window) narrows its form by BAR_CLEAR
    while it scrolls, so the form's buttons end left of the bar; where the form fits it has the whole width."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button

    from kiosk.widgets.fit_scroll import FitScroll
    from kiosk.widgets.theme import BAR_CLEAR

    form = BoxLayout(orientation="vertical", size_hint_y=None)
    form.bind(minimum_height=form.setter("height"))
    for i in range(6):
        form.add_widget(Button(text=f"{i}", size_hint_y=None, height=80))
    scroll = FitScroll(form, size_hint=(None, None), size=(400, 300), pos=(200, 200))
    with _shown(driver, scroll):
        assert scroll.do_scroll_y and form.width == 400 - BAR_CLEAR
        assert driver.under_scroll_bars() == []
        scroll.height = 500  # the window grew: it fits, no bar
        driver.pump(2)
        assert not scroll.do_scroll_y and form.width == 400


def test_a_cafe_with_many_watson_holmes_cases_gets_a_case_list_clear_of_its_bar(driver: Any,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """W&H's set-up lists its cases two a row and scrolls past three rows (a café's own boxes add cases): with eight
    the list scrolls and the right column's buttons must end left of its bar."""
    from dataclasses import replace

    from kivy.uix.scrollview import ScrollView

    from kiosk.games.watson_holmes.host import WatsonHolmesHost
    from kiosk.layout_check import ancestors

    real = WatsonHolmesHost.cases

    def many(self: Any) -> list[Any]:
        cases = real(self)
        return cases + [replace(c, id=f"{c.id}_more{i}", number=c.number + 10 * i) for i in (1, 2) for c in cases]

    monkeypatch.setattr(WatsonHolmesHost, "cases", many)
    driver.app.host("watson_holmes")
    driver.wait_screen("host")  # its sweep checks the bar
    buttons = [w for w in driver.walk() if getattr(w, "test_id", "").startswith("wh_case_")]
    assert len(buttons) >= 7
    scroll = next(w for w in ancestors(buttons[0]) if isinstance(w, ScrollView))
    assert scroll.do_scroll_y and scroll.viewport_size[1] > scroll.height  # it scrolls: its bar shows
    assert driver.under_scroll_bars() == []
    driver.screenshot("wh_setup_many_cases")
