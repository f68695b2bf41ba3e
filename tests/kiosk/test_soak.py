"""Random-touch soak, CI-sized: 6,000 touches (20,000 in the nightly run) over every screen with no crash, no stuck screen, and RSS
that levels off. The report is printed and saved to test-artifacts/soak_report.txt."""

from __future__ import annotations

from typing import Any

import pytest

from kiosk.soak import live_widgets, rss_mb, run_soak
from kiosk.testing import ARTIFACTS

pytestmark = [pytest.mark.ui, pytest.mark.slow, pytest.mark.alone]  # its RSS is the app's, not the suite's


# the default run's soak is 6,000 touches after the warm-up (the same checks, fewer screens visited per half); the
# nightly run's 20,000 (#43: the soak was most of the `alone` tests' ~3 min)
@pytest.mark.parametrize("events", [6_000, pytest.param(20_000, marks=pytest.mark.nightly)])
def test_random_touch_soak(driver: Any, events: int) -> None:
    run_soak(driver, 3000, seed=7)  # warm-up: caches, fonts and every screen built once
    widgets_before, rss_before = live_widgets(driver), rss_mb()
    half = run_soak(driver, events // 2, seed=2026, sample_every=events // 40)
    widgets_mid, rss_mid = live_widgets(driver), rss_mb()
    report = run_soak(driver, events // 2, seed=2027, sample_every=events // 40)
    widgets_after, rss_after = live_widgets(driver), rss_mb()
    report.events += half.events
    report.screens.update(half.screens)
    report.errors = half.errors + report.errors
    report.stuck += half.stuck
    report.seconds += half.seconds
    text = "\n".join(report.lines() + [
        f"after warm-up → half → end (table reset each time): live widgets {widgets_before} → {widgets_mid} → "
        f"{widgets_after}, RSS {rss_before:.0f} → {rss_mid:.0f} → {rss_after:.0f} MB"])
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "soak_report.txt").write_text(text + "\n", encoding="utf-8")
    print(text)
    assert report.events == events
    assert report.errors == [], report.errors[:3]
    assert report.stuck == 0
    assert len(report.screens) >= 5, report.screens  # it really went around the app
    # nothing accumulates: after the same reset (table turnover, Kivy's timed caches emptied, GC) about as
    # many widgets live after the second 10,000 touches as after the first. The first half is the baseline:
    # the 3,000 touches of warm-up do not reach every screen, so what later visits keep for good (a game's
    # set-up form, the on-screen keyboard, a library's cards) was counted as growth against them (warm-up →
    # half → end measured 225-411 → 376 → 376-415). A leaked game screen is 25–200 widgets: W&H openings kept
    # through the narrator's listener left 201 → 617 here
    assert widgets_after <= widgets_mid + 100, text
    # RSS is reported, and only bounded loosely (this test runs in a process of its own: after the whole
    # suite in one process, RSS here started at 2 GB, the other tests' leftovers, not the app's): with software GL (llvmpipe) the native heap rises and falls
    # with what was drawn (measured 225–550 MB after malloc_trim, not monotonic); Python-side growth over the
    # run is under 2 MB (tracemalloc), and the widget count above is what catches a screen that leaks
    assert rss_after < 1500, text
    # and the app still works: back to the start screen and into the library
    driver.app.keeper.new_table()
    driver.wait_screen("attract")
    driver.tap("start")
    driver.wait_screen("library")
