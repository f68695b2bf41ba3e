"""The Spyfall DC engine: setup, who may act, legal actions, and applying actions."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engines.core import (
    CHANCE,
    TABLE,
    Action,
    Deadline,
    Event,
    Named,
    Offer,
    Outcome,
    Secret,
    Step,
    View,
    seeded_rng,
)
from engines.spyfall import actions as A
from engines.spyfall.claims import ClaimRules, round_of, with_round
from engines.spyfall.content import AbilityDeck, DeckBox
from engines.spyfall.deal import deal_facts, remix
from engines.spyfall.messages import bad_config, detail, err, module_off
from engines.spyfall.phases import PHASES, to_move
from engines.spyfall.physical import cards_problem, sample_entries
from engines.spyfall.scoring import score_round
from engines.spyfall.state import (
    JOKER,
    Facts,
    MultiverseCall,
    Powers,
    Pride,
    RoundRecord,
    RoundState,
    SessionDeck,
    Settings,
    SpyState,
    Verdict,
)
from engines.spyfall.tally import sample_tallies, tally_refusal
from engines.spyfall.views import card_view, hidden_variants, parts_of, secrets_of, view_of
from engines.timers import Clock
from engines.votes import NO, YES, Vote, VoteKind, decide

MODULES = ("power_up", "harley", "prank", "multiverse")

class Spyfall(ClaimRules):
    name = "spyfall"
    version = "1"
    state_type = SpyState
    actions = A.ACTIONS
    content_types = {"decks.yaml": DeckBox, "abilities.yaml": AbilityDeck}

    # ------------------------------------------------------------ setup

    def example_configs(self, pack: Mapping[str, Any]) -> list[dict[str, Any]]:
        names = ["지수", "민호", "서연", "도윤", "하은", "준우", "유나", "현우"]
        return [
            {"players": names[:4], "rounds": 2},
            {"players": names[:5], "rounds": 1, "modules": list(MODULES), "votes": "sealed"},
            {"players": names[:3], "rounds": 2, "modules": ["prank", "multiverse", "power_up"]},
            {"players": names[:8], "rounds": 1, "modules": ["harley", "power_up"]},
            {"players": names[:6], "rounds": 2, "modules": list(MODULES), "deal": "physical"},
        ]

    def setup(self, config: Mapping[str, Any], pack: Mapping[str, Any], seed: int) -> SpyState:
        players = tuple(str(p) for p in config.get("players", ()))
        if not 3 <= len(players) <= 8:
            raise bad_config("players")
        if len(set(players)) != len(players) or not all(p.strip() for p in players):
            raise bad_config("names")
        modules = set(config.get("modules", ()))
        if not modules <= set(MODULES):
            raise bad_config("modules")
        if "harley" in modules and len(players) < 5:
            raise bad_config("harley_players")
        deal = config.get("deal", "digital")
        votes = config.get("votes", "open")
        if deal not in ("digital", "physical") or votes not in ("open", "sealed"):
            raise bad_config("modes")
        settings = Settings(
            rounds=int(config.get("rounds", 5)), power_up="power_up" in modules, harley="harley" in modules,
            prank="prank" in modules, multiverse="multiverse" in modules, physical=deal == "physical",
            sealed=votes == "sealed", round_s=float(config.get("round_seconds", 480)),
            discussion_s=float(config.get("discussion_seconds", 120)),
            harley_s=float(config.get("harley_seconds", 30)))
        box = pack.get("decks")
        abilities = pack.get("abilities")
        if not isinstance(box, DeckBox) or not isinstance(abilities, AbilityDeck):
            raise bad_config("content")
        kinds = _deck_kinds(modules)
        decks = tuple(SessionDeck.of(d) for d in box.decks if d.kind in kinds)
        if not settings.physical and settings.multiverse:
            decks = remix(decks, seeded_rng(seed, "multiverse"))
        pool = tuple(d.id for d in decks)
        if not 1 <= settings.rounds <= len(pool):
            raise bad_config("rounds", n=len(pool))
        if settings.power_up and len(abilities.cards) < len(players):
            raise bad_config("ability_cards")
        return SpyState(players=players, settings=settings, locations=box.locations, decks=decks,
                        ability_cards=abilities.cards if settings.power_up else (), pool=pool,
                        round=self._new_round(settings, 1, -1), totals=(0,) * len(players))

    def setup_limits(self, config: Mapping[str, Any], pack: Mapping[str, Any]) -> Mapping[str, tuple[int, int]]:
        """Rounds (SPY-09): one deck each, never twice a session, so at most the decks the modules bring."""
        box = pack.get("decks")
        kinds = _deck_kinds(set(config.get("modules", ())))
        return {"rounds": (1, sum(d.kind in kinds for d in box.decks) if isinstance(box, DeckBox) else 1)}

    @staticmethod
    def _new_round(settings: Settings, number: int, dealer: int) -> RoundState:
        return RoundState(number=number, dealer=dealer, phase="choose_dealer" if dealer < 0 else "deal",
                          clock=Clock(settings.round_s))

    # ------------------------------------------------------------ who moves

    def to_move(self, state: SpyState) -> frozenset[int]:
        return to_move(state)

    def legal_actions(self, state: SpyState, seat: int) -> Sequence[Action]:
        if seat not in self.to_move(state) or seat == CHANCE:
            return []
        r = round_of(state)
        n = len(state.players)
        at = state.now
        s = state.settings
        out: list[Action] = []
        if r.phase == "choose_dealer":
            return [A.ChooseDealer(TABLE, d) for d in range(n)]
        if r.phase == "ready":
            return [A.StartClock(TABLE)]
        if r.phase == "play":
            if seat == TABLE:  # time up is a deadline (see `deadlines`)
                if r.clock.running:
                    return [A.PauseClock(TABLE)]
                return [] if r.clock.remaining(at) <= 0 else [A.ResumeClock(TABLE)]
            if not r.clock.running:
                return []
            if seat not in r.accusers:
                out += [A.Accuse(seat, t, at) for t in range(n) if t != seat]
            if s.physical or (r.facts is not None and r.facts.is_joker(seat)):
                out.append(A.RevealJoker(seat, at))
            if s.multiverse and seat not in r.callers:
                out.append(A.CallMultiverse(seat, at))
            if self._one_shot(state, seat, pride=False):
                out.append(A.UseAbility(seat, at))
            return out
        if PHASES[r.phase][0] == "ballots":
            assert r.vote is not None
            if s.sealed:
                if seat in r.vote.voted:
                    return []
                if r.vote.kind is VoteKind.PLURALITY:
                    return [A.PointAt(seat, int(c), at) for c in r.vote.options if c != seat]
                return [A.VoteYesNo(seat, True, at), A.VoteYesNo(seat, False, at)]
            if r.vote.kind is VoteKind.PLURALITY:
                cands = tuple(map(int, r.vote.options))
                return [A.Points(TABLE, c) for c in sample_tallies(n, r.vote.eligible, cands)]
            voters = r.vote.eligible
            hands = [voters, ()] + [tuple(v for v in voters if v != x) for x in voters]
            return [A.Hands(TABLE, h) for h in hands]
        if r.phase == "pride":
            if seat == TABLE:
                return [A.ResumeClock(TABLE)]
            return [A.UseAbility(seat, at)] if self._may_pride(state, seat) else []
        if r.phase == "guess":
            out = [A.GuessLocation(seat, loc.id, at) for loc in state.locations]
            if s.prank:
                out.append(A.DeclarePrank(seat, at))
            return out
        if r.phase == "confirm_guess":
            return [A.ConfirmGuess(TABLE, True), A.ConfirmGuess(TABLE, False)]
        if r.phase in ("discussion", "harley_talk"):
            return [A.StartPointing(TABLE)]
        if r.phase == "reveal":
            return [a for a in sample_entries(state) if cards_problem(state, a) is None]
        if r.phase == "round_over":
            return [A.NextRound(TABLE), A.EndSession(TABLE)]
        return []

    def deadlines(self, state: SpyState) -> list[Deadline]:
        r = state.round
        if state.over or r is None:
            return []
        if r.phase == "play" and r.clock.running:
            assert r.clock.deadline is not None
            return [Deadline(r.clock.deadline, A.TimeUp(TABLE))]
        if r.phase == "play" and r.clock.remaining(state.now) <= 0:  # paused just as time ran out
            return [Deadline(state.now, A.TimeUp(TABLE))]
        if r.phase in ("discussion", "harley_talk") and r.talk is not None and r.talk.deadline is not None:
            return [Deadline(r.talk.deadline, A.TimeUp(TABLE))]
        return []

    def table_offers(self, state: SpyState) -> tuple[Offer, ...]:
        """Besides the public moves: the Joker's reveal and the ability cards, whose legality is a seat's
        secret, as claims any player may make on their own private screen — from public facts only."""
        offers = super().table_offers(state)
        r = state.round
        s = state.settings
        seats = range(len(state.players))
        if r is None or state.over:
            return offers
        if r.phase == "play" and r.clock.running and not r.clock.expired(state.now):
            if s.physical:  # the real cards decide: anyone may claim the Joker card on the shared screen
                offers += tuple(Offer(x, A.RevealJoker.NAME, True) for x in seats)
            else:
                offers += tuple(Offer(x, A.RevealJoker.NAME, True, private=True) for x in seats)
                if s.power_up:
                    offers += tuple(Offer(x, A.UseAbility.NAME, True, private=True) for x in seats)
        if r.phase == "pride" and s.power_up and r.vote is not None:  # the accused never votes (SPY-62)
            offers += tuple(Offer(x, A.UseAbility.NAME, True, private=True) for x in r.vote.eligible)
        return offers

    def sample_chance(self, state: SpyState, rng: random.Random) -> Action:
        unused = [d for d in state.pool if d not in state.used]
        deck_id = rng.choice(unused)
        if state.settings.physical:
            return A.PickBag(CHANCE, deck_id)
        deck = state.deck(deck_id)
        n = len(state.players)
        if deck.kind == "standard":
            # the 7 location cards lie shuffled above the Joker; take n from the bottom, shuffle, deal
            above = list(range(7))
            rng.shuffle(above)
            cards = [7] + above[7 - (n - 1):] if n > 1 else [7]
        else:
            cards = rng.sample(range(8), n)
        rng.shuffle(cards)
        abilities = tuple(rng.sample(range(len(state.ability_cards)), n)) if state.settings.power_up else ()
        return A.Deal(CHANCE, deck_id, tuple(cards), abilities)

    # ------------------------------------------------------------ apply

    def _apply(self, state: SpyState, action: Action) -> Step[SpyState]:
        at = float(getattr(action, "at", 0.0) or 0.0)
        t = max(at, state.now)
        r = round_of(state)
        if action.NAME not in PHASES[r.phase][1]:
            raise err("wrong_phase")
        handler = getattr(self, "_do_" + action.NAME)
        step: Step[SpyState] = handler(state, r, action, t)
        if t != step.state.now:
            step = Step(dataclasses.replace(step.state, now=t), step.events)
        return step

    def _do_choose_dealer(self, state: SpyState, r: RoundState, a: A.ChooseDealer, t: float) -> Step[SpyState]:
        nxt = with_round(state, r, dealer=a.dealer, phase="deal")
        nxt = dataclasses.replace(nxt, first_dealer=a.dealer)
        s = state.settings
        modules = [m for m in MODULES if getattr(s, m)]
        # SPY-06, SPY-85, SPY-91: at the session start show everyone the Harley icon and announce the modules
        start = Event("session_start", {"show_harley_icon": True, "modules": modules, "rounds": s.rounds})
        return Step(nxt, (start, Event("dealer", {"dealer": a.dealer, "round": r.number})))

    def _fresh_deck(self, state: SpyState, deck_id: str) -> SessionDeck:
        if deck_id not in state.pool or deck_id in state.used:
            raise err("bad_deck")
        return state.deck(deck_id)

    def _do_pick_bag(self, state: SpyState, r: RoundState, a: A.PickBag, t: float) -> Step[SpyState]:
        if not state.settings.physical:
            raise err("physical_only")
        deck = self._fresh_deck(state, a.deck)
        nxt = with_round(state, r, deck=deck.id, phase="ready")
        nxt = dataclasses.replace(nxt, used=state.used + (deck.id,))
        return Step(nxt, (Event("take_bag", {"bag": deck.bag, "dealer": r.dealer, "round": r.number}),))

    def _do_deal(self, state: SpyState, r: RoundState, a: A.Deal, t: float) -> Step[SpyState]:
        if state.settings.physical:
            raise err("digital_only")
        deck = self._fresh_deck(state, a.deck)
        n = len(state.players)
        if len(a.cards) != n or len(set(a.cards)) != n or not all(0 <= c < len(deck.cards) for c in a.cards):
            raise err("bad_deal")
        if deck.kind == "standard" and not any(deck.cards[c] == JOKER for c in a.cards):
            raise err("bad_deal")  # the bottom card (the Joker) is always among the dealt cards
        if state.settings.power_up:
            k = len(state.ability_cards)
            if len(a.abilities) != n or len(set(a.abilities)) != n or not all(0 <= x < k for x in a.abilities):
                raise err("bad_abilities")
        elif a.abilities:
            raise module_off("power_up")
        facts = deal_facts(deck, a.cards, state.settings.harley)
        powers = Powers(a.abilities) if a.abilities else None
        nxt = with_round(state, r, deck=deck.id, dealt=a.cards, powers=powers, facts=facts, phase="ready")
        nxt = dataclasses.replace(nxt, used=state.used + (deck.id,))
        events = [Event("dealt", {"round": r.number, "dealer": r.dealer})]
        assert nxt.round is not None
        for seat in range(n):
            events.append(Event("your_card", {"card": card_view(nxt, nxt.round, seat)}, frozenset({seat})))
        return Step(nxt, tuple(events))

    def _do_start_clock(self, state: SpyState, r: RoundState, a: A.StartClock, t: float) -> Step[SpyState]:
        clock = Clock(state.settings.round_s).start(t)
        return Step(with_round(state, r, clock=clock, phase="play"), (Event("clock_started", {"at": t}),))

    def _do_pause_clock(self, state: SpyState, r: RoundState, a: A.PauseClock, t: float) -> Step[SpyState]:
        if not r.clock.running:
            raise err("clock_not_running")
        assert r.clock.deadline is not None
        # pressed just after the deadline: the clock stops at 0:00 and time is up
        clock = r.clock.pause(min(t, r.clock.deadline))
        return Step(with_round(state, r, clock=clock), (Event("clock_paused", {"at": t}),))

    def _do_resume_clock(self, state: SpyState, r: RoundState, a: A.ResumeClock, t: float) -> Step[SpyState]:
        if r.clock.running:
            raise err("clock_running")
        changes: dict[str, Any] = {"clock": r.clock.resume(t), "phase": "play"}
        if r.phase == "pride":
            changes["vote"], changes["pride"] = None, None
        return Step(with_round(state, r, **changes), (Event("clock_resumed", {"at": t}),))

    def _do_time_up(self, state: SpyState, r: RoundState, a: A.TimeUp, t: float) -> Step[SpyState]:
        if r.phase == "play":
            if not r.clock.expired(t):
                raise err("time_not_up")
            talk = Clock(state.settings.discussion_s).start(t)
            nxt = with_round(state, r, clock=r.clock.stop(t), talk=talk, phase="discussion")
            return Step(nxt, (Event("time_up", {"at": t}),))
        assert r.talk is not None
        if not r.talk.expired(t):
            raise err("time_not_up")
        return self._pointing(state, r, t)

    def _do_start_pointing(self, state: SpyState, r: RoundState, a: A.StartPointing, t: float) -> Step[SpyState]:
        return self._pointing(state, r, t)

    def _pointing(self, state: SpyState, r: RoundState, t: float) -> Step[SpyState]:
        n = len(state.players)
        assert r.talk is not None
        talk = r.talk.stop(t)
        if r.phase == "discussion":
            vote = Vote.pointing(tuple(range(n)), tuple(range(n)), state.settings.sealed)
            return Step(with_round(state, r, talk=talk, vote=vote, phase="final_vote"), (Event("point_now", {}),))
        assert r.joker is not None  # the hunt follows the Joker's right guess
        others = tuple(s for s in range(n) if s != r.joker.seat)
        vote = Vote.pointing(others, others, state.settings.sealed)
        return Step(with_round(state, r, talk=talk, vote=vote, phase="harley_vote"), (Event("hunt_now", {}),))

    def _do_accuse(self, state: SpyState, r: RoundState, a: A.Accuse, t: float) -> Step[SpyState]:
        self._running(r, t)
        if a.seat in r.accusers:
            raise err("already_accused")
        if a.accused == a.seat:
            raise err("self_accuse")
        voters = tuple(s for s in range(len(state.players)) if s != a.accused)
        vote = Vote.yes_no(VoteKind.UNANIMOUS, voters, state.settings.sealed)
        nxt = with_round(state, r, clock=r.clock.pause(t), vote=vote, phase="accusation",
                    accusations=r.accusations + ((a.seat, a.accused),))
        return Step(nxt, (Event("accused", {"accuser": a.seat, "accused": a.accused, "voters": list(voters),
                                            "reminder": "no_discussion"}),))

    def _do_call_multiverse(self, state: SpyState, r: RoundState, a: A.CallMultiverse,
                            t: float) -> Step[SpyState]:
        if not state.settings.multiverse:
            raise module_off("multiverse")
        self._running(r, t)
        if a.seat in r.callers:
            raise err("already_called")
        vote = Vote.yes_no(VoteKind.MAJORITY, tuple(range(len(state.players))), state.settings.sealed)
        nxt = with_round(state, r, clock=r.clock.pause(t), vote=vote, phase="multiverse_vote",
                    callers=r.callers + (a.seat,), multiverse=MultiverseCall(a.seat))
        return Step(nxt, (Event("multiverse_called", {"seat": a.seat}),))

    # -- votes

    def _do_vote(self, state: SpyState, r: RoundState, a: A.VoteYesNo, t: float) -> Step[SpyState]:
        vote = self._sealed_vote(state, r, a.seat)
        vote = vote.cast(a.seat, YES if a.yes else NO)
        return self._ballot(state, r, vote, a.seat, t)

    def _do_point(self, state: SpyState, r: RoundState, a: A.PointAt, t: float) -> Step[SpyState]:
        vote = self._sealed_vote(state, r, a.seat)
        if a.target == a.seat:
            raise err("self_point")
        if a.target not in vote.options:
            raise err("not_candidate")
        return self._ballot(state, r, vote.cast(a.seat, a.target), a.seat, t)

    def _sealed_vote(self, state: SpyState, r: RoundState, seat: int) -> Vote:
        assert r.vote is not None
        if not state.settings.sealed:
            raise err("open_votes")
        if seat not in r.vote.eligible:
            if r.phase == "harley_vote" and r.joker is not None and seat == r.joker.seat:
                raise err("joker_votes")
            raise err("accused_votes") if r.phase == "accusation" else err("not_a_voter")
        if seat in r.vote.voted:
            raise err("already_voted")
        return r.vote

    def _ballot(self, state: SpyState, r: RoundState, vote: Vote, seat: int, t: float) -> Step[SpyState]:
        ev = Event("voted", {"seat": seat})
        if not vote.complete:
            return Step(with_round(state, r, vote=vote), (ev,))
        if vote.kind is VoteKind.PLURALITY:
            counts = {int(c): n for c, n in zip(vote.options, vote.counts().values(), strict=True)}
            return self._decided_points(state, r, vote, counts, t, (ev,))
        yes = frozenset(v for v, c in vote.ballots if c == YES)
        return self._decided_hands(state, r, vote, yes, t, (ev,))

    def _do_hands(self, state: SpyState, r: RoundState, a: A.Hands, t: float) -> Step[SpyState]:
        assert r.vote is not None
        if state.settings.sealed:
            raise err("sealed_votes")
        yes = frozenset(a.yes)
        if len(yes) != len(a.yes):
            raise detail("bad_counts", "voter_twice")
        if r.phase == "accusation" and r.accusations[-1][1] in yes:
            raise err("accused_votes")
        if not yes <= set(r.vote.eligible):
            raise err("not_a_voter")
        return self._decided_hands(state, r, r.vote, yes, t, ())

    def _do_points(self, state: SpyState, r: RoundState, a: A.Points, t: float) -> Step[SpyState]:
        assert r.vote is not None
        if state.settings.sealed:
            raise err("sealed_votes")
        joker = r.joker.seat if r.phase == "harley_vote" and r.joker is not None else None
        refusal = tally_refusal(a.counts, r.vote.eligible, tuple(map(int, r.vote.options)), state.players, joker)
        if refusal is not None:
            raise refusal
        counts = {seat: a.counts[seat] for seat in map(int, r.vote.options)}
        return self._decided_points(state, r, r.vote, counts, t, ())

    def _decided_hands(self, state: SpyState, r: RoundState, vote: Vote, yes: frozenset[int], t: float,
                       events: tuple[Event, ...]) -> Step[SpyState]:
        no = len(vote.eligible) - len(yes)
        result = decide(vote.kind, {YES: len(yes), NO: no}, len(vote.eligible))
        r = dataclasses.replace(r, counts=((YES, len(yes)), (NO, no)))
        subject = "multiverse" if r.phase == "multiverse_vote" else "accusation"
        events = events + (Event("vote_result", {"vote": subject, "yes": len(yes), "no": no,
                                                 "passed": result.decided}),)
        if r.phase == "multiverse_vote":
            if result.decided:
                assert r.multiverse is not None
                call = dataclasses.replace(r.multiverse, yes=yes)
                return self._end(with_round(state, r, multiverse=call, vote=None), Verdict("multiverse"), t, events)
            return Step(with_round(state, r, vote=None, clock=r.clock.resume(t), phase="play"), events)
        accuser, accused = r.accusations[-1]
        if result.decided:
            return self._end(with_round(state, r, vote=None), Verdict("accusation", accused, accuser), t, events)
        if state.settings.power_up and len(yes) > no:
            return Step(with_round(state, r, vote=vote, pride=Pride(yes), phase="pride"), events)
        return Step(with_round(state, r, vote=None, clock=r.clock.resume(t), phase="play"), events)

    def _decided_points(self, state: SpyState, r: RoundState, vote: Vote, counts: Mapping[int, int], t: float,
                        events: tuple[Event, ...]) -> Step[SpyState]:
        result = decide(VoteKind.PLURALITY, {k: v for k, v in counts.items()}, len(vote.eligible))
        winner = int(result.winner) if result.winner is not None else None
        r = dataclasses.replace(r, vote=None, counts=tuple((str(k), v) for k, v in sorted(counts.items())))
        top = -1 if winner is None else winner
        events = events + (Event("pointed", {"counts": {str(k): v for k, v in counts.items()}, "top": top}),)
        if r.phase == "harley_vote":
            assert r.joker is not None
            hunt = dataclasses.replace(r.joker, hunt_suspect=winner)
            return self._end(with_round(state, r, joker=hunt), Verdict("guess"), t, events)
        if winner is not None:
            return self._end(with_round(state, r), Verdict("final_vote", winner), t, events)
        return self._end(with_round(state, r), Verdict("no_conviction"), t, events)

    # -- abilities

    # -- end of round

    def _end(self, state: SpyState, verdict: Verdict, t: float, events: tuple[Event, ...]) -> Step[SpyState]:
        r = round_of(state)
        clock = r.clock.stop(t) if r.clock.started else r.clock
        talk = r.talk.stop(t) if r.talk is not None else None
        r = dataclasses.replace(r, verdict=verdict, clock=clock, talk=talk, vote=None)
        if state.settings.physical:
            return Step(dataclasses.replace(state, round=dataclasses.replace(r, phase="reveal")),
                        events + (Event("show_cards", {"ending": verdict.ending}),))
        assert r.facts is not None
        return self._score(state, r, r.facts, events)

    def _score(self, state: SpyState, r: RoundState, facts: Facts, events: tuple[Event, ...]) -> Step[SpyState]:
        n = len(state.players)
        points = score_round(n, state.settings, r, facts)
        totals = tuple(a + b for a, b in zip(state.totals, points, strict=True))
        assert r.deck is not None and r.verdict is not None
        deck = state.deck(r.deck)
        v = r.verdict
        record = RoundRecord(
            number=r.number, dealer=r.dealer, deck=r.deck, kind=facts.kind, cards=facts.cards,
            joker=_seat_or_none(facts.joker), harley=_seat_or_none(facts.harley),
            place=facts.location or deck.location, ending=v.ending,
            convicted=_seat_or_none(v.convicted), accuser=_seat_or_none(v.accuser),
            guess=(r.joker.guess if r.joker is not None else None) or "", points=points,
            abilities=tuple(state.ability_cards[i].id for i in (r.powers.cards if r.powers else ())))
        r = dataclasses.replace(r, facts=facts, points=points, phase="round_over")
        history = state.history + (record,)
        over = len(history) >= state.settings.rounds
        nxt = dataclasses.replace(state, round=r, history=history, totals=totals, over=over)
        events = events + (Event("round_scored", {"round": r.number, "points": list(points),
                                                  "totals": list(totals)}),)
        if over:
            events += (Event("session_over", {"totals": list(totals)}),)
        return Step(nxt, events)

    def _do_enter_cards(self, state: SpyState, r: RoundState, a: A.EnterCards, t: float) -> Step[SpyState]:
        problem = cards_problem(state, a)
        if problem is not None:
            raise detail("bad_cards", problem)
        n = len(state.players)
        if a.kind == "joker":
            cards = (JOKER,) * n
        else:
            cards = tuple(JOKER if s == a.joker else "" for s in range(n))
        standard = a.kind == "standard"
        facts = Facts(kind=a.kind, cards=cards, joker=a.joker if standard else None,  # type: ignore[arg-type]
                      harley=a.harley if state.settings.harley and standard and a.harley >= 0 else None)
        return self._score(state, r, facts, (Event("cards_entered", {"kind": a.kind, "joker": a.joker,
                                                                     "harley": a.harley}),))

    def _do_next_round(self, state: SpyState, r: RoundState, a: A.NextRound, t: float) -> Step[SpyState]:
        assert r.facts is not None
        # the previous Joker deals; a round without a single Joker keeps its dealer (SPY-14)
        dealer = r.facts.joker if r.facts.joker is not None else r.dealer
        nxt = dataclasses.replace(state, round=self._new_round(state.settings, r.number + 1, dealer))
        return Step(nxt, (Event("next_round", {"round": r.number + 1, "dealer": dealer}),))

    def _do_end_session(self, state: SpyState, r: RoundState, a: A.EndSession, t: float) -> Step[SpyState]:
        return Step(dataclasses.replace(state, over=True), (Event("session_over", {"totals": list(state.totals)}),))

    # ------------------------------------------------------------ views, outcome, secrets

    def ref_ids(self, state: SpyState, catalog: str) -> tuple[str, ...] | None:
        """The places a guess may name (the view's location list)."""
        return tuple(loc.id for loc in state.locations) if catalog == "locations" else None

    def observe(self, state: SpyState, seat: int | None) -> View:
        r = state.round
        phase = "over" if state.over or r is None else r.phase
        places = tuple(Named(loc.id, loc.ko, loc.en, tuple(loc.aliases)) for loc in state.locations)
        abilities = tuple(Named(a.id, a.ko, a.en) for a in state.ability_cards)  # every card, whoever holds it
        game = view_of(state, seat)
        return self.make_view(state, seat, phase, game, scores=state.totals,
                              catalogs={"locations": places, "abilities": abilities},
                              mine=parts_of(game) if seat is not None and seat >= 0 else ())

    def hidden_variants(self, state: SpyState) -> Iterable[tuple[SpyState, frozenset[int]]]:
        return hidden_variants(state)

    def secrets(self, state: SpyState) -> Iterable[Secret]:
        return secrets_of(state)

    def outcome(self, state: SpyState) -> Outcome | None:
        if not state.over:
            return None
        best = max(state.totals)
        winners = tuple(s for s, p in enumerate(state.totals) if p == best)  # SPY-10: ties share the win
        return Outcome(winners=winners, reason="session_over",
                       scores={s: p for s, p in enumerate(state.totals)},
                       detail={"rounds": len(state.history)})


def _seat_or_none(seat: int | None) -> int:
    """A round record's seat: -1 for nobody (the records keep their JSON shape)."""
    return -1 if seat is None else seat


def _deck_kinds(modules: set[str]) -> set[str]:
    """The kinds of deck in play: standard, plus the Joker deck (prank) and the multiverse decks."""
    return {"standard"} | ({"joker"} if "prank" in modules else set()) | (
        {"multiverse"} if "multiverse" in modules else set())

