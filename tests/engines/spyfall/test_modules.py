"""The four modules end to end: Power-up, Harley Quinn helper, Joker's prank, Multiverse madness."""

from __future__ import annotations

import random

import pytest

from engines.core import CHANCE, TABLE, RuleError
from engines.spyfall import actions as A
from tests.engines.spyfall.helpers import ANN, ISAAC, JUAN, MARIA, NAMES, PACK, E, Table

SIX = NAMES[:6]
FIVE = NAMES[:5]


# ---------------------------------------------------------------- Power-up


def test_power_up_deals_one_ability_each_round_with_the_card() -> None:
    """Covers SPY-59, SPY-61. Each seat gets a different ability card with its location card, privately; the
    next round deals anew; at the round's end all ability cards are shown, with no points for them."""
    t = Table(modules=["power_up"], rounds=2)
    t.choose_dealer(0)
    deal = E.sample_chance(t.state, random.Random(3))
    assert isinstance(deal, A.Deal) and len(set(deal.abilities)) == 4
    t.do(deal)
    mine = [E.view(t.state, s)["me"]["ability"]["id"] for s in range(4)]
    assert len(set(mine)) == 4
    table = {k: v for k, v in E.view(t.state, None).items() if k != "common"}  # common: the whole deck's names
    assert all(m not in repr(table) for m in mine)
    t.fails(A.Deal(CHANCE, "oa", (7, 0, 1, 2), ()), "not_your_turn")
    t.do(A.StartClock(TABLE, t.at()))
    joker = t.r.facts.joker  # type: ignore[union-attr]
    t.do(A.RevealJoker(joker, t.at()))
    t.do(A.GuessLocation(joker, "oa" if t.r.facts.location != "oa" else "atlantis", t.at()))  # type: ignore[union-attr]
    rec = E.view(t.state, None)["history"][-1]
    assert rec["abilities"] == mine and sum(rec["points"]) == 3  # heroes 1 each, nothing for abilities
    t.do(A.NextRound(TABLE))
    other = E.sample_chance(t.state, random.Random(4))
    assert isinstance(other, A.Deal) and other.abilities != deal.abilities


def test_one_shot_cards_are_flipped_when_used() -> None:
    """Covers SPY-60. A one-shot card is turned face up (public) when used, once; a card without "one-shot"
    cannot be flipped and stays hidden until the round ends."""
    t = Table(modules=["power_up"])
    t.start(abilities={JUAN: "speedster", MARIA: "riddler"})
    t.do(A.UseAbility(JUAN, t.at()))
    flipped = E.view(t.state, None)["round"]["flipped"]
    assert flipped == [{"seat": JUAN, "id": "speedster", "ko": "스피드스터", "en": "Speedster"}]
    assert not any(s.key == "ability" and JUAN in s.seen_by for s in E.secrets(t.state))
    t.fails(A.UseAbility(JUAN, t.at()), "no_ability")
    t.fails(A.UseAbility(MARIA, t.at()), "no_ability")


def test_one_shot_while_paused_engine_and_legal_actions_agree() -> None:
    """Covers SPY-60 (issue 24, item 3: the rulebook sets no moment for one-shots). While the table has
    paused the clock nothing is played, one-shots included: `apply` refuses exactly what `legal_actions`
    leaves out, and after resuming the card is both offered and accepted."""
    t = Table(modules=["power_up"])
    t.start(abilities={JUAN: "speedster"})
    assert A.UseAbility(JUAN, t.state.now) in E.legal_actions(t.state, JUAN)
    t.do(A.PauseClock(TABLE, t.at()))
    assert not [a for a in E.legal_actions(t.state, JUAN) if isinstance(a, A.UseAbility)]
    t.fails(A.UseAbility(JUAN, t.at()), "clock_not_running")
    t.wait(5)
    t.do(A.ResumeClock(TABLE, t.at()))
    assert A.UseAbility(JUAN, t.state.now) in E.legal_actions(t.state, JUAN)
    t.do(A.UseAbility(JUAN, t.at()))
    assert JUAN in t.r.flipped


def _pride_table(holder: int, joker: int) -> Table:
    t = Table(SIX, modules=["power_up"])
    t.start(deck="themyscira", joker=joker, abilities={holder: "gods_pride"})
    return t


def test_gods_pride_example_four_to_one() -> None:
    """Covers SPY-65, SPY-62. Six players: you stop the clock and accuse; you + 3 yes, 1 no (the accused
    does not vote) → 4-1 → flip God's Pride → unanimous → convicted; the card decides who wins."""
    t = _pride_table(holder=0, joker=5)
    t.fails(A.UseAbility(0, t.at()), "pride_timing")  # not outside an accusation vote
    t.accuse(0, 5)
    t.hands([0, 1, 2, 3])
    assert t.r.phase == "pride" and t.r.counts == (("yes", 4), ("no", 1)) and not t.r.clock.running
    t.do(A.UseAbility(0, t.at()))
    assert t.r.verdict.ending == "accusation" and t.r.verdict.convicted == 5 and t.r.pride.by == 0
    assert t.points_of_round() == (2, 1, 1, 1, 1, 0)
    u = _pride_table(holder=0, joker=4)  # the accused was a hero: the Joker wins
    u.accuse(0, 5)
    u.hands([0, 1, 2, 3])
    u.do(A.UseAbility(0, u.at()))
    assert u.points_of_round() == (0, 0, 0, 0, 4, 0)


def test_gods_pride_not_on_a_tie_and_the_clock_resumes_when_declined() -> None:
    """Covers SPY-63, SPY-38. yes = no: no God's Pride, the clock resumes at once; with a majority the
    table may decline (resume) and God's Pride is kept."""
    t = _pride_table(holder=0, joker=5)
    t.accuse(0, 5)
    t.hands([0, 1])  # 2 yes, 3 no
    assert t.r.phase == "play" and t.r.clock.running
    t.fails(A.UseAbility(0, t.at()), "pride_timing")
    t.accuse(1, 5)
    t.hands([0, 1, 2])  # 3-2
    assert t.r.phase == "pride"
    t.do(A.ResumeClock(TABLE, t.at()))
    assert t.r.phase == "play" and 0 not in t.r.flipped


def test_gods_pride_holder_need_not_be_the_accuser() -> None:
    """Covers SPY-64 (AMBIGUOUS, decided: any holder who voted with the majority may flip it; the accuser
    keeps the accuser's bonus). A non-holder cannot flip; the accused cannot."""
    t = _pride_table(holder=2, joker=5)
    t.accuse(0, 5)
    t.hands([0, 1, 2, 3])
    t.fails(A.UseAbility(1, t.at()), "no_ability")
    t.fails(A.UseAbility(5, t.at()), "not_your_turn")
    t.do(A.UseAbility(2, t.at()))
    assert t.r.verdict.accuser == 0 and t.points_of_round() == (2, 1, 1, 1, 1, 0)


@pytest.mark.parametrize("votes", ["open", "sealed"])
def test_gods_pride_only_for_a_holder_on_the_majority_side(votes: str) -> None:
    """Covers SPY-62, SPY-64, SPY-65 (issue 24: "다수에 해당한다" = those supporting you outnumber those
    against). A holder who voted no in a 4-1 accusation cannot flip the card (the accused is not convicted),
    nor is it offered to them; a holder who voted yes can. Open and sealed votes alike."""
    t = Table(SIX, modules=["power_up"], votes=votes)
    t.start(deck="themyscira", joker=5, abilities={4: "gods_pride"})
    t.accuse(0, 5)
    t.vote_hands([0, 1, 2, 3])  # seat 4, the holder, votes no: 4-1
    assert t.r.phase == "pride"
    assert A.UseAbility(4, t.state.now) not in E.legal_actions(t.state, 4)
    t.fails(A.UseAbility(4, t.at()), "pride_side")
    assert t.r.verdict is None and 4 not in t.r.flipped
    u = Table(SIX, modules=["power_up"], votes=votes)
    u.start(deck="themyscira", joker=5, abilities={3: "gods_pride"})
    u.accuse(0, 5)
    u.vote_hands([0, 1, 2, 3])  # the holder (seat 3) is on the majority side
    assert A.UseAbility(3, u.state.now) in E.legal_actions(u.state, 3)
    u.do(A.UseAbility(3, u.at()))
    assert u.r.verdict.ending == "accusation" and u.r.verdict.convicted == 5


# ---------------------------------------------------------------- Harley Quinn helper


def test_harley_module_needs_five_players() -> None:
    """Covers SPY-66."""
    with pytest.raises(RuleError):
        Table(NAMES[:4], modules=["harley"])
    assert Table(FIVE, modules=["harley"]).state.settings.harley


def test_without_the_module_the_icon_is_ignored() -> None:
    """Covers SPY-67. The icon holder is an ordinary hero: no Harley mark, hero points when heroes win."""
    t = Table(FIVE)
    t.start(deck="batcave", joker=0, harley=1)
    assert "harley" not in E.view(t.state, 1)["me"]["card"] and t.r.facts.harley is None  # type: ignore[union-attr]
    t.do(A.RevealJoker(0, t.at()))
    t.do(A.GuessLocation(0, "oa", t.at()))
    assert t.points_of_round() == (0, 1, 1, 1, 1)


def test_harley_knows_the_location_and_is_told_privately() -> None:
    """Covers SPY-68, SPY-69. The icon card's holder sees the location and that they are Harley, not who
    the Joker is; no one else sees who Harley is."""
    t = Table(FIVE, modules=["harley"])
    t.start(deck="batcave", joker=0, harley=3)
    me = E.view(t.state, 3)["me"]
    assert me["card"] == {"kind": "location", "location": "batcave", "ko": "배트케이브", "en": "Batcave",
                          "harley": True}
    assert E.view(t.state, 2)["me"]["card"]["harley"] is False
    shown = {k: v for k, v in E.view(t.state, 3).items() if k != "common"}  # common: public offers (reveal_joker)
    assert "joker" not in repr(shown).replace("'joker': -1", "")


def test_harley_scores_no_hero_points() -> None:
    """Covers SPY-70, SPY-79. Heroes convict the Joker mid-round: each hero 1, the accuser +1, Harley 0."""
    t = Table(FIVE, modules=["harley"])
    t.start(deck="batcave", joker=0, harley=3)
    t.accuse(1, 0)
    t.hands([1, 2, 3, 4])
    assert t.points_of_round() == (0, 2, 1, 0, 1)


def _hunt(joker: int = 0, harley: int = 3, votes: str = "open") -> Table:
    t = Table(FIVE, modules=["harley"], votes=votes)
    t.start(deck="batcave", joker=joker, harley=harley if harley >= 0 else None)
    t.do(A.RevealJoker(joker, t.at()))
    t.do(A.GuessLocation(joker, "batcave", t.at()))
    return t


def test_right_guess_starts_a_thirty_second_harley_hunt() -> None:
    """Covers SPY-71, SPY-72. After a right guess: 30 s of discussion, then everyone but the Joker points
    at another player; the Joker neither votes nor can be pointed at."""
    t = _hunt(votes="sealed")
    assert t.r.phase == "harley_talk" and t.r.talk is not None and t.r.talk.duration == 30
    t.fails(A.TimeUp(TABLE, t.at() + 29), "time_not_up")
    t.do(A.TimeUp(TABLE, t.at() + 30))
    assert t.r.phase == "harley_vote" and E.to_move(t.state) == {1, 2, 3, 4}
    t.fails(A.PointAt(1, 0, t.at()), "not_candidate")
    t.fails(A.PointAt(1, 1, t.at()), "self_point")
    t.fails(A.PointAt(0, 1, t.at()), "not_your_turn")


def test_harley_found_heroes_steal_the_win() -> None:
    """Covers SPY-73, SPY-78. The most pointed-at is Harley → each hero 1, Joker 0, Harley 0."""
    t = _hunt(votes="sealed")
    t.discuss_then_point()
    t.vote_points({1: 3, 2: 3, 3: 1, 4: 3})
    assert t.r.joker.hunt_suspect == 3 and t.points_of_round() == (0, 1, 1, 0, 1)


def test_harley_not_found_or_tie_joker_and_harley_win() -> None:
    """Covers SPY-73, SPY-75, SPY-72. A hero is most pointed-at, or a tie → Joker 4, Harley 3."""
    t = _hunt()
    t.discuss_then_point()
    t.point_counts([0, 3, 1, 0, 0])
    assert t.points_of_round() == (4, 0, 0, 3, 0)
    u = _hunt()
    u.discuss_then_point()
    u.point_counts([0, 2, 0, 2, 0])  # a tie: nobody shows a card
    assert u.r.joker.hunt_suspect is None and u.points_of_round() == (4, 0, 0, 3, 0)
    u.fails(A.Points(TABLE, (1, 1, 0, 0, 0), u.at()), "wrong_phase")


def test_hunt_without_a_dealt_harley_can_only_fail() -> None:
    """Covers SPY-74. Fewer than 8 players: the icon may stay in the bag; the hunt runs and fails."""
    t = _hunt(harley=-1)
    assert t.r.facts.harley is None and t.r.phase == "harley_talk"  # type: ignore[union-attr]
    t.discuss_then_point()
    t.point_counts([0, 0, 0, 3, 1])
    assert t.points_of_round() == (4, 0, 0, 0, 0)


def test_harley_nobody_convicted_and_hero_convicted() -> None:
    """Covers SPY-76, SPY-77. Tie after time → Joker 2 and Harley 2; a hero convicted → Joker 4, Harley 2."""
    t = Table(FIVE, modules=["harley"])
    t.start(deck="batcave", joker=0, harley=3)
    t.time_up()
    t.discuss_then_point()
    t.point_counts([2, 2, 1, 0, 0])
    assert t.points_of_round() == (2, 0, 0, 2, 0)
    u = Table(FIVE, modules=["harley"])
    u.start(deck="batcave", joker=0, harley=3)
    u.accuse(1, 2)
    u.hands([0, 1, 3, 4])
    assert u.points_of_round() == (4, 0, 0, 2, 0)


def test_harley_convicted_as_the_joker_heroes_and_joker_one_each() -> None:
    """Covers SPY-81, SPY-82 (AMBIGUOUS, decided: the specific Harley line wins over "hero convicted")."""
    for how in ("accusation", "final_vote"):
        t = Table(FIVE, modules=["harley"])
        t.start(deck="batcave", joker=0, harley=3)
        if how == "accusation":
            t.accuse(1, 3)
            t.hands([0, 1, 2, 4])
        else:
            t.time_up()
            t.discuss_then_point()
            t.point_counts([0, 0, 1, 4, 0])
        assert t.r.verdict.convicted == 3 and t.points_of_round() == (1, 1, 1, 0, 1), how


def test_harley_first_accuser_bonus_after_surviving_a_vote() -> None:
    """Covers SPY-80. The Joker survives an accusation, then is pointed out at the end: heroes 1 each, the
    first accuser +1; Harley 0 (and no bonus if Harley was the first accuser)."""
    t = Table(FIVE, modules=["harley"])
    t.start(deck="batcave", joker=0, harley=3)
    t.accuse(2, 0)
    t.hands([2])
    t.accuse(1, 0)
    t.hands([1])
    t.time_up()
    t.discuss_then_point()
    t.point_counts([4, 0, 0, 1, 0])
    assert t.points_of_round() == (0, 1, 2, 0, 1)
    u = Table(FIVE, modules=["harley"])
    u.start(deck="batcave", joker=0, harley=3)
    u.accuse(3, 0)
    u.hands([3])
    u.time_up()
    u.discuss_then_point()
    u.point_counts([4, 1, 0, 0, 0])
    assert u.points_of_round() == (0, 1, 1, 0, 1)


# ---------------------------------------------------------------- Joker's prank


def test_prank_module_puts_the_joker_deck_in_play_and_is_announced() -> None:
    """Covers SPY-83 (one module: 조커의 장난 = 조커의 농담), SPY-84, SPY-85. The 8-Joker deck joins the bags
    only with the module; a prank round gives every player a Joker card; everyone is told at the start."""
    assert "jokers" not in Table().state.pool
    t = Table(modules=["prank"])
    assert "jokers" in t.state.pool
    t.choose_dealer(0)
    start = [e for e in t.events if e.kind == "session_start"][0]
    assert start.to is None and start.data["modules"] == ["prank"] and start.data["show_harley_icon"]
    t.deal("jokers")
    assert t.r.facts.cards == ("joker",) * 4  # type: ignore[union-attr]
    assert all(E.view(t.state, s)["me"]["card"]["kind"] == "joker" for s in range(4))


def test_prank_declared_right_scores_three() -> None:
    """Covers SPY-86, SPY-87. In a prank round any player may reveal and declare the prank → 3 points."""
    t = Table(modules=["prank"])
    t.start(deck="jokers")
    t.do(A.RevealJoker(MARIA, t.at()))
    t.do(A.DeclarePrank(MARIA, t.at()))
    assert t.r.verdict.ending == "prank" and t.points_of_round() == (0, 0, 3, 0)


def test_prank_declared_wrong_every_other_player_one() -> None:
    """Covers SPY-88. In a normal round the Joker declaring a prank loses: every other player 1 (Harley,
    with that module, scores no hero points)."""
    t = Table(modules=["prank"])
    t.start(deck="batcave", joker=ANN)
    t.do(A.RevealJoker(ANN, t.at()))
    t.do(A.DeclarePrank(ANN, t.at()))
    assert t.points_of_round() == (0, 1, 1, 1)
    u = Table(FIVE, modules=["prank", "harley"])
    u.start(deck="batcave", joker=0, harley=2)
    u.do(A.RevealJoker(0, u.at()))
    u.do(A.DeclarePrank(0, u.at()))
    assert u.points_of_round() == (0, 1, 0, 1, 1)


def test_prank_same_timing_as_the_reveal_and_only_with_the_module() -> None:
    """Covers SPY-86. No prank declaration after time is up or without the module."""
    t = Table(modules=["prank"])
    t.start(deck="jokers")
    t.wait(480)
    t.fails(A.RevealJoker(ANN, t.at()), "time_is_up")
    u = Table()
    u.start(deck="batcave", joker=ANN)
    u.do(A.RevealJoker(ANN, u.at()))
    u.fails(A.DeclarePrank(ANN, u.at()), "module_off")
    assert not any(isinstance(a, A.DeclarePrank) for a in E.legal_actions(u.state, ANN))


def test_prank_round_without_a_right_declaration_scores_nothing() -> None:
    """Covers SPY-89. A prank round ended by a conviction, a vote or a location guess: nobody scores."""
    t = Table(modules=["prank"])
    t.start(deck="jokers")
    t.accuse(JUAN, ANN)
    t.hands([JUAN, MARIA, ISAAC])
    assert t.points_of_round() == (0, 0, 0, 0)
    u = Table(modules=["prank"])
    u.start(deck="jokers")
    u.do(A.RevealJoker(ANN, u.at()))
    u.do(A.GuessLocation(ANN, "batcave", u.at()))
    assert u.points_of_round() == (0, 0, 0, 0)
    w = Table(modules=["prank"])
    w.start(deck="jokers")
    w.time_up()
    w.discuss_then_point()
    w.point_counts([3, 1, 0, 0])
    assert w.points_of_round() == (0, 0, 0, 0)


# ---------------------------------------------------------------- Multiverse madness


def test_multiverse_decks_join_and_are_remixed_per_session() -> None:
    """Covers SPY-90, SPY-91. With the module the two multiverse decks join the bags (announced at the
    start); a digital session re-mixes the 16 spare cards into two new decks of 8."""
    a = Table(modules=["multiverse"])
    assert {"multiverse_a", "multiverse_b"} <= set(a.state.pool)
    spares = sorted(c.location for d in PACK["decks"].of_kind("multiverse") for c in d.cards)
    mixed = [c for d in a.state.of_kind("multiverse") for c in d.cards]
    assert sorted(mixed) == spares and len(a.state.of_kind("multiverse")[0].cards) == 8
    a.choose_dealer(0)
    assert [e.data["modules"] for e in a.events if e.kind == "session_start"] == [["multiverse"]]


def test_multiverse_round_has_no_joker() -> None:
    """Covers SPY-92. Every player gets a location card, possibly different ones; nobody can reveal."""
    t = Table(modules=["multiverse"])
    t.start(deck="multiverse_a")
    f = t.r.facts
    assert f is not None and "joker" not in f.cards and len(set(f.cards)) == 4 and f.joker is None
    for s in range(4):
        t.fails(A.RevealJoker(s, t.at()), "not_joker")


def test_multiverse_call_majority_ends_the_round() -> None:
    """Covers SPY-93, SPY-94, SPY-95, SPY-97, SPY-98 (AMBIGUOUS, decided: the caller gets 3 in all)."""
    t = Table(modules=["multiverse"], votes="sealed")
    t.start(deck="multiverse_b")
    t.accuse(ANN, JUAN)
    t.vote_hands([])
    t.do(A.CallMultiverse(JUAN, t.at()))
    assert t.r.phase == "multiverse_vote" and not t.r.clock.running
    assert E.to_move(t.state) == {0, 1, 2, 3}  # everyone votes, hands hidden until all are in
    t.vote_hands([JUAN, MARIA, ISAAC])
    assert t.r.verdict.ending == "multiverse" and t.points_of_round() == (0, 3, 1, 1)


def test_multiverse_call_without_majority_play_goes_on() -> None:
    """Covers SPY-95, SPY-96 (AMBIGUOUS, decided: only while the clock runs, once per player per round,
    the clock paused during the vote). Half is not a majority."""
    t = Table(modules=["multiverse"])
    t.start(deck="multiverse_b")
    t.wait(100)
    t.do(A.CallMultiverse(ANN, t.at()))
    t.wait(30)
    t.hands([ANN, JUAN])
    assert t.r.phase == "play" and t.r.clock.deadline == t.at() + 380
    t.fails(A.CallMultiverse(ANN, t.at()), "already_called")
    t.do(A.PauseClock(TABLE, t.at()))
    t.fails(A.CallMultiverse(JUAN, t.at()), "clock_not_running")
    t.do(A.ResumeClock(TABLE, t.at()))
    t.wait(400)
    t.fails(A.CallMultiverse(JUAN, t.at()), "time_is_up")
    Table().start()
    u = Table()
    u.start()
    u.fails(A.CallMultiverse(JUAN, u.at()), "module_off")


def test_multiverse_call_in_a_normal_round() -> None:
    """Covers SPY-99, SPY-93. The Joker bluffs a multiverse call that passes: Joker 3 whatever they voted;
    heroes who raised a hand 0, the others 1."""
    t = Table(modules=["multiverse"])
    t.start(deck="batcave", joker=ANN)
    t.do(A.CallMultiverse(ANN, t.at()))
    t.hands([ANN, JUAN, MARIA])
    assert t.points_of_round() == (3, 0, 0, 1)


def test_multiverse_round_without_a_successful_call_scores_nothing() -> None:
    """Covers SPY-100. Time runs out in a multiverse round: whatever the pointing, nobody scores."""
    t = Table(modules=["multiverse"])
    t.start(deck="multiverse_a")
    t.time_up()
    t.discuss_then_point()
    t.point_counts([1, 3, 0, 0])
    assert t.r.verdict.ending == "final_vote" and t.points_of_round() == (0, 0, 0, 0)


def test_next_dealer_after_a_round_without_a_single_joker() -> None:
    """Covers SPY-14 (AMBIGUOUS, decided: after a multiverse or prank round the same dealer deals again)."""
    for deck in ("multiverse_a", "jokers"):
        t = Table(modules=["multiverse", "prank"])
        t.start(deck=deck, dealer=MARIA)
        t.time_up()
        t.discuss_then_point()
        t.point_counts([1, 1, 1, 1])  # a tie
        t.do(A.NextRound(TABLE))
        assert t.r.dealer == MARIA, deck
