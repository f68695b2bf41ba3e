"""Our cases and the case format: complete, bilingual, fair (the clues lead to every answer)."""

from __future__ import annotations

import dataclasses
import pathlib

import pytest

import engines.watson_holmes as package
from engines.watson_holmes.content import Case, Location, Question, answer_is_right, normalise
from tests.engines.watson_holmes.helpers import real_pack

ROOT = pathlib.Path(__file__).resolve().parents[3]
OURS = ["case_01", "case_02", "case_03"]


def _case(case_id: str) -> Case:
    case = real_pack()[f"cases/{case_id}"]
    assert isinstance(case, Case)
    return case


def test_three_original_cases_of_rising_difficulty() -> None:
    """Covers WH-03, WH-07, WH-28."""
    cases = [_case(c) for c in OURS]
    assert [c.difficulty for c in cases] == [1, 2, 3]
    assert [c.number for c in cases] == [1, 2, 3]
    assert all(c.digital for c in cases)
    assert [len(c.locations) for c in cases] == sorted(len(c.locations) for c in cases)
    files = sorted(p.stem for p in (ROOT / "content/games/watson_holmes/cases").glob("*.yaml"))
    assert set(OURS) <= set(files)  # one file (one "envelope") per case


@pytest.mark.parametrize("case_id", OURS)
def test_case_is_complete_and_bilingual(case_id: str) -> None:
    """Covers WH-03, WH-05, WH-30, WH-33, WH-36."""
    case = _case(case_id)
    for text in (case.title, case.intro, case.special_rules, case.solution, case.reasoning):
        assert text is not None and text.ko and text.en
    assert all(q.text.ko and q.text.en and q.answer for q in case.questions)
    clues = [loc.clue for loc in case.locations]
    assert all(c is not None and c.ko and c.en for c in clues)
    assert len({c.ko for c in clues if c}) == len(clues)  # each card's text is its own
    assert all(loc.name.ko and loc.name.en for loc in case.locations)
    laid = sorted(n for row in case.layout for n in row)
    assert laid == sorted(loc.number for loc in case.locations)  # the layout places every card
    assert any(loc.rewards.police and loc.rewards.withdraw for loc in case.locations)  # a Scotland Yard
    assert any(loc.rewards.lockpick for loc in case.locations) or not any(loc.locked for loc in case.locations)


@pytest.mark.parametrize("case_id", OURS)
def test_case_is_fair_every_answer_is_in_the_clues(case_id: str) -> None:
    """Covers WH-03, WH-78, WH-05."""
    case = _case(case_id)
    clues = " ".join(normalise(loc.clue.ko) + " " + normalise(loc.clue.en) for loc in case.locations if loc.clue)
    for q in case.questions:
        if q.person:
            ko, en = q.accepted[0], next(a for a in q.accepted if a.isascii())
            assert len(ko.split()) >= 2 and len(en.split()) >= 2  # a full name
            for part in ko.split() + en.split():
                assert normalise(part) in clues, f"{case_id}: {part} never appears in a clue"
            assert not answer_is_right(q, ko.split()[-1])  # a surname alone is not enough
        else:
            for group in q.keywords:
                assert any(normalise(k) in clues for k in group), f"{case_id}: nothing of {group} in the clues"
        if q.person:
            assert normalise(q.accepted[0]) in normalise(q.answer.ko) and normalise(en) in normalise(q.answer.en)
        else:
            assert answer_is_right(q, q.answer.ko) and answer_is_right(q, q.answer.en)
    assert case.reasoning is not None and normalise(case.questions[0].accepted[0])[:2] in normalise(
        case.reasoning.ko + case.solution.ko)


@pytest.mark.parametrize("case_id", OURS)
def test_wrong_suspects_are_not_accepted(case_id: str) -> None:
    """Covers WH-78, WH-76."""
    case = _case(case_id)
    culprit = case.questions[0]
    for wrong in ("정원사", "the gardener", "하녀 마사 콜", "루이스 크레인", "올리버 핀치", "마거릿 애시컴"):
        assert not answer_is_right(culprit, wrong)


def test_case_format_is_documented_field_by_field() -> None:
    """Covers WH-03."""
    doc = (ROOT / "content/games/watson_holmes/CASE_FORMAT.md").read_text(encoding="utf-8")
    for cls in (Case, Location, Question):
        for f in dataclasses.fields(cls):
            assert f"`{f.name}`" in doc, f"CASE_FORMAT.md does not document {cls.__name__}.{f.name}"
    assert "physical" in doc and "digital" in doc and "intro_audio" in doc


def test_ambiguous_decisions_are_recorded_in_the_package_docstring() -> None:
    """Covers WH-02, WH-09, WH-13, WH-16, WH-22, WH-35, WH-89, WH-96, WH-101, WH-104."""
    doc = package.__doc__ or ""
    for wh in ("WH-02", "WH-09", "WH-13", "WH-16", "WH-22", "WH-35", "WH-89", "WH-96", "WH-101", "WH-104"):
        assert wh in doc


def test_character_cards_are_content_with_our_summaries() -> None:
    """Covers WH-95."""
    components = real_pack()["components"]
    assert len(components.characters) >= 7
    assert all(c.name.ko and c.summary.ko and c.summary.en for c in components.characters)
    assert any(c.id == "wiggins" for c in components.characters)
    assert components.tokens.carriages >= 70  # enough for 7 players' 10 each
