"""The main screens on a smaller tablet, 1024x600 (the sweep on: nothing clipped, covered, overlapping, too small to
read or to tap), and on the usual 1280x800 for the screens fixed for it (Mr. Jack's tags and facts)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.ui

SIZES = [(1024, 600), (1280, 800)]


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def window(request: Any, driver: Any) -> Iterator[tuple[int, int]]:
    """The window at the size asked, set back to the app's (kiosk.env) after the test."""
    from kivy.core.window import Window

    from kiosk.env import HEIGHT, WIDTH

    Window.size = request.param
    driver.pump(6)
    try:
        yield request.param
    finally:
        driver.app.dismiss_dialogs()
        Window.size = (WIDTH, HEIGHT)
        driver.pump(6)


def _shot(driver: Any, size: tuple[int, int], name: str) -> None:
    """The screenshot, and the sweep it runs (clipped, covered, overlapping, too small): no fault on this screen."""
    driver.screenshot(f"small_{size[0]}x{size[1]}_{name}")
    assert [p for p in driver.problems if p.startswith(f"small_{size[0]}x{size[1]}_{name}:")] == []


def _mr_jack_table(driver: Any) -> None:
    from kivy.uix.modalview import ModalView

    driver.tap("mj_start")
    driver.tap("handover_i_am")
    driver.tap("handover_done")
    driver.wait_for(lambda: not any(isinstance(w, ModalView) for w in driver.roots()))
    driver.pump(4)


def test_the_guest_screens_fit(driver: Any, window: tuple[int, int]) -> None:
    """Attract, library, a game page, its teaching, and Spyfall's and Mr. Jack's set-up forms and tables."""
    _shot(driver, window, "attract")
    driver.tap("start")
    driver.wait_screen("library")
    _shot(driver, window, "library")
    for game in ("mr_jack_ny", "spyfall"):
        driver.tap(f"game_{game}")
        driver.wait_screen("detail")
        _shot(driver, window, f"detail_{game}")
        driver.tap("back")
        driver.wait_screen("library")
    driver.app.teach("mr_jack_ny")
    driver.wait_screen("teach")
    _shot(driver, window, "teach_mr_jack_ny")
    driver.tap("teach_next")
    _shot(driver, window, "teach_mr_jack_ny_2")
    driver.app.host("spyfall")
    driver.wait_screen("host")
    _shot(driver, window, "spyfall_setup")
    driver.tap("spy_count_8")
    _shot(driver, window, "spyfall_setup_8")
    driver.app.host("mr_jack_ny")
    driver.wait_screen("host")
    _shot(driver, window, "mr_jack_setup")
    for tid in ("mj_tablet_none", "mj_blitz_120"):  # a choice on one line (맡기지 않음 wrapped at 1024 px)
        button = driver.find(tid)
        assert button.texture_size[1] < 1.5 * button.font_size, (tid, button.texture_size)
    _mr_jack_table(driver)
    _shot(driver, window, "mr_jack_table")
    scroll = driver.app.get_screen("host").ctx.host.table_scroll
    if window == (1280, 800):  # the size it is designed at: all of it on show, nothing to scroll
        assert not scroll.do_scroll_y and scroll.children[0].height <= scroll.height, scroll.children[0].height
        ids = scroll.children[0].ids
        for panel in (ids.track, ids.center, ids.suspects):  # their rows inside them, none over the line above
            assert all(panel.y <= w.y and w.top <= panel.top for w in panel.children), panel
    driver.app.toast(driver.app.tr("mr_jack_ny.witness.unseen"))  # at 1024x600: no room free of words, the lane
    _shot(driver, window, "mr_jack_table_toast")
    driver.app.toast_widget.hide()


def test_spyfall_table_fits(driver: Any, window: tuple[int, int]) -> None:
    from tests.kiosk.conftest import spyfall_table

    spyfall_table(driver)
    _shot(driver, window, "spyfall_table")


def test_staff_screen_fits(driver: Any, window: tuple[int, int]) -> None:
    driver.staff_login()
    _shot(driver, window, "staff")


def test_watson_holmes_and_clue_set_up_and_tables_fit(driver: Any, window: tuple[int, int]) -> None:
    """W&H's and Clue's set-up forms and tables, the sweep on: at 1024x600 W&H's case rows covered the host bar, and
    Clue's form was laid out over it (its count row above the bar's bottom: the sweep, which looks at centres, let
    it pass)."""
    from tests.kiosk.conftest import start_table

    app = driver.app
    for game, first in (("watson_holmes", "wh_count_2"), ("clue", "clue_count_3")):
        app.host(game)
        driver.wait_screen("host")
        _shot(driver, window, f"{game}_setup")
        bar = driver.find("host_back")
        row = driver.find(first)
        assert row.to_window(row.x, row.top)[1] <= bar.to_window(bar.x, bar.y)[1], game  # under the host bar
    config = {"players": ["지수", "민호", "서연"], "mode": "physical"}
    start_table(app, "clue", config, 3)
    app.host("clue")
    driver.wait_screen("host")
    driver.pump(6)
    _shot(driver, window, "clue_table")


def test_watson_holmes_table_for_seven_fits(driver: Any, window: tuple[int, int]) -> None:
    """Seven detectives (the most the game takes) at W&H's table, after the opening: their rows, the locations and
    the actions on both sizes (started at the table: no opening), the sweep on (rows of a full table drawn over the status line or cut)."""
    from tests.kiosk.conftest import start_table

    app = driver.app
    names = ["지수", "민호", "서연", "도윤", "하은", "준서", "예린"]
    start_table(app, "watson_holmes", {"players": names, "case": "case_01"}, 7)
    app.host("watson_holmes")
    driver.wait_screen("host")
    driver.find("wh_loc_1")  # started from the table (no opening to read)
    driver.pump(6)
    _shot(driver, window, "wh_table_7")


def test_spyfall_and_clue_tables_for_the_most_players_fit(driver: Any, window: tuple[int, int]) -> None:
    """Spyfall for eight and Clue for six (the most each takes) at both sizes, the sweep on."""
    from tests.kiosk.conftest import start_table

    app = driver.app
    names = ["지수", "민호", "서연", "도윤", "하은", "준서", "예린", "시우"]
    start_table(app, "spyfall", {"players": names, "rounds": 2}, 8)
    app.host("spyfall")
    driver.wait_screen("host")
    driver.pump(6)
    _shot(driver, window, "spyfall_table_8")
    start_table(app, "clue", {"players": names[:6], "mode": "physical"}, 6)
    app.host("clue")
    driver.wait_screen("host")
    driver.pump(6)
    _shot(driver, window, "clue_table_6")
