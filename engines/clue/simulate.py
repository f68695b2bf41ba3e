"""Simulated games for the solver's tests and benchmark (no engine state: just deals and suggestions).

Each turn the current player makes a suggestion (random triple, or a chooser's pick); disproval goes
clockwise from the suggester's left and the first holder shows one of the named cards at random. The
observer (seat 0 by default) gets the facts a real player would note: their hand, every pass, a shown
card when it is shown to them, and "showed one of these" when shown to someone else.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engines.clue.knowledge import Fact, Knowledge, hand_sizes

Chooser = Callable[[Knowledge, int, random.Random], tuple[str, str, str]]


@dataclass(frozen=True)
class Deal:
    categories: tuple[tuple[str, ...], ...]
    envelope: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]

    def owner(self, card: str) -> int:
        for p, h in enumerate(self.hands):
            if card in h:
                return p
        return len(self.hands)


def deal(categories: tuple[tuple[str, ...], ...], players: int, rng: random.Random) -> Deal:
    envelope = tuple(rng.choice(cat) for cat in categories)
    rest = [c for cat in categories for c in cat if c not in envelope]
    rng.shuffle(rest)
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, c in enumerate(rest):
        hands[i % players].append(c)
    return Deal(categories, envelope, tuple(tuple(h) for h in hands))


def random_suggestion(kn: Knowledge, seat: int, rng: random.Random) -> tuple[str, str, str]:
    s, w, r = (rng.choice(cat) for cat in kn.categories[:3])
    return (s, w, r)


def play(d: Deal, rng: random.Random, turns: int, observer: int = 0,
         chooser: Chooser | None = None) -> Iterator[tuple[int, Knowledge]]:
    """Yield (turn number, observer's knowledge) after the deal and after every suggestion."""
    n = len(d.hands)
    kn = Knowledge(d.categories, hand_sizes(sum(map(len, d.hands)), n), (), observer)
    kn = kn.with_hand(observer, d.hands[observer])
    yield 0, kn
    for turn in range(1, turns + 1):
        seat = (turn - 1) % n
        pick = (chooser if chooser is not None and seat == observer else random_suggestion)
        named = pick(kn, seat, rng)
        facts: list[Fact] = []
        for k in range(1, n):
            p = (seat + k) % n
            held = [c for c in named if c in d.hands[p]]
            if not held:
                if p != observer:
                    facts.append(Fact("lacks", p, named))
                continue
            if seat == observer:
                facts.append(Fact("has", p, (rng.choice(held),)))
            elif p != observer:
                ref = 1 + sum(1 for f in kn.facts if f.kind == "one_of")
                facts.append(Fact("one_of", p, named, ref))
            break
        kn = kn.add(*facts)
        yield turn, kn
