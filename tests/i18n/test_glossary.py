"""Every Korean string of a game uses its rulebook's words (content/i18n/glossary), and none carries a
"(이)가"-style particle fallback."""

from __future__ import annotations

from content.glossary import FALLBACK, load, violations
from tests.i18n.strings import GAMES, korean_strings


def test_every_game_has_a_glossary_with_rulebook_terms() -> None:
    glossary = load()
    assert set(glossary) == set(GAMES)
    for game, terms in glossary.items():
        assert terms, game
        assert all(t.ko and t.en for t in terms), game
        for t in terms:  # a listed wrong variant must not hide inside the right term itself
            assert not [bad for bad in t.avoid if bad in t.ko], (game, t.ko)


def test_the_mr_jack_swapper_has_one_plain_name_and_the_note_says_the_rulebook_gives_none() -> None:
    swapper = [t for t in load()["mr_jack_ny"] if t.en == "the Swapper"]
    assert len(swapper) == 1
    assert "자리바꾸기꾼" in swapper[0].avoid
    assert "이름을 쓰지 않아요" in swapper[0].note


def test_no_korean_string_uses_a_variant_its_glossary_avoids() -> None:
    strings = korean_strings()
    assert len(strings) > 1000  # the collector really reads the catalogs, content and engines
    bad = [f"{s.where}: {v} in {s.text[:60]!r}" for s in strings if s.game for v in violations(s.text, s.game)]
    assert bad == []


def test_the_check_catches_a_wrong_variant() -> None:
    assert violations("멈추고 고발하기", "spyfall") == ["고발 → 지목"]
    assert violations("멈추고 고발하기", "watson_holmes") == []
    assert violations("도구 카드가 아니에요", "clue") == ["도구 → 무기"]


def test_no_korean_string_has_a_particle_fallback() -> None:
    bad = [f"{s.where}: {s.text[:60]!r}" for s in korean_strings() if FALLBACK.search(s.text)]
    assert bad == []
