"""Content types of Spyfall DC (content/games/spyfall/*.yaml), loaded by content/loader.py.

- `decks.yaml` → `DeckBox`: the locations (ko/en names, search aliases) and every deck of the box with
  its cards in bag order (top → bottom; a standard deck ends with its Joker card).
- `abilities.yaml` → `AbilityDeck`: the 12 Power-up ability cards (our own short texts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

DeckKind = Literal["standard", "joker", "multiverse"]
CardKind = Literal["location", "joker"]
Effect = Literal["none", "gods_pride"]


@dataclass(frozen=True)
class Location:
    id: str
    ko: str
    en: str
    aliases: tuple[str, ...] = ()  # other spellings for the searchable list and voice


@dataclass(frozen=True)
class Card:
    kind: CardKind
    location: str = ""  # location id for a location card
    harley: bool = False  # bears the Harley Quinn icon

    def __post_init__(self) -> None:
        if self.kind == "location" and not self.location:
            raise ValueError("a location card needs its location")
        if self.kind == "joker" and (self.location or self.harley):
            raise ValueError("a Joker card has no location and no Harley icon")


@dataclass(frozen=True)
class Deck:
    id: str
    kind: DeckKind
    bag: int  # the number on the bag's sticker (physical mode names the bag by it)
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        if len(self.cards) != 8:
            raise ValueError(f"deck {self.id} must have 8 cards, not {len(self.cards)}")
        jokers = [c for c in self.cards if c.kind == "joker"]
        icons = [c for c in self.cards if c.harley]
        if self.kind == "standard":
            places = {c.location for c in self.cards if c.kind == "location"}
            if len(jokers) != 1 or self.cards[-1].kind != "joker":
                raise ValueError(f"standard deck {self.id}: 7 location cards and 1 Joker at the bottom")
            if len(places) != 1:
                raise ValueError(f"standard deck {self.id}: all 7 location cards show the same location")
            if len(icons) != 1:
                raise ValueError(f"standard deck {self.id}: exactly one card bears the Harley icon")
        elif self.kind == "joker":
            if len(jokers) != 8:
                raise ValueError(f"joker deck {self.id}: 8 Joker cards")
        elif jokers or icons:
            raise ValueError(f"multiverse deck {self.id}: no Joker card and no Harley icon")

    @property
    def location(self) -> str:
        """The location of a standard deck ("" for the others)."""
        return self.cards[0].location if self.kind == "standard" else ""


@dataclass(frozen=True)
class DeckBox:
    locations: tuple[Location, ...]
    decks: tuple[Deck, ...]

    def __post_init__(self) -> None:
        ids = [loc.id for loc in self.locations]
        if len(set(ids)) != len(ids):
            raise ValueError("location ids must be unique")
        known = set(ids)
        for deck in self.decks:
            for card in deck.cards:
                if card.location and card.location not in known:
                    raise ValueError(f"deck {deck.id}: unknown location {card.location!r}")
        if len({d.id for d in self.decks}) != len(self.decks) or len({d.bag for d in self.decks}) != len(self.decks):
            raise ValueError("deck ids and bag numbers must be unique")

    def deck(self, deck_id: str) -> Deck:
        for d in self.decks:
            if d.id == deck_id:
                return d
        raise KeyError(deck_id)

    def place(self, location_id: str) -> Location:
        for loc in self.locations:
            if loc.id == location_id:
                return loc
        raise KeyError(location_id)

    def of_kind(self, kind: DeckKind) -> tuple[Deck, ...]:
        return tuple(d for d in self.decks if d.kind == kind)


@dataclass(frozen=True)
class Ability:
    id: str
    ko: str
    en: str
    text_ko: str
    text_en: str
    one_shot: bool = False  # flipped face up when used ("원샷")
    effect: Effect = "none"  # what the engine itself enforces; the rest is for the table


@dataclass(frozen=True)
class AbilityDeck:
    cards: tuple[Ability, ...]

    def __post_init__(self) -> None:
        if len({a.id for a in self.cards}) != len(self.cards):
            raise ValueError("ability ids must be unique")
