"""Korean particles are chosen from how the word really ends (engines.korean, re-exported by content.i18n_catalog)."""

from __future__ import annotations

import pytest

from content.i18n_catalog import Translator
from engines.korean import attach, final_of, fmt, particle

# name → its forms with 이/가, 을/를, 은/는, 과/와, 으로/로, 이에요/예요, 이랑/랑
TABLE = {
    "지수": ("지수가", "지수를", "지수는", "지수와", "지수로", "지수예요", "지수랑"),
    "민호": ("민호가", "민호를", "민호는", "민호와", "민호로", "민호예요", "민호랑"),
    "서연": ("서연이", "서연을", "서연은", "서연과", "서연으로", "서연이에요", "서연이랑"),
    "하준": ("하준이", "하준을", "하준은", "하준과", "하준으로", "하준이에요", "하준이랑"),
    "Alex": ("Alex가", "Alex를", "Alex는", "Alex와", "Alex로", "Alex예요", "Alex랑"),
    "7번": ("7번이", "7번을", "7번은", "7번과", "7번으로", "7번이에요", "7번이랑"),
    "서울": ("서울이", "서울을", "서울은", "서울과", "서울로", "서울이에요", "서울이랑"),
    "3": ("3이", "3을", "3은", "3과", "3으로", "3이에요", "3이랑"),
    "7": ("7이", "7을", "7은", "7과", "7로", "7이에요", "7이랑"),
    "2": ("2가", "2를", "2는", "2와", "2로", "2예요", "2랑"),
    "Bill": ("Bill이", "Bill을", "Bill은", "Bill과", "Bill로", "Bill이에요", "Bill이랑"),
    "Tom": ("Tom이", "Tom을", "Tom은", "Tom과", "Tom으로", "Tom이에요", "Tom이랑"),
}
PAIRS = ("이/가", "을/를", "은/는", "과/와", "으로/로", "이에요/예요", "이랑/랑")


@pytest.mark.parametrize("name", list(TABLE))
def test_every_pair_after_every_ending_class(name: str) -> None:
    assert tuple(attach(name, pair) for pair in PAIRS) == TABLE[name]


def test_pairs_work_in_either_order_and_in_templates() -> None:
    assert particle("지수", "가/이") == "가"
    assert particle("하준", "와/과") == "과"
    assert fmt("{name:이/가} {card:을/를} 보여줬어요.", name="민호", card="밧줄") == "민호가 밧줄을 보여줬어요."
    assert fmt("{place:으로/로} 할까요?", place="병원") == "병원으로 할까요?"
    assert fmt("{place:으로/로} 할까요?", place="호텔") == "호텔로 할까요?"
    assert fmt("제가 {name:이에요/예요}", name="지수") == "제가 지수예요"
    assert fmt("{n}명, {x:>3}", n=3, x="a") == "3명,   a"  # ordinary format specs still work


@pytest.mark.parametrize("word, final", [
    ("10", "C"), ("100", "C"), ("1000", "C"), ("20000", "C"), ("0", "C"), ("11", "ㄹ"), ("8", "ㄹ"), ("4", ""),
    ("Jack", "C"), ("Mark", ""), ("Scott", "C"), ("Peter", ""), ("Paul", "ㄹ"), ("Kate", ""), ("Max", ""),
    ("DJ", ""), ("MJ", ""), ("BL", "ㄹ"), ("지수)", ""), ("하준!", "C"), ("", ""), ("🙂", ""), ("Player 1", "ㄹ"),
])
def test_how_words_end(word: str, final: str) -> None:
    assert final_of(word) == final


def test_unknown_pairs_are_refused() -> None:
    with pytest.raises(ValueError):
        particle("지수", "의/에")


def test_translator_resolves_particle_placeholders() -> None:
    tr = Translator("ko")
    tr.catalogs["ko"]["x.test"] = "{name:이/가} 이겼어요"
    assert tr("x.test", name="서연") == "서연이 이겼어요"
    assert tr("x.test", name="지수") == "지수가 이겼어요"
