"""Fakes for the voice tests: a scripted recogniser (the "audio" is UTF-8 text; b"" marks the end of an
utterance), a fake speech engine that records every grammar it was asked for, and a fake microphone."""

from __future__ import annotations

from collections.abc import Callable

from audio.asr import Heard


class FakeRecognizer:
    """Speech is text bytes; an empty chunk is the endpoint (like ~0.6 s of silence)."""

    def __init__(self, grammar: list[str]) -> None:
        self.grammar = grammar
        self.buffer = b""

    def accept(self, pcm: bytes) -> Heard | None:
        if pcm:
            self.buffer += pcm
            return None
        return self.final()

    def final(self) -> Heard:
        text = self.buffer.decode("utf-8")
        self.buffer = b""
        return Heard(text)

    def reset(self) -> None:
        self.buffer = b""


class FakeEngine:
    def __init__(self, vocabulary: frozenset[str] | None = None) -> None:
        self.vocabulary = vocabulary
        self.grammars: list[list[str]] = []
        self.recognizers: list[FakeRecognizer] = []

    def recognizer(self, grammar: list[str]) -> FakeRecognizer:
        self.grammars.append(list(grammar))
        rec = FakeRecognizer(grammar)
        self.recognizers.append(rec)
        return rec


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class FakeStream:
    def __init__(self, on_audio: Callable[[bytes], None]) -> None:
        self.on_audio = on_audio
        self.active = True
        self.closed = False

    def close(self) -> None:
        self.closed = True
        self.active = False


class FakeBackend:
    """`devices` is what is plugged in; `broken` makes audio itself unavailable (no PortAudio)."""

    def __init__(self, devices: list[str] | None = None, broken: str = "", open_error: str = "") -> None:
        self.devices = list(devices or [])
        self.broken = broken
        self.open_error = open_error
        self.stream: FakeStream | None = None
        self.rescans = 0

    def input_devices(self) -> list[str]:
        from audio.mic import MicUnavailable

        if self.broken:
            raise MicUnavailable(self.broken)
        return list(self.devices)

    def open(self, on_audio: Callable[[bytes], None]) -> FakeStream:
        from audio.mic import MicUnavailable

        if self.open_error:
            raise MicUnavailable(self.open_error)
        self.stream = FakeStream(on_audio)
        return self.stream

    def rescan(self) -> None:
        self.rescans += 1
