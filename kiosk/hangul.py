"""Hangul for the on-screen keyboard (no Kivy): 두벌식 composition and initial-consonant (초성) search.

A syllable U+AC00..U+D7A3 = 0xAC00 + (initial × 21 + medial) × 28 + final. `Composer` turns 두벌식
keystrokes (compatibility jamo, one per key) into text the way phone keyboards do: initial, medial and
final, compound vowels (ㅗ+ㅏ → ㅘ), double finals (ㄹ+ㄱ → ㄺ) and their split when a vowel follows
(닭 + ㅣ → 달기); backspace removes one jamo of the syllable being composed.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
MEDIALS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
FINALS = ("", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ", "ㅁ",
          "ㅂ", "ㅄ", "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ")
COMPOUND_VOWELS = {("ㅗ", "ㅏ"): "ㅘ", ("ㅗ", "ㅐ"): "ㅙ", ("ㅗ", "ㅣ"): "ㅚ", ("ㅜ", "ㅓ"): "ㅝ", ("ㅜ", "ㅔ"): "ㅞ",
                   ("ㅜ", "ㅣ"): "ㅟ", ("ㅡ", "ㅣ"): "ㅢ"}
DOUBLE_FINALS = {("ㄱ", "ㅅ"): "ㄳ", ("ㄴ", "ㅈ"): "ㄵ", ("ㄴ", "ㅎ"): "ㄶ", ("ㄹ", "ㄱ"): "ㄺ", ("ㄹ", "ㅁ"): "ㄻ",
                 ("ㄹ", "ㅂ"): "ㄼ", ("ㄹ", "ㅅ"): "ㄽ", ("ㄹ", "ㅌ"): "ㄾ", ("ㄹ", "ㅍ"): "ㄿ", ("ㄹ", "ㅎ"): "ㅀ",
                 ("ㅂ", "ㅅ"): "ㅄ"}
SYLLABLE_FIRST, SYLLABLE_COUNT = 0xAC00, 11172


def is_consonant(ch: str) -> bool:
    return ch in INITIALS


def is_vowel(ch: str) -> bool:
    return ch in MEDIALS


def syllable(initial: str, medial: str, final: str = "") -> str:
    return chr(SYLLABLE_FIRST + (INITIALS.index(initial) * 21 + MEDIALS.index(medial)) * 28 + FINALS.index(final))


@dataclass
class Composer:
    """The syllable being composed, as the keys that made it: an initial, up to two vowel keys and up to two
    final keys (so backspace can take one jamo off a compound vowel or a double final)."""

    initial: str = ""
    vowels: list[str] = field(default_factory=list)
    finals: list[str] = field(default_factory=list)

    @property
    def preedit(self) -> str:
        """The syllable being composed as it shows on screen ("" when nothing is)."""
        vowel = COMPOUND_VOWELS[(self.vowels[0], self.vowels[1])] if len(self.vowels) == 2 else "".join(self.vowels)
        final = DOUBLE_FINALS[(self.finals[0], self.finals[1])] if len(self.finals) == 2 else "".join(self.finals)
        if self.initial and vowel:
            return syllable(self.initial, vowel, final)
        return self.initial or vowel

    @property
    def composing(self) -> bool:
        return bool(self.initial or self.vowels)

    def commit(self) -> str:
        """End the syllable: returns its text; nothing is composed afterwards."""
        text = self.preedit
        self.initial, self.vowels, self.finals = "", [], []
        return text

    def feed(self, jamo: str) -> str:
        """One key (a compatibility jamo). Returns the text this key completed (0-1 syllables); the
        syllable still being composed is `preedit`."""
        if is_vowel(jamo):
            return self._vowel(jamo)
        if not is_consonant(jamo):
            raise ValueError(f"not a 두벌식 jamo: {jamo!r}")
        if self.initial and self.vowels:
            if not self.finals and jamo in FINALS:
                self.finals = [jamo]
                return ""
            if len(self.finals) == 1 and (self.finals[0], jamo) in DOUBLE_FINALS:
                self.finals.append(jamo)
                return ""
        done = self.commit()
        self.initial = jamo
        return done

    def _vowel(self, jamo: str) -> str:
        if self.finals:  # the last final key moves on to start the next syllable: 닭 + ㅣ → 달기
            moved = self.finals.pop()
            done = self.commit()
            self.initial, self.vowels = moved, [jamo]
            return done
        if len(self.vowels) == 1 and (self.vowels[0], jamo) in COMPOUND_VOWELS:
            self.vowels.append(jamo)
            return ""
        if self.initial and not self.vowels:
            self.vowels = [jamo]
            return ""
        done = self.commit()
        self.vowels = [jamo]
        return done

    def backspace(self) -> bool:
        """Take the last jamo off the syllable being composed; False when nothing is composed (the caller
        then deletes a character of the text)."""
        if self.finals:
            self.finals.pop()
        elif self.vowels:
            self.vowels.pop()
        elif self.initial:
            self.initial = ""
        else:
            return False
        return True


BACKSPACE = "\b"


def compose(keys: Iterable[str]) -> str:
    """The text a sequence of keys types (jamo, BACKSPACE, anything else inserted as is), committed."""
    text, comp = "", Composer()
    for key in keys:
        if key == BACKSPACE:
            if not comp.backspace():
                text = text[:-1]
        elif is_vowel(key) or is_consonant(key):
            text += comp.feed(key)
        else:
            text += comp.commit() + key
    return text + comp.commit()


_SPLIT = {v: "".join(k) for k, v in (*COMPOUND_VOWELS.items(), *DOUBLE_FINALS.items())}  # ㅘ → ㅗㅏ, ㄺ → ㄹㄱ


def decompose(text: str) -> str:
    """Lower-case, NFC, syllables spelled out as simple jamo (compounds split, so a half-typed syllable is a
    prefix of the whole one: 뱉 → ㅂㅐㅌ, 배트 → ㅂㅐㅌㅡ); other characters kept."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", text.lower()):
        code = ord(ch) - SYLLABLE_FIRST
        if 0 <= code < SYLLABLE_COUNT:
            initial, rest = divmod(code, 588)
            medial, final = divmod(rest, 28)
            for j in (INITIALS[initial], MEDIALS[medial], FINALS[final]):
                out.append(_SPLIT.get(j, j))
        else:
            out.append(_SPLIT.get(ch, ch))
    return "".join(out)


def keystrokes(text: str) -> list[str]:
    """The 두벌식 keys that type `text` (a syllable's jamo, compounds split; other characters as they
    are): compose(keystrokes(t)) == t for text made of whole syllables and non-jamo characters."""
    keys: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        keys.extend(decompose(ch) if SYLLABLE_FIRST <= ord(ch) < SYLLABLE_FIRST + SYLLABLE_COUNT else ch)
    return keys


# ---------------------------------------------------------------- initial-consonant (초성) search
def initial_of(ch: str) -> str:
    """The initial consonant of a syllable; any other character as it is."""
    code = ord(ch) - SYLLABLE_FIRST
    return INITIALS[code // 588] if 0 <= code < SYLLABLE_COUNT else ch


def _fold(text: str) -> str:
    return "".join(unicodedata.normalize("NFC", text).lower().split())


def matches_initials(query: str, text: str) -> bool:
    """True when `query` occurs in `text` with any of its consonants standing for a whole syllable that
    starts with it (ㅂㅌㅋㅇㅂ → 배트케이브, 배ㅌ → 배트); spaces and case are ignored. A query without a
    bare consonant is a plain substring test."""
    q, t = _fold(query), _fold(text)
    if not q:
        return True
    if not any(is_consonant(c) for c in q):
        return q in t
    for start in range(len(t) - len(q) + 1):
        if all(qc == tc or (is_consonant(qc) and initial_of(tc) == qc) for qc, tc in zip(q, t[start:start + len(q)], strict=True)):
            return True
    return False


def initials(text: str) -> str:
    """Each syllable's initial consonant, spaces dropped, lower-case: 배트 케이브 → ㅂㅌㅋㅇㅂ."""
    return "".join(initial_of(c) for c in _fold(text))


def is_initials_query(query: str) -> bool:
    """Two or more bare consonants and nothing else (ㅂㅌ): a search by initial consonants."""
    q = _fold(query)
    return len(q) >= 2 and all(is_consonant(c) for c in q)


def matches_search(query: str, text: str) -> bool:
    """A search box's test while the query is being typed: initial consonants (ㅂㅌㅋ), a half-typed last
    syllable (뱉 on the way to 배트), or a plain substring; case and spaces ignored."""
    if matches_initials(query, text):
        return True
    return decompose(_fold(query)) in decompose(_fold(text))
