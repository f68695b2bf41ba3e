"""The box as content: decks, locations, ability cards."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.serial import SchemaError, from_jsonable
from engines.spyfall.content import Card, Deck, DeckBox
from tests.engines.spyfall.helpers import PACK


def test_box_has_196_cards_in_24_bags() -> None:
    """Covers SPY-03. 20 standard decks × 8 + 8 Jokers + 2 multiverse × 8 + 12 abilities = 196, in 24 bags."""
    box: DeckBox = PACK["decks"]
    kinds = Counter(d.kind for d in box.decks)
    assert kinds == {"standard": 20, "joker": 1, "multiverse": 2}
    cards = sum(len(d.cards) for d in box.decks) + len(PACK["abilities"].cards)
    assert cards == 196
    assert len(box.decks) + 1 == 24  # + the ability deck's bag
    assert sorted(d.bag for d in box.decks) == list(range(1, 24))


def test_standard_deck_is_seven_locations_and_a_joker_at_the_bottom() -> None:
    """Covers SPY-04, SPY-05. Same location ×7, exactly one with the Harley icon, the Joker last."""
    for deck in PACK["decks"].of_kind("standard"):
        assert [c.kind for c in deck.cards] == ["location"] * 7 + ["joker"]
        assert len({c.location for c in deck.cards[:7]}) == 1
        assert sum(c.harley for c in deck.cards) == 1 and not deck.cards[7].harley


def test_twenty_locations_with_korean_and_english_names() -> None:
    """Covers SPY-07. The rulebook's 16 spare names + Warworld and three more DC locations = 20, one
    standard deck each, Korean and English names."""
    box: DeckBox = PACK["decks"]
    assert len(box.locations) == 20
    assert {d.location for d in box.of_kind("standard")} == {loc.id for loc in box.locations}
    for loc in box.locations:
        assert loc.en and any("\uac00" <= ch <= "\ud7a3" for ch in loc.ko)
    named = {"arkham_asylum", "atlantis", "batcave", "belle_reve", "central_city_pd", "daily_planet",
             "ferris_air", "fortress_of_solitude", "gotham_university", "hall_of_justice", "iceberg_lounge",
             "lexcorp_tower", "star_labs", "themyscira", "titans_tower", "watchtower", "warworld"}
    assert named <= {loc.id for loc in box.locations}


def test_multiverse_decks_are_the_sixteen_spares() -> None:
    """Covers SPY-90. Two decks of 8 from the 16 spare location cards: all different, no Joker, no icon."""
    mv = PACK["decks"].of_kind("multiverse")
    cards = [c for d in mv for c in d.cards]
    assert len(mv) == 2 and len(cards) == 16 and len({c.location for c in cards}) == 16
    assert not any(c.kind == "joker" or c.harley for c in cards)
    jokers = PACK["decks"].of_kind("joker")
    assert len(jokers) == 1 and all(c.kind == "joker" for c in jokers[0].cards)


def test_twelve_ability_cards_with_one_shot_flags() -> None:
    """Covers SPY-59, SPY-60. 12 cards, our own Korean/English texts; some one-shot (원샷), some without
    effect; God's Pride is a one-shot with the engine effect."""
    cards = PACK["abilities"].cards
    assert len(cards) == 12 and len({a.id for a in cards}) == 12
    assert all(a.text_ko and a.text_en for a in cards)
    assert all(("원샷" in a.text_ko) == a.one_shot for a in cards)
    pride = [a for a in cards if a.effect == "gods_pride"]
    assert len(pride) == 1 and pride[0].ko == "신의 자부심" and pride[0].one_shot
    assert any(not a.one_shot for a in cards) and sum(a.one_shot for a in cards) >= 3


def test_content_validation_names_the_problem() -> None:
    """A deck without its Joker at the bottom, or with two Harley icons, does not load."""
    loc = {"kind": "location", "location": "batcave"}
    bad = {"id": "x", "kind": "standard", "bag": 99, "cards": [loc] * 7 + [{"kind": "location", "location": "batcave"}]}
    with pytest.raises(SchemaError):
        from_jsonable(Deck, bad)
    two = {"id": "x", "kind": "standard", "bag": 99,
           "cards": [{**loc, "harley": True}] * 2 + [loc] * 5 + [{"kind": "joker"}]}
    with pytest.raises(SchemaError, match="Harley"):
        from_jsonable(Deck, two)
    with pytest.raises(ValueError):
        Card("joker", harley=True)
