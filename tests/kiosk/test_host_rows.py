"""The game screen's rows under the host bar: the staff-call sign and the results' buttons take no room while they
are empty (not even the column's spacing: 24 px of every game screen went to two invisible rows), and show in
their places, a gap from their neighbours, when they have something to show."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kiosk.conftest import spyfall_table

pytestmark = pytest.mark.ui


def _window_y(w: Any) -> tuple[float, float]:
    """The widget's bottom and top in window coordinates."""
    y = w.to_window(w.x, w.y)[1]
    return y, y + w.height


def test_empty_rows_take_no_room_and_shown_ones_their_gap(driver: Any, monkeypatch: Any) -> None:
    from kivy.metrics import dp

    from kiosk.staff_call import calls_of

    app = driver.app
    spyfall_table(driver)
    screen = app.get_screen("host")
    ids = screen.ids
    column = ids.body.parent
    bar, sign, body, results = column.children[::-1]
    assert (sign, body, results) == (ids.call_sign, ids.body, ids.results)
    gap, pad = column.spacing, column.padding[3]
    calls = calls_of(app)
    calls.open.clear()  # (a call left by a test before: the sign down)
    calls.show()
    driver.pump(3)
    assert sign.height == 0 and results.height == 0
    # the body runs from one gap under the bar to the column's padding: the two empty rows take nothing
    assert body.top == pytest.approx(bar.y - gap) and body.y == pytest.approx(column.y + pad)
    assert body.height == pytest.approx(column.height - 2 * pad - bar.height - gap)
    driver.screenshot("host_rows_empty")

    calls.open.append(object())  # a call waiting: the sign shows between the bar and the game, a gap each side
    calls.show()
    driver.pump(3)
    assert sign.height >= dp(80) and sign.opacity == 1
    assert sign.top == pytest.approx(bar.y - gap) and body.top == pytest.approx(sign.y - gap)
    assert body.y == pytest.approx(column.y + pad)
    driver.screenshot("host_rows_sign")
    calls.open.clear()
    calls.show()

    # the game has a result (as far as the host's results row can tell; the host's half-second tick agrees):
    # the row shows under the game, a gap above it
    monkeypatch.setattr(type(app.table), "outcome", property(lambda _t: "done"))
    screen._sync_results()
    driver.pump(3)
    assert results.height == dp(64) and results.opacity == 1
    assert body.top == pytest.approx(bar.y - gap)
    assert body.y == pytest.approx(results.top + gap) and results.y == pytest.approx(column.y + pad)
    monkeypatch.undo()
    screen._sync_results()  # no result: the row goes again, and its room with it
    driver.pump(3)
    assert results.height == 0 and body.y == pytest.approx(column.y + pad)
    assert _window_y(body)[1] == pytest.approx(_window_y(bar)[0] - gap)
