"""Quiz pages: a question shows the picture of the step that taught its rule (never a placeholder "?"), and no
option gives the answer away by carrying its reason."""

from __future__ import annotations

import pytest

from kiosk.teach import pages as pages_mod
from tests.teach.helpers import teaching

GAMES = ("spyfall", "watson_holmes", "mr_jack_ny", "clue")


@pytest.mark.parametrize("game", GAMES)
def test_quiz_pictures_come_from_the_rule_s_step(game: str) -> None:
    t = teaching(game).teaching
    quiz_pages = [p for p in pages_mod.pages(t) if p.question is not None]
    assert quiz_pages
    for page in quiz_pages:
        shapes = pages_mod.picture(t, page)
        assert all(getattr(s.label, "ko", "") != "?" for s in shapes if s.label is not None), page.id
        q = pages_mod.question(t, page)
        assert q is not None
        taught = [s for s in t.steps if q.rule in s.rules and s.picture and s.kind in ("info", "setup")]
        given_away = bool(taught) and pages_mod.spells_answer(taught[0].picture, q)
        expected = (pages_mod.neutral(taught[0].picture) if given_away else taught[0].picture) if taught else ()
        assert shapes == expected, page.id
        labels = " ".join(s.label.ko for s in shapes if s.label is not None).replace(" ", "")
        assert not labels or labels != q.options[q.answer].ko.replace(",", "").replace(" ", ""), (
            f"{page.id}: the picture spells the answer")


def test_a_picture_that_spells_the_answer_is_not_shown() -> None:
    """Mr. Jack's turn-order question: the step's tokens read 탐정 잭 잭 탐정, the answer itself."""
    t = teaching("mr_jack_ny").teaching
    page = next(p for p in pages_mod.pages(t) if p.question is not None
                and "홀수 라운드의 차례" in t.quiz[p.question].q.ko)
    q = pages_mod.question(t, page)
    assert q is not None
    step = next(s for s in t.steps if q.rule in s.rules and s.picture)
    assert pages_mod.spells_answer(step.picture, q)
    shown = pages_mod.picture(t, page)
    assert len(shown) == len(step.picture) and all(s.label is None and s.color == "grey" for s in shown)


@pytest.mark.parametrize("game", GAMES)
def test_no_option_carries_its_reason(game: str) -> None:
    for q in teaching(game).teaching.quiz:
        for option in q.options:
            assert ":" not in option.ko and ":" not in option.en, option
