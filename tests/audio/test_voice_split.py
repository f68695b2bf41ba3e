"""The voice bench's tuning / held-out split (bench/voice_split.py, issue #38): the two parts share no voice,
room transformation, noise seed or sentence, and scoring one part opens no file of the other (every file
opened while scoring is watched with an audit hook). The corpus is rendered with espeak-ng and sox; the
recogniser is a fake that hears nothing (what is read matters here, not what is heard)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from audio import speechgen as sg
from audio.asr import Heard
from audio.intents import load_catalog
from bench.voice_corpus import Corpus, PartReader, SplitError, write_pcm
from bench.voice_score import Scorer, phrases_of, quiet_run
from bench.voice_split import HELD_OUT, NARRATOR, PARTS, SPENT, SPLIT, TUNING

CATALOG = load_catalog()
OPENED: list[str] = []
_WATCHING = [False]


def _audit(event: str, args: tuple) -> None:
    if _WATCHING[0] and event == "open" and isinstance(args[0], (str, Path)):
        OPENED.append(str(Path(args[0]).resolve()))


sys.addaudithook(_audit)


class DeafRecognizer:
    def accept(self, pcm: bytes) -> Heard | None:
        return None

    def final(self) -> Heard:
        return Heard("")

    def reset(self) -> None:
        pass


class DeafEngine:
    vocabulary = None

    def recognizer(self, grammar: list[str]) -> DeafRecognizer:
        return DeafRecognizer()


def test_the_parts_share_nothing() -> None:
    """Covers issue #38's split: no voice (as said or in babble), room, noise seed or sentence in both."""
    tuning, held = SPLIT[TUNING], SPLIT[HELD_OUT]
    assert set(PARTS) == set(SPLIT)

    def voices(p):  # noqa: ANN001, ANN202
        return {(v.variant, v.speed, v.pitch) for v in p.voices + p.babble_voices}

    assert not voices(tuning) & voices(held)
    assert not {v.variant for v in tuning.voices + tuning.babble_voices} & {v.variant for v in held.voices + held.babble_voices}
    assert not {r.effects for r in tuning.rooms if r.effects} & {r.effects for r in held.rooms if r.effects}
    assert tuning.noise_seed != held.noise_seed
    assert not set(tuning.talk) & set(held.talk)
    assert not set(tuning.narration) & set(held.narration)


def test_the_held_out_part_is_new_and_narration_is_the_products() -> None:
    """Session 17: the voices sessions 14-16 measured their choices on are tuning now, none held out; the café
    audio's narration is the kiosk's own texts (each i18n file in one part) in the narrator's voice."""
    tuning, held = SPLIT[TUNING], SPLIT[HELD_OUT]
    assert not {v.variant for v in held.voices + held.babble_voices} & set(SPENT)
    assert set(SPENT) <= {v.variant for v in tuning.voices}
    assert not set(tuning.narration_files) & set(held.narration_files)
    assert len(held.narration) >= 20 and len(tuning.narration) >= 20
    assert "용의자와 무기와 방을 모두 맞히면 사건이 해결됩니다" not in held.narration  # the old made-up lines went
    assert NARRATOR not in tuning.voices + held.voices + tuning.babble_voices + held.babble_voices


def test_a_reader_refuses_the_other_parts_files(tmp_path: Path) -> None:
    tuning_file = write_pcm(tmp_path / TUNING / "noise" / "pink.wav", sg.silence(0.2))
    held_file = write_pcm(tmp_path / HELD_OUT / "noise" / "pink.wav", sg.silence(0.2))
    held = PartReader(tmp_path, HELD_OUT)
    assert held.read(held_file) == sg.silence(0.2)
    with pytest.raises(SplitError):
        held.read(tuning_file)
    with pytest.raises(SplitError):  # not by a detour either
        held.read(tmp_path / HELD_OUT / ".." / TUNING / "noise" / "pink.wav")
    with pytest.raises(SplitError):
        PartReader(tmp_path, TUNING).read(held_file)


@pytest.mark.skipif(bool(sg.tools_available()), reason="needs espeak-ng and sox")
@pytest.mark.parametrize("scored,other", [(HELD_OUT, TUNING), (TUNING, HELD_OUT)])
def test_scoring_a_part_opens_no_file_of_the_other(tmp_path: Path, scored: str, other: str) -> None:
    """Both parts' corpora exist side by side; scoring one (commands in noise, a wake candidate, café audio)
    opens files of its own part only. Fails if the scorer mixed in the other part's noise or takes."""
    phrases = phrases_of(CATALOG, ["basic"], None, {"previous"})[:1]
    conditions = [("clean", None), ("babble", 10.0)]
    for name in PARTS:  # render both parts (rendering writes, it does not read the other part)
        corpus = Corpus(tmp_path, SPLIT[name])
        corpus.take(phrases[0].text, SPLIT[name].voices[0])
        corpus.take("헤이 테이블", SPLIT[name].voices[0])
        corpus.noise("babble")
    scorer = Scorer(DeafEngine(), CATALOG, tmp_path, SPLIT[scored], voices=1)
    OPENED.clear()
    _WATCHING[0] = True
    try:
        rows = scorer.score(phrases, conditions) + scorer.wake_phrases(["헤이 테이블"], conditions)
        quiet_run(DeafEngine(), CATALOG.with_wake("헤이 테이블"), scorer.cafe(1.0), None)
    finally:
        _WATCHING[0] = False
    assert len(rows) == 4
    assert all(r.kiosk == "nothing" for r in rows)
    own, foreign = str((tmp_path / scored).resolve()), str((tmp_path / other).resolve())
    assert [p for p in OPENED if p.startswith(own)], "the scorer read its own part's audio"
    assert not [p for p in OPENED if p.startswith(foreign)]
    assert {Path(p).resolve() for p in scorer.reader.read_paths} <= {Path(p) for p in OPENED}
