"""What one player knows, as plain facts: the solver's input.

Owners are the players 0..P-1 and the envelope (owner P). Facts come from the seat's own hand, the
public history (who passed, who showed), the cards shown to this seat, and wrong accusations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FactKind = Literal["has", "lacks", "one_of", "envelope", "not_triple"]


@dataclass(frozen=True)
class Fact:
    """`has`: player holds cards[0]; `lacks`: player holds none of cards; `one_of`: player holds at least
    one of cards (they showed an unseen card; `ref` numbers the mark); `envelope`: cards[0] is in the
    envelope; `not_triple`: the envelope is not exactly these three cards (a wrong accusation)."""

    kind: FactKind
    player: int
    cards: tuple[str, ...]
    ref: int = 0


@dataclass(frozen=True)
class Knowledge:
    categories: tuple[tuple[str, ...], ...]  # card ids per category (suspects, weapons, rooms)
    hand_sizes: tuple[int, ...]  # per player
    facts: tuple[Fact, ...] = ()
    me: int = -1  # whose point of view (-1: an outside observer)

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def envelope(self) -> int:
        return len(self.hand_sizes)

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(c for cat in self.categories for c in cat)

    def add(self, *facts: Fact) -> Knowledge:
        return Knowledge(self.categories, self.hand_sizes, self.facts + facts, self.me)

    def with_hand(self, player: int, cards: tuple[str, ...]) -> Knowledge:
        """Own hand: O on these, and (the hand size being known) X on every other card."""
        return self.add(*(Fact("has", player, (c,)) for c in cards))

    def numbered(self, player: int, cards: tuple[str, ...]) -> Knowledge:
        ref = 1 + sum(1 for f in self.facts if f.kind == "one_of")
        return self.add(Fact("one_of", player, tuple(cards), ref))


def hand_sizes(n_cards: int, n_players: int, first: int = 0) -> tuple[int, ...]:
    """Cards dealt one at a time clockwise starting with seat `first`: earlier seats get the extra cards."""
    base, extra = divmod(n_cards, n_players)
    sizes = [base] * n_players
    for k in range(extra):
        sizes[(first + k) % n_players] += 1
    return tuple(sizes)
