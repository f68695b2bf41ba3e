"""Tablet seats at the running table (table/seats.py, Table.play_tablet): a bot gets its seat's view, its legal
actions and a seeded stream only, acts through Table.act on its bot channel, and replays the same on resume."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engines.core import Action, View
from table.table import Change, Table, TableRefusal, bot, handover

CLUE = {"players": ["지수", "민호", "탐정 3", "탐정 4"], "mode": "digital", "set": "classic",
        "tablet": {"2": "normal", "3": "easy"}}


@cache
def _library() -> Any:
    from content.loader import load_library

    return load_library()


def _table(path: Path, config: dict[str, Any] = CLUE, seed: int = 11) -> Table:
    table = Table(_library(), path, clock=lambda: 1_000.0)
    table.start("clue", config, seed=seed)
    return table


def _guest_move(table: Table, rng: random.Random) -> None:
    """A guest's move (seat 0 or 1) from their own private channel: a legal action at random, accusations
    left out (a random accuser leaves too soon)."""
    seat = min(s for s in table.engine.to_move(table.state) if s not in table.tablet)
    legal = [a for a in table.legal(seat) if a.NAME != "accuse"] or table.legal(seat)
    table.act(rng.choice(legal), handover(seat), confirmed=True)


def _play(table: Table, moves: int, rng: random.Random, every: int = 0, path: Path | None = None) -> Table:
    """`moves` actions: the tablet's when due, else a guest's; `every` > 0: close and resume that often."""
    for n in range(moves):
        if table.outcome is not None:
            break
        due = table.tablet_due()
        if due is not None:
            table.play_tablet(due)
        else:
            _guest_move(table, rng)
        if every and n % every == every - 1:
            table.close()
            assert path is not None
            table = Table(_library(), path, clock=lambda: 1_000.0)
            table.resume()
    return table


def test_a_bot_is_handed_only_its_seats_view_legal_actions_and_stream_and_acts_on_its_channel(
        tmp_path: Path) -> None:
    table = _table(tmp_path / "j")
    calls: list[tuple[Any, ...]] = []
    seen: list[Change] = []
    table.subscribe(lambda _t, change: seen.append(change))
    real = table.find_bot

    def spy(game: str, level: str) -> Any:
        inner = real(game, level)

        def wrapped(*args: Any, **kw: Any) -> Action:
            calls.append((table.tablet_due(), table.state, args, kw))
            out: Action = inner(*args, **kw)
            return out
        return wrapped

    table.find_bot = spy
    acts = table.acts
    _play(table, 60, random.Random(3))
    assert len(calls) >= 8, "the tablet seats moved"
    for due, state, args, kw in calls:
        assert kw == {} and len(args) == 3
        view, legal, rng = args
        assert isinstance(view, View) and view.seat == due
        assert view == table.engine.observe(state, due)  # its own seat's view, nothing more
        assert list(legal) == list(table.engine.legal_actions(state, due))
        assert all(isinstance(a, Action) and a.seat == due for a in legal)  # type: ignore[attr-defined]
        assert type(rng) is random.Random
        assert not any(a is state or isinstance(a, Table) for a in args)
    by_bot = [c for c in seen if c.kind == "step" and c.channel is not None and c.channel.kind == "bot"]
    assert [c.channel for c in by_bot] == [bot(due) for due, *_ in calls]
    assert table.acts - acts >= len(calls)  # each went through Table.act


def test_a_resumed_game_replays_to_the_same_bot_decisions(tmp_path: Path) -> None:
    straight = _play(_table(tmp_path / "a"), 70, random.Random(5))
    stopped = _play(_table(tmp_path / "b"), 70, random.Random(5), every=9, path=tmp_path / "b")
    assert straight.journal.actions() == stopped.journal.actions()
    assert straight.tablet == stopped.tablet == {2: "normal", 3: "easy"}  # from the journaled config


def test_a_guests_undo_takes_back_their_action_and_the_tablet_moves_after_it(tmp_path: Path) -> None:
    table, rng = _table(tmp_path / "j"), random.Random(8)
    for _ in range(200):  # until a guest's move is followed by tablet moves
        if table.tablet_due() is None:
            _guest_move(table, rng)
            before = table.journal.actions()
            after = 0
            while table.tablet_due() is not None and table.outcome is None:
                table.play_tablet(table.tablet_due())  # type: ignore[arg-type]
                after += 1
            if after:
                break
        else:
            table.play_tablet(table.tablet_due())  # type: ignore[arg-type]
    assert after >= 1
    guest_count = len(before)
    assert table.guest_undo_count() == after + 1
    assert table.undo(table.guest_undo_count(), staff=True)
    assert len(table.journal.actions()) < guest_count  # the guest's own action went too
    assert table.tablet_due() is None  # the guest is to move again


def test_tablet_seats_the_game_cannot_have_are_refused_and_a_guest_seat_refuses_the_bot(tmp_path: Path) -> None:
    table = Table(_library(), tmp_path / "j", clock=lambda: 1_000.0)
    for tablet in ({"2": "genius"}, {"7": "easy"}, {"0": "easy", "1": "easy", "2": "easy", "3": "easy"}):
        with pytest.raises(ValueError):
            table.start("clue", {**CLUE, "tablet": tablet}, seed=1)
    assert not table.playing
    table = _table(tmp_path / "k")
    guest = min(table.engine.to_move(table.state))
    with pytest.raises(TableRefusal):
        table.play_tablet(guest)



def test_a_tablet_seat_gets_no_phone_pass(tmp_path: Path) -> None:
    """Phones (phones/channel.py) follow the table: a pass for each guest's seat, none for the tablet's."""
    from phones.channel import PhoneHub

    hub = PhoneHub()
    table = Table(_library(), tmp_path / "j", clock=lambda: 1_000.0)
    hub.follow(table)
    table.start("clue", CLUE, seed=2)
    assert hub.seats == (0, 1)
    assert hub.seat_pass(0) is not None and hub.seat_pass(2) is None and hub.seat_pass(3) is None
