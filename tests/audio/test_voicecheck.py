"""The voice check's backend without the model (the fake engine hears text): the phrases of each set, the
outcome of a take as the kiosk's controller decides it, and the CSV statistics."""

from __future__ import annotations

import csv
from pathlib import Path

from audio.intents import load_catalog
from audio.voicecheck import Score, check_phrases, score_pcm, write_csv
from tests.audio.voice_fakes import FakeEngine

CATALOG = load_catalog()


def test_basic_set_has_every_wake_candidate_every_navigation_phrasing_and_the_confirmations() -> None:
    phrases = check_phrases(CATALOG)
    texts = [p.text for p in phrases]
    wake = list(CATALOG.wake_candidates)
    assert texts[0] == CATALOG.intents["wake"].templates[0] == wake[0] and len(wake) >= 3
    assert texts[: len(wake)] == wake and {p.kind for p in phrases[: len(wake)]} == {"wake"}
    assert {"네", "아니요", "계속", "남은 시간 보여줘", "새 게임"} <= set(texts)
    assert len(texts) == len(set(texts))
    spy = check_phrases(CATALOG, "spyfall")
    accuse = [p for p in spy if p.intent == "spyfall.accuse"]
    assert [p.text for p in accuse] == ["민호 범인", "민호 지목", "민호 고발", "민호 스파이"]
    assert accuse[0].slots == {"accused": 0} and "next" in accuse[0].intents


def test_a_take_is_right_wrong_or_nothing_as_the_controller_decides() -> None:
    phrases = {p.text: p for p in check_phrases(CATALOG) + check_phrases(CATALOG, "spyfall")}
    engine = FakeEngine()

    def score(shown: str, said: str) -> tuple[str, str, str]:
        return score_pcm(engine, CATALOG, phrases[shown], said.encode("utf-8"), stages=(), denoise=False)[:3]

    assert score("계속", "계속") == ("right", "계속", "next")
    assert score("계속", "점수") == ("wrong", "점수", "score")
    assert score("계속", "커피") == ("nothing", "커피", "")
    assert score("네", "좋아") == ("right", "좋아", "confirm.yes")
    assert score("네", "아니요") == ("wrong", "아니요", "confirm.no")
    assert score("민호 범인", "지수 범인") == ("wrong", "지수 범인", "spyfall.accuse")  # the slot counts too
    assert score("민호 범인", "민호 범인") == ("right", "민호 범인", "spyfall.accuse")


def test_a_wake_candidate_is_heard_as_the_one_wake_phrase() -> None:
    """The café measures each candidate before picking one: its take is decided by a wake grammar holding
    that candidate alone (two wake phrases in one grammar split the vote)."""
    candidate = next(p for p in check_phrases(CATALOG) if p.kind == "wake" and p.text != "게임 도우미")
    engine = FakeEngine()
    score_pcm(engine, CATALOG, candidate, "게임 도우미".encode(), stages=(), denoise=False)
    wake_grammars = [g for g in engine.grammars if candidate.text in g]
    assert wake_grammars and all("게임 도우미" not in g for g in wake_grammars)


def test_csv_has_every_take_and_the_statistics(tmp_path: Path) -> None:
    scores = [Score("1", "계속", "next", "right", "계속", "next"), Score("1", "그만", "stop", "wrong", "뒤로", "previous"),
              Score("2", "그만", "stop", "nothing"), Score("2", "계속", "next", "right", "계속", "next")]
    target = tmp_path / "x" / "check.csv"
    assert write_csv(scores, target) == 4
    rows = list(csv.reader(target.open(encoding="utf-8-sig")))
    assert sum(r[0] == "take" for r in rows if r) == 4
    stats = {(r[0], r[1]): r[2:] for r in rows if r and r[0] in ("phrase", "speaker", "total")}
    assert stats[("phrase", "그만")] == ["2", "0", "1", "1", "0.000", "뒤로×1"]
    assert stats[("speaker", "2")] == ["2", "1", "0", "1", "0.500", ""]
    assert stats[("total", "")][:5] == ["4", "2", "1", "1", "0.500"]
