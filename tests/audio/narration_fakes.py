"""Fakes for the narration tests: a synthesiser that records what it was asked to say, helpers to wait."""

from __future__ import annotations

import math
import threading
import time
from array import array
from collections.abc import Callable

from audio.pcm import Clip
from audio.playback import RATE, FakeOutput, Mixer
from audio.status import MicGate, StatusBoard
from audio.synth_types import SynthError, SynthUnavailable, VoiceInfo

_PERIOD = array("h", (int(8000 * math.sin(2 * math.pi * k / 50)) for k in range(50)))  # 441 Hz


def tone(seconds: float, rate: int = RATE, amplitude: float = 1.0) -> Clip:
    n = int(seconds * rate)
    reps = n // len(_PERIOD) + 1
    samples = (_PERIOD * reps)[:n]
    if amplitude != 1.0:
        samples = array("h", (int(s * amplitude) for s in samples))
    return Clip(samples, rate)


class SpySynth:
    """Records every text it receives; speaks `per_char` seconds of tone per character."""

    name = "spy"

    def __init__(self, per_char: float = 0.02, fail: str = "", error_on: str = "", delay: float = 0.0) -> None:
        self.per_char = per_char
        self.fail = fail
        self.error_on = error_on
        self.delay = delay
        self.texts: list[str] = []
        self.calls: list[tuple[str, str, int]] = []
        self._lock = threading.Lock()

    def voices(self) -> list[VoiceInfo]:
        if self.fail:
            raise SynthUnavailable(self.fail)
        return [VoiceInfo("ko", "Korean", ("ko",)), VoiceInfo("gmw/en", "English", ("en",))]

    def synthesize(self, text: str, voice: str, wpm: int) -> Clip:
        with self._lock:
            self.texts.append(text)
            self.calls.append((text, voice, wpm))
        if self.fail:
            raise SynthUnavailable(self.fail)
        if self.error_on and self.error_on in text:
            raise SynthError("cannot say that")
        if self.delay:
            time.sleep(self.delay)
        return tone(max(0.05, self.per_char * len(text)))

    def close(self) -> None:
        pass


def rig(speed: float = 20.0, **out_kw: object) -> tuple[Mixer, FakeOutput, MicGate, StatusBoard]:
    dev = FakeOutput(speed=speed, **out_kw)  # type: ignore[arg-type]
    gate, board = MicGate(), StatusBoard()
    return Mixer(dev, gate=gate, board=board), dev, gate, board


def wait_for(pred: Callable[[], bool], timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            return False
        time.sleep(0.002)
    return True
