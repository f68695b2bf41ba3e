"""Synthesis to clips and the per-language voice choice on each platform. Covers issue 7 items 1, 2."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from audio.captions import estimate_duration
from audio.synth_types import SynthUnavailable, VoiceInfo
from audio.tts import EspeakSynth, Pyttsx3Synth, VoiceSettings, choose_voice

INTRO = ("안개가 짙은 밤이었습니다. 템스 강가에서 한 남자가 쓰러진 채 발견되었습니다. "
         "경감은 여러분에게 도움을 청합니다.")

LINUX = [VoiceInfo("gmw/en-US", "English_(America)", ("en-us",)), VoiceInfo("inc/kok", "Konkani", ("kok",)),
         VoiceInfo("ko", "Korean", ("ko",)), VoiceInfo("gmw/en", "English_(Great_Britain)", ("en-gb", "en"))]
WINDOWS = [VoiceInfo(r"HKEY_LOCAL_MACHINE\SOFTWARE\Microsoft\Speech\Voices\Tokens\TTS_MS_EN-US_ZIRA_11.0",
                     "Microsoft Zira Desktop - English (United States)"),
           VoiceInfo(r"HKEY_LOCAL_MACHINE\SOFTWARE\Microsoft\Speech\Voices\Tokens\TTS_MS_KO-KR_HEAMI_11.0",
                     "Microsoft Heami Desktop - Korean")]
MAC = [VoiceInfo("com.apple.speech.synthesis.voice.Alex", "Alex", ("en_US",)),
       VoiceInfo("com.apple.voice.compact.ko-KR.Yuna", "Yuna", ("ko_KR",))]


def test_korean_voice_on_each_platform() -> None:
    assert choose_voice(LINUX, "ko", "Linux") == "ko"
    assert choose_voice(WINDOWS, "ko", "Windows") == WINDOWS[1].id
    assert choose_voice(MAC, "ko", "Darwin") == MAC[1].id


def test_english_voice_and_unknown_platform_use_language_codes() -> None:
    assert choose_voice(LINUX, "en", "Linux") == "gmw/en-US"
    assert choose_voice(MAC, "en", "Darwin") == MAC[0].id
    assert choose_voice(MAC, "ko", "Plan9") == MAC[1].id  # by its ko_KR language code


def test_no_korean_voice_gives_none() -> None:
    assert choose_voice(LINUX[:2], "ko", "Linux") is None  # Konkani ("kok") is not Korean
    assert choose_voice([WINDOWS[0]], "ko", "Windows") is None


def test_rate_maps_to_words_per_minute_within_bounds() -> None:
    assert VoiceSettings().wpm == 200
    assert VoiceSettings(rate=1.5).wpm == 300
    assert VoiceSettings(rate=0.01).wpm == 60 and VoiceSettings(rate=9).wpm == 450


needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")


@needs_espeak
def test_espeak_command_line_speaks_a_case_intro_for_a_plausible_time() -> None:
    clip = EspeakSynth().synthesize(INTRO, "ko", 200)
    syllables = sum(1 for ch in INTRO if "가" <= ch <= "힣")
    assert 0.08 < clip.duration / syllables < 0.3
    assert 0.5 < clip.duration / estimate_duration(INTRO) < 2.0


def test_narration_text_never_reaches_espeak_as_a_command_line_option(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A line starting with "-" (a café's own case text) was parsed by espeak-ng as options: "-w FILE" wrote a
    file and the line was not spoken. The text now goes on stdin; the fake binary records its argv and stdin."""
    import json
    import sys

    fake = tmp_path / "espeak-ng"
    fake.write_text(f"#!{sys.executable}\n"
                    "import io, json, sys, wave\n"
                    f"open({str(tmp_path / 'call.json')!r}, 'w').write(json.dumps([sys.argv[1:], sys.stdin.read()]))\n"
                    "buf = io.BytesIO()\n"
                    "w = wave.open(buf, 'wb'); w.setnchannels(1); w.setsampwidth(2); w.setframerate(22050)\n"
                    "w.writeframes(bytes(4410)); w.close()\n"
                    "sys.stdout.buffer.write(buf.getvalue())\n", encoding="utf-8")
    fake.chmod(0o755)
    line = "-w /tmp/x.wav --help 범인은 -v 당신입니다"
    clip = EspeakSynth(binary=str(fake)).synthesize(line, "ko", 200)
    assert clip.duration > 0
    argv, stdin = json.loads((tmp_path / "call.json").read_text())
    assert stdin == line
    assert "--stdin" in argv and not any("범인은" in a or "/tmp/x.wav" in a for a in argv)


@needs_espeak
def test_espeak_speaks_a_line_that_starts_with_a_dash_instead_of_obeying_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "written.wav"
    clip = EspeakSynth().synthesize(f"-w{target} 범인은 집사입니다", "ko", 200)
    assert not target.exists()
    assert clip.duration > 1.0  # the whole line was read aloud


def test_missing_espeak_binary_is_unavailable() -> None:
    with pytest.raises(SynthUnavailable, match="espeak-ng"):
        EspeakSynth(binary="no-such-espeak-ng").synthesize("안녕", "ko", 200)


@pytest.fixture(scope="module")
def pyttsx3_synth() -> Iterator[Pyttsx3Synth]:
    synth = Pyttsx3Synth()
    try:
        synth.voices()
    except SynthUnavailable as exc:
        pytest.skip(str(exc))
    yield synth
    synth.close()


@needs_espeak
def test_pyttsx3_renders_each_utterance_to_audio(pyttsx3_synth: Pyttsx3Synth) -> None:
    """Several requests in a row each produce their own audio (pyttsx3 keeps only the last of queued calls,
    so the worker renders one per runAndWait)."""
    voice = choose_voice(pyttsx3_synth.voices(), "ko")
    assert voice is not None
    clips = [pyttsx3_synth.synthesize(t, voice, 200) for t in ("하나.", INTRO, "셋입니다.")]
    assert clips[1].duration > 3 * clips[0].duration
    assert all(c.frames > 0 and c.rate > 8000 for c in clips)
    assert 0.5 < clips[1].duration / estimate_duration(INTRO) < 2.0
    fast = pyttsx3_synth.synthesize(INTRO, voice, 300)
    assert fast.duration < clips[1].duration


def test_fallback_moves_on_when_a_synthesiser_is_unavailable() -> None:
    from audio.tts import FallbackSynth
    from tests.audio.narration_fakes import SpySynth

    broken, working = SpySynth(fail="pyttsx3 cannot start"), SpySynth()
    chain = FallbackSynth([broken, working])
    assert chain.synthesize("안녕하세요.", "ko", 200).duration > 0
    assert working.texts == ["안녕하세요."] and chain.name == "spy"
    assert [v.id for v in chain.voices()][0] == "ko"
    dead = FallbackSynth([SpySynth(fail="a"), SpySynth(fail="b")])
    with pytest.raises(SynthUnavailable, match="a; b"):
        dead.synthesize("x", "ko", 200)


def test_pyttsx3_synths_share_one_worker_per_process() -> None:
    """pyttsx3.init() returns one engine per process: two users must not drive it from two threads."""
    a, b = Pyttsx3Synth(), Pyttsx3Synth()
    private = Pyttsx3Synth(shared=False)
    try:
        assert a._worker is b._worker and private._worker is not a._worker
    finally:
        a.close()
        a.close()  # closing twice is harmless
        assert b._worker._thread.is_alive() or b._worker._dead  # b still has its worker
        b.close()
        private.close()
