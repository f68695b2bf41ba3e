"""Issue 40 part 2: a tablet seat's name ("태블릿 4", Mr. Jack's "잭(태블릿)") is the tablet's, not a guest's: the
honorific placeholder leaves 님 off it and the particle fits how it is read, in every template a seat's name
goes through; a guest's typed name keeps 님."""

from __future__ import annotations

import pytest

from content.i18n_catalog import Translator
from engines.korean import honorific

NAMED = {  # template → what follows the name, for "태블릿 4" (4: 사, a vowel)
    "clue.status.asking": "태블릿 4가 반증할 차례예요",
    "clue.status.check": "태블릿 4가 봉투를 확인해요",
    "clue.private.shown_to_you": "태블릿 4가 보여준 카드",
    "clue.private.answer": "태블릿 4의 추리에 나온 카드 중 가진 게 있나요?",
    "clue.private.pick_show": "태블릿 4에게 보여줄 카드 한 장을 고르세요",
    "clue.notebook.title": "태블릿 4의 형사 노트",
    "clue.end.wrong": "태블릿 4가 밝힌 범인이 틀렸어요. 이제 반증만 해요.",
}


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator("ko")


def test_a_clue_tablet_detective_takes_no_honorific(tr: Translator) -> None:
    name = tr("clue.setup.tablet_name", n=4)
    assert name == "태블릿 4"
    for key, want in NAMED.items():
        assert tr(key, name=name) == want, key
    assert tr("clue.end.winner", name=name, suspect="s", weapon="w", room="r").startswith("태블릿 4가 맞혔어요!")
    assert tr("clue.status.showed_by", name=tr("clue.setup.tablet_name", n=3), passed="-").startswith("태블릿 3이 ")
    # a guest's own name keeps 님 in the same templates
    assert tr("clue.status.asking", name="지수") == "지수님이 반증할 차례예요"
    assert tr("clue.status.asking", name="태블릿") == "태블릿님이 반증할 차례예요"  # a typed name, not a seat's


def test_a_mr_jack_tablet_side_takes_no_honorific_and_its_particle_follows_the_role(tr: Translator) -> None:
    jack = tr("mr_jack_ny.setup.tablet_name", role=tr("mr_jack_ny.role.jack"))
    assert jack == "잭(태블릿)"
    assert honorific(jack, "이/가") == "잭(태블릿)이"
    assert honorific(jack, "에게") == "잭(태블릿)에게"
    # the particle after a bracketed note agrees with the word before it, not with the note
    assert honorific("형사(태블릿)", "이/가") == "형사(태블릿)가"
    assert honorific("지수", "이/가") == "지수님이"


def test_english_names_are_left_as_they_are() -> None:
    en = Translator("en")
    name = en("clue.setup.tablet_name", n=4)
    assert name == "Tablet 4"
    assert "님" not in en("clue.status.asking", name=name)
