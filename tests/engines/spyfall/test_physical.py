"""Physical-deck mode: the kiosk names the bag, runs clock, votes and scores; the real cards decide roles
and the table enters what the revealed cards showed."""

from __future__ import annotations

import random

from engines.core import CHANCE, TABLE
from engines.spyfall import actions as A
from tests.engines.spyfall.helpers import ANN, ISAAC, JUAN, MARIA, NAMES, PACK, E, Table


def physical(modules: tuple[str, ...] = (), players: list[str] | None = None) -> Table:
    t = Table(players or ["앤", "후안", "마리아", "이삭"], modules=modules, deal="physical")
    t.choose_dealer(MARIA)
    return t


def test_the_kiosk_names_a_bag_and_keeps_no_card_secrets() -> None:
    """Covers SPY-15, SPY-20. A chance step picks an unused bag among those in play; the table is told its
    number only (the location stays unknown to the kiosk's screens); no card appears in any view."""
    t = physical()
    pick = E.sample_chance(t.state, random.Random(1))
    assert isinstance(pick, A.PickBag)
    t.do(pick)
    bag = PACK["decks"].deck(pick.deck).bag
    assert [e.data["bag"] for e in t.events if e.kind == "take_bag"] == [bag]
    table = E.view(t.state, None)
    assert table["round"]["bag"] == bag and pick.deck not in repr(table["round"])
    assert all("card" not in E.view(t.state, s)["me"] for s in range(4))
    assert list(E.secrets(t.state)) == []
    t.fails(A.Deal(CHANCE, "batcave", (7, 0, 1, 2)), "not_your_turn")


def test_physical_example_1_the_table_enters_the_joker() -> None:
    """Covers SPY-52, SPY-37. Scoring example 1 with real cards: the kiosk records the accusation and the
    vote; when the round ends the table says who showed the Joker card, and the score follows."""
    t = physical()
    t.do(A.PickBag(CHANCE, "watchtower"))
    t.do(A.StartClock(TABLE, t.at()))
    t.accuse(ISAAC, ANN)
    t.hands([JUAN, MARIA, ISAAC])
    assert t.r.phase == "reveal" and E.to_move(t.state) == {TABLE}
    t.fails(A.EnterCards(TABLE, "multiverse", -1, -1), "bad_cards")  # that bag kind is not in play
    t.do(A.EnterCards(TABLE, "standard", ANN, -1))
    assert t.points_of_round() == (0, 1, 1, 2)
    t.do(A.NextRound(TABLE))
    assert t.r.dealer == ANN


def test_physical_reveal_is_self_identifying_and_the_table_confirms_the_guess() -> None:
    """Covers SPY-42, SPY-43, SPY-46. Anyone may flip a Joker card (the real card is the proof); the table
    confirms whether the named location was right; the entered cards must agree with the reveal."""
    t = physical()
    t.do(A.PickBag(CHANCE, "batcave"))
    t.do(A.StartClock(TABLE, t.at()))
    t.do(A.RevealJoker(JUAN, t.at()))
    t.do(A.GuessLocation(JUAN, "batcave", t.at()))
    assert t.r.phase == "confirm_guess"
    t.do(A.ConfirmGuess(TABLE, True, t.at()))
    assert t.r.phase == "reveal"
    t.fails(A.EnterCards(TABLE, "standard", ANN, -1), "bad_cards")  # Juan showed the Joker card
    assert all(a.joker == JUAN for a in E.legal_actions(t.state, TABLE))  # type: ignore[attr-defined]
    t.do(A.EnterCards(TABLE, "standard", JUAN, -1))
    assert t.points_of_round() == (0, 4, 0, 0)


def test_physical_harley_hunt_and_modules() -> None:
    """Covers SPY-71, SPY-73, SPY-62, SPY-87. Harley hunt after a confirmed right guess, Harley named at the
    reveal; God's Pride claimed from a real card; a prank round entered as all Jokers."""
    t = physical(("harley", "power_up", "prank"), NAMES[:5])
    t.do(A.PickBag(CHANCE, "oa"))
    t.do(A.StartClock(TABLE, t.at()))
    t.do(A.RevealJoker(0, t.at()))
    t.do(A.GuessLocation(0, "oa", t.at()))
    t.do(A.ConfirmGuess(TABLE, True, t.at()))
    assert t.r.phase == "harley_talk"
    t.discuss_then_point()
    t.point_counts([0, 0, 3, 1, 0])
    t.do(A.EnterCards(TABLE, "standard", 0, 2))
    assert t.points_of_round() == (0, 1, 0, 1, 1)  # Harley (seat 2) found
    t.do(A.NextRound(TABLE))
    t.do(A.PickBag(CHANCE, "atlantis"))
    t.do(A.StartClock(TABLE, t.at()))
    t.accuse(1, 3)
    t.hands([0, 1, 2])  # 3-1: God's Pride window
    assert t.r.phase == "pride"
    t.fails(A.UseAbility(4, t.at()), "pride_side")  # seat 4 voted no (SPY-64)
    t.do(A.UseAbility(2, t.at()))  # a physical card: the claim is trusted
    t.do(A.EnterCards(TABLE, "standard", 3, -1))
    assert t.points_of_round() == (1, 2, 1, 0, 1)
    t.do(A.NextRound(TABLE))
    assert t.r.dealer == 3
    t.do(A.PickBag(CHANCE, "jokers"))
    t.do(A.StartClock(TABLE, t.at()))
    t.do(A.RevealJoker(4, t.at()))
    t.do(A.DeclarePrank(4, t.at()))
    t.do(A.EnterCards(TABLE, "joker", -1, -1))
    assert t.points_of_round() == (0, 0, 0, 0, 3)
