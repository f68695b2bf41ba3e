"""The running table (table/table.py): one owner of the game, the same rules for every channel."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engines.core import TABLE, RuleError
from engines.spyfall import actions as A
from table.table import CLOCK, STAFF, TOUCH, VOICE, Change, Table, TableRefusal, bot, handover, phone

SPY = {"players": ["지수", "민호", "서연", "도윤"], "rounds": 2}


@cache
def _library() -> Any:
    from content.loader import load_library

    return load_library()


def _table(tmp_path: Path, seed: int = 4) -> tuple[Table, list[Change]]:
    table = Table(_library(), tmp_path / "journal", clock=lambda: 1_000.0)
    seen: list[Change] = []
    table.subscribe(lambda _t, change: seen.append(change))
    table.start("spyfall", SPY, seed=seed)
    return table, seen


def _to_play(table: Table) -> int:
    """Dealt and the clock running; the Joker's seat (a secret, known here to the test)."""
    table.act(A.ChooseDealer(TABLE, 0), TOUCH)
    table.act(A.StartClock(TABLE), TOUCH)
    return int(table.state.round.facts.joker)


def test_a_final_action_is_applied_only_confirmed_whichever_channel_it_comes_from(tmp_path: Path) -> None:
    table, _ = _table(tmp_path)
    _to_play(table)
    for channel in (TOUCH, VOICE, STAFF, phone(1), handover(1)):
        before = (table.state, table.count)
        with pytest.raises(TableRefusal) as refused:
            table.act(A.Accuse(1, accused=2), channel)
        assert refused.value.code == "confirm_first" and "확인" in refused.value.message("ko")
        assert (table.state, table.count) == before
    step = table.act(A.Accuse(1, accused=2), phone(1), confirmed=True)
    assert step is not None and table.state.round.phase == "accusation"


def test_a_private_action_comes_only_from_its_own_seats_private_channel(tmp_path: Path) -> None:
    table, _ = _table(tmp_path)
    joker = _to_play(table)
    other = (joker + 1) % 4
    for channel in (TOUCH, VOICE, STAFF):  # refused before the rules are asked: the refusal is the same for all
        for seat in (joker, other):
            with pytest.raises(TableRefusal) as refused:
                table.act(A.RevealJoker(seat), channel, confirmed=True)
            assert refused.value.code == "private_channel"
    with pytest.raises(TableRefusal) as refused:  # a phone speaks for its own seat only
        table.act(A.RevealJoker(joker), phone(other), confirmed=True)
    assert refused.value.code == "not_your_seat"
    with pytest.raises(RuleError) as refused:  # its own channel: the rules answer (not the Joker)
        table.act(A.RevealJoker(other), phone(other), confirmed=True)
    assert not isinstance(refused.value, TableRefusal)
    table.act(A.RevealJoker(joker), handover(joker), confirmed=True)
    assert table.view(None)["round"]["revealer"] == joker


def test_the_tables_pacing_holds_an_action_back_on_every_channel_with_its_reason(tmp_path: Path) -> None:
    table, _ = _table(tmp_path)
    table.act(A.ChooseDealer(TABLE, 0), TOUCH)
    table.pace(lambda action: "모두 카드를 본 다음에 시작해요." if isinstance(action, A.StartClock) else "")
    assert table.held_back(A.StartClock(TABLE)) == "모두 카드를 본 다음에 시작해요."
    for channel in (TOUCH, VOICE):
        with pytest.raises(TableRefusal) as refused:
            table.act(A.StartClock(TABLE), channel)
        assert refused.value.code == "held_back" and refused.value.message("ko") == "모두 카드를 본 다음에 시작해요."
    table.act(A.StartClock(TABLE), STAFF)  # staff, behind their PIN, may go ahead
    assert table.state.round.phase == "play"
    table.undo(staff=True)
    table.pace(None)
    table.act(A.StartClock(TABLE), VOICE)
    assert table.state.round.phase == "play"


def test_subscribers_follow_the_game_from_start_to_end(tmp_path: Path) -> None:
    table, seen = _table(tmp_path)
    table.act(A.ChooseDealer(TABLE, 0), TOUCH)
    assert [c.kind for c in seen] == ["started", "step", "step"]  # the deal (a chance step) follows by itself
    assert seen[1].channel == TOUCH and seen[2].channel is None
    assert table.undo(staff=True) is True  # the deal gave out secret cards: staff only (Session.undo)
    assert seen[-1].kind == "undo" and table.count == 0
    table.end(later=False)
    assert seen[-1].kind == "ended" and not table.playing
    with pytest.raises(TableRefusal):
        table.act(A.ChooseDealer(TABLE, 0), TOUCH)
    assert (tmp_path / "journal" / "archive").is_dir()


def test_a_rematch_deals_again_for_the_same_players_and_says_so(tmp_path: Path) -> None:
    table, seen = _table(tmp_path)
    table.act(A.ChooseDealer(TABLE, 0), TOUCH)
    first = table.header
    table.rematch()
    assert seen[-1].kind == "started" and seen[-1].rematch
    assert "ended" in [c.kind for c in seen]
    assert table.header["config"] == first["config"] and table.header["seed"] != first["seed"]
    assert table.count == 0


def test_a_rematch_may_take_the_screens_set_up_and_the_table_keeps_what_was_played_tonight(tmp_path: Path) -> None:
    """Issue 37: 한 판 더 on another set-up given by the game's screen (a Watson & Holmes case is not dealt twice):
    a set-up the game refuses changes nothing (the finished game stays); `played` lists tonight's games until the
    turnover. (Before: rematch() took no set-up, and the table kept no list.)"""
    table, seen = _table(tmp_path)
    wh = {"players": ["지수", "민호"], "case": "case_01", "expert": False, "play_on": False}
    table.start("watson_holmes", wh, seed=1)
    with pytest.raises(RuleError):
        table.rematch({**wh, "case": "no_such_case"})
    assert table.playing and table.header["config"]["case"] == "case_01"
    table.rematch({**wh, "case": "case_02"})
    assert seen[-1].kind == "started" and seen[-1].rematch and table.header["config"]["case"] == "case_02"
    assert [(g, c.get("case")) for g, c in table.played] == [
        ("spyfall", None), ("watson_holmes", "case_01"), ("watson_holmes", "case_02")]
    table.turnover()
    assert table.played == []


def test_what_was_played_tonight_outlives_a_restart_but_not_the_turnover_or_the_night(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 37: a power cut in the evening used to forget tonight's games (kept in memory only), so Watson &
    Holmes could offer a case these guests had solved. A new Table on the same folder (the app started again)
    knows them; the turnover forgets them; a list from another evening (no turnover, 12 h later) is not tonight's;
    a damaged file is an empty list, never an error."""
    import os
    import threading

    from table import tonight

    now = [1_000.0]
    wh = {"players": ["지수", "민호"], "case": "case_01", "expert": False, "play_on": False}
    table = Table(_library(), tmp_path / "journal", clock=lambda: now[0])
    synced: list[str] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(threading.current_thread().name), real_fsync(fd)))
    table.start("watson_holmes", wh, seed=1)
    table.rematch({**wh, "case": "case_02"})
    tonight.flush()
    assert any(n.startswith("tonight") for n in synced) and threading.current_thread().name not in synced, \
        "written, and its fsync off the caller's (the UI) thread"
    table.close()
    again = Table(_library(), tmp_path / "journal", clock=lambda: now[0])  # the app starts again
    assert [(g, c["case"]) for g, c in again.played] == [("watson_holmes", "case_01"), ("watson_holmes", "case_02")]
    assert again.resume() is not None and len(again.played) == 2  # the game it resumes is not counted twice
    now[0] += tonight.MAX_AGE_S + 1
    assert Table(_library(), tmp_path / "journal", clock=lambda: now[0]).played == []  # the next evening
    again.turnover()
    tonight.flush()
    assert not (tmp_path / "journal" / tonight.FILE).exists()
    assert Table(_library(), tmp_path / "journal", clock=lambda: 1_000.0).played == []
    (tmp_path / "journal" / tonight.FILE).write_text("{not json", encoding="utf-8")
    assert Table(_library(), tmp_path / "journal").played == []


def test_closed_then_resumed_the_same_table_goes_on_where_it_was(tmp_path: Path) -> None:
    table, seen = _table(tmp_path)
    _to_play(table)
    state = table.state
    table.close()
    assert seen[-1].kind == "closed" and not table.playing
    assert table.resume() is not None
    assert seen[-1].kind == "resumed" and table.state == state


def test_the_clock_and_a_bot_act_without_a_question(tmp_path: Path) -> None:
    table, seen = _table(tmp_path)
    table.act(A.ChooseDealer(TABLE, 0), TOUCH)
    assert table.tick() is None  # nothing due
    joker = int(table.state.round.facts.joker)
    table.act(A.StartClock(TABLE), TOUCH)
    step = table.act(A.RevealJoker(joker), bot(joker))  # a tablet seat decides for itself: nobody to ask
    assert step is not None and seen[-1].channel == bot(joker)


def test_a_channel_is_shared_or_one_seats_never_both() -> None:
    from table.table import Channel

    with pytest.raises(ValueError):
        Channel("phone")
    with pytest.raises(ValueError):
        Channel("touch", 1)
    assert phone(2).private and not TOUCH.private and CLOCK.kind == "clock"
