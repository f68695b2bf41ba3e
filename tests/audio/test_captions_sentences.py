"""Captions: Korean sentence splitting and cue timing. Covers issue 7 item 4."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from audio.captions import (
    CaptionState,
    cue_at,
    estimate_duration,
    estimated_cues,
    split_sentences,
    timed_cues,
)


def test_korean_sentences_split_at_final_punctuation() -> None:
    text = "안녕하세요. 반갑습니다! 정말 그럴까요? 그렇다면… 시작하죠."
    assert split_sentences(text) == ["안녕하세요.", "반갑습니다!", "정말 그럴까요?", "그렇다면…", "시작하죠."]


def test_decimals_abbreviations_and_quotes_do_not_break_sentences() -> None:
    text = '제한 시간은 2.5분입니다. Mr. Jack은 도망칩니다. 그가 말했습니다. "범인은 당신이야!" 모두 놀랐습니다.'
    assert split_sentences(text) == ["제한 시간은 2.5분입니다.", "Mr. Jack은 도망칩니다.", "그가 말했습니다.",
                                     '"범인은 당신이야!"', "모두 놀랐습니다."]


def test_line_breaks_end_sentences_without_punctuation() -> None:
    assert split_sentences("첫째 줄입니다\n\n  둘째 줄   입니다.\n") == ["첫째 줄입니다", "둘째 줄 입니다."]


def test_text_without_punctuation_is_one_sentence() -> None:
    assert split_sentences("모두 준비되셨나요") == ["모두 준비되셨나요"]
    assert split_sentences("   ") == []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["사건", "은", " ", ".", "?", "!", "…", "\n", "3.5", "Mr.", "다", '"', "요", "A"]),
                max_size=30))
def test_splitting_loses_and_reorders_nothing(parts: list[str]) -> None:
    text = "".join(parts)
    sentences = split_sentences(text)
    assert re.sub(r"\s", "", "".join(sentences)) == re.sub(r"\s", "", text)
    assert all(s == s.strip() and s for s in sentences)


def test_timed_cues_are_contiguous_and_cover_the_audio() -> None:
    cues = timed_cues(["가.", "나다.", "라."], [1.0, 2.0, 0.5])
    assert [(c.start, c.end) for c in cues] == [(0.0, 1.0), (1.0, 3.0), (3.0, 3.5)]
    assert [cue_at(cues, t) for t in (0.0, 0.99, 1.0, 2.9, 3.2, 99.0)] == [0, 0, 1, 1, 2, 2]
    assert cue_at([], 1.0) == -1


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="가나다라 ,.ab1", min_size=1, max_size=30), min_size=1, max_size=8),
       st.floats(0.1, 300))
def test_estimated_cues_are_monotonic_and_fill_the_duration(sentences: list[str], total: float) -> None:
    cues = estimated_cues(sentences, total)
    assert cues[0].start == 0.0 and abs(cues[-1].end - total) < 1e-6
    assert all(a.end == b.start and a.start <= a.end for a, b in zip(cues, cues[1:], strict=False))
    times = [total * k / 20 for k in range(21)]
    idx = [cue_at(cues, t) for t in times]
    assert idx == sorted(idx)


def test_longer_text_takes_longer_and_faster_rate_shortens() -> None:
    short, long_ = "안녕하세요.", "안녕하세요. 오늘은 베이커가의 사건을 함께 풀어 보겠습니다."
    assert estimate_duration(long_) > estimate_duration(short) > 0
    assert estimate_duration(long_, rate=2.0) < estimate_duration(long_)


def test_caption_state_progress() -> None:
    cap = CaptionState(1, "x", "ko", ("가.",), 0, 1.0, 4.0, "playing", True)
    assert cap.progress == 0.25
    assert CaptionState(1, "x", "ko", ("가.",), 0, 1.0, 4.0, "finished", True).progress == 1.0
    assert CaptionState(1, "x", "ko", ("가.",), 0, 1.0, 0.0, "playing", True).progress == 0.0
