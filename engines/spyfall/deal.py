"""Deal helpers: the facts of a dealt round, and the re-mixed multiverse decks of a digital session."""

from __future__ import annotations

import dataclasses
import random

from engines.spyfall.state import JOKER, Facts, SessionDeck


def deal_facts(deck: SessionDeck, dealt: tuple[int, ...], harley_module: bool) -> Facts:
    cards = tuple(deck.cards[c] for c in dealt)
    joker = cards.index(JOKER) if deck.kind == "standard" else None
    harley = dealt.index(deck.harley) if harley_module and deck.harley in dealt else None
    return Facts(kind=deck.kind, cards=cards, joker=joker, harley=harley, location=deck.location or None)


def remix(decks: tuple[SessionDeck, ...], rng: random.Random) -> tuple[SessionDeck, ...]:
    """Digital sessions re-mix the 16 spare cards into two new multiverse decks (SPY-90)."""
    mv = [d for d in decks if d.kind == "multiverse"]
    cards = [c for d in mv for c in d.cards]
    rng.shuffle(cards)
    size = len(cards) // max(1, len(mv))
    fresh = {d.id: dataclasses.replace(d, cards=tuple(cards[i * size:(i + 1) * size])) for i, d in enumerate(mv)}
    return tuple(fresh.get(d.id, d) for d in decks)
