"""A game without a screen of its own is hosted from its engine's declarations alone (kiosk/generic_host.py):
the tests' reference engine plays through set-up, offered moves, a private move and the end."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kiosk.nim_library import nim_library


@pytest.fixture
def nim(driver: Any) -> Any:
    games = driver.app.library.games
    games["secret_nim"] = nim_library().games["secret_nim"]
    yield driver
    games.pop("secret_nim", None)


def _check(driver: Any, name: str) -> None:
    assert driver.screenshot(name).exists()
    assert driver.small_targets() == []
    assert driver.overflowing_labels() == []


def _no_dialog(driver: Any) -> None:
    from kivy.uix.modalview import ModalView

    driver.wait_for(lambda: not any(isinstance(w, ModalView) for w in driver.roots()))


def test_a_game_without_its_own_screen_is_played_from_the_declarations(nim: Any) -> None:
    driver = nim
    driver.app.host("secret_nim")
    driver.wait_screen("host")
    assert [n for n in range(1, 6) if driver.find_all(f"gen_count_{n}")] == [2, 3]  # game.yaml's range
    _check(driver, "generic_setup")
    driver.tap("gen_count_3")
    driver.tap("gen_start")
    session = driver.app.table
    assert session is not None and [p["name"] for p in session.view(None)["common"]["players"]] == [
        "플레이어 1", "플레이어 2", "플레이어 3"]
    assert driver.find("gen_offer_take_0") and not driver.find_all("gen_offer_take_1")
    _check(driver, "generic_play")
    driver.tap("gen_offer_take_0")  # take 1, 2 or 3: the values, labelled
    assert len(driver.find_all("gen_pick_2")) == 1
    driver.tap("gen_pick_2")
    assert session.view(None)["pile"] == 7
    driver.tap("gen_mine_1")  # seat 1's own moves open only in its private channel
    driver.wait_for(lambda: bool(driver.find_all("handover_i_am")))
    driver.tap("handover_i_am")
    driver.wait_for(lambda: bool(driver.find_all("gen_pick_0")))
    texts = driver.texts()  # the seat's private part, from its view's display parts (its hand)
    assert "손패" in texts and str(session.state.hands[1]) in texts
    _check(driver, "generic_private")
    driver.tap("gen_pick_0")
    assert session.view(None)["pile"] == 6
    # play on to the end: the same winner banner and sound as the games with screens of their own
    for _ in range(12):
        if session.outcome is not None:
            break
        _no_dialog(driver)  # the private channel closing still takes the taps meant for the screen under it
        offers = [w.test_id for w in driver.walk() if getattr(w, "test_id", "").startswith("gen_offer_take_")]
        if offers:
            driver.tap(offers[0])
        else:
            mine = [w.test_id for w in driver.walk() if getattr(w, "test_id", "").startswith("gen_mine_")]
            driver.tap(mine[0])
            driver.wait_for(lambda: bool(driver.find_all("handover_i_am")))
            driver.tap("handover_i_am")
        driver.wait_for(lambda: bool(driver.find_all("gen_pick_0")))
        picks = sorted(w.test_id for w in driver.walk() if getattr(w, "test_id", "").startswith("gen_pick_"))
        driver.tap(picks[-1])
    assert session.outcome is not None
    driver.wait_for(lambda: bool(driver.find_all("winner_banner")))
    winner = session.view(None)["common"]["players"][session.outcome.winners[0]]["name"]
    assert driver.find("winner_banner").title.text == driver.app.tr("results.winner", names=winner)
    assert driver.app.sounds.count("winner") == 1
    _check(driver, "generic_over")
