"""Degrade paths: no output device, PortAudio missing, device lost mid-stream, espeak-ng / pyttsx3 missing,
a corrupt recording. Each ends in captions (or the next source) and a BOARD reason — never an exception.
Covers issue 7 item 8."""

from __future__ import annotations

import builtins
import sys
from pathlib import Path
from typing import Any

import pytest

from audio.captions import CaptionState
from audio.narrator import Narrator
from audio.playback import FakeOutput, Mixer, SoundDeviceOutput
from audio.segments import Segment, overlay_path
from audio.status import MicGate, StatusBoard
from audio.tts import EspeakSynth, Pyttsx3Synth
from tests.audio.narration_fakes import SpySynth, rig, tone, wait_for

SEG = Segment("tut.step1", "ko", "카드를 한 장씩 나눠 주세요. 준비가 되면 시작합니다.")


def _run(n: Narrator, seg: Segment = SEG) -> tuple[Any, list[CaptionState]]:
    caps: list[CaptionState] = []
    n.listen(caps.append)
    utt = n.speak(seg)
    assert utt.done.wait(15)
    return utt, caps


def _assert_captions_only(caps: list[CaptionState]) -> None:
    assert caps and caps[-1].state == "finished"
    assert not any(c.audible for c in caps)
    assert [c.current for c in caps] == sorted(c.current for c in caps)


def test_no_output_device_gives_captions_and_a_reason() -> None:
    gate, board = MicGate(), StatusBoard()
    mixer = Mixer(FakeOutput(speed=20, fail_open="출력 장치가 없습니다 (no output device)"), gate=gate, board=board)
    n = Narrator(mixer=mixer, synth=SpySynth(), board=board, tick=0.01)
    flips: list[bool] = []
    gate.listen(flips.append)
    try:
        utt, caps = _run(n)
        assert utt.state == "finished"
        _assert_captions_only(caps)
        assert board.get("speaker") is not None and not board.get("speaker").available  # type: ignore[union-attr]
        assert "no output device" in board.get("speaker").reason  # type: ignore[union-attr]
        assert flips == []  # nothing audible: the microphone stays open
        assert n.play_sound("alarm") is not None  # sounds are dropped quietly
    finally:
        n.close()
        mixer.close()


def test_portaudio_missing_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def fake_import(name: str, *a: Any, **kw: Any) -> Any:
        if name == "sounddevice":
            raise OSError("PortAudio library not found")
        return real_import(name, *a, **kw)

    monkeypatch.delitem(sys.modules, "sounddevice", raising=False)
    monkeypatch.setattr(builtins, "__import__", fake_import)
    board = StatusBoard()
    mixer = Mixer(SoundDeviceOutput(), gate=MicGate(), board=board)
    try:
        p = mixer.play_clip(tone(0.05))
        assert p.finished.wait(5)
        status = board.get("speaker")
        assert status is not None and not status.available and "PortAudio" in status.reason
        assert not mixer.audible
    finally:
        mixer.close()


def test_real_sounddevice_without_devices_degrades() -> None:
    """On this machine (no sound card) the real backend must fall back, not crash."""
    try:
        import sounddevice as sd

        if len(sd.query_devices()) > 0:
            pytest.skip("this machine has an audio device")
    except OSError:
        pass
    board = StatusBoard()
    mixer = Mixer(SoundDeviceOutput(), gate=MicGate(), board=board)
    try:
        p = mixer.play_clip(tone(0.05))
        assert p.finished.wait(5)
        assert not board.get("speaker").available  # type: ignore[union-attr]
    finally:
        mixer.close()


def test_device_lost_mid_stream_falls_back_and_releases_the_microphone() -> None:
    gate, board = MicGate(), StatusBoard()
    mixer = Mixer(FakeOutput(speed=20, fail_after=3), gate=gate, board=board)
    n = Narrator(mixer=mixer, synth=SpySynth(), board=board, tick=0.01)
    try:
        utt, caps = _run(n)
        assert utt.state == "finished" and caps[-1].state == "finished"
        assert not board.get("speaker").available  # type: ignore[union-attr]
        assert wait_for(lambda: not gate.muted, timeout=2)
    finally:
        n.close()
        mixer.close()


def test_espeak_missing_gives_captions_and_a_reason() -> None:
    mixer, dev, gate, board = rig()
    n = Narrator(mixer=mixer, synth=EspeakSynth(binary="no-such-espeak-ng"), board=board, tick=0.01,
                 caption_speed=10)
    try:
        utt, caps = _run(n)
        assert utt.state == "finished" and utt.sources == ["captions", "captions"]
        _assert_captions_only(caps)
        assert {c.current for c in caps} == {0, 1}
        status = board.get("tts")
        assert status is not None and not status.available and "espeak-ng" in status.reason
        assert not any(w.audible for w in dev.writes) and not gate.muted
    finally:
        n.close()
        mixer.close()


def test_pyttsx3_that_cannot_start_gives_captions(monkeypatch: pytest.MonkeyPatch) -> None:
    import pyttsx3

    def broken(*a: Any, **kw: Any) -> Any:
        raise RuntimeError("could not initialize espeak")

    monkeypatch.setattr(pyttsx3, "init", broken)
    mixer, _dev, _gate, board = rig()
    synth = Pyttsx3Synth(shared=False)
    n = Narrator(mixer=mixer, synth=synth, board=board, tick=0.01, caption_speed=10)
    try:
        utt, caps = _run(n)
        assert utt.state == "finished" and utt.source == "captions"
        _assert_captions_only(caps)
        assert "could not initialize espeak" in board.get("tts").reason  # type: ignore[union-attr]
    finally:
        n.close()
        mixer.close()
        synth.close()


def test_captions_only_can_pause_and_stop() -> None:
    mixer, _dev, _gate, board = rig()
    n = Narrator(mixer=mixer, synth=SpySynth(fail="espeak-ng missing"), board=board, tick=0.01, caption_speed=2)
    try:
        utt = n.speak(SEG)
        assert wait_for(lambda: utt.state == "playing")
        n.pause()
        assert utt.state == "paused"
        pos = utt.playback.position()  # type: ignore[union-attr]
        assert not wait_for(lambda: utt.playback.position() > pos, timeout=0.1)  # type: ignore[union-attr]
        n.stop()
        assert utt.done.wait(2) and utt.state == "stopped"
    finally:
        n.close()
        mixer.close()


def test_corrupt_recording_falls_back_to_tts_with_a_reason(tmp_path: Path) -> None:
    mixer, _dev, _gate, board = rig()
    path = overlay_path(tmp_path, SEG)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"RIFF\x00\x00\x00\x00WAVEjunk" + bytes(100))
    synth = SpySynth()
    n = Narrator(mixer=mixer, synth=synth, overlay_dir=tmp_path, board=board, tick=0.01)
    try:
        utt, _caps = _run(n)
        assert utt.state == "finished" and utt.sources == ["live", "live"]
        status = board.get("recording")
        assert status is not None and not status.available and SEG.id in status.reason
    finally:
        n.close()
        mixer.close()


def test_corrupt_recording_and_no_tts_gives_captions(tmp_path: Path) -> None:
    mixer, _dev, _gate, board = rig()
    path = overlay_path(tmp_path, SEG)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a wav at all")
    n = Narrator(mixer=mixer, synth=SpySynth(fail="no tts"), overlay_dir=tmp_path, board=board, tick=0.01,
                 caption_speed=10)
    try:
        utt, caps = _run(n)
        assert utt.state == "finished" and utt.source == "captions"
        _assert_captions_only(caps)
        assert not board.get("recording").available and not board.get("tts").available  # type: ignore[union-attr]
    finally:
        n.close()
        mixer.close()


def test_one_failing_sentence_keeps_the_rest() -> None:
    mixer, _dev, _gate, board = rig()
    synth = SpySynth(error_on="준비가")
    n = Narrator(mixer=mixer, synth=synth, board=board, tick=0.01)
    try:
        utt, caps = _run(n)
        assert utt.state == "finished" and utt.sources == ["live", "captions"]
        assert caps[-1].current == 1
    finally:
        n.close()
        mixer.close()


def test_a_broken_source_does_not_kill_the_mixer() -> None:
    board = StatusBoard()
    mixer = Mixer(FakeOutput(speed=20), gate=MicGate(), board=board)

    class Broken:
        exhausted = False

        def read(self, n: int) -> Any:
            raise ValueError("boom")

    try:
        good = mixer.play_clip(tone(0.5))
        bad = mixer.play(Broken())  # type: ignore[arg-type]
        assert bad.finished.wait(5) and bad.end_reason == "error"
        assert good.finished.wait(5) and good.end_reason == "end"  # the other source played on
        assert abs(good.frames / 22050 - 0.5) < 0.01
        later = mixer.play_clip(tone(0.05))
        assert later.finished.wait(5) and later.end_reason == "end"
    finally:
        mixer.close()


def test_captions_only_by_choice_uses_no_voice_and_no_microphone_gate() -> None:
    """A muted tablet: captions run sentence by sentence, nothing is synthesised or played."""
    mixer, dev, gate, board = rig()
    synth = SpySynth()
    n = Narrator(mixer=mixer, synth=synth, board=board, tick=0.01, caption_speed=10)
    n.captions_only = True
    try:
        utt, caps = _run(n)
        assert utt.state == "finished" and utt.sources == ["captions", "captions"]
        _assert_captions_only(caps)
        assert {c.current for c in caps} == {0, 1}
        assert synth.texts == [] and not any(w.audible for w in dev.writes) and not gate.muted
    finally:
        n.close()
        mixer.close()


def test_speaker_is_retried_after_a_failure() -> None:
    board = StatusBoard()
    dev = FakeOutput(speed=20, fail_open="출력 장치가 없습니다 (no output device)")
    mixer = Mixer(dev, gate=MicGate(), board=board, retry_after=0.0)
    try:
        assert not mixer.audible and not board.get("speaker").available  # type: ignore[union-attr]
        dev.fail_open = ""  # the speaker was plugged in
        p = mixer.play_clip(tone(0.05))
        assert p.finished.wait(5)
        assert board.get("speaker").available and mixer.audible  # type: ignore[union-attr]
        assert any(w.audible for w in dev.writes)
    finally:
        mixer.close()
