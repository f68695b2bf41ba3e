"""Hangul syllables → jamo, so partial syllables ("경ㅊ", "경차" while typing 경찰) and typos match.

A syllable U+AC00..U+D7A3 = 0xAC00 + (initial × 21 + medial) × 28 + final. Compound vowels and finals
are split into their simple parts (ㅘ → ㅗㅏ, ㄳ → ㄱㅅ) so a half-typed compound still matches.
"""

from __future__ import annotations

import unicodedata

from kiosk.hangul import FINALS, INITIALS, MEDIALS

SPLIT = {"ㅘ": "ㅗㅏ", "ㅙ": "ㅗㅐ", "ㅚ": "ㅗㅣ", "ㅝ": "ㅜㅓ", "ㅞ": "ㅜㅔ", "ㅟ": "ㅜㅣ", "ㅢ": "ㅡㅣ",
         "ㄳ": "ㄱㅅ", "ㄵ": "ㄴㅈ", "ㄶ": "ㄴㅎ", "ㄺ": "ㄹㄱ", "ㄻ": "ㄹㅁ", "ㄼ": "ㄹㅂ", "ㄽ": "ㄹㅅ", "ㄾ": "ㄹㅌ",
         "ㄿ": "ㄹㅍ", "ㅀ": "ㄹㅎ", "ㅄ": "ㅂㅅ"}


def decompose(text: str) -> str:
    """Lower-case, NFC, syllables spelled out as simple jamo; other characters kept."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", text.lower()):
        code = ord(ch) - 0xAC00
        if 0 <= code < 11172:
            initial, rest = divmod(code, 588)
            medial, final = divmod(rest, 28)
            for j in (INITIALS[initial], MEDIALS[medial], FINALS[final]):
                out.append(SPLIT.get(j, j))
        else:
            out.append(SPLIT.get(ch, ch))
    return "".join(out)


def is_hangul(text: str) -> bool:
    return any("\uac00" <= ch <= "\ud7a3" or "\u3131" <= ch <= "\u318e" for ch in text)


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein with adjacent transpositions; stops early above `limit` (returns limit + 1)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def best_substring_distance(query: str, text: str, limit: int) -> int:
    """The smallest edit distance between `query` and any substring of `text` (Sellers' algorithm)."""
    if not query:
        return 0
    prev = [0] * (len(text) + 1)
    for i in range(1, len(query) + 1):
        cur = [i] + [0] * len(text)
        for j in range(1, len(text) + 1):
            cost = 0 if query[i - 1] == text[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
        prev = cur
        if min(prev) > limit:
            return limit + 1
    return min(prev)
