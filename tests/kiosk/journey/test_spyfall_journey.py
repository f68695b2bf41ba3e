"""Issue 37 part 7, Spyfall DC: the whole evening by taps alone, narrator on. Arrive, learn two teaching steps and skip
the rest, set up (four names typed, one round), the dealer, the cards round the table, the clock, the final pointing,
the result, 한 판 더 with the same players, play to the result, 다른 게임, then leave. 민호 plays on a phone: it joins
with the tablet's OK (a tap), gets its card there (no hand-over on the tablet), reloads mid-game (back on its seat
with no question, its card again), and keeps its seat through 한 판 더, where it gets the new deal.
Screenshots: test-artifacts/journey_spyfall_*.

Staff-side shortcuts, said plainly: the round's 8-minute clock is moved to its end (the table's wall clock), and the
pointing follows the Joker read from the table's state (a real table talks for those minutes and points by itself)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kiosk.journey.steps import arrive_and_learn, modal_gone, other_game_and_leave, rematch, shot
from tests.kiosk.test_phones_panel import Recorder

pytestmark = pytest.mark.ui

NAMES = ["지수", "민호", "서연", "도윤"]
GAME = "spyfall"
PHONE_SEAT = 1  # 민호


def _phone_state(phone: Recorder) -> dict[str, Any] | None:
    states = [m for m in phone.sent if isinstance(m, dict) and m.get("t") == "state"]
    return states[-1] if states else None


def _phones_on(app: Any) -> Any:
    """The app's phone hub; on a test worker whose phone port was taken by another worker, one wired as the app wires
    its own (kiosk.devices._phones_ready) without the web server: the hub is what the tablet and the phone talk to."""
    if app.phones is not None:
        return None
    from kivy.clock import Clock

    from kiosk.phones.ask import AskWatcher
    from phones.channel import PhoneHub

    hub = PhoneHub(run_on_main=lambda fn: Clock.schedule_once(lambda dt: fn()))
    app.phones = hub
    AskWatcher(hub, app.tr)
    hub.follow(app.table)
    return hub


def _phone_joins(driver: Any) -> tuple[Recorder, str]:
    """민호's phone reads the seat's QR code; the tablet asks (its digits shown) and a tap lets it in."""
    hub = driver.app.phones
    phone = Recorder()
    assert hub.join(phone, token=hub.seat_pass(PHONE_SEAT).token, number="4821")["t"] == "asking"
    driver.wait_for(lambda: bool(driver.find_all("phones_ask_yes")))
    shot(driver, GAME, "05_phone_asks")
    driver.tap("phones_ask_yes")
    driver.wait_for(lambda: phone.seat == PHONE_SEAT)
    hello = next(m for m in phone.sent if isinstance(m, dict) and m.get("t") == "hello")
    return phone, str(hello["device"])


def _phone_has_its_card(driver: Any, phone: Recorder, table: Any) -> None:
    """The phone's page shows the seat's own view (its card) after the deal, the tablet's view of that seat."""
    import json

    want = json.loads(json.dumps(table.view(PHONE_SEAT)))
    driver.wait_for(lambda: (s := _phone_state(phone)) is not None and s["view"] == want, timeout=10)


def _phone_reloads(driver: Any, phone: Recorder, device: str) -> Recorder:
    """A reload (or a locked screen): the old connection goes, the page comes back with its device key and takes
    its seat again at once, with no question on the tablet."""
    hub = driver.app.phones
    hub.leave(phone)
    again = Recorder()
    assert hub.join(again, token=hub.seat_pass(PHONE_SEAT).token, device=device)["t"] == "joined"
    driver.pump(3)
    assert driver.find_all("phones_ask_yes") == [] and hub.connected(PHONE_SEAT)
    return again


def _confirm(driver: Any) -> None:
    driver.tap("confirm_yes")
    modal_gone(driver)


def _play_one_round(driver: Any, table: Any, step: str, phone: Recorder, device: str) -> Recorder:
    driver.wait_for(lambda: bool(driver.find_all("spy_dealer_0")))
    driver.tap("spy_dealer_0")
    driver.tap("spy_pass_cards")
    for seat, name in enumerate(NAMES):
        if seat == PHONE_SEAT:  # on the phone: the tablet passes over this seat
            continue
        driver.wait_for(lambda n=name: bool(driver.find_all("handover_i_am")) and any(n in t for t in driver.texts()))
        driver.tap("handover_i_am")
        driver.hold("handover_hold", 0.05)
        driver.tap("handover_done")
    driver.wait_for(lambda: not driver.find("spy_start_clock").disabled)
    modal_gone(driver)
    _phone_has_its_card(driver, phone, table)
    phone = _phone_reloads(driver, phone, device)
    _phone_has_its_card(driver, phone, table)
    driver.tap("spy_start_clock")
    shot(driver, GAME, f"{step}_clock")
    deadline = table.state.round.clock.deadline
    host = driver.app.get_screen("host").ctx.host
    table.clock = lambda: deadline + 1  # the staff-side shortcut: the clock's 8 minutes
    host.clock._now = table.clock
    driver.wait_for(lambda: table.state.round.phase == "discussion", timeout=5)
    driver.tap("spy_point_now")
    _confirm(driver)
    joker = table.state.round.facts.joker
    for seat in range(len(NAMES)):  # everyone points at the Joker; the Joker at the next player
        driver.tap(f"spy_plus_{joker if seat != joker else (joker + 1) % len(NAMES)}")
    driver.tap("spy_points_submit")
    _confirm(driver)
    if table.outcome is None and driver.find_all("spy_end_session"):
        driver.tap("spy_end_session")
        _confirm(driver)
    driver.wait_for(lambda: table.outcome is not None and bool(driver.find_all("winner_banner")))
    shot(driver, GAME, f"{step}_result")
    return phone


def test_spyfall_evening_by_taps(driver: Any) -> None:
    app = driver.app
    own = _phones_on(app)
    try:
        _evening(driver)
    finally:
        if own is not None:
            own.unfollow()
            app.phones = None


def _evening(driver: Any) -> None:
    app = driver.app
    facts = arrive_and_learn(driver, GAME)
    driver.tap(f"spy_count_{len(NAMES)}")
    for i, name in enumerate(NAMES):
        driver.fill(f"spy_name_{i}", name)
    for _ in range(6):
        if not driver.find("spy_rounds_minus").disabled:
            driver.tap("spy_rounds_minus")
    shot(driver, GAME, "04_setup")
    driver.tap("spy_start")
    table = app.table
    assert table.view(None)["settings"]["rounds"] == 1
    phone, device = _phone_joins(driver)
    phone = _play_one_round(driver, table, "07", phone, device)
    assert app.sounds.count("winner") == 1
    rematch(driver, table, NAMES)
    assert app.phones.connected(PHONE_SEAT)  # 한 판 더 keeps the phone on its seat
    _play_one_round(driver, table, "09_rematch", phone, device)
    other_game_and_leave(driver, table, GAME, facts)
