"""Issue #42, part 3: a fresh install accepted the PIN 0000 (public, in the README) until staff changed it. Now the
kiosk asks staff for a new PIN at its first start, by taps on the on-screen PIN pad (twice), before the guests'
screens; TABLEHOST_PIN set at install is the PIN instead (tests/conftest.py sets 0000 for the other tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from table import settings as settings_mod
from table.pin import check_pin


def _enter(driver: Any, pin: str) -> None:
    driver.enter_pin(pin)
    driver.pump(2)


def test_the_first_start_asks_for_a_new_pin_and_0000_opens_nothing(driver: Any, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLEHOST_PIN", "")  # installed without --pin
    app = driver.app
    app.reset_for(tmp_path / "fresh")
    driver.wait_screen("pin")  # not the attract screen: nothing for guests before a PIN
    assert driver.find("pin_cancel").disabled and not driver.find("pin_1").disabled
    assert "처음 시작했어요" in " ".join(driver.texts())
    driver.screenshot("pin_first_start")
    _enter(driver, "0000")
    _enter(driver, "1234")  # two different PINs: start again
    assert app.sm.current == "pin" and "달라요" in " ".join(driver.texts())
    _enter(driver, "12")
    assert "4–8" in " ".join(driver.texts())
    app.go("attract")  # a restart, a turnover: still the question
    driver.wait_screen("pin")
    _enter(driver, "2580")
    _enter(driver, "2580")
    driver.wait_screen("staff")
    saved = settings_mod.load(tmp_path / "fresh" / "settings.json")
    assert check_pin("2580", saved.pin_hash) and not check_pin("0000", saved.pin_hash) and not saved.pin_is_default
    driver.tap("staff_done")
    driver.wait_screen("attract")
    driver.tap("staff")
    driver.wait_screen("pin")
    assert not driver.find("pin_cancel").disabled
    _enter(driver, "0000")
    assert app.sm.current == "pin"
    _enter(driver, "2580")
    driver.wait_screen("staff")
