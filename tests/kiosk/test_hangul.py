"""두벌식 composition (kiosk.hangul): the tricky cases by table, and random keystrokes against an independent
reference that builds each syllable from conjoining jamo (found by their Unicode names) and lets NFC
compose them."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.hangul import (
    BACKSPACE,
    INITIALS,
    MEDIALS,
    Composer,
    compose,
    initial_of,
    initials,
    is_initials_query,
    keystrokes,
    matches_initials,
    matches_search,
)

B = BACKSPACE


@pytest.mark.parametrize(("keys", "text"), [
    ("ㄱㅏ", "가"),
    ("ㅎㅏㄴㄱㅡㄹ", "한글"),
    ("ㄷㅏㄹㄱ", "닭"),
    ("ㄷㅏㄹㄱㅣ", "달기"),  # a double final splits when a vowel follows
    ("ㄱㅏㄱㅏ", "가가"),  # a single final moves on
    ("ㄱㅗㅏ", "과"),  # compound vowel
    ("ㅇㅜㅣ", "위"),
    ("ㅇㅡㅣㅅㅏ", "의사"),
    ("ㄱㅗㅏㅇ", "광"),
    ("ㅂㅏㅂㅅ", "밦"),  # ㅂ+ㅅ → ㅄ
    ("ㅇㅓㅂㅅㅓ", "업서"),  # ㅄ + ㅓ: ㅂ stays, ㅅ moves
    ("ㅇㅓㅂㅅㅇㅓ", "없어"),
    ("ㄸㅏㄸ", "따ㄸ"),  # ㄸ is never a final
    ("ㄱㅏㅃ", "가ㅃ"),
    ("ㄱㅏㅆ", "갔"),
    ("ㄱㄱ", "ㄱㄱ"),  # no initial clusters
    ("ㅏㄱ", "ㅏㄱ"),  # a lone vowel takes no final
    ("ㅗㅏ", "ㅘ"),
    ("ㅏㅏ", "ㅏㅏ"),
    ("ㄷㅏㄱㄱㄱㅏ", "닥ㄱ가"),
    ("ㄷㅏㄹㄱㅅㅏ", "닭사"),
    ("ㄱㅗㅏㅣ", "과ㅣ"),  # no triple vowels
    ("ㅂㅐ ㅌㅡ", "배 트"),  # space commits
    # backspace removes one jamo of the syllable being composed
    (f"ㄷㅏㄹㄱ{B}", "달"),
    (f"ㄷㅏㄹㄱ{B}ㅣ", "다리"),
    (f"ㄱㅗㅏ{B}", "고"),
    (f"ㄱㅗㅏ{B}{B}", "ㄱ"),
    (f"ㄱㅗㅏ{B}{B}{B}", ""),
    (f"ㄷㅏㄹㄱㅣ{B}", "달ㄱ"),  # 달 was committed when 기 began
    (f"ㄷㅏㄹㄱㅣ{B}{B}", "달"),
    (f"ㄷㅏㄹㄱㅣ{B}{B}{B}", ""),  # a committed syllable goes whole
    (f"ㄱㅏㄱㅏ{B}ㅗ", "가고"),
    (f"ㅂㅐ {B}ㅌ", "배ㅌ"),  # a committed syllable is not reopened by backspace
])
def test_table(keys: str, text: str) -> None:
    assert compose(keys) == text


def test_feed_reports_completed_syllables() -> None:
    c = Composer()
    assert [c.feed(k) for k in "ㄷㅏㄹㄱ"] == ["", "", "", ""]
    assert c.preedit == "닭"
    assert c.feed("ㅣ") == "달" and c.preedit == "기"
    assert c.commit() == "기" and c.preedit == "" and not c.composing
    assert c.backspace() is False
    with pytest.raises(ValueError):
        c.feed("a")


def test_initial_consonant_search() -> None:
    assert matches_initials("ㅂㅌㅋㅇㅂ", "배트케이브")
    assert matches_initials("ㅂㅌ", "배트케이브")
    assert matches_initials("ㅋㅇㅂ", "배트 케이브")
    assert matches_initials("배ㅌ", "배트케이브")
    assert matches_initials("ㄱㅊ", "경찰서")
    assert not matches_initials("ㅂㅌㅋㅇㅅ", "배트케이브")
    assert not matches_initials("ㄲ", "가게")
    assert matches_initials("bat", "Batcave") and not matches_initials("cat", "Batcave")
    assert matches_initials("", "아무거나")
    assert initial_of("배") == "ㅂ" and initial_of("a") == "a"
    assert initials("배트 케이브") == "ㅂㅌㅋㅇㅂ"
    assert is_initials_query("ㅂ ㅌ") and not is_initials_query("ㅂ") and not is_initials_query("배ㅌ")


def test_search_matches_while_typing() -> None:
    """Every state the field passes through while 배트케이브 is typed matches it (뱉 on the way to 배트)."""
    word = "배트케이브"
    shown, comp = "", Composer()
    for key in keystrokes(word):
        shown += comp.feed(key)
        assert matches_search(shown + comp.preedit, word), shown + comp.preedit
    assert matches_search("ㅂㅌㅋ", word) and matches_search("BAT", "Batcave") and matches_search("배트 동", "배트 동굴")
    assert not matches_search("ㅂㅋ", word) and not matches_search("밭", word)


# ---------------------------------------------------------------- the reference
VOWEL_PAIRS = {("ㅗ", "ㅏ"): "ㅘ", ("ㅗ", "ㅐ"): "ㅙ", ("ㅗ", "ㅣ"): "ㅚ", ("ㅜ", "ㅓ"): "ㅝ", ("ㅜ", "ㅔ"): "ㅞ",
               ("ㅜ", "ㅣ"): "ㅟ", ("ㅡ", "ㅣ"): "ㅢ"}
MODERN_FINALS = range(0x11A8, 0x11C3)


def _conjoining(kind: str, *letters: str) -> str | None:
    """The conjoining jamo of `kind` (CHOSEONG/JUNGSEONG/JONGSEONG) for compatibility letters, by name."""
    name = "-".join(unicodedata.name(x).removeprefix("HANGUL LETTER ") for x in letters)
    try:
        ch = unicodedata.lookup(f"HANGUL {kind} {name}")
    except KeyError:
        return None
    return ch if kind != "JONGSEONG" or ord(ch) in MODERN_FINALS else None


def _syllabify(keys: list[str]) -> list[tuple[str, int]]:
    """Whole-sequence syllabification: vowels (merged in allowed pairs) are nuclei; the consonant right
    before a nucleus is its initial; the consonants left between nuclei go to the previous syllable as a
    final (one, or two forming a double final) if it has an initial, the rest stand alone. Returns
    (text, number of keys) per syllable."""
    units: list[list[str]] = []
    for k in keys:
        if k in MEDIALS and units and len(units[-1]) == 1 and units[-1][0] in MEDIALS \
                and (units[-1][0], k) in VOWEL_PAIRS:
            units[-1].append(k)
        else:
            units.append([k])
    out: list[tuple[str, int]] = []
    i = 0
    while i < len(units):
        u = units[i]
        if u[0] in INITIALS and i + 1 < len(units) and units[i + 1][0] in MEDIALS:
            init, vowel, i = u[0], units[i + 1], i + 2
        elif u[0] in MEDIALS:
            init, vowel, i = "", u, i + 1
        else:
            out.append((u[0], 1))
            i += 1
            continue
        # consonants up to the next nucleus (its own initial excluded)
        j = i
        while j < len(units) and units[j][0] in INITIALS:
            j += 1
        cluster = [units[k][0] for k in range(i, j if j == len(units) else j - 1)]
        finals: list[str] = []
        if init and cluster and _conjoining("JONGSEONG", cluster[0]):
            finals = [cluster[0]]
            if len(cluster) > 1 and _conjoining("JONGSEONG", cluster[0], cluster[1]):
                finals.append(cluster[1])
        i += len(finals)
        v = VOWEL_PAIRS.get((vowel[0], vowel[1]), "") if len(vowel) == 2 else vowel[0]
        if init:
            parts = [_conjoining("CHOSEONG", init), _conjoining("JUNGSEONG", v)]
            if finals:
                parts.append(_conjoining("JONGSEONG", *finals))
            text = unicodedata.normalize("NFC", "".join(p or "" for p in parts))
        else:
            text = v
        out.append((text, (1 if init else 0) + len(vowel) + len(finals)))
    return out


class Reference:
    """Committed text plus the keys of the syllable being composed; after each key, every syllable but
    the last is committed; backspace drops the last key of the syllable being composed, or else the last
    committed character."""

    def __init__(self) -> None:
        self.text = ""
        self.pending: list[str] = []

    def key(self, k: str) -> None:
        if k == BACKSPACE:
            if self.pending:
                self.pending.pop()
            else:
                self.text = self.text[:-1]
            return
        self.pending.append(k)
        syllables = _syllabify(self.pending)
        if len(syllables) > 1:
            self.text += "".join(t for t, _ in syllables[:-1])
            self.pending = self.pending[len(self.pending) - syllables[-1][1]:]

    def shown(self) -> str:
        return self.text + "".join(t for t, _ in _syllabify(self.pending))


# keys in chunks, so double finals and compound vowels (rare among random keys) come up often
CHUNKS = st.sampled_from([*INITIALS, *MEDIALS, BACKSPACE, BACKSPACE, *("ㄱㅅ", "ㄴㅈ", "ㄴㅎ", "ㄹㄱ", "ㄹㅁ", "ㄹㅂ", "ㄹㅅ",
                                                                    "ㄹㅌ", "ㄹㅍ", "ㄹㅎ", "ㅂㅅ"),
                          *("".join(p) for p in VOWEL_PAIRS), "ㄱㅏ", "ㅎㅏ", "ㄷㅏ"])
KEYS = st.lists(CHUNKS, max_size=30).map(lambda chunks: [k for c in chunks for k in c])


@settings(max_examples=1000, deadline=None)
@given(KEYS)
def test_composition_matches_reference(keys: list[str]) -> None:
    ref, comp, text = Reference(), Composer(), ""
    for k in keys:
        ref.key(k)
        if k == BACKSPACE:
            if not comp.backspace():
                text = text[:-1]
        else:
            text += comp.feed(k)
        assert text + comp.preedit == ref.shown(), keys
    assert compose(keys) == ref.shown()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(INITIALS), min_size=1, max_size=6), st.lists(st.sampled_from(MEDIALS), min_size=6,
                                                                              max_size=6))
def test_initials_of_composed_text_match(initials: list[str], vowels: list[str]) -> None:
    word = compose([j for pair in zip(initials, vowels, strict=False) for j in pair])
    assert matches_initials("".join(initials), word)


SYLLABLES = st.integers(0xAC00, 0xD7A3).map(chr)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(SYLLABLES, SYLLABLES, st.sampled_from(" 0123456789abcXYZ")), max_size=12))
def test_keystrokes_type_the_text_back(chars: list[str]) -> None:
    text = "".join(chars)
    assert compose(keystrokes(text)) == text
    assert keystrokes("닭") == ["ㄷ", "ㅏ", "ㄹ", "ㄱ"] and keystrokes("왜") == ["ㅇ", "ㅗ", "ㅐ"]
