"""Undo never crosses a step that revealed or probed a secret without the staff PIN (issue 19, item 1):
otherwise any reveal (an escape, an arrest, the Joker's card, a card shown) could be tried and taken back."""

from __future__ import annotations

from pathlib import Path

import pytest

from content.loader import load_library
from engines.clue.actions import EnterRoom, RollDie, Show, Suggest
from engines.core import TABLE
from engines.mr_jack_ny.actions import Arrest, Pick
from engines.spyfall import actions as A
from table.session import Session, UndoLocked

LIB = load_library()


def _locked(s: Session) -> None:
    before = (s.count, s.engine.state_to_dict(s.state), len(s.journal.actions()))
    assert s.undo_needs_staff()
    with pytest.raises(UndoLocked):
        s.undo()
    assert (s.count, s.engine.state_to_dict(s.state), len(s.journal.actions())) == before


def test_mr_jack_arrest_is_undone_only_by_staff(tmp_path: Path) -> None:
    """Covers JACK-48: an arrest ends the game and shows Jack; Undo then needs staff. A pick does not."""
    s = Session.new(LIB, "mr_jack_ny", {"players": ["탐정", "잭"]}, tmp_path, seed=5)
    first = s.state.offer()[0]
    s.dispatch(Pick(0, first))
    assert not s.undo_needs_staff()
    suspect = next(c for c in s.state.roster if c != first)
    s.dispatch(Arrest(0, suspect))
    assert s.outcome is not None
    _locked(s)
    assert s.undo(staff=True) and s.outcome is None and s.state.phase == "act"
    assert s.journal.actions()[-1]["name"] == "pick"
    assert s.undo() and s.state.phase == "pick"  # the pick revealed nothing


def test_spyfall_joker_reveal_and_flip_are_undone_only_by_staff(tmp_path: Path) -> None:
    """Covers SPY-29, SPY-60: the Joker's reveal and a flipped one-shot show a secret to the table."""
    s = Session.new(LIB, "spyfall", {"players": ["가", "나", "다", "라"], "rounds": 1}, tmp_path, seed=9)
    s.dispatch(A.ChooseDealer(TABLE, 0))  # the deal (chance) follows at once
    s.dispatch(A.StartClock(TABLE))
    assert not s.undo_needs_staff()
    assert s.state.round.facts is not None
    joker = s.state.round.facts.joker
    s.dispatch(A.RevealJoker(joker))
    _locked(s)
    assert s.undo(staff=True) and s.state.round.phase == "play"


def test_clue_card_shown_is_undone_only_by_staff(tmp_path: Path) -> None:
    """Covers CLUE-41, CLUE-45: a card shown to the suggester is a private reveal."""
    cfg = {"players": ["지수", "민호", "서연"], "mode": "digital", "set": "classic"}
    s = Session.new(LIB, "clue", cfg, tmp_path, seed=2)
    seat = s.state.turn
    s.dispatch(RollDie(seat))
    s.dispatch(EnterRoom(seat, "hall"))
    others = [c for h in s.state.hands[:seat] + s.state.hands[seat + 1:] for c in h]
    suspect = next(c for c in others if c in s.state.cards.ids(0))
    s.dispatch(Suggest(seat, suspect, s.state.cards.ids(1)[0]))
    assert not s.undo_needs_staff()
    holder = s.state.asking
    card = next(c for c in s.state.history[-1].named if c in s.state.hands[holder])
    s.dispatch(Show(holder, card))
    _locked(s)
    assert s.undo(staff=True) and s.state.phase == "refute"
