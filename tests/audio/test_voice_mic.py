"""Microphone degrade paths with fake devices: no PortAudio, no microphone, a stream that will not open,
a mic pulled mid-command (voice off with a reason on the status board), and the mic coming back without
a restart."""

from __future__ import annotations

import importlib.abc
import sys
import time

import pytest

from audio.asr import VoiceController, VoiceEvent
from audio.intents import load_catalog
from audio.mic import Microphone, MicUnavailable, SoundDeviceBackend
from audio.status import MicGate, StatusBoard
from tests.audio.voice_fakes import FakeBackend, FakeClock, FakeEngine

NAV = ["next", "score"]


def rig(backend: FakeBackend):
    clock, board = FakeClock(), StatusBoard()
    ctl = VoiceController(load_catalog(), FakeEngine(), clock=clock, gate=MicGate(), board=board)
    ctl.set_context("teach", NAV)
    events: list[VoiceEvent] = []
    ctl.listen(events.append)
    mic = Microphone(ctl.feed, ctl.mic_available, backend=backend, board=board, stall_after=1.5, clock=clock)
    return ctl, mic, board, clock, events


def intents(events: list[VoiceEvent]) -> list[str]:
    return [e.intent.name for e in events if e.kind == "intent" and e.intent]


def test_no_portaudio_turns_voice_off_with_the_reason() -> None:
    ctl, mic, board, _, _ = rig(FakeBackend(broken="PortAudio 없음 (libportaudio2 설치 필요)"))
    mic.check()
    assert not board.get("microphone").available
    assert "PortAudio 없음" in board.get("microphone").reason
    voice = board.get("voice")
    assert not voice.available and "PortAudio 없음" in voice.reason
    assert not ctl.available


def test_no_microphone_connected() -> None:
    ctl, mic, board, _, _ = rig(FakeBackend(devices=[]))
    mic.check()
    assert board.get("microphone").reason == "마이크 없음 / no microphone connected"
    assert not board.get("voice").available


def test_stream_that_cannot_open() -> None:
    _, mic, board, _, _ = rig(FakeBackend(devices=["USB mic"], open_error="마이크를 열 수 없음 / PortAudioError"))
    mic.check()
    assert "마이크를 열 수 없음" in board.get("microphone").reason


def test_audio_flows_from_the_device_callback_through_the_worker_to_intents() -> None:
    backend = FakeBackend(devices=["USB mic"])
    ctl, mic, board, _, events = rig(backend)
    mic.check()
    assert board.get("microphone").available and board.get("voice").available
    ctl.press()
    backend.stream.on_audio("다음".encode())
    assert intents(events) == []  # nothing runs inside the device callback
    assert mic.pump() == 1
    ctl.release()
    assert intents(events) == ["next"]


def test_mic_pulled_mid_command_drops_it_then_comes_back_without_restart() -> None:
    backend = FakeBackend(devices=["USB mic"])
    ctl, mic, board, clock, events = rig(backend)
    mic.check()
    ctl.press()
    backend.stream.on_audio("다".encode())
    mic.pump()
    # pulled: the stream stops, the device disappears
    backend.stream.active = False
    backend.devices = []
    mic.check()
    assert backend.stream.closed
    assert not board.get("microphone").available
    assert "끊겼어요" in board.get("voice").reason
    assert any(e.kind == "dropped" for e in events)
    ctl.release()
    assert intents(events) == []
    mic.check()  # still gone
    assert board.get("microphone").reason == "마이크 없음 / no microphone connected"
    # plugged back in: the next watchdog step rescans and reopens
    backend.devices = ["USB mic"]
    clock.now += 3
    mic.check()
    assert backend.rescans >= 1
    assert board.get("microphone").available and board.get("voice").available
    ctl.press()
    backend.stream.on_audio("점수".encode())
    mic.pump()
    ctl.release()
    assert intents(events) == ["score"]


def test_a_stream_that_stops_delivering_audio_counts_as_pulled() -> None:
    backend = FakeBackend(devices=["USB mic"])
    _, mic, board, clock, _ = rig(backend)
    mic.check()
    clock.now += 1.0
    backend.stream.on_audio(b"\0\0")
    mic.check()
    assert board.get("microphone").available
    clock.now += 2.0  # nothing for 2 s although the stream says it is active
    mic.check()
    assert not board.get("microphone").available


def test_watchdog_thread_starts_and_stops() -> None:
    backend = FakeBackend(devices=[])
    _, mic, board, _, _ = rig(backend)
    mic.retry_every = 0.01
    mic.start()
    try:
        for _ in range(1000):
            if board.get("microphone") is not None:
                break
            time.sleep(0.005)
    finally:
        mic.stop()
    assert board.get("microphone") is not None and not board.get("microphone").available


class _NoPortAudio(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "sounddevice":
            raise OSError("PortAudio library not found")
        return None


def test_real_backend_reports_missing_portaudio(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "sounddevice", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_NoPortAudio(), *sys.meta_path])
    with pytest.raises(MicUnavailable, match="PortAudio 없음"):
        SoundDeviceBackend().input_devices()


def test_start_voice_wires_loader_controller_and_mic_and_reports_every_reason(tmp_path) -> None:
    from audio.voice_system import start_voice

    board = StatusBoard()
    system = start_voice(board=board, gate=MicGate(), backend=FakeBackend(devices=[]), model_path=tmp_path / "none")
    try:
        assert system.loader.wait(10) is None
        for _ in range(1000):
            voice = board.get("voice")
            if voice and "음성 모델" in voice.reason and "마이크 없음" in voice.reason:
                break
            time.sleep(0.01)
        voice = board.get("voice")
        assert not voice.available
        assert "음성 모델" in voice.reason and "마이크 없음" in voice.reason
    finally:
        system.stop()
