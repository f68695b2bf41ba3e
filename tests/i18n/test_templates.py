"""Every Korean template renders with names of every ending class and gets its particles right: a vowel (지수,
민호), a final consonant (서연, 하준), a Latin name (Alex: 알렉스, a vowel) and a number-name (7번: ㄴ). The expected
particles below are written by hand, not computed by engines.korean."""

from __future__ import annotations

import re
import string

import pytest

from content.glossary import FALLBACK
from engines.korean import fmt
from tests.i18n.strings import KoString, catalog_strings, korean_strings

NAMES = ("지수", "민호", "서연", "하준", "Alex", "7번")
V, C = "vowel", "consonant"
ENDING = {"지수": V, "민호": V, "서연": C, "하준": C, "Alex": V, "7번": C}
TABLE = {  # pair → (after a consonant, after a vowel)
    "이/가": ("이", "가"), "을/를": ("을", "를"), "은/는": ("은", "는"), "과/와": ("과", "와"),
    "으로/로": ("으로", "로"), "이에요/예요": ("이에요", "예요"), "이랑/랑": ("이랑", "랑"),
    "이라는/라는": ("이라는", "라는"),
}
SPEC = re.compile(r"[가-힣]+/[가-힣]+")
# a placeholder followed straight by a particle that depends on it, without a {name:이/가} pair
BARE = re.compile(r"\{[^{}:]*\}['\"’」]*(이|가|을|를|은|는|와|과|으로|로|이에요|예요|이랑|랑|이라는|라는)(?=$|[\s.,!?'\"’])")


def _templates() -> list[KoString]:
    """Korean strings with str.format placeholders (a teaching status line's {players.0.carriages} is filled
    from the engine state by kiosk.teach.tryit instead)."""
    return [s for s in korean_strings() if "{" in s.text and not re.search(r"\{[\w]+[.\[]", s.text)]


def _fields(template: str) -> list[tuple[str, str]]:
    return [(f, spec or "") for _, f, spec, _ in string.Formatter().parse(template) if f is not None]


def _canonical(pair: str) -> str:
    a, b = pair.split("/")
    for key in (f"{a}/{b}", f"{b}/{a}"):
        if key in TABLE:
            return key
    raise AssertionError(f"particle pair {pair} has no row in TABLE: add it by hand")


def test_the_templates_with_particle_pairs_are_found() -> None:
    with_pairs = [s for s in _templates() if any(SPEC.fullmatch(spec) for _, spec in _fields(s.text))]
    assert len(with_pairs) >= 15
    assert any(s.where.endswith("handover.i_am") for s in with_pairs)


@pytest.mark.parametrize("name", NAMES)
def test_every_korean_template_renders_with_the_right_particles(name: str) -> None:
    bad = []
    for s in _templates():
        fields = _fields(s.text)
        try:
            out = fmt(s.text, **{f: name for f, _ in fields if f})
        except (KeyError, IndexError, ValueError) as exc:
            bad.append(f"{s.where}: does not render ({exc})")
            continue
        if FALLBACK.search(out):
            bad.append(f"{s.where}: {out!r}")
        for f, spec in fields:
            if f and spec.startswith("님"):  # the honorific (engines.korean.honorific): a person's name, then 님
                want = name + "님" + (TABLE[_canonical(spec[1:])][0] if spec[1:] else "")  # 님 ends in ㅁ
                if want not in out:
                    bad.append(f"{s.where}: {out!r} lacks {want!r}")
            elif f and SPEC.fullmatch(spec):
                after_consonant, after_vowel = TABLE[_canonical(spec)]
                want = name + (after_consonant if ENDING[name] == C else after_vowel)
                if want not in out:
                    bad.append(f"{s.where}: {out!r} lacks {want!r}")
    assert bad == []


def test_no_template_puts_a_fixed_particle_after_a_placeholder() -> None:
    """'{name}이에요' reads '지수이에요'; write '{name:이에요/예요}'. A placeholder in brackets ('빈칸({cards})이')
    takes the particle of the word before the brackets and is fine."""
    bad = [f"{s.where}: {s.text[:70]!r}" for s in _templates() if BARE.search(s.text)]
    assert bad == []


def test_the_hand_over_reads_like_a_person_wrote_it() -> None:
    i_am = next(s.text for s in catalog_strings() if s.where.endswith("handover.i_am"))
    assert [fmt(i_am, name=n) for n in NAMES] == [
        "제가 지수예요", "제가 민호예요", "제가 서연이에요", "제가 하준이에요", "제가 Alex예요", "제가 7번이에요"]
