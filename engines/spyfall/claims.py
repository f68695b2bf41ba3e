"""Spyfall DC: the moves whose legality is one seat's secret — the Joker's reveal and the guess, prank and
check that follow it, and the ability cards (one-shots and God's Pride). The shared screen offers them only
as claims on the seat's own private screen (`Spyfall.table_offers`); the round rules are in rules.py."""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from typing import Any

from engines.core import Engine, Event, Step
from engines.spyfall import actions as A
from engines.spyfall.messages import err, module_off
from engines.spyfall.state import JokerPlay, Powers, RoundState, SpyState, Verdict
from engines.timers import Clock


def round_of(state: SpyState) -> RoundState:
    assert state.round is not None
    return state.round


def with_round(state: SpyState, r: RoundState, **changes: Any) -> SpyState:
    return dataclasses.replace(state, round=dataclasses.replace(r, **changes))


class ClaimRules(Engine[SpyState]):
    """The secret-dependent moves; `Spyfall` (rules.py) adds the round's other rules and its end."""

    @abstractmethod
    def _end(self, state: SpyState, verdict: Verdict, t: float, events: tuple[Event, ...]) -> Step[SpyState]:
        """The round ends (scores, or the physical reveal)."""

    def _running(self, r: RoundState, t: float) -> None:
        """The round clock runs and time is not up (accusations, the Joker's reveal, multiverse calls)."""
        if not r.clock.running:
            raise err("clock_not_running")
        if r.clock.expired(t):
            raise err("time_is_up")

    def _do_reveal_joker(self, state: SpyState, r: RoundState, a: A.RevealJoker, t: float) -> Step[SpyState]:
        self._running(r, t)
        if not state.settings.physical and (r.facts is None or not r.facts.is_joker(a.seat)):
            raise err("not_joker")
        nxt = with_round(state, r, clock=r.clock.pause(t), joker=JokerPlay(a.seat), phase="guess")
        return Step(nxt, (Event("joker_revealed", {"seat": a.seat}),))

    def _do_guess_location(self, state: SpyState, r: RoundState, a: A.GuessLocation, t: float) -> Step[SpyState]:
        assert r.joker is not None
        nxt = with_round(state, r, joker=dataclasses.replace(r.joker, guess=a.location))
        ev = Event("guessed", {"seat": a.seat, "guess": a.location})
        if state.settings.physical:
            return Step(with_round(nxt, round_of(nxt), phase="confirm_guess"), (ev,))
        assert r.facts is not None
        correct = r.facts.kind == "standard" and a.location == r.facts.location
        return self._after_guess(nxt, round_of(nxt), correct, t, (ev,))

    def _do_confirm_guess(self, state: SpyState, r: RoundState, a: A.ConfirmGuess, t: float) -> Step[SpyState]:
        return self._after_guess(state, r, a.correct, t, ())

    def _after_guess(self, state: SpyState, r: RoundState, correct: bool, t: float,
                     events: tuple[Event, ...]) -> Step[SpyState]:
        events = events + (Event("guess_result", {"correct": correct}),)
        assert r.joker is not None
        joker = dataclasses.replace(r.joker, correct=correct)
        if correct and state.settings.harley:
            talk = Clock(state.settings.harley_s).start(t)
            return Step(with_round(state, r, joker=joker, talk=talk, phase="harley_talk"), events)
        return self._end(with_round(state, r, joker=joker), Verdict("guess"), t, events)

    def _do_declare_prank(self, state: SpyState, r: RoundState, a: A.DeclarePrank, t: float) -> Step[SpyState]:
        if not state.settings.prank:
            raise module_off("prank")
        assert r.joker is not None
        nxt = with_round(state, r, joker=dataclasses.replace(r.joker, prank=True))
        return self._end(nxt, Verdict("prank"), t, (Event("prank_declared", {"seat": a.seat}),))

    def _one_shot(self, state: SpyState, seat: int, pride: bool) -> bool:
        r = round_of(state)
        if not state.settings.power_up or state.settings.physical or r.powers is None or seat in r.flipped:
            return False
        card = state.ability_cards[r.powers.cards[seat]]
        return card.one_shot and (card.effect == "gods_pride") == pride

    def _may_pride(self, state: SpyState, seat: int) -> bool:
        """SPY-62/64/65: the holder voted with the majority (yes); the accused never votes."""
        pride = round_of(state).pride
        if pride is None or pride.by is not None or seat not in pride.majority:
            return False
        return state.settings.physical or self._one_shot(state, seat, pride=True)

    def _do_use_ability(self, state: SpyState, r: RoundState, a: A.UseAbility, t: float) -> Step[SpyState]:
        if not state.settings.power_up:
            raise module_off("power_up")
        if r.phase == "pride":
            assert r.pride is not None
            if r.pride.by is not None:
                raise err("pride_used")
            if not state.settings.physical and not self._one_shot(state, a.seat, pride=True):
                raise err("no_ability")
            if not self._may_pride(state, a.seat):
                raise err("pride_side")
            assert r.vote is not None
            accuser, accused = r.accusations[-1]
            nxt = with_round(state, r, pride=dataclasses.replace(r.pride, by=a.seat), powers=_flip(r, a.seat),
                             vote=None)
            ev = Event("ability_used", {"seat": a.seat, "ability": "gods_pride"})
            return self._end(nxt, Verdict("accusation", accused, accuser), t, (ev,))
        if state.settings.physical:
            raise err("digital_only")
        self._running(r, t)  # like every play move: not while the table has paused the clock
        if not self._one_shot(state, a.seat, pride=False):
            if self._one_shot(state, a.seat, pride=True):
                raise err("pride_timing")
            raise err("no_ability")
        assert r.powers is not None
        card = state.ability_cards[r.powers.cards[a.seat]]
        return Step(with_round(state, r, powers=_flip(r, a.seat)),
                    (Event("ability_used", {"seat": a.seat, "ability": card.id}),))


def _flip(r: RoundState, seat: int) -> Powers | None:
    """The seat's ability card turned face up (physical rounds keep no cards: the real one is flipped)."""
    return None if r.powers is None else dataclasses.replace(r.powers, flipped=r.powers.flipped | {seat})
