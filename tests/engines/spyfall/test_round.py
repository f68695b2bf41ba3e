"""A round from the deal to its end: dealer, deal, clock, accusations, the Joker's reveal, session length."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engines.core import CHANCE, TABLE, RuleError
from engines.spyfall import actions as A
from tests.engines.spyfall.helpers import ANN, ISAAC, JUAN, MARIA, NAMES, PACK, T0, E, Table, harley_index


def test_three_to_eight_players() -> None:
    """Covers SPY-01. 3-8 players; 2 or 9 are refused with a Korean message."""
    for n in (3, 8):
        assert len(Table(NAMES[:n]).state.players) == n
    for n in (2, 9):
        with pytest.raises(RuleError) as info:
            Table(NAMES[:n] + ["X"] * max(0, n - 8))
        assert info.value.code == "bad_config"


def test_first_dealer_is_picked_by_the_table_then_the_previous_joker_deals() -> None:
    """Covers SPY-12, SPY-13, SPY-11. The table names the first dealer; the dealer gets a card like
    everyone; the next round's dealer is the Joker of the round before."""
    t = Table()
    assert t.r.phase == "choose_dealer" and E.to_move(t.state) == {TABLE}
    t.choose_dealer(ISAAC)
    assert t.r.dealer == ISAAC and t.r.phase == "deal" and E.to_move(t.state) == {CHANCE}
    t.deal("batcave", joker=JUAN)
    assert t.r.facts is not None and t.r.facts.cards[ISAAC] == "batcave"  # the dealer plays too
    t.do(A.StartClock(TABLE, t.at()))
    t.time_up()
    t.discuss_then_point()
    t.vote_points({ANN: JUAN, JUAN: ANN, MARIA: ISAAC, ISAAC: MARIA})
    t.do(A.NextRound(TABLE))
    assert t.r.dealer == JUAN and t.r.number == 2 and t.r.phase == "deal"


def test_deal_takes_as_many_cards_as_players_from_the_bottom() -> None:
    """Covers SPY-16, SPY-17, SPY-02. N cards including the bottom Joker: exactly one Joker and N-1 location
    cards; a deal without the Joker, with the wrong count or a card twice is refused."""
    for n in range(3, 9):
        t = Table(NAMES[:n])
        t.choose_dealer(0)
        for seed in range(20):
            deal = E.sample_chance(t.state, random.Random(seed))
            assert isinstance(deal, A.Deal)
            step = E.apply(t.state, deal)
            f = step.state.round.facts
            assert f is not None and len(f.cards) == n
            if f.kind == "standard":
                assert f.cards.count("joker") == 1 and len(set(f.cards) - {"joker"}) == 1
    t = Table()
    t.choose_dealer(0)
    t.fails(A.Deal(CHANCE, "batcave", (0, 1, 2, 3)), "bad_deal")  # no Joker
    t.fails(A.Deal(CHANCE, "batcave", (7, 1, 2)), "bad_deal")
    t.fails(A.Deal(CHANCE, "batcave", (7, 1, 1, 2)), "bad_deal")


def test_harley_card_dealt_with_probability_n_minus_1_over_7() -> None:
    """Covers SPY-18. With 8 players the icon card is always dealt; with 4 about 3/7 of the deals."""
    for n, expected in ((8, 1.0), (4, 3 / 7), (5, 4 / 7)):
        t = Table(NAMES[:n])
        t.choose_dealer(0)
        hits = 0
        trials = 700
        for seed in range(trials):
            deal = E.sample_chance(t.state, random.Random(seed))
            assert isinstance(deal, A.Deal)
            hits += harley_index(deal.deck) in deal.cards
        assert abs(hits / trials - expected) < 0.07, (n, hits / trials)


def test_deck_is_drawn_at_random_among_the_decks_in_play() -> None:
    """Covers SPY-15. Every standard deck can come up; the Joker and multiverse decks only with their modules."""
    for modules, kinds in (((), {"standard"}), (("prank", "multiverse"), {"standard", "joker", "multiverse"})):
        t = Table(modules=modules)
        t.choose_dealer(0)
        drawn = Counter(E.sample_chance(t.state, random.Random(s)).deck for s in range(600))  # type: ignore[attr-defined]
        assert {PACK["decks"].deck(d).kind for d in drawn} == kinds
        assert len([d for d in drawn if PACK["decks"].deck(d).kind == "standard"]) == 20


def test_a_deck_is_used_once_per_session() -> None:
    """Covers SPY-20, SPY-09. Rounds ≤ decks in play; a used deck cannot come back; the session ends after
    the agreed number of rounds (5 by default)."""
    with pytest.raises(RuleError):
        Table(rounds=21)
    assert Table(rounds=23, modules=("prank", "multiverse")).state.settings.rounds == 23
    assert Table().state.settings.rounds == 5
    t = Table()
    for k in range(5):
        t.start(deck=PACK["decks"].of_kind("standard")[k].id, joker=ANN)
        t.do(A.RevealJoker(ANN, t.at()))
        t.do(A.GuessLocation(ANN, "warworld", t.at()))
        if k < 4:
            t.do(A.NextRound(TABLE))
            t.fails(A.Deal(CHANCE, PACK["decks"].of_kind("standard")[k].id, (7, 0, 1, 2)), "bad_deck")
            assert t.state.used[-1] not in [E.sample_chance(t.state, random.Random(s)).deck  # type: ignore[attr-defined]
                                            for s in range(50)]
    assert t.state.over and len(t.state.history) == 5
    assert E.outcome(t.state) is not None
    t.fails(A.NextRound(TABLE), "game_over")


def test_session_winner_is_the_highest_total_and_ties_share() -> None:
    """Covers SPY-10 (AMBIGUOUS, decided: most points after the rounds wins; ties share the win)."""
    t = Table(rounds=2)
    t.start(deck="batcave", joker=ANN)
    t.do(A.RevealJoker(ANN, t.at()))
    t.do(A.GuessLocation(ANN, "batcave", t.at()))  # Ann 4
    t.do(A.NextRound(TABLE))
    t.start(deck="atlantis", joker=ANN)
    t.do(A.RevealJoker(ANN, t.at()))
    t.do(A.GuessLocation(ANN, "batcave", t.at()))  # heroes 1 each
    out = E.outcome(t.state)
    assert out is not None and out.winners == (ANN,) and dict(out.scores) == {0: 4, 1: 1, 2: 1, 3: 1}
    t = Table(rounds=1)
    t.start(deck="batcave", joker=ANN)
    t.do(A.RevealJoker(ANN, t.at()))
    t.do(A.GuessLocation(ANN, "oa", t.at()))
    out = E.outcome(t.state)
    assert out is not None and out.winners == (JUAN, MARIA, ISAAC) and out.reason == "session_over"


def test_the_dealer_starts_an_eight_minute_clock() -> None:
    """Covers SPY-21. The round clock is 8:00 from the moment it starts; time up only at the deadline."""
    t = Table()
    t.choose_dealer(0)
    t.deal("batcave", joker=ANN)
    assert t.r.phase == "ready" and not t.r.clock.started
    t.do(A.StartClock(TABLE, T0))
    assert t.r.clock.deadline == T0 + 480
    t.fails(A.TimeUp(TABLE, T0 + 479), "time_not_up")
    t.do(A.TimeUp(TABLE, T0 + 480))
    assert t.r.phase == "discussion" and t.r.talk is not None and t.r.talk.deadline == T0 + 480 + 120


def test_one_ending_per_round() -> None:
    """Covers SPY-27. After one ending (here a conviction) nothing else ends the round."""
    t = Table()
    t.start()
    t.accuse(JUAN, ANN)
    t.hands([JUAN, MARIA, ISAAC])
    assert t.r.phase == "round_over"
    t.fails(A.RevealJoker(ANN, t.at()), "not_your_turn")
    t.fails(A.TimeUp(TABLE, t.at() + 999), "wrong_phase")
    assert len(t.state.history) == 1


def test_after_time_up_no_location_talk_and_no_reveal() -> None:
    """Covers SPY-28, SPY-42. Once time is up the Joker can no longer reveal or guess, nor anyone accuse."""
    t = Table()
    t.start()
    t.wait(480)
    t.fails(A.RevealJoker(ANN, t.at()), "time_is_up")  # the deadline passed before the kiosk reported it
    t.fails(A.Accuse(JUAN, ANN, t.at()), "time_is_up")
    t.time_up()
    t.fails(A.RevealJoker(ANN, t.at()), "not_your_turn")
    t.fails(A.GuessLocation(ANN, "watchtower", t.at()), "not_your_turn")
    talk = (A.RevealJoker, A.GuessLocation, A.Accuse)
    offered = [a for seat in range(len(t.state.players)) for a in E.legal_actions(t.state, seat) if isinstance(a, talk)]
    assert offered == []  # and no seat's screen offers them


def test_votes_cannot_change_and_nobody_points_at_themselves() -> None:
    """Covers SPY-30, SPY-33 (AMBIGUOUS, decided: no pointing at oneself), SPY-29 (all vote at once)."""
    t = Table(votes="sealed")
    t.start()
    t.time_up()
    t.discuss_then_point()
    assert E.to_move(t.state) == {0, 1, 2, 3}
    t.do(A.PointAt(JUAN, ANN, t.at()))
    t.fails(A.PointAt(JUAN, MARIA, t.at()), "already_voted")
    t.fails(A.PointAt(MARIA, MARIA, t.at()), "self_point")
    assert E.view(t.state, None)["round"]["vote"].get("ballots") is None  # sealed until all are in
    u = Table()
    u.start()
    u.time_up()
    u.discuss_then_point()
    u.fails(A.Points(TABLE, (4, 0, 0, 0), u.at()), "self_point")  # 4 fingers on Ann: she pointed at herself
    u.fails(A.Points(TABLE, (2, 2, 1, 0), u.at()), "bad_counts")  # 5 fingers from 4 players


def test_any_player_may_accuse_once_per_round() -> None:
    """Covers SPY-34, SPY-35, SPY-40, SPY-36. The Joker may accuse too; a failed accusation uses it up; the
    same player may be accused again by someone else; the accused does not vote, the accuser does."""
    t = Table()
    t.start()
    t.accuse(ANN, JUAN)  # the Joker accuses
    assert t.r.vote is not None and t.r.vote.eligible == (ANN, MARIA, ISAAC)
    t.fails(A.Hands(TABLE, (ANN, JUAN), t.at()), "accused_votes")
    t.hands([ANN])
    assert t.r.phase == "play"
    t.fails(A.Accuse(ANN, MARIA, t.at()), "already_accused")
    t.accuse(MARIA, JUAN)
    t.hands([])
    t.accuse(ISAAC, JUAN)  # Juan accused a third time
    assert t.r.accusations == ((ANN, JUAN), (MARIA, JUAN), (ISAAC, JUAN))
    t.hands([ANN, MARIA])
    t.fails(A.Accuse(JUAN, JUAN, t.at()), "self_accuse")
    assert not any(isinstance(a, A.Accuse) for a in E.legal_actions(t.state, ANN))
    s = Table(votes="sealed")
    s.start()
    s.accuse(ISAAC, ANN)
    assert ANN not in E.to_move(s.state)
    s.fails(A.VoteYesNo(ANN, False, s.at()), "not_your_turn")


def test_failed_accusation_resumes_the_remaining_time() -> None:
    """Covers SPY-39 (AMBIGUOUS, decided: the clock resumes with the time left, not 8:00), SPY-38."""
    t = Table()
    t.start()
    t.wait(200)
    t.accuse(ISAAC, ANN)
    assert t.r.clock.remaining(t.at() + 1000) == 280  # stopped while the table votes
    t.wait(45)
    t.hands([ISAAC, JUAN])
    assert t.r.phase == "play" and t.r.clock.deadline == t.at() + 280


def test_joker_reveal_only_while_the_clock_runs() -> None:
    """Covers SPY-42. Not while someone else stopped the clock, not while the table paused it, not after
    time; only the Joker (digital); revealing stops the clock."""
    t = Table()
    t.start()
    t.accuse(ISAAC, JUAN)
    t.fails(A.RevealJoker(ANN, t.at()), "not_your_turn")
    t.hands([])
    t.do(A.PauseClock(TABLE, t.at()))
    t.fails(A.RevealJoker(ANN, t.at()), "clock_not_running")
    t.do(A.ResumeClock(TABLE, t.at()))
    t.fails(A.RevealJoker(JUAN, t.at()), "not_joker")
    t.do(A.RevealJoker(ANN, t.at()))
    assert not t.r.clock.running and t.r.phase == "guess" and E.to_move(t.state) == {ANN}
    t.fails(A.GuessLocation(ANN, "gotham", t.at()), "bad_value")  # not on the list: its declaration refuses it


def test_every_seat_sees_only_its_own_card() -> None:
    """Covers SPY-19, SPY-02. Heroes see the location; the Joker sees only "Joker"; the table sees no card."""
    t = Table()
    t.start(deck="batcave", joker=MARIA)
    for seat in range(4):
        me = E.view(t.state, seat)["me"]
        if seat == MARIA:
            assert me["card"]["kind"] == "joker" and "batcave" not in repr(E.view(t.state, seat)).replace(
                "'id': 'batcave'", "")
        else:
            assert me["card"]["location"] == "batcave" and me["card"]["ko"] == "배트케이브"
    table = E.view(t.state, None)
    assert "me" not in table and "batcave" not in repr(table).replace("'id': 'batcave'", "")


def test_the_phase_table_covers_every_phase_and_action() -> None:
    """Issue 20: one phase table says who moves and which actions each phase takes; every phase has a row,
    every action is taken in some phase, and an action outside its phase's row is refused before any
    handler runs (state unchanged)."""
    import typing

    from engines.spyfall.phases import PHASES
    from engines.spyfall.state import Phase

    assert set(PHASES) == set(typing.get_args(Phase))
    assert set().union(*(names for _, names in PHASES.values())) == set(E.actions)
    state = E.setup({"players": ["A", "B", "C"]}, PACK, 1)
    assert state.round is not None and state.round.phase == "choose_dealer"
    with pytest.raises(RuleError) as err:
        E.apply(state, A.StartClock(TABLE))
    assert err.value.code in ("wrong_phase", "not_allowed")
    with pytest.raises(RuleError) as err:
        E._apply(state, A.StartClock(TABLE))
    assert err.value.code == "wrong_phase"
