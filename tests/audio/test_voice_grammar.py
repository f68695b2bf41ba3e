"""Sentence templates → phrases (audio/grammar.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audio.grammar import SlotValue, TemplateError, expand, normalise, parse, slot_names

PLAYERS = {"player": (SlotValue("민호", 0), SlotValue("지수", 1), SlotValue("서연", 2))}


def texts(template: str, slots=None) -> set[str]:
    return {" ".join(words) for words, _ in expand(template, slots)}


def test_plain_words_expand_to_one_phrase() -> None:
    assert expand("남은 시간") == [(("남은", "시간"), ())]


def test_optional_part_gives_with_and_without() -> None:
    assert texts("다시 [말해줘]") == {"다시", "다시 말해줘"}


def test_alternatives_and_nesting() -> None:
    assert texts("(이전 | 전) 화면") == {"이전 화면", "전 화면"}
    assert texts("다시 [(말해줘 | 읽어줘)]") == {"다시", "다시 말해줘", "다시 읽어줘"}
    assert texts("(시계 | 타이머 [다시]) 시작") == {"시계 시작", "타이머 시작", "타이머 다시 시작"}


def test_top_level_alternatives() -> None:
    assert texts("다음 | 계속") == {"다음", "계속"}


def test_slot_fills_from_values_and_records_value_under_its_field() -> None:
    out = expand("$player:accused 고발", PLAYERS)
    assert (("민호", "고발"), (("accused", 0),)) in out
    assert len(out) == 3
    # without a field the slot type is the field
    assert (("지수", "선택"), (("player", 1),)) in expand("$player 선택", PLAYERS)


def test_multiword_slot_value_is_split_into_words() -> None:
    out = expand("$location:location 정답", {"location": (SlotValue("데일리 플래닛", "daily_planet"),)})
    assert out == [(("데일리", "플래닛", "정답"), (("location", "daily_planet"),))]


def test_same_value_never_used_twice_for_one_type() -> None:
    out = expand("$player:seat $player:accused 고발", PLAYERS)
    assert len(out) == 6  # 3 × 2, never "민호 민호 고발"
    for _words, values in out:
        assert values[0][1] != values[1][1]


def test_slot_without_values_yields_nothing() -> None:
    assert expand("$player 고발", {}) == []
    assert texts("[$player] 고발") == {"고발"}


def test_slot_names_are_the_types() -> None:
    assert slot_names(parse("$suspect:suspect $weapon:weapon [$room:room] 고발")) == {"suspect", "weapon", "room"}


@pytest.mark.parametrize("bad", ["(다음 | 계속", "다음]", "[다음", "$", "$플레이어 고발", "다음 )"])
def test_syntax_errors_name_the_template(bad: str) -> None:
    with pytest.raises(TemplateError) as err:
        parse(bad)
    assert repr(bad) in str(err.value)
    assert "템플릿 오류" in str(err.value)


def test_normalise_collapses_spaces() -> None:
    assert normalise("  남은   시간 ") == "남은 시간"


WORDS = st.sampled_from(["다음", "이전", "다시", "점수", "시간", "남은", "보여줘", "지금"])


@st.composite
def alternatives(draw: st.DrawFn) -> tuple[str, set[str]]:
    """A template of k groups, each `(a | b …)` or `[a]`, with the set of phrases it must give."""
    groups = draw(st.lists(st.lists(WORDS, min_size=1, max_size=3, unique=True), min_size=1, max_size=3))
    optional = draw(st.lists(st.booleans(), min_size=len(groups), max_size=len(groups)))
    template = " ".join(
        ("[" + " | ".join(g) + "]") if opt else ("(" + " | ".join(g) + ")") for g, opt in zip(groups, optional, strict=True)
    )
    expected = {""}
    for g, opt in zip(groups, optional, strict=True):
        choices = list(g) + ([""] if opt else [])
        expected = {normalise(f"{e} {c}") for e in expected for c in choices}
    return template, expected - {""}


@settings(max_examples=60, deadline=None)
@given(alternatives())
def test_expansion_is_exactly_the_cartesian_product(case: tuple[str, set[str]]) -> None:
    template, expected = case
    assert texts(template) == expected
