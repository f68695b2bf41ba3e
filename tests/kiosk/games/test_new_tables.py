"""A new game's table is made a part per frame, not all in the frame of the tap that started (or resumed) the game:
W&H's while the case opening plays (off screen), else over the frames after it shows; Clue's player rows and Mr.
Jack's panels in the frames after the first. What is there does not move as the rest comes."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


@pytest.fixture(autouse=True)
def _captions_only(driver: Any) -> Any:
    before = getattr(driver.app, "narrator", None)
    driver.app.narrator = None
    yield
    driver.app.narrator = before


def _host(driver: Any) -> Any:
    return driver.app.get_screen("host").ctx.host


def _tiles(table: Any) -> list[Any]:
    from kiosk.games.watson_holmes.host import WhTile

    return [w for w in table.ids.board.walk(restrict=True) if isinstance(w, WhTile)]


def test_the_table_is_made_while_the_opening_plays(driver: Any) -> None:
    driver.app.host("watson_holmes")
    driver.wait_screen("host")
    driver.tap("wh_start")
    host = _host(driver)
    assert host.opening is not None
    driver.pump(12)
    table = host.table
    assert table is not None and table.parent is None  # made, not shown: the opening plays
    tiles = _tiles(table)
    assert len(tiles) >= 9 and all(t.text for t in tiles) and table.ids.players.children
    assert table.size == host.size  # laid out at the size it is shown at
    for _ in range(3):
        if driver.find("wh_open_begin").disabled:
            driver.tap("wh_open_skip")
    made = host.keep.made
    driver.tap("wh_open_begin")
    assert host.table is table and table.parent.parent is host and host.opening is None
    assert host.keep.made == made  # the tap that begins the game makes no widget of the table
    driver.screenshot("wh_table_made_during_opening")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []


def test_a_resumed_table_fills_in_without_moving(driver: Any) -> None:
    app = driver.app
    app.host("watson_holmes")
    driver.wait_screen("host")
    driver.tap("wh_start")
    app.go("detail")
    driver.wait_screen("detail")
    app.host("watson_holmes")  # the game resumes: no opening, the table at once
    host = _host(driver)
    rows = host._rows(host.case())
    first = _tiles(host.table)
    assert len(first) == len(rows[0])  # this frame: the first row of the board, the status and the action bar
    assert host.table.ids.actions.children and not host.table.ids.players.children
    driver.pump(1)  # laid out and drawn: the first row where it stays
    where = [tuple(t.to_window(*t.pos)) + tuple(t.size) for t in first]
    driver.wait_screen("host")
    driver.pump(len(rows) + 3)
    tiles = _tiles(host.table)
    assert len(tiles) == sum(len(r) for r in rows) + 2 and len(host.table.ids.players.children) > 1
    assert [tuple(t.to_window(*t.pos)) + tuple(t.size) for t in first] == where and tiles[: len(first)] == first
    driver.screenshot("wh_table_resumed")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []


def _where(widgets: list[Any]) -> list[tuple[float, ...]]:
    return [tuple(w.to_window(*w.pos)) + tuple(w.size) for w in widgets]


def test_clue_player_rows_come_one_per_frame_in_their_places(driver: Any) -> None:
    """The start tap's frame shows the title and the places; the actions come in the next frame, then the rows."""
    app = driver.app
    app.host("clue")
    driver.wait_screen("host")
    driver.tap("clue_count_6")
    driver.tap("clue_start", frames=0)
    n = len(app.table.view(None)["players"])
    assert n == 6
    driver.pump(1)  # the start tap's frame
    assert not driver.find_all("clue_notebook_0") and not driver.find_all("clue_roll")
    driver.pump(1)
    assert driver.find_all("clue_roll") and not driver.find_all("clue_notebook_0")
    driver.pump(1)
    assert len(driver.find_all("clue_notebook_0")) == 1 and not driver.find_all("clue_notebook_1")
    driver.pump(1)
    first = [driver.find("clue_notebook_0"), driver.find("clue_roll")]
    where = _where(first)
    driver.pump(n + 2)
    assert all(driver.find_all(f"clue_notebook_{i}") for i in range(n))
    assert _where(first) == where and driver.find("clue_notebook_0") is first[0]


def test_mr_jack_panels_come_after_the_start_frame(driver: Any) -> None:
    app = driver.app
    app.host("mr_jack_ny")
    driver.wait_screen("host")
    driver.tap("mj_start", frames=0)  # the start tap's frame: the status line, empty panels, Jack's hand-over
    table = _host(driver).table
    assert table is not None and not table.ids.center.children and not table.ids.suspects.children
    driver.pump(1)
    where = _where([table.ids.center, table.ids.track, table.ids.suspects])
    driver.pump(5)
    assert table.ids.center.children and table.ids.track.children and table.ids.suspects.children
    assert _where([table.ids.center, table.ids.track, table.ids.suspects]) == where


def test_spyfall_location_list_comes_in_the_frame_after_the_start(driver: Any) -> None:
    from kiosk.games.spyfall.panels import LocationList

    app = driver.app
    app.host("spyfall")
    driver.wait_screen("host")
    driver.tap("spy_start", frames=0)  # the start tap's frame: the dealer's choice, the list's place kept
    side = _host(driver).table.ids.side
    assert driver.find_all("spy_dealer_0") and not any(isinstance(w, LocationList) for w in side.children)
    driver.pump(1)
    where = _where([side, driver.find("spy_dealer_0")])
    driver.pump(3)
    assert any(isinstance(w, LocationList) for w in side.children)
    assert _where([side, driver.find("spy_dealer_0")]) == where
