"""The toast covers nothing on any screen (kiosk/widgets/toast.py): where a screen has no place free of text and
controls (Watson & Holmes's and Mr. Jack's tables, Clue's set-up at 1024x600), a lane opens under the screen, which
lays out above it until the toast fades; and a toast goes with the screen it came on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.ui

LONG = "세 글자 이상 두 줄이 될 수도 있는 꽤 긴 안내 문장이 여기에 잠깐 나타나요"


@pytest.fixture(params=[(1024, 600), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def window(request: Any, driver: Any) -> Iterator[tuple[int, int]]:
    """The window at the size asked, set back to the app's (kiosk.env) after the test."""
    from kivy.core.window import Window

    from kiosk.env import HEIGHT, WIDTH

    Window.size = request.param
    driver.pump(6)
    try:
        yield request.param
    finally:
        driver.app.toast_widget.hide()
        driver.app.dismiss_dialogs()
        Window.size = (WIDTH, HEIGHT)
        driver.pump(6)


def _wh_table(driver: Any) -> None:
    from tests.kiosk.games.watson_holmes_steps import open_case, skip_opening

    open_case(driver)
    skip_opening(driver)
    driver.pump(4)


def _clue_setup(driver: Any) -> None:
    driver.app.host("clue")
    driver.wait_screen("host")
    driver.tap("clue_count_3")


def _mr_jack_table(driver: Any) -> None:
    from tests.kiosk.test_toast_clear import _mr_jack_table as table

    table(driver)


@pytest.fixture
def jack_lane(driver: Any) -> Iterator[tuple[Any, Any, float]]:
    """Mr. Jack's table at 1024x600 (the lane opens there): the app, its toast and the screens' full height; the
    window set back after the test."""
    from kivy.core.window import Window

    from kiosk.env import HEIGHT, WIDTH

    Window.size = (1024, 600)
    driver.pump(6)
    try:
        _mr_jack_table(driver)
        yield driver.app, driver.app.toast_widget, driver.app.sm.height
    finally:
        driver.app.toast_widget.hide()
        Window.size = (WIDTH, HEIGHT)
        driver.pump(6)


SCREENS = {"wh_table": _wh_table, "clue_setup_3": _clue_setup, "mr_jack_table": _mr_jack_table}


@pytest.mark.parametrize("screen", list(SCREENS))
def test_a_toast_covers_nothing_on_a_full_screen(driver: Any, window: tuple[int, int], screen: str) -> None:
    """At 1024x600 the toast lay over W&H's status line, Clue's greyed '플레이어 4-6' fields and Mr. Jack's panel
    titles (no place free of words); now it finds a free place or the lane, and the screen above the lane keeps every
    control whole and tappable (the screenshot's sweep: nothing covered, cut, squeezed or overlapping)."""
    SCREENS[screen](driver)
    toast = driver.app.toast_widget
    for text in (LONG, driver.app.tr("mr_jack_ny.witness.unseen"), "짧은 안내"):
        driver.app.toast(text)
        driver.pump(4)
        assert toast.opacity > 0 and driver.toast_covers() == [], text
    shot = f"toast_lane_{screen}_{window[0]}x{window[1]}"
    driver.screenshot(shot)
    assert [p for p in driver.problems if p.startswith(f"{shot}:")] == []


def test_clue_set_up_shows_no_field_for_a_seat_not_in_play(driver: Any) -> None:
    """Three players: fields 4-6 are gone (as Spyfall's), not greyed words a toast would have to keep off; a
    tablet detective's seat stays greyed with its name."""
    _clue_setup(driver)
    assert [driver.find(f"clue_name_{i}").opacity for i in range(6)] == [1, 1, 1, 0, 0, 0]
    driver.tap("clue_count_4")
    driver.tap("clue_tablets_1")
    fourth = driver.find("clue_name_3")
    assert fourth.disabled and 0 < fourth.opacity < 1 and driver.find("clue_name_4").opacity == 0


def test_the_lane_gives_the_screen_its_room_back(driver: Any, jack_lane: tuple[Any, Any, float]) -> None:
    """On Mr. Jack's table at 1024x600 the toast sits in the lane under the screen (the screen ends above it);
    faded, the lane closes and the screen is as tall as before."""
    app, toast, tall = jack_lane
    toast.show(LONG, seconds=0.5)
    driver.pump(4)
    assert app.toast_lane.height > 0 and toast.top <= app.sm.y and app.sm.height < tall
    driver.wait_for(lambda: toast.opacity == 0 and app.toast_lane.height == 0, 5)
    driver.pump(4)
    assert app.sm.height == tall


def test_a_toast_goes_with_its_screen(driver: Any) -> None:
    """A toast is about the screen it came on: going back from Mr. Jack's table takes it off at once (left over, it
    lay over the next screen's words and buttons); one shown in the same event as a screen change is the new
    screen's and stays."""
    _mr_jack_table(driver)
    app, toast = driver.app, driver.app.toast_widget
    app.toast(app.tr("mr_jack_ny.witness.unseen"))
    driver.pump(3)
    assert toast.opacity > 0
    driver.tap("host_back")
    driver.wait_screen("detail")
    assert toast.opacity == 0 and app.toast_lane.height == 0
    app.go("library")  # a screen change and its toast in one event (as resuming a game says "이어서 해요")
    app.toast(app.tr("host.resumed"))
    driver.wait_screen("library")
    assert toast.opacity > 0 and toast.last_text == app.tr("host.resumed")


def test_the_lane_never_closes_under_a_finger(driver: Any, jack_lane: tuple[Any, Any, float]) -> None:
    """The toast fades while a guest's finger is down on a button near the bottom: the lane (and so the button)
    stays where it is until the finger lifts, so the tap lands on what was pressed; then the screen gets its room
    back."""
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    app, toast, tall = jack_lane
    toast.show(LONG, seconds=0.3)
    driver.pump(4)
    assert app.toast_lane.height > 0
    touch = UnitTestTouch(Window.width / 2, Window.height / 2)
    touch.touch_down()
    try:
        driver.wait_for(lambda: toast.opacity == 0, 5)
        driver.wait(0.4)
        assert app.toast_lane.height > 0 and app.sm.height < tall, "closed under the finger"
    finally:
        touch.touch_up()
    driver.wait_for(lambda: app.toast_lane.height == 0, 2)
    driver.pump(4)
    assert app.sm.height == tall
