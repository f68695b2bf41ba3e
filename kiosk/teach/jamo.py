"""Fuzzy matching over jamo strings (kiosk.hangul.decompose), so partial syllables ("경ㅊ", "경차" while
typing 경찰) and typos match."""

from __future__ import annotations

from kiosk.hangul import decompose

__all__ = ["best_substring_distance", "decompose", "edit_distance", "is_hangul"]


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
