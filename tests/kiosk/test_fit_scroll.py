"""kiosk/widgets/fit_scroll.py: CapScroll keeps a panel inside the column it shares, whatever order the column's
children come back in and whichever sibling changes its height."""

from __future__ import annotations

from typing import Any


def _column(driver: Any) -> tuple[Any, Any, Any]:
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.widget import Widget

    from kiosk.widgets.fit_scroll import CapScroll

    column = BoxLayout(orientation="vertical", spacing=10, size_hint=(None, None), size=(400, 300), pos=(0, 0))
    content = BoxLayout(orientation="vertical", size_hint_y=None)
    content.add_widget(Widget(size_hint_y=None, height=1000))  # far taller than the column
    cap = CapScroll(form=content)
    board = Widget()  # takes the rest of the column
    column.add_widget(cap)
    column.add_widget(board)
    driver.pump(2)
    return column, cap, board


def _inside(column: Any, cap: Any) -> bool:
    return cap.top <= column.top + 0.5 and cap.y >= column.y - 0.5


def test_a_panel_readded_before_the_rest_of_its_column_still_fits(driver) -> None:
    """The kept widgets' refresh (kiosk/widgets/keep.py) clears a column and adds its children again in order: the
    panel first, then the board. The panel's cap must count the board's spacing it did not see when it came back;
    it stuck out 10 px over the column's top (Clue's tablet lines over the status line at a resume)."""
    column, cap, board = _column(driver)
    assert _inside(column, cap) and cap.height == 290
    column.clear_widgets()
    column.add_widget(cap)
    column.add_widget(board)
    driver.pump(2)
    assert cap.height == 290 and _inside(column, cap), (cap.height, cap.top, column.top)


def test_a_fixed_sibling_that_grows_takes_its_room_from_the_panel(driver) -> None:
    from kivy.uix.widget import Widget

    column, cap, board = _column(driver)
    line = Widget(size_hint_y=None, height=20)
    column.add_widget(line)
    driver.pump(2)
    assert cap.height == 300 - 2 * 10 - 20 and _inside(column, cap)
    line.height = 80  # a line whose text grew after it was added
    driver.pump(2)
    assert cap.height == 300 - 2 * 10 - 80 and _inside(column, cap), cap.height
    column.remove_widget(line)
    line.height = 200  # no longer a sibling: no effect
    driver.pump(2)
    assert cap.height == 290


def test_a_short_panel_keeps_its_own_height(driver) -> None:
    column, cap, board = _column(driver)
    cap.children[0].children[0].height = 120
    driver.pump(2)
    assert cap.height == 120 and not cap.do_scroll_y
