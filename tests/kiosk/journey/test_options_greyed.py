"""Issue 37 part 4: options that cannot apply are greyed with the reason before the tap, never refused after it
(Spyfall's Harley Quinn helper at 4 players); the Harley Quinn icon shown without the module says why. Taps only."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


def test_harley_quinn_greyed_with_its_reason_below_five_players(driver: Any) -> None:
    app = driver.app
    app.host("spyfall")
    driver.wait_screen("host")
    toasts: list[str] = []
    shown = app.toast
    app.toast = lambda text: (toasts.append(text), shown(text))
    try:
        driver.tap("spy_count_4")
        harley = driver.find("spy_mod_harley")
        assert harley.disabled and harley.why == "할리 퀸 도우미는 5명 이상일 때만 써요."
        assert driver.find("spy_mod_why").text == harley.why and driver.unexplained_disabled() == []
        assert not driver.find("spy_mod_power_up").disabled
        shot = driver.screenshot("journey_spyfall_harley_greyed")
        assert shot.stat().st_size > 5000 and driver.overflowing_labels() == []
        driver.tap("spy_count_5")
        assert not harley.disabled and driver.find("spy_mod_why").text == ""
        driver.tap("spy_mod_harley")
        assert harley.selected
        driver.tap("spy_count_4")  # fewer seats: the helper cannot apply, so it goes off and greys
        assert not harley.selected and harley.disabled and not app.get_screen("host").ctx.table.playing
        assert toasts == []
    finally:
        app.toast = shown


def test_the_harley_icon_with_basic_rules_says_why(driver: Any) -> None:
    """SPY-06: everyone is shown the Harley Quinn icon at the session's start, with or without its module; with basic
    rules only the line says why (it asked to show the icon with no word of why before)."""
    app = driver.app
    app.host("spyfall")
    driver.wait_screen("host")
    driver.tap("spy_count_4")
    driver.tap("spy_start")
    driver.wait_for(lambda: app.table.playing)
    driver.pump(6)
    assert app.table.view(None)["common"]["phase"] == "choose_dealer"
    assert driver.find("spy_harley_icon")
    assert app.tr("spyfall.dealer.icon_basic") in driver.texts()
    assert app.tr("spyfall.dealer.icon") not in driver.texts()
