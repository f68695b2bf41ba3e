"""Card sets as content: the classic set, the errata, the notation-example set."""

from __future__ import annotations

from engines.clue.content import CLASSIC, sets_in
from tests.engines.clue.helpers import PACK, game


def test_classic_set_matches_rulebook_components() -> None:
    """Covers CLUE-03, CLUE-01: 6 suspects with colours, 6 weapons, 9 rooms = 21 cards; the envelope
    holds one of each kind (who, where, with what)."""
    s = sets_in(PACK)["classic"]
    assert [c.color for c in s.suspects] == ["빨간색", "노란색", "하얀색", "초록색", "파란색", "보라색"]
    assert {c.en: c.color_en for c in s.suspects}["Colonel Mustard"] == "yellow"
    assert {c.ko for c in s.weapons} == {"끈", "파이프", "칼", "렌치", "촛대", "연발 권총"}
    assert (len(s.suspects), len(s.weapons), len(s.rooms), len(s.cards)) == (6, 6, 9, 21)
    state = game(3)
    cats = [s.category_of(c) for c in state.envelope]
    assert cats == [0, 1, 2]


def test_shipped_yaml_equals_builtin_fallback() -> None:
    """Covers CLUE-03: the built-in fallback set is the shipped YAML, field for field."""
    assert sets_in(PACK)["classic"] == CLASSIC
    assert sets_in({})["classic"] == CLASSIC


def test_errata_kitchen_is_bueok() -> None:
    """Covers CLUE-04: errata 1 — the room is named 부엌, never 주방."""
    s = sets_in(PACK)["classic"]
    names = [c.ko for c in s.rooms]
    assert "부엌" in names and "주방" not in names


def test_errata_pool_is_ignored() -> None:
    """Covers CLUE-05 (AMBIGUOUS, reading A): no swimming-pool component or rule exists in any set."""
    for s in sets_in(PACK).values():
        assert not any("pool" in c.id or "수영장" in c.ko for c in s.cards)
    assert "pool" not in " ".join(sorted(game(3).__dataclass_fields__))


def test_player_range_is_three_to_six() -> None:
    """Covers CLUE-02: the classic set plays with 3 to 6."""
    assert sets_in(PACK)["classic"].players == (3, 6)


def test_secret_passages_join_opposite_corners() -> None:
    """Covers CLUE-23: kitchen↔study and conservatory↔lounge, both ways."""
    s = sets_in(PACK)["classic"]
    assert s.passage_from("kitchen") == "study" and s.passage_from("study") == "kitchen"
    assert s.passage_from("lounge") == "conservatory" and s.passage_from("conservatory") == "lounge"
    assert s.passage_from("hall") is None


def test_notation_example_set_has_poison_and_deals_nineteen() -> None:
    """Covers CLUE-68 (AMBIGUOUS, reading A): a set with poison, 22 cards, 4 players get 5/5/5/4."""
    s = sets_in(PACK)["notation_example"]
    assert "poison" in s.ids(1) and len(s.cards) == 22
    state = game(4, card_set="notation_example")
    assert sorted(state.hand_sizes) == [4, 5, 5, 5] and sum(map(len, state.hands)) == 19
