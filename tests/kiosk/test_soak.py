"""Random-touch soak, CI-sized: 20,000 touches over every screen with no crash, no stuck screen, and RSS
that levels off. The report is printed and saved to test-artifacts/soak_report.txt."""

from __future__ import annotations

from typing import Any

import pytest

from kiosk.soak import run_soak
from kiosk.testing import ARTIFACTS

pytestmark = [pytest.mark.ui, pytest.mark.slow]
EVENTS = 20_000


def test_random_touch_soak(driver: Any) -> None:
    report = run_soak(driver, EVENTS, seed=2026, sample_every=EVENTS // 40)
    text = "\n".join(report.lines())
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "soak_report.txt").write_text(text + "\n", encoding="utf-8")
    print(text)
    assert report.events == EVENTS
    assert report.errors == [], report.errors[:3]
    assert report.stuck == 0
    assert len(report.screens) >= 5, report.screens  # it really went around the app
    # memory levels off: the last half grows by less than 30 MB over the second quarter
    assert report.growth_mb() < 30, text
    # and the app still works: back to the start screen and into the library
    driver.app.keeper.new_table()
    driver.wait_screen("attract")
    driver.tap("start")
    driver.wait_screen("library")
