"""Tablet seats on the kiosk (#40): guests play Clue against tablet detectives, and Mr. Jack alone against the
tablet, by taps only. The tablet's moves come paced from the game screen (kiosk.hosting.TABLET_PAUSE, made short
here so the games stay short) and are said on the screen; its hand-overs never open."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytestmark = pytest.mark.ui

SUSPECTS = ("scarlet", "mustard", "white", "green", "peacock", "plum")
WEAPONS = ("rope", "lead_pipe", "knife", "wrench", "candlestick", "revolver")
GUESTS = ("지수", "민호")
FULL_DEAL, UNDO_DEAL, CUT_DEAL = 1, 2, 3  # the games' seeds (`_dealt`)


def _dialog(driver: Any) -> Any:
    return driver.app.get_screen("host").ctx.open_dialog


def _texts(driver: Any) -> str:
    return "\n".join(driver.texts())


def _hand_over(driver: Any, table: Any, rng: random.Random, secrets_seen: list[str]) -> None:
    """The tablet in a guest's hands: say who they are, then pick a card to show (input) or look (reveal)."""
    ho = _dialog(driver)
    assert ho.name in GUESTS, f"a hand-over for {ho.name}: never for a tablet seat"
    if ho.stage == "ask":
        driver.tap("handover_i_am")
    shows = [w for w in driver.walk() if str(getattr(w, "test_id", "")).startswith("clue_show_")]
    if shows:
        driver.tap(shows[0].test_id)
    elif driver.find_all("handover_hold"):
        driver.hold("handover_hold", 0.05, during=lambda: secrets_seen.append(_texts(driver)))
        driver.tap("handover_done")
    driver.wait_for(lambda: _dialog(driver) is not ho, timeout=10)


def _guest_turn(driver: Any, table: Any, rng: random.Random, turns: list[int]) -> None:
    """A guest's turn on the shared screen, by taps: roll, enter a room, suggest, end; a correct accusation
    by 지수 on her 6th turn (the test reads the envelope: the guests are not what is tested)."""
    view = table.view(None)
    if view["phase"] == "refute":
        driver.tap("clue_handover")
        return
    seat = view["turn"]
    legal = table.legal(seat)
    names = {a.NAME for a in legal}
    if "roll_die" in names:
        turns[seat] += 1
        if seat == 0 and turns[0] >= 6:
            driver.tap("clue_accuse")
            for key, card in zip(("suspect", "weapon", "room"), table.state.envelope, strict=True):
                driver.tap(f"clue_acc_{key}_{card}")
            driver.tap("clue_acc_go")
            driver.tap("confirm_yes")
            return
        driver.tap("clue_roll")
    elif "enter_room" in names:
        driver.tap(f"clue_room_{rng.choice(sorted(a.room for a in legal if a.NAME == 'enter_room'))}")
    elif "suggest" in names:
        driver.tap(f"clue_sus_{rng.choice(SUSPECTS)}")
        driver.tap(f"clue_wpn_{rng.choice(WEAPONS)}")
        driver.tap("clue_suggest")
    else:
        driver.tap("clue_end_turn")


def test_two_guests_play_a_full_clue_game_against_two_tablet_detectives_by_taps(
        driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk import hosting

    monkeypatch.setattr(hosting, "TABLET_PAUSE", 0.05)
    _dealt(monkeypatch, FULL_DEAL)
    driver.app.host("clue")
    driver.wait_screen("host")
    driver.tap("clue_mode_physical")
    assert driver.find("clue_tablets_2").disabled and driver.find("clue_tablets_2").why in driver.texts()
    driver.tap("clue_mode_digital")
    driver.tap("clue_count_4")
    assert driver.find("clue_tablets_3").disabled  # two guests at least
    assert driver.find("clue_level_hard").disabled  # no tablet seat yet: no level
    driver.tap("clue_tablets_2")
    driver.tap("clue_level_normal")
    for i, name in enumerate(GUESTS):
        driver.fill(f"clue_name_{i}", name)
    assert driver.find("clue_name_2").disabled and driver.unexplained_disabled() == []
    driver.screenshot("clue_tablet_setup")
    driver.tap("clue_start")
    table = driver.app.table
    assert table.tablet == {2: "normal", 3: "normal"}
    names = [p["name"] for p in table.view(None)["common"]["players"]]
    assert names[:2] == list(GUESTS) and all("태블릿" in n for n in names[2:])
    tablet_hands = [", ".join(table.state.cards.card(c).ko for c in table.state.hands[s]) for s in (2, 3)]
    rng, turns, secrets_seen, said, shot = random.Random(7), [0, 0, 0, 0], [], set[str](), []
    for _ in range(600):
        if table.outcome is not None:
            break
        screen = _texts(driver)
        assert not any(hand in screen for hand in tablet_hands), "a tablet seat's hand never on the screen"
        now = {line for t in driver.texts() for line in t.split("\n") if line.startswith(tuple(f"{n}: " for n in names[2:]))}
        if now and not shot and _dialog(driver) is None:
            shot.append(driver.screenshot("clue_tablet_said"))  # looked at: the tablet's moves in words
        said |= now
        if _dialog(driver) is not None:
            _hand_over(driver, table, rng, secrets_seen)
        elif table.tablet_due() is not None:
            before = table.count
            driver.wait_for(lambda b=before: table.count != b or _dialog(driver) is not None, timeout=30)
        else:
            _guest_turn(driver, table, rng, turns)
        driver.pump(2)
    assert table.outcome is not None, "the game finished"
    bot_moves = [a for a in table.journal.actions() if a.get("seat") in (2, 3)]
    assert len(bot_moves) >= 6 and said, "the tablet detectives played, and the screen said what they did"
    shown = {table.state.cards.card(a["card"]).ko for a in bot_moves if a["name"] == "show"}
    assert not [line for line in said if any(card in line for card in shown) and "보여" in line], \
        "a card a tablet showed is never said on the shared screen"
    driver.wait_for(lambda: bool(driver.find_all("winner_banner")), timeout=20)
    knew = [t for t in driver.texts() if t.startswith(tuple(names[2:])) and "형사 노트" in t]
    assert len(knew) == 2 and all(n in "\n".join(knew) for n in names[2:])
    driver.screenshot("clue_tablet_end")


@pytest.mark.parametrize(("tablet", "level"), [("jack", "hard"), ("detective", "easy")])
def test_a_guest_plays_mr_jack_alone_against_the_tablet(driver: Any, monkeypatch: pytest.MonkeyPatch,
                                                       tablet: str, level: str) -> None:
    """The guest plays the other side by taps: takes the first card on offer, ends each turn at once (no piece
    moved: the board is the table's), calls the witness with nobody seen; the tablet's side plays itself."""
    from kiosk import hosting

    monkeypatch.setattr(hosting, "TABLET_PAUSE", 0.05)
    driver.app.host("mr_jack_ny")
    driver.wait_screen("host")
    assert driver.find("mj_level_hard").disabled and driver.unexplained_disabled() == []
    driver.tap(f"mj_tablet_{tablet}")
    driver.tap(f"mj_level_{level}")
    assert not driver.find("mj_level_hard").disabled
    driver.screenshot(f"mj_tablet_setup_{tablet}")
    driver.tap("mj_start")
    table = driver.app.table
    seat = 0 if tablet == "detective" else 1
    assert table.tablet == {seat: level}
    guest = 1 - seat
    for _ in range(500):
        if table.outcome is not None:
            break
        ho = _dialog(driver)
        if ho is not None:
            assert getattr(ho, "seat", guest) in (guest, None), "no hand-over for the tablet's side"
            if getattr(ho, "stage", "") == "ask":
                driver.tap("handover_i_am")
            elif driver.find_all("handover_done"):
                driver.tap("handover_done")
            elif driver.find_all("confirm_yes"):
                driver.tap("confirm_yes")
            driver.pump(2)
            continue
        view = table.view(None)
        phase = view["phase"]
        if table.tablet_due() is not None:
            before = table.count
            driver.wait_for(lambda b=before: table.count != b, timeout=30)
        elif phase == "pick":
            cid = next(c for c in view["offer"] if c in view["remaining"])
            driver.tap(f"mj_pick_{cid}")
        elif phase == "act":
            driver.tap("mj_end")
        elif phase == "witness":
            driver.tap("mj_witness_confirm")
            driver.tap("confirm_yes")
        driver.pump(2)
    assert table.outcome is not None, "the game finished"
    moves = [a for a in table.journal.actions() if a.get("seat") == seat]
    assert len(moves) >= 8 and not [a for a in moves if a["name"] in ("escape", "use_ability")]
    driver.wait_for(lambda: bool(driver.find_all("winner_banner")), timeout=20)
    driver.screenshot(f"mj_tablet_end_{tablet}")


def _dealt(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The next game started by taps gets this seed: its deal, dice and the tablets' streams, so the moment a test
    waits for comes at the same point every run (with a seed from the system, one deal in a few dozen gave the
    tablet detectives the envelope before it: the game was over)."""
    from table import session

    monkeypatch.setattr(session, "new_seed", lambda: seed)


def _clue_with_tablets(driver: Any, monkeypatch: pytest.MonkeyPatch, seed: int) -> Any:
    """Four players by taps: 지수 and 민호, and 태블릿 3 and 태블릿 4 at 보통, on the deal `seed`; the running table."""
    from kiosk import hosting

    monkeypatch.setattr(hosting, "TABLET_PAUSE", 0.05)
    _dealt(monkeypatch, seed)
    driver.app.host("clue")
    driver.wait_screen("host")
    driver.tap("clue_mode_digital")
    driver.tap("clue_count_4")
    driver.tap("clue_tablets_2")
    driver.tap("clue_level_normal")
    for i, name in enumerate(GUESTS):
        driver.fill(f"clue_name_{i}", name)
    driver.tap("clue_start")
    return driver.app.table


def _advance(driver: Any, table: Any, rng: random.Random, turns: list[int]) -> None:
    """One step of play: a hand-over answered, the tablet's paced move waited for, or a guest's tap."""
    if _dialog(driver) is not None:
        _hand_over(driver, table, rng, [])
    elif table.tablet_due() is not None:
        before = table.count
        driver.wait_for(lambda: table.count != before or _dialog(driver) is not None, timeout=30)
    else:
        _guest_turn(driver, table, rng, turns)
    driver.pump(2)


def _played(table: Any) -> str:
    """The game's actions so far, seat:name, for a failure's message."""
    return " ".join(f"{a.get('seat')}:{a.get('name')}" for a in table.journal.actions())


def _said(driver: Any) -> list[str]:
    return [line for t in driver.texts() for line in t.split("\n") if line.startswith(("태블릿 3: ", "태블릿 4: "))]


def test_a_guests_undo_takes_back_their_own_action_and_the_tablet_moves_again_after_it(
        driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A guest acts (ends a turn, or passes or shows on a tablet's suggestion) and the tablet detectives play on;
    at the next guest's turn 되돌리기 takes back that guest's action and the tablets' moves after it, the tablets
    wait while the guest is to act, and when the guest does the same again the tablets play again: the same
    moves (their stream is the game's seed, the seat and the action count)."""
    table = _clue_with_tablets(driver, monkeypatch, UNDO_DEAL)
    rng, turns = random.Random(11), [0, 0, 0, 0]
    for _ in range(400):
        assert table.outcome is None, "the game ended before a guest's action was followed by the tablets': " + \
            _played(table)
        if _dialog(driver) is None and table.tablet_due() is None:
            n = table.guest_undo_count()
            if n >= 2 and not table.undo_needs_staff(n) \
                    and sum(a.get("seat") in (2, 3) for a in table.journal.actions()[-n:]) >= 2:
                break
        _advance(driver, table, rng, turns)
    else:
        pytest.fail("no guest action followed by tablet moves")
    before = table.journal.actions()
    at = max(i for i, a in enumerate(before) if a.get("seat") in (0, 1))
    guest = before[at]
    assert _said(driver), "the tablets played after the guest, and the screen said so"
    driver.tap("host_undo")
    driver.tap("confirm_yes")
    driver.pump(4)
    assert table.journal.actions() == before[:at], "the guest's action and the tablets' after it are taken back"
    assert table.tablet_due() is None and _said(driver) == []
    assert table.legal(guest["seat"]), "the guest is to act again"
    driver.screenshot("clue_tablet_undone")
    driver.pump(20)  # the tablets do not move while a guest is to act
    assert len(table.journal.actions()) == at
    while len(table.journal.actions()) < len(before):
        _advance(driver, table, rng, turns)
        assert table.journal.actions()[at:at + 1] in ([], [guest]), "the guest acted the same"
    assert table.journal.actions()[:len(before)] == before, "the tablets played again, the same moves"
    assert _said(driver) or _dialog(driver) is not None


def test_a_power_cut_resumes_with_the_tablet_seats_at_the_same_point(
        driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The power goes while a tablet detective is about to move (its journal files as they are on disk, never
    closed); the app starts again on the same data folder: the game is back at the same action with 태블릿 3
    and 태블릿 4 still the tablet's (levels, names, no hand-over), and the tablet goes on moving by itself."""
    import shutil

    from kiosk import hosting

    table = _clue_with_tablets(driver, monkeypatch, CUT_DEAL)
    monkeypatch.setattr(hosting, "TABLET_PAUSE", 600.0)  # a tablet move stays pending: this test makes them
    rng, turns = random.Random(5), [0, 0, 0, 0]
    for _ in range(400):
        assert table.outcome is None, _played(table)
        if (due := table.tablet_due()) is not None and _dialog(driver) is None:
            if table.count >= 12:
                break
            table.play_tablet(due)  # as its pause's end would (the paced moves are the other tests')
            driver.pump(2)
            continue
        _advance(driver, table, rng, turns)
    else:
        pytest.fail("no tablet move pending")
    monkeypatch.setattr(hosting, "TABLET_PAUSE", 0.05)
    app = driver.app
    due, count, state, actions = table.tablet_due(), table.count, table.state, table.journal.actions()
    cut = app.data_dir.parent / "at_the_cut"
    shutil.copytree(app.journal_dir, cut)  # no frame in between: the tablet's pending move has not run
    app.reset_for(app.data_dir)  # the app starts again on the same folder...
    shutil.rmtree(app.journal_dir)
    shutil.copytree(cut, app.journal_dir)  # ...with the journal as the power cut left it
    assert app.resume_game()
    table = app.table  # no frame yet: the game as it was at the cut
    assert table.tablet == {2: "normal", 3: "normal"}
    assert table.count == count and table.state == state and table.journal.actions() == actions
    names = [p["name"] for p in table.view(None)["common"]["players"]]
    assert names == [*GUESTS, "태블릿 3", "태블릿 4"]
    assert table.tablet_due() == due
    driver.wait_screen("host")
    driver.wait_for(lambda: table.count > count, timeout=30)
    assert table.journal.actions()[count]["seat"] == due, "the tablet moved on by itself after the restart"
    driver.wait_for(lambda: bool(_said(driver)) or _dialog(driver) is not None, timeout=10)
    driver.screenshot("clue_tablet_resumed")
    for _ in range(20):  # and the game goes on: hand-overs only ever for the guests
        if table.outcome is not None:
            break
        _advance(driver, table, rng, turns)
