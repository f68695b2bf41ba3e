"""Spyfall DC host screens, driven by touch offscreen, with screenshots (kiosk/HOSTING.md)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kiosk.hangul import initials

pytestmark = pytest.mark.ui

NAMES = ["앤", "후안", "마리아", "이삭"]


def _check(driver: Any, name: str) -> None:
    path = driver.screenshot(name)
    assert path.exists() and path.stat().st_size > 5000
    assert driver.small_targets() == []
    assert driver.overflowing_labels() == []


def _host(driver: Any) -> Any:
    return driver.app.get_screen("host").ctx.host


def _start(driver: Any, names: list[str] = NAMES, typed: bool = False, **choices: str) -> Any:
    driver.app.host("spyfall")
    driver.wait_screen("host")
    driver.tap(f"spy_count_{len(names)}")
    for i, name in enumerate(names):
        if typed:  # on the on-screen keyboard, by taps
            driver.tap(f"spy_name_{i}")
            driver.type(name)
        else:
            driver.fill(f"spy_name_{i}", name)
    if typed:
        driver.screenshot("spyfall_setup_typed")
        driver.tap("kb_done")
        driver.wait_for(lambda: not driver.app.keyboard.visible)
        assert [driver.find(f"spy_name_{i}").text for i in range(len(names))] == names
    for tid in choices.values():
        driver.tap(tid)
    driver.tap("spy_start")
    session = driver.app.table
    assert session is not None and session.game.id == "spyfall"
    return session


def _no_modal(driver: Any) -> bool:
    from kivy.uix.modalview import ModalView

    return not any(isinstance(w, ModalView) for w in driver.roots())


def _confirm(driver: Any) -> None:
    driver.tap("confirm_yes")
    driver.wait_for(lambda: _no_modal(driver))


def _secret(driver: Any) -> list[str]:
    ho = driver.app.get_screen("host").ctx.open_dialog
    if ho is None or ho.secret is None or ho.secret.opacity == 0:
        return []
    return [w.text for w in ho.secret.walk() if getattr(w, "text", "")]


def _held(driver: Any, shot: str | None = None) -> list[str]:
    seen: list[list[str]] = []

    def look() -> None:
        seen.append(_secret(driver))
        if shot:
            _check(driver, shot)

    driver.hold("handover_hold", 0.2, during=look)
    return seen[0]


def _see_cards(driver: Any) -> None:
    """Every player sees their own card (pass the tablet round): the clock may start only then."""
    start = driver.find("spy_start_clock")
    assert start.disabled and start.why in driver.texts()  # greyed, and says why
    driver.tap("spy_pass_cards")
    for name in driver.app.table.state.players:
        _wait_handover(driver, name)
        driver.tap("handover_i_am")
        driver.hold("handover_hold", 0.05)
        driver.tap("handover_done")
    driver.wait_for(lambda: _no_modal(driver) and not driver.find("spy_start_clock").disabled)


def _wait_handover(driver: Any, name: str) -> None:
    driver.wait_for(lambda: bool(driver.find_all("handover_i_am")) and any(name in t for t in driver.texts()))


def _claim(driver: Any, name: str, go: bool = True, shot: str | None = None) -> list[str]:
    """The picked seat's private screen for a secret-dependent move: claim it (or go back)."""
    _wait_handover(driver, name)
    driver.tap("handover_i_am")
    texts = driver.texts()
    if shot:
        _check(driver, shot)
    driver.tap("spy_claim_go" if go else "spy_claim_back")
    if go:  # a FINAL move: the hosting layer asks first, over the private screen
        driver.tap("confirm_yes")
    driver.wait_for(lambda: _no_modal(driver))
    return texts


def _set_time(driver: Any, session: Any, moment: float) -> None:
    """Move the session's wall clock to `moment`; the host frame's tick reports a passed deadline."""
    session.clock = lambda: moment
    _host(driver).clock._now = session.clock


def test_setup_form_starts_with_default_seats(driver: Any) -> None:
    """Covers SPY-01, SPY-09. The form offers 3-8 seats (4 to begin with) and 5 rounds; nothing has to be
    typed: a seat nobody renamed keeps its default name."""
    driver.app.host("spyfall")
    driver.wait_screen("host")
    _check(driver, "spyfall_setup")
    assert any("5라운드" in t for t in driver.texts())
    assert [n for n in range(1, 10) if driver.find_all(f"spy_count_{n}")] == [3, 4, 5, 6, 7, 8]
    assert driver.find("spy_name_4").disabled and not driver.find("spy_name_3").disabled
    driver.tap("spy_count_5")
    driver.fill("spy_name_1", "후안")
    driver.tap("spy_start")
    session = driver.app.table
    assert session is not None
    assert list(session.state.players) == ["플레이어 1", "후안", "플레이어 3", "플레이어 4", "플레이어 5"]


def test_four_player_digital_round_by_touch(driver: Any) -> None:
    """Covers SPY-06, SPY-12, SPY-19, SPY-21, SPY-34, SPY-38, SPY-29, SPY-31, SPY-49, SPY-54, SPY-23, SPY-08: the
    table picks the dealer, cards go round by pass-the-tablet (hold to see, release to hide), the clock
    runs, an accusation fails and the clock goes on, time runs out, the table points, scores show."""
    session = _start(driver, typed=True)
    assert list(session.state.players) == NAMES
    assert any("가장 의심스러운" in t for t in driver.texts())
    assert driver.find("spy_harley_icon")  # SPY-06: everyone is shown the icon at the session start
    _check(driver, "spyfall_dealer")
    driver.tap("spy_dealer_2")
    assert session.state.round.dealer == 2 and session.state.round.phase == "ready"
    facts = session.state.round.facts
    place = session.state.place(facts.location).ko
    _check(driver, "spyfall_ready")
    driver.tap("spy_pass_cards")
    for seat, name in enumerate(NAMES):
        _wait_handover(driver, name)
        driver.tap("handover_i_am")
        assert _secret(driver) == []  # hidden until held
        shown = " ".join(_held(driver, "spyfall_deal" if seat == facts.joker else None))
        if seat == facts.joker:
            assert "조커" in shown and place not in shown
        else:
            assert place in shown
        assert _secret(driver) == []  # hidden again on release
        driver.tap("handover_done")
    driver.wait_for(lambda: _no_modal(driver))
    driver.tap("spy_start_clock")
    assert session.state.round.phase == "play" and session.state.round.clock.running
    texts = " ".join(driver.texts())
    assert any(re.fullmatch(r"8:00|7:[0-5]\d", t) for t in driver.texts())  # the clock, readable across the table
    assert "되묻기 금지" in texts and "데일리 플래닛" in driver.texts()  # the question rule, the location list (Korean
    assert "Daily Planet" not in texts  # only: never Korean and English in one line)
    _check(driver, "spyfall_clock")
    driver.tap("spy_my_card")  # during play a player re-checks only their own card, behind the same hold
    driver.tap(f"spy_pick_{facts.joker}")
    _wait_handover(driver, NAMES[facts.joker])
    driver.tap("handover_i_am")
    assert place not in " ".join(_held(driver))
    driver.tap("handover_done")
    driver.wait_for(lambda: _no_modal(driver))
    hero = (facts.joker + 1) % 4
    driver.tap("spy_accuse")
    driver.tap(f"spy_pick_{hero}")
    driver.tap(f"spy_pick_{facts.joker}")
    _confirm(driver)
    assert session.state.round.phase == "accusation"
    assert not driver.find_all(f"spy_yes_{facts.joker}")  # the accused does not vote
    driver.tap(f"spy_yes_{hero}")
    _check(driver, "spyfall_accusation")
    driver.tap("spy_vote_submit")
    _confirm(driver)
    assert session.state.round.phase == "play" and session.state.round.clock.running
    deadline = session.state.round.clock.deadline
    _set_time(driver, session, deadline - 30)
    driver.wait_for(lambda: _host(driver).cues == [60], timeout=3)  # the 1:00 sound
    _set_time(driver, session, deadline + 1)
    driver.wait_for(lambda: session.state.round.phase == "discussion", timeout=3)
    assert _host(driver).cues == [60, 0]  # the 0:00 sound
    driver.tap("spy_point_now")
    _confirm(driver)
    for _ in range(3):
        driver.tap(f"spy_plus_{facts.joker}")
    driver.tap(f"spy_plus_{hero}")
    assert any("4/4표" in t for t in driver.texts())
    _check(driver, "spyfall_final_vote")
    driver.tap("spy_points_submit")
    _confirm(driver)
    rec = session.state.history[-1]
    assert rec.convicted == facts.joker
    expected = [0 if s == facts.joker else 2 if s == hero else 1 for s in range(4)]
    assert list(rec.points) == expected
    texts = " ".join(driver.texts())
    assert "라운드 1 결과" in texts and f"조커: {NAMES[facts.joker]}" in texts
    _check(driver, "spyfall_score")
    driver.tap("spy_scores")  # the running totals on demand (also the voice intent "점수 보여줘")
    shown = " ".join(expected_text for expected_text in driver.texts() if "라운드 후 점수" in expected_text)
    assert f"{NAMES[hero]} 2" in shown and f"{NAMES[facts.joker]} 0" in shown
    driver.tap("spy_next")
    assert session.state.round.dealer == facts.joker and session.state.round.number == 2


def test_sealed_votes_and_the_jokers_guess_by_search(driver: Any) -> None:
    """Covers SPY-36, SPY-37, SPY-42, SPY-43, SPY-26: sealed thumbs by pass-the-tablet (the accused is left
    out), then the next round the Joker reveals and finds the location by typing in the search box."""
    session = _start(driver, votes="spy_votes_sealed")
    driver.tap("spy_dealer_0")
    facts = session.state.round.facts
    _see_cards(driver)
    driver.tap("spy_start_clock")
    hero = (facts.joker + 1) % 4
    driver.tap("spy_accuse")
    driver.tap(f"spy_pick_{hero}")
    driver.tap(f"spy_pick_{facts.joker}")
    _confirm(driver)
    driver.tap("spy_sealed_start")
    voters = [s for s in range(4) if s != facts.joker]
    for seat in voters:
        _wait_handover(driver, NAMES[seat])
        driver.tap("handover_i_am")
        if seat == voters[0]:
            _check(driver, "spyfall_sealed_ballot")
        driver.tap("spy_ballot_yes")
        driver.tap("confirm_yes")  # a sealed ballot cannot be changed (FINAL)
        driver.wait_for(lambda: _no_modal(driver) or bool(driver.find_all("handover_i_am")))
    driver.wait_for(lambda: session.state.round.phase == "round_over")
    assert session.state.history[-1].points[hero] == 2  # unanimous: the accuser's bonus
    driver.wait_for(lambda: _no_modal(driver))
    driver.tap("spy_next")
    facts = session.state.round.facts
    _see_cards(driver)
    driver.tap("spy_start_clock")
    driver.tap("spy_reveal")
    driver.tap(f"spy_pick_{facts.joker}")
    _claim(driver, NAMES[facts.joker])
    assert session.state.round.phase == "guess"
    loc = session.state.place(facts.location)
    driver.fill("spy_loc_search", loc.en[:5].lower())
    driver.pump(3)
    assert driver.find_all(f"spy_loc_{loc.id}") and len(driver.find_all("spy_loc_atlantis")) <= (
        loc.id == "atlantis")
    _check(driver, "spyfall_guess")
    driver.tap(f"spy_loc_{loc.id}")
    driver.wait_for(lambda: bool(driver.find_all("confirm_yes")))  # a tap in a list lands after its scroll check
    _confirm(driver)
    assert session.state.history[-1].points[facts.joker] == 4


def test_physical_mode_names_the_bag_and_takes_the_revealed_cards(driver: Any) -> None:
    """Covers SPY-15, SPY-16, SPY-37, SPY-45: the kiosk names a bag; after a unanimous accusation the table
    enters who showed the Joker card; scores follow."""
    session = _start(driver, deal="spy_deal_physical")
    driver.tap("spy_dealer_1")
    bag = session.state.deck(session.state.round.deck).bag
    assert any(f"{bag}번 봉지" in t for t in driver.texts())
    _check(driver, "spyfall_physical_bag")
    driver.tap("spy_start_clock")
    driver.tap("spy_accuse")
    driver.tap("spy_pick_0")
    driver.tap("spy_pick_3")
    _confirm(driver)
    for seat in (0, 1, 2):
        driver.tap(f"spy_yes_{seat}")
    driver.tap("spy_vote_submit")
    _confirm(driver)
    assert session.state.round.phase == "reveal"
    driver.tap("spy_joker_2")  # Maria showed the Joker: Isaac was a hero
    _check(driver, "spyfall_physical_reveal")
    driver.tap("spy_reveal_submit")
    _confirm(driver)
    assert list(session.state.history[-1].points) == [0, 0, 4, 0]


def test_modules_pride_window_and_harley_hunt(driver: Any) -> None:
    """Covers SPY-62, SPY-63, SPY-71, SPY-72, SPY-75, SPY-60: five players with Power-up and Harley: a 3-1
    accusation opens the God's Pride window (declined: the clock resumes), a one-shot card is flipped
    in the open, the Joker guesses right, the table hunts Harley and scores show."""
    names = ["지수", "민호", "서연", "도윤", "하은"]
    session = _start(driver, names, harley="spy_mod_harley", power="spy_mod_power_up")
    assert session.state.settings.harley and session.state.settings.power_up
    driver.tap("spy_dealer_0")
    driver.tap("spy_recheck_1")  # one player re-checks only their own card
    _wait_handover(driver, "민호")
    driver.tap("handover_i_am")
    shown = " ".join(_held(driver))
    assert "능력 카드" in shown
    driver.tap("handover_done")
    driver.wait_for(lambda: _no_modal(driver))
    _see_cards(driver)
    driver.tap("spy_start_clock")
    facts = session.state.round.facts
    joker = facts.joker
    others = [s for s in range(5) if s != joker]
    driver.tap("spy_accuse")
    driver.tap(f"spy_pick_{others[0]}")
    driver.tap(f"spy_pick_{others[1]}")
    _confirm(driver)
    for seat in [s for s in range(5) if s != others[1]][:3]:
        driver.tap(f"spy_yes_{seat}")
    driver.tap("spy_vote_submit")
    _confirm(driver)
    assert session.state.round.phase == "pride"
    _check(driver, "spyfall_pride")
    driver.tap("spy_pride_skip")
    assert session.state.round.phase == "play" and session.state.round.clock.running
    state = session.state
    one_shots = [s for s in range(5) if state.ability_cards[state.round.powers.cards[s]].one_shot
                 and state.ability_cards[state.round.powers.cards[s]].effect == "none"]
    if one_shots:
        driver.tap("spy_ability")
        driver.tap(f"spy_pick_{one_shots[0]}")
        _claim(driver, names[one_shots[0]])
        assert one_shots[0] in session.state.round.flipped
    driver.tap("spy_reveal")
    driver.tap(f"spy_pick_{joker}")
    _claim(driver, names[joker])
    loc = session.state.place(facts.location)
    driver.tap("spy_loc_search")
    driver.type(initials(loc.ko)[:3])  # initial consonants, tapped on the on-screen keyboard
    assert driver.find("spy_loc_search").text == initials(loc.ko)[:3]
    driver.pump(2)
    assert driver.find_all(f"spy_loc_{loc.id}")
    driver.tap("kb_done")
    driver.wait_for(lambda: not driver.app.keyboard.visible)
    driver.tap(f"spy_loc_{loc.id}")
    driver.wait_for(lambda: bool(driver.find_all("confirm_yes")))
    _confirm(driver)
    assert session.state.round.phase == "harley_talk"
    driver.wait_for(lambda: any(re.fullmatch(r"0:[0-3]\d", t) for t in driver.texts()), timeout=15)  # the hunt clock
    driver.tap("spy_point_now")
    _confirm(driver)
    suspect = others[2] if others[2] != facts.harley else others[3]
    for _ in range(3):
        driver.tap(f"spy_plus_{suspect}")
    assert not driver.find_all(f"spy_plus_{joker}")  # the Joker cannot be pointed at
    why = driver.find("spy_points_submit").why  # 3 of the 4 fingers: the suspect's own is missing
    assert driver.find("spy_points_submit").disabled and f"조커 {names[joker]}" in why and "1표 더 입력해" in why
    _check(driver, "spyfall_harley_hunt")
    driver.tap(f"spy_plus_{others[0]}")
    assert any("4/4표" in t for t in driver.texts())
    driver.tap("spy_points_submit")
    _confirm(driver)
    points = session.state.history[-1].points
    assert points[joker] == 4 and (facts.harley is None or points[facts.harley] == 3)
    _check(driver, "spyfall_harley_score")


def test_tally_is_confirmed_only_when_every_finger_is_in(driver: Any) -> None:
    """Covers SPY-29, SPY-32, SPY-55. Everyone, the Joker too, points at the end: the tally screen shows the
    fingers entered against the players, and its button stays greyed, saying what is missing, until they match.
    2 and 1 (3 of 4) cannot be entered; the fourth finger makes the 2-2 tie that convicts nobody."""
    session = _start(driver)
    driver.tap("spy_dealer_0")
    _see_cards(driver)
    driver.tap("spy_start_clock")
    _set_time(driver, session, session.state.round.clock.deadline + 1)
    driver.wait_for(lambda: session.state.round.phase == "discussion", timeout=3)
    driver.tap("spy_point_now")
    _confirm(driver)
    joker = session.state.round.facts.joker
    hero = (joker + 1) % 4
    submit = driver.find("spy_points_submit")
    assert submit.disabled and "4표 더 입력해" in submit.why
    for seat in (joker, joker, hero):
        driver.tap(f"spy_plus_{seat}")
    submit = driver.find("spy_points_submit")
    assert any("3/4표" in t for t in driver.texts())
    assert submit.disabled and submit.why in driver.texts() and "1표 더 입력해" in submit.why
    assert driver.unexplained_disabled() == []
    _check(driver, "spyfall_tally_short")
    driver.app.set_lang("en")
    try:
        driver.tap(f"spy_plus_{hero}")  # the screen redraws in English
        driver.tap(f"spy_minus_{hero}")
        why = driver.find("spy_points_submit").why
        assert "All 4 players, the Joker too, point once each. Enter 1 more." == why and why in driver.texts()
        _check(driver, "spyfall_tally_short_en")
    finally:
        driver.app.set_lang("ko")
    driver.pump(3)
    driver.tap_at(*submit.to_window(*submit.center))  # a finger on the greyed button: nothing is asked or sent
    driver.pump(3)
    assert _no_modal(driver) and session.state.round.phase == "final_vote"
    driver.tap(f"spy_plus_{hero}")
    driver.tap(f"spy_plus_{hero}")
    assert driver.find("spy_points_submit").disabled and "1표가 많아요" in driver.find("spy_points_submit").why
    driver.tap(f"spy_minus_{hero}")
    assert any("4/4표" in t for t in driver.texts()) and not driver.find("spy_points_submit").disabled
    _check(driver, "spyfall_tally_full")
    driver.tap("spy_points_submit")
    _confirm(driver)
    assert session.state.history[-1].ending == "no_conviction"


def test_english_screens_fit(driver: Any) -> None:
    """English second: the set-up, deal and play screens in English, nothing cut off, finger-sized."""
    driver.app.set_lang("en")
    try:
        driver.app.host("spyfall")
        driver.wait_screen("host")
        _check(driver, "spyfall_setup_en")
        driver.tap("spy_count_8")
        for i, name in enumerate(["Ann", "Juan", "Maria", "Isaac", "Lee", "Kim", "Park", "Choi"]):
            driver.fill(f"spy_name_{i}", name)
        for module in ("power_up", "harley", "prank", "multiverse"):
            driver.tap(f"spy_mod_{module}")
        driver.tap("spy_start")
        session = driver.app.table
        assert session is not None and len(session.state.players) == 8
        assert any("most suspicious" in t for t in driver.texts())
        _check(driver, "spyfall_dealer_en")
        driver.tap("spy_dealer_3")
        _check(driver, "spyfall_ready_en")
        _see_cards(driver)
        driver.tap("spy_start_clock")
        assert any("Ask one named player" in t for t in driver.texts())
        _check(driver, "spyfall_play_en")
        driver.tap("spy_accuse")
        _check(driver, "spyfall_pick_en")
    finally:
        driver.app.set_lang("ko")


def test_im_the_joker_is_answered_only_on_the_seats_own_screen(driver: Any) -> None:
    """Covers SPY-29, SPY-60 (issue 19: no shared-screen oracle; issue 24: one-shots not while paused).
    "I'm the Joker" → a seat → that seat's private screen: a hero reads "you are not the Joker" and goes
    back, the table sees no refusal; the Joker reveals there. Undo past the reveal needs the staff PIN.
    While the clock is paused the ability button is off, as the engine refuses every one-shot then."""
    session = _start(driver, power="spy_mod_power_up")
    driver.tap("spy_dealer_0")
    _see_cards(driver)
    driver.tap("spy_start_clock")
    facts = session.state.round.facts
    hero = (facts.joker + 1) % 4
    driver.tap("spy_pause")
    assert driver.find("spy_ability").disabled and driver.find("spy_reveal").disabled
    driver.tap("spy_resume")
    assert not driver.find("spy_ability").disabled
    driver.tap("spy_reveal")
    driver.tap(f"spy_pick_{hero}")
    texts = _claim(driver, NAMES[hero], go=False, shot="spyfall_claim_hero")
    assert any("조커가 아니에요" in t for t in texts) and not driver.find_all("spy_claim_go")
    ctx = driver.app.get_screen("host").ctx
    assert ctx.last_error is None and session.state.round.phase == "play"
    assert "조커" not in driver.app.toast_widget.last_text
    driver.tap("spy_reveal")
    driver.tap(f"spy_pick_{facts.joker}")
    _claim(driver, NAMES[facts.joker], shot="spyfall_claim_joker")
    assert session.state.round.phase == "guess" and session.state.round.joker.seat == facts.joker
    driver.tap("host_undo")
    assert driver.find_all("staffpin_ok")
    _check(driver, "spyfall_undo_pin")
    driver.tap("staffpin_cancel")
    driver.wait_for(lambda: _no_modal(driver))
    assert session.state.round.phase == "guess"
    driver.tap("host_undo")
    driver.enter_pin("0000", pad="staffpin")
    driver.wait_for(lambda: session.state.round.phase == "play")


def test_ending_the_game_while_the_cards_go_round_leaves_no_error(driver: Any) -> None:
    """The hand-over chain schedules the next seat a moment after each one; a game ended in between must not
    make that late step fail (it once raised inside the kiosk)."""
    _start(driver)
    driver.tap("spy_dealer_2")
    host = driver.app.get_screen("host").ctx.host
    host.ctx.later(lambda: host.show_cards(1), 0.2)  # as the chain does after a seat has seen its card
    driver.app.dismiss_dialogs()
    driver.app.get_screen("host").ctx.end_game()
    driver.wait(0.6)
    assert driver.app.errors == []


def test_a_tap_on_the_location_search_in_the_frame_it_appears(driver: Any) -> None:
    """The location list comes a frame after the game's start; a tap on its search field in the frame it came in
    raised IndexError in Kivy (the field's lines were laid out only in the next frame)."""
    app = driver.app
    app.host("spyfall")
    driver.wait_screen("host")
    app.get_screen("host").ctx.start({"players": NAMES, "rounds": 2}, seed=3)
    for _ in range(10):
        driver.pump(1)
        if driver.find_all("spy_loc_search"):
            break
    field = driver.find("spy_loc_search")
    driver.tap(field)
    assert app.keyboard.visible and app.keyboard.target is field and field.focus
    driver.tap("kb_done")
