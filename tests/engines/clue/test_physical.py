"""Physical mode: real cards; the kiosk records suggestions and who showed or passed, never which card,
and each player may privately note their hand and what was shown to them."""

from __future__ import annotations

import pytest

from engines.clue import ENGINE
from engines.clue.actions import (
    Accuse,
    DieRoll,
    EndTurn,
    EnterRoom,
    NoteShown,
    Pass,
    RecordHand,
    ReportAccusation,
    RollDie,
    Show,
    Suggest,
)
from engines.clue.solver import analyse
from engines.clue.views import knowledge_for
from engines.core import CHANCE, RuleError
from tests.engines.clue.helpers import HANDS4, do, events, game


def recorded():  # type: ignore[no-untyped-def]
    state = game(4, mode="physical")
    assert state.phase == "hands" and state.hands == ((), (), (), ()) and state.envelope == ()
    for seat in range(4):
        state = do(state, RecordHand(seat, HANDS4[seat] if seat != 3 else ()))
    return state


def test_hands_are_recorded_privately_or_skipped() -> None:
    """Covers CLUE-14, CLUE-15: each seat in turn may note its real hand (the right number of cards) or
    skip; a noted hand is only in that seat's view."""
    state = game(4, mode="physical")
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, RecordHand(0, ("scarlet", "knife")))
    assert err.value.code == "bad_hand" and "5" in err.value.ko
    state = recorded()
    assert state.phase == "start" and state.turn == 0
    assert ENGINE.view(state, 0)["hand"] == list(HANDS4[0])
    assert "hand" not in ENGINE.view(state, 3) and "hand" not in ENGINE.view(state, None)
    assert all(list(HANDS4[0]) != ENGINE.view(state, s).get("hand") for s in (1, 2, 3))


def test_each_player_is_asked_in_turn_and_may_pass_or_show_without_naming() -> None:
    """Covers CLUE-40, CLUE-41, CLUE-42, CLUE-45: seat 1 passes, seat 2 shows (the kiosk does not learn
    the card); the suggester then privately notes it; the table sees only who showed."""
    state = do(recorded(), RollDie(0), DieRoll(CHANCE, 4), EnterRoom(0, "library"), Suggest(0, "white", "rope"))
    assert state.asking == 1 and {a.NAME for a in ENGINE.legal_actions(state, 1)} == {"show", "pass", "record_hand"}
    state = do(state, Pass(1))
    assert state.asking == 2
    with pytest.raises(RuleError):
        ENGINE.apply(state, Show(2, "white"))  # the card is never typed on the table's turn
    state = do(state, Show(2))
    assert state.phase == "note" and ENGINE.to_move(state) == frozenset({0})
    assert state.shown == ()
    state, ev = events(state, NoteShown(0, "library"))
    assert ev[0].to == frozenset({0, 2})
    assert ENGINE.view(state, 0)["private_cards"][0]["shown_card"]["card"] == "library"
    assert all("card" not in str(list(s)) for s in ENGINE.view(state, None)["suggestions"])
    assert "shown_card" not in str(ENGINE.view(state, None))
    assert "private_cards" not in ENGINE.view(state, None)
    assert not ENGINE.view(state, 1)["private_cards"]
    kn = knowledge_for(state, 0)
    assert any(f.kind == "has" and f.player == 2 and f.cards == ("library",) for f in kn.facts)
    assert any(f.kind == "lacks" and f.player == 1 for f in kn.facts)
    kn1 = knowledge_for(state, 1)
    assert any(f.kind == "one_of" and f.player == 2 for f in kn1.facts), "others get a numbered mark"


def test_all_pass_and_noting_can_be_skipped() -> None:
    """Covers CLUE-46: every other player passes → the suggester may accuse or end; a skipped note
    leaves a numbered mark in the suggester's notebook."""
    state = do(recorded(), RollDie(0), DieRoll(CHANCE, 4), EnterRoom(0, "study"), Suggest(0, "plum", "rope"),
               Pass(1), Pass(2), Pass(3))
    assert state.phase == "after" and state.history[-1].passed == (1, 2, 3)
    state = do(state, EndTurn(0), RollDie(1), DieRoll(CHANCE, 2), EnterRoom(1, "hall"),
               Suggest(1, "scarlet", "knife"))
    state = do(state, Pass(2), Pass(3), Show(0), NoteShown(1, ""))
    assert state.shown == ()
    assert any(f.kind == "one_of" for f in knowledge_for(state, 1).facts)
    a = analyse(knowledge_for(state, 0))
    assert not a.contradiction


def test_physical_accusation_is_checked_by_the_accuser() -> None:
    """Covers CLUE-47, CLUE-51, CLUE-52: the accuser looks in the real envelope and reports; right wins,
    wrong is out (the kiosk never knew the envelope)."""
    state = do(recorded(), Accuse(0, "plum", "rope", "study"))
    assert state.phase == "accuse_check" and ENGINE.to_move(state) == frozenset({0})
    wrong = do(state, ReportAccusation(0, False))
    assert 0 in wrong.eliminated and wrong.turn == 1 and "envelope" not in ENGINE.view(wrong, 0)
    right = do(state, ReportAccusation(0, True))
    out = ENGINE.outcome(right)
    assert out is not None and out.winners == (0,)


def test_a_recorded_hand_holding_a_named_card_may_not_pass() -> None:
    """Covers CLUE-41, CLUE-42 (issue 24, item 2). Physical mode: a player whose recorded hand holds a named
    card cannot pass (as digital mode refuses it), and the pass is not among their legal actions; the reason
    names no card. A skipped hand is not checked; a recorded hand without a named card passes."""
    state = do(recorded(), RollDie(0), DieRoll(CHANCE, 4), EnterRoom(0, "library"), Suggest(0, "white", "rope"))
    state = do(state, Pass(1))  # seat 1 holds none of white / rope / library
    assert state.asking == 2 and [a.NAME for a in ENGINE.legal_actions(state, 2)] == ["show", "record_hand"]
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, Pass(2))  # seat 2's recorded hand holds white and the library
    assert err.value.code == "must_show_recorded"
    names = {c.id for c in state.cards.cards} | {c.name("ko") for c in state.cards.cards}
    assert not any(n in err.value.ko or n in err.value.en for n in names)
    assert ENGINE.view(state, 2)["can_show"] == ["white", "library"]
    assert "can_show" not in ENGINE.view(state, None) and "can_show" not in ENGINE.view(state, 0)
    state = do(recorded(), RollDie(0), DieRoll(CHANCE, 4), EnterRoom(0, "study"), Suggest(0, "green", "rope"),
               Pass(1), Pass(2))
    assert state.asking == 3 and {a.NAME for a in ENGINE.legal_actions(state, 3)} == {"show", "pass"}
    assert do(state, Pass(3)).phase == "after"  # seat 3 skipped recording: the kiosk cannot know


def test_the_shared_screen_offers_show_and_pass_only_where_no_recorded_hand_decides() -> None:
    """Covers CLUE-41, CLUE-42 (issue 24, item 2): a seat with a recorded hand answers on its own channel
    (show and pass stay PRIVATE, so the table offers neither, whatever the hand holds); a seat that skipped
    recording answers at the table. The offers are the same whether or not the recorded hand holds a card."""
    holds = do(recorded(), RollDie(0), DieRoll(CHANCE, 4), EnterRoom(0, "library"), Suggest(0, "white", "rope"),
               Pass(1))
    lacks = do(recorded(), RollDie(0), DieRoll(CHANCE, 4), EnterRoom(0, "study"), Suggest(0, "green", "rope"),
               Pass(1))
    assert holds.asking == lacks.asking == 2
    assert [o for o in ENGINE.table_offers(holds) if o.seat == 2] == []
    assert [o for o in ENGINE.table_offers(lacks) if o.seat == 2] == []
    skipped = do(lacks, Pass(2))
    assert skipped.asking == 3
    assert {o.action for o in ENGINE.table_offers(skipped) if o.seat == 3} == {"show", "pass"}
    table = ENGINE.view(skipped, None)
    assert [p["recorded"] for p in table["players"]] == [True, True, True, False]
    assert table["common"]["table"] == ENGINE.view(skipped, 1)["common"]["table"]


def test_a_mistaken_record_is_corrected_by_its_owner_before_answering() -> None:
    """Covers CLUE-15, CLUE-41, CLUE-42: the recorded hand is the player's own note. Asked to disprove, a
    player whose record is wrong corrects it (or clears it) and then answers by the corrected record; only
    the asked seat may, only in physical mode, and the table sees only that a record changed."""
    state = do(recorded(), RollDie(0), DieRoll(CHANCE, 4), EnterRoom(0, "library"), Suggest(0, "white", "rope"),
               Pass(1))
    assert state.asking == 2 and "white" in state.hands[2]
    with pytest.raises(RuleError):
        ENGINE.apply(state, Pass(2))
    fixed = tuple(c if c != "white" else "plum" for c in state.hands[2])
    fixed = tuple(c if c != "library" else "study" for c in fixed)
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, RecordHand(2, fixed[:2]))
    assert err.value.code == "bad_hand"
    with pytest.raises(RuleError):
        ENGINE.apply(state, RecordHand(1, HANDS4[1]))  # not the seat asked
    state, ev = events(state, RecordHand(2, fixed))
    assert state.phase == "refute" and state.asking == 2 and state.hands[2] == fixed
    assert [(e.kind, dict(e.data), e.to) for e in ev] == [("hand_recorded", {"seat": 2}, None)]
    assert "hand" not in ENGINE.view(state, None) and ENGINE.view(state, 2)["hand"] == list(fixed)
    state = do(state, Pass(2))
    assert state.asking == 3
    cleared = do(recorded(), RollDie(0), DieRoll(CHANCE, 4), EnterRoom(0, "library"), Suggest(0, "white", "rope"),
                 Pass(1), RecordHand(2, ()))
    assert cleared.hands[2] == () and "record_hand" not in {a.NAME for a in ENGINE.legal_actions(cleared, 2)}
    assert {o.action for o in ENGINE.table_offers(cleared) if o.seat == 2} == {"show", "pass"}
    digital = do(game(4), RollDie(0), DieRoll(CHANCE, 4), EnterRoom(0, "library"))
    digital = do(digital, Suggest(0, "white", "rope"))
    assert digital.phase == "refute"
    with pytest.raises(RuleError) as err:
        ENGINE.apply(digital, RecordHand(digital.asking, ()))
    assert err.value.code == "hand_dealt"
