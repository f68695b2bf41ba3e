"""A small table driver for Spyfall DC tests: forced deals, timed actions, the rulebook's four players."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from engines.core import CHANCE, TABLE, Action, Event, RuleError
from engines.spyfall import ENGINE
from engines.spyfall import actions as A
from engines.spyfall.content import AbilityDeck, DeckBox
from engines.spyfall.state import RoundState, SpyState
from tests.packs import pack_for

E = ENGINE
T0 = 1_800_000_000.0
ANN, JUAN, MARIA, ISAAC = 0, 1, 2, 3
RULEBOOK = ["앤", "후안", "마리아", "이삭"]
NAMES = ["지수", "민호", "서연", "도윤", "하은", "준우", "유나", "현우"]


def pack() -> dict[str, Any]:
    p = pack_for("spyfall")
    if not p:  # before the content loader: read the YAML directly
        import yaml

        from content import ROOT
        from engines.serial import from_jsonable
        base = ROOT / "games" / "spyfall"
        p = {"decks": from_jsonable(DeckBox, yaml.safe_load((base / "decks.yaml").read_text("utf-8"))),
             "abilities": from_jsonable(AbilityDeck, yaml.safe_load((base / "abilities.yaml").read_text("utf-8")))}
    return dict(p)


PACK = pack()


def harley_index(deck_id: str) -> int:
    deck = PACK["decks"].deck(deck_id)
    return next(i for i, c in enumerate(deck.cards) if c.harley)


def ability_index(ability_id: str) -> int:
    return next(i for i, a in enumerate(PACK["abilities"].cards) if a.id == ability_id)


class Table:
    """Drives one session; `t` is the table's wall time in seconds after T0."""

    def __init__(self, players: Sequence[str] = RULEBOOK, modules: Iterable[str] = (), votes: str = "open",
                 deal: str = "digital", rounds: int = 5, **extra: Any) -> None:
        self.config = {"players": list(players), "modules": list(modules), "votes": votes, "deal": deal,
                       "rounds": rounds, **extra}
        self.state: SpyState = E.setup(self.config, PACK, seed=7)
        self.events: tuple[Event, ...] = ()
        self.log: list[Action] = []
        self.t = 0.0

    @property
    def n(self) -> int:
        return len(self.state.players)

    @property
    def r(self) -> RoundState:
        assert self.state.round is not None
        return self.state.round

    def at(self) -> float:
        return T0 + self.t

    def do(self, action: Action) -> tuple[Event, ...]:
        step = E.apply(self.state, action)
        self.state, self.events = step.state, step.events
        self.log.append(action)
        return step.events

    def fails(self, action: Action, code: str) -> RuleError:
        before = E.state_to_dict(self.state)
        with pytest.raises(RuleError) as info:
            E.apply(self.state, action)
        assert info.value.code == code, (info.value.code, info.value.ko)
        assert any("\uac00" <= ch <= "\ud7a3" for ch in info.value.ko)
        assert E.state_to_dict(self.state) == before
        return info.value

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    # -- round set-up
    def choose_dealer(self, dealer: int = 0) -> None:
        self.do(A.ChooseDealer(TABLE, dealer))

    def deal(self, deck: str = "watchtower", joker: int = ANN, harley: int | None = None,
             abilities: dict[int, str] | None = None, cards: Sequence[int] | None = None) -> None:
        """Deal `deck` so that `joker` holds the Joker card and `harley` (if given) the icon card."""
        if cards is None:
            d = PACK["decks"].deck(deck)
            if d.kind == "standard":
                h = harley_index(deck)
                plain = [i for i in range(7) if i != h]
                seq = []
                for seat in range(self.n):
                    if seat == joker:
                        seq.append(7)
                    elif seat == harley:
                        seq.append(h)
                    else:
                        seq.append(plain.pop(0))
                cards = seq
            else:
                cards = list(range(self.n))
        ab: tuple[int, ...] = ()
        if self.state.settings.power_up:
            chosen = dict(abilities or {})
            used = {ability_index(x) for x in chosen.values()}
            free = [i for i in range(12) if i not in used and PACK["abilities"].cards[i].effect == "none"
                    and not PACK["abilities"].cards[i].one_shot]
            free += [i for i in range(12) if i not in used and i not in free]
            ab = tuple(ability_index(chosen[s]) if s in chosen else free.pop(0) for s in range(self.n))
        self.do(A.Deal(CHANCE, deck, tuple(cards), ab))

    def start(self, deck: str = "watchtower", joker: int = ANN, dealer: int = 0, **kw: Any) -> None:
        if self.r.phase == "choose_dealer":
            self.choose_dealer(dealer)
        if self.state.settings.physical:
            self.do(A.PickBag(CHANCE, deck))
        else:
            self.deal(deck, joker, **kw)
        self.do(A.StartClock(TABLE, self.at()))

    def wait(self, seconds: float) -> None:
        self.t += seconds

    # -- common steps
    def accuse(self, accuser: int, accused: int) -> None:
        self.do(A.Accuse(accuser, accused, self.at()))

    def hands(self, yes: Iterable[int]) -> None:
        self.do(A.Hands(TABLE, tuple(yes), self.at()))

    def points(self, **by_seat: int) -> None:
        counts = [0] * self.n
        for k, v in by_seat.items():
            counts[int(k.lstrip("s"))] = v
        self.do(A.Points(TABLE, tuple(counts), self.at()))

    def point_counts(self, counts: Sequence[int]) -> None:
        self.do(A.Points(TABLE, tuple(counts), self.at()))

    def time_up(self) -> None:
        assert self.r.clock.deadline is not None
        self.t = self.r.clock.deadline - T0
        self.do(A.TimeUp(TABLE, self.at()))

    def discuss_then_point(self) -> None:
        self.do(A.StartPointing(TABLE, self.at()))

    def points_of_round(self) -> tuple[int, ...]:
        return self.state.history[-1].points

    def replace_round(self, **changes: Any) -> None:
        self.state = dataclasses.replace(self.state, round=dataclasses.replace(self.r, **changes))

    # -- votes in either mode: the same ballots, entered open (counts by the table) or sealed (per seat)
    def vote_hands(self, yes: Iterable[int]) -> None:
        yes = set(yes)
        if not self.state.settings.sealed:
            self.hands(sorted(yes))
            return
        assert self.r.vote is not None
        for voter in self.r.vote.eligible:
            self.do(A.VoteYesNo(voter, voter in yes, self.at()))

    def vote_points(self, ballots: dict[int, int]) -> None:
        if not self.state.settings.sealed:
            counts = [0] * self.n
            for target in ballots.values():
                counts[target] += 1
            self.point_counts(counts)
            return
        for voter, target in ballots.items():
            self.do(A.PointAt(voter, target, self.at()))
