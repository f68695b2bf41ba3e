"""Korean particles chosen from how a word really ends (standard library only, so engines and the kiosk
both use it; `content.i18n_catalog` re-exports it).

Write the particle pair in the placeholder and let `fmt` pick the form:

    fmt("{name:이/가} {card:을/를} 보여줬어요.", name="민호", card="밧줄")  ->  "민호가 밧줄을 보여줬어요."

Pairs (either order; the one with a final-consonant form first is just a habit):
    이/가, 을/를, 은/는, 과/와, 으로/로 (also 으로서/로서, 으로써/로써, 으로는/로는 …: a ㄹ-final word takes 로),
    이에요/예요, 이랑/랑, 아/야, and any 이X/X (이나/나, 이라고/라고, 이든/든, 이면/면 …).
`particle(word, "이/가")` gives only the particle, `attach(word, "이/가")` the word with it.

How a word ends (`final_of`): a Hangul syllable by its final consonant; digits as read in Sino-Korean
(3 → 삼, 10 → 십, 7 → 칠: ㄹ); Latin words by English-to-Korean loanword habits ('Alex' → 알렉스: no final,
'Tom' → 톰, 'Bill' → 빌: ㄹ, 'Jack' → 잭); capitals of up to four letters by the letters' names (DJ → 디제이).
Trailing spaces, punctuation and closing brackets are skipped ("지수)" ends like 지수). A word with nothing
readable (empty, emoji only) is treated as ending in a vowel: there is never a "(이)가"-style fallback.
"""

from __future__ import annotations

import re
import string
from typing import Any

NONE, RIEUL, OTHER = "", "ㄹ", "C"  # no final consonant · ㄹ · any other final consonant

_PAIRS: dict[str, tuple[str, str]] = {  # canonical key → (form after a final consonant, form after a vowel)
    "이/가": ("이", "가"),
    "을/를": ("을", "를"),
    "은/는": ("은", "는"),
    "과/와": ("과", "와"),
    "아/야": ("아", "야"),
    "이에요/예요": ("이에요", "예요"),
    "이었어요/였어요": ("이었어요", "였어요"),
}
_SINO_DIGIT = {"0": "영", "1": "일", "2": "이", "3": "삼", "4": "사", "5": "오", "6": "육", "7": "칠",
               "8": "팔", "9": "구"}
_SINO_POWER = ("", "십", "백", "천", "만")  # a number ending in zeros ends in the name of its power
_LETTER_FINAL = {"L": RIEUL, "M": OTHER, "N": OTHER, "R": RIEUL}  # 엘, 엠, 엔, 알; other letter names end in a vowel
_VOWELS = "aeiouy"
_SKIP = set(string.whitespace + string.punctuation + "」』〉》】”’…·")


def _hangul_final(ch: str) -> str:
    code = ord(ch) - 0xAC00
    jong = code % 28
    return NONE if jong == 0 else (RIEUL if jong == 8 else OTHER)


def _number_final(digits: str) -> str:
    last = digits[-1]
    if last != "0":
        return _hangul_final(_SINO_DIGIT[last])
    stripped = digits.rstrip("0")
    if not stripped:
        return OTHER  # 영
    zeros = len(digits) - len(stripped)
    return _hangul_final(_SINO_POWER[zeros] if zeros < len(_SINO_POWER) else "만")


def _latin_final(word: str) -> str:
    if word.isupper() and len(word) <= 4:  # read letter by letter: DJ, BTS, MJ
        return _LETTER_FINAL.get(word[-1], NONE)
    w = word.lower()
    last = w[-1]
    if last == "l":
        return RIEUL  # Bill 빌, Paul 폴
    if last in "mn":
        return OTHER  # Tom 톰, Ann 앤, King 킹
    if last in "pktb":  # a short vowel before p/t/k/b keeps it as a final: Jack 잭, Pat 팻, Scott 스콧, Bob 밥
        stem = w[:-1].rstrip(last)
        if last == "k" and stem.endswith("c"):
            stem = stem[:-1]
        if stem and stem[-1] in _VOWELS and (len(stem) < 2 or stem[-2] not in _VOWELS):
            return OTHER
    return NONE  # vowels, r (Peter 피터), s/x/z/f/v/d/g/ch/sh/th (…스, …즈, …드): all end in a vowel


def final_of(word: Any) -> str:
    """How `word` ends when read aloud: "" (a vowel), "ㄹ", or "C" (another final consonant)."""
    text = str(word)
    end = len(text)
    while end > 0 and text[end - 1] in _SKIP:
        end -= 1
    if end == 0:
        return NONE
    ch = text[end - 1]
    if "가" <= ch <= "힣":
        return _hangul_final(ch)
    if ch.isdigit() and ch.isascii():
        start = end
        while start > 0 and text[start - 1].isdigit() and text[start - 1].isascii():
            start -= 1
        return _number_final(text[start:end])
    if ch.isascii() and ch.isalpha():
        start = end
        while start > 0 and text[start - 1].isascii() and text[start - 1].isalpha():
            start -= 1
        return _latin_final(text[start:end])
    return NONE


def _forms(pair: str) -> tuple[str, str, bool]:
    """(form after a consonant, form after a vowel, whether a ㄹ-final takes the vowel form) for a pair."""
    a, sep, b = pair.partition("/")
    if not sep or not a or not b:
        raise ValueError(f"not a particle pair: {pair!r}")
    for key in (f"{a}/{b}", f"{b}/{a}"):
        if key in _PAIRS:
            return _PAIRS[key][0], _PAIRS[key][1], False
    long, short = (a, b) if len(a) > len(b) else (b, a)
    if long == "으" + short and short.startswith("로"):
        return long, short, True
    if long == "이" + short:
        return long, short, False
    raise ValueError(f"not a particle pair: {pair!r}")


def particle(word: Any, pair: str) -> str:
    """The particle of `pair` ("이/가", "을/를", "으로/로" …) that follows `word`."""
    after_consonant, after_vowel, rieul_as_vowel = _forms(pair)
    final = final_of(word)
    if final == NONE or (final == RIEUL and rieul_as_vowel):
        return after_vowel
    return after_consonant


def attach(word: Any, pair: str) -> str:
    """`word` followed by the right particle of `pair`: attach("지수", "이에요/예요") == "지수예요"."""
    return f"{word}{particle(word, pair)}"


# A seat's default name (the same in every game: content/i18n/*/ui.yaml `common.seat_default`) and a tablet
# seat's name (clue.setup.tablet_name "태블릿 4", mr_jack_ny.setup.tablet_name "잭(태블릿)"): a place or the tablet,
# not a person, so no honorific follows it ("플레이어 1에게", "태블릿 4가", never "플레이어 1님에게", "태블릿 4님이").
DEFAULT_SEAT = re.compile(r"(플레이어|Player|태블릿|Tablet) \d{1,2}")
TABLET_ROLE = re.compile(r"\S+ ?\((태블릿|tablet)\)")


def honorific(name: Any, pair: str = "") -> str:
    """A person's name with 님 and then `pair`'s particle, or a seat's default name or a tablet seat's without 님:
    honorific("지수", "이/가") == "지수님이", honorific("플레이어 2", "이/가") == "플레이어 2가", honorific("태블릿 4",
    "이/가") == "태블릿 4가"; `pair` may also be
    plain text that follows either way ("에게")."""
    word = str(name)
    role = TABLET_ROLE.fullmatch(word.strip())
    plain = bool(role or DEFAULT_SEAT.fullmatch(word.strip()))
    base = word if plain else f"{word}님"
    if "/" in pair:
        # after a bracketed note the particle agrees with the word before it: "형사(태블릿)가", "잭(태블릿)이"
        reads = word.strip().split("(")[0] if role else word if plain else "님"
        return base + particle(reads, pair)
    return base + pair


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("님") and _HONORIFIC_SPEC.fullmatch(format_spec):
            return honorific(value, format_spec[1:])
        if "/" in format_spec and _PARTICLE_SPEC.fullmatch(format_spec):
            return attach(value, format_spec)
        return str(super().format_field(value, format_spec))


_PARTICLE_SPEC = re.compile(r"[가-힣]+/[가-힣]+")
_HONORIFIC_SPEC = re.compile(r"님([가-힣]+/[가-힣]+)?")
_FORMATTER = _Formatter()


def fmt(template: str, /, **params: Any) -> str:
    """str.format, plus particle placeholders: "{name:이/가}" → the name and its particle; "{name:님}",
    "{name:님이/가}" → a person's name with 님 (and its particle), a seat's default name without (`honorific`)."""
    return _FORMATTER.format(template, **params)
