"""Spyfall's table made a part per frame (kiosk/widgets/pieces.py): the table's frame, its clock and the location list's
frame made while the set-up form shows; in the frames after a start or a resume, the main panel, then the location list a
few rows a frame; nothing on show moves as the rest comes. And the location list in the guests' language only."""

from __future__ import annotations

from typing import Any

import pytest

from engines import find_engine
from tests.kiosk.conftest import start_table

pytestmark = pytest.mark.ui

NAMES = ["지수", "민호", "서연", "도윤", "하준", "유나"]


def _host(driver: Any) -> Any:
    return driver.app.get_screen("host").ctx.host


def _where(widgets: list[Any]) -> list[tuple[float, ...]]:
    return [tuple(w.to_window(*w.pos)) + tuple(w.size) for w in widgets]


def _list(driver: Any) -> Any:
    from kiosk.games.spyfall.panels import LocationList

    return next(w for w in driver.walk() if isinstance(w, LocationList))


def _rows_settle(driver: Any, n: int) -> Any:
    for _ in range(20):
        driver.pump(1)
        if len(_list(driver).ids.rows.children) >= n:
            break
    return _list(driver)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_location_list_names_each_place_in_the_guests_language_only(driver: Any, lang: str) -> None:
    """Never Korean and English in one line (it was "데일리 플래닛 · Daily Planet"); a search still finds a place by its
    name in either language."""
    app = driver.app
    pack = app.library.games["spyfall"]
    app.set_lang(lang)
    try:
        table = start_table(app, "spyfall", find_engine(pack.engine_name).example_configs(pack.pack)[0], 2)
        places = table.view(None)["locations"]
        app.host("spyfall")
        driver.wait_screen("host")
        rows = _rows_settle(driver, len(places)).ids.rows.children[::-1]
        assert [r.text for r in rows] == [p[lang] for p in places]
        other = "ko" if lang == "en" else "en"
        assert not any(p[other] in r.text for r, p in zip(rows, places, strict=True) if p[other] != p[lang])
        driver.screenshot(f"spyfall_locations_{lang}")
        place = places[3]
        driver.fill("spy_loc_search", place[other][:4])  # typed in the other language: found, shown in this one
        rows = _rows_settle(driver, 1).ids.rows.children
        assert place[lang] in [r.text for r in rows] and all(" · " not in r.text for r in rows)
    finally:
        app.set_lang("ko")


def test_a_new_table_comes_in_the_frames_after_the_start_without_moving(driver: Any) -> None:
    """The start tap's frame shows the table made ahead (status line, no panel); the next frame the dealer's buttons;
    then the location list made ahead, a few rows a frame. What shows does not move as the rest comes. Then the deal's
    panel is made ahead, so the dealer's tap makes no widget."""
    app = driver.app
    app.host("spyfall")
    driver.wait_screen("host")
    driver.tap("spy_count_6")
    host = _host(driver)
    driver.pump(4)
    ahead = dict(host.ready)
    assert set(ahead) == {"table", "clock", "list"}
    driver.tap("spy_start", frames=0)
    driver.pump(1)  # the start tap's frame
    assert host.table is ahead["table"] and host.clock is ahead["clock"] and set(host.ready) == {"list"}
    assert host.table.ids.round_label.text and not driver.find_all("spy_dealer_0")
    made = host.keep.made
    driver.pump(1)
    first = [driver.find(f"spy_dealer_{s}") for s in range(6)] + [driver.find("spy_harley_icon")]
    assert host.keep.made > made and not host.table.ids.side.children[0].children  # the list's place: empty
    driver.pump(1)
    where = _where(first)
    places = app.table.view(None)["locations"]
    lst = _list(driver)
    assert lst is ahead["list"] and 0 < len(lst.ids.rows.children) < len(places)
    top = lst.ids.rows.children[-1]
    top_at = _where([top])
    _rows_settle(driver, len(places))
    assert len(lst.ids.rows.children) == len(places)
    driver.pump(2)
    assert _where(first) == where and _where([top]) == top_at
    driver.screenshot("spyfall_new_table_filled_in")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []
    driver.pump(3)  # the deal's panel made ahead in a frame of its own, once the list's rows are all there
    made = host.keep.made
    driver.tap("spy_dealer_2")
    assert driver.find("spy_pass_cards") and len(driver.find_all("spy_recheck_5")) == 1
    assert host.keep.made == made  # the dealer's tap made none of its widgets: they were made ahead
    dealers = [t for t in driver.texts() if "딜러예요" in t]  # its heading changed in place: the dealer chosen
    assert len(dealers) == 1 and dealers[0].startswith(host.names()[2])


def test_a_resumed_table_fills_in_without_moving(driver: Any) -> None:
    """A game on: the screen opens on its table (no set-up form made or reset for it), its panel a frame later."""
    app = driver.app
    start_table(app, "spyfall", {"players": NAMES, "rounds": 2}, 5)
    app.host("spyfall")
    host = _host(driver)
    assert host.setup_form is None and host.table is not None and not host.table.ids.main.children
    driver.pump(1)
    driver.pump(1)
    first = [driver.find(f"spy_dealer_{s}") for s in range(6)]
    driver.pump(1)
    where = _where(first)
    driver.wait_screen("host")
    _rows_settle(driver, len(app.table.view(None)["locations"]))
    driver.pump(2)
    assert _where(first) == where
    assert driver.small_targets() == [] and driver.overflowing_labels() == []


def test_a_new_game_on_the_same_screen_has_its_deal_panel_made_ahead_too(driver: Any) -> None:
    """A new game started on a screen showing one (voice's 새 게임, 한 판 더) clears the screen's Keep: what was made ahead
    for the last table is gone, so it is made again for this one (it was not: the dealer's tap made 11 widgets)."""
    app = driver.app
    start_table(app, "spyfall", {"players": NAMES, "rounds": 2}, 5)
    app.host("spyfall")
    driver.wait_screen("host")
    driver.pump(20)
    ctx = app.get_screen("host").ctx
    host = ctx.host
    ctx.start({"players": NAMES[:4], "rounds": 2}, seed=6)
    assert ctx.host is host
    driver.pump(20)
    made = host.keep.made
    driver.tap("spy_dealer_1")
    assert driver.find("spy_pass_cards") and host.keep.made == made
