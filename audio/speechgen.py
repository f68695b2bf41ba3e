"""Synthetic Korean test speech and café-like noise, for the voice tests and `bench/voice.py`.

espeak-ng (voice `ko`) speaks; sox converts to the recogniser's format: 16 kHz, mono, signed 16-bit PCM.
Robotic espeak speech is a pessimistic stand-in for people: figures measured on it are a floor.
Generation only (no per-frame work): mixing and levels use `array('h')`.
"""

from __future__ import annotations

import math
import random
import shutil
import subprocess
from array import array
from dataclasses import dataclass

RATE = 16000


class SpeechGenError(Exception):
    """espeak-ng or sox is missing or failed."""


@dataclass(frozen=True)
class Voice:
    """An espeak-ng voice setting: `variant` like "f2" or "" for the default male voice."""

    variant: str = ""
    speed: int = 150
    pitch: int = 50

    @property
    def label(self) -> str:
        return f"ko{'+' + self.variant if self.variant else ''}/s{self.speed}/p{self.pitch}"


def tools_available() -> str:
    """"" when espeak-ng and sox are installed, else what is missing."""
    missing = [t for t in ("espeak-ng", "sox") if shutil.which(t) is None]
    return ", ".join(missing)


def speak(text: str, voice: Voice = Voice()) -> bytes:
    """16 kHz mono s16le PCM of `text` spoken by espeak-ng."""
    name = "ko" + (f"+{voice.variant}" if voice.variant else "")
    try:
        wav = subprocess.run(
            ["espeak-ng", "--stdin", "-v", name, "-s", str(voice.speed), "-p", str(voice.pitch), "--stdout"],
            input=text.encode("utf-8"), check=True, capture_output=True, timeout=30,
        ).stdout
        raw = subprocess.run(
            ["sox", "-t", "wav", "-", "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", "-"],
            input=wav, check=True, capture_output=True, timeout=30,
        ).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise SpeechGenError(f"espeak-ng/sox failed for {text!r}: {exc}") from exc
    return raw


def silence(seconds: float) -> bytes:
    return bytes(2 * int(RATE * seconds))


def samples(pcm: bytes) -> array[int]:
    a: array[int] = array("h")
    a.frombytes(pcm[: len(pcm) // 2 * 2])
    return a


def rms(pcm: bytes) -> float:
    a = samples(pcm)
    if not a:
        return 0.0
    return math.sqrt(sum(x * x for x in a) / len(a))


def pink_noise(seconds: float, seed: int = 0) -> bytes:
    """Pink-ish noise (Paul Kellet's economy filter over white noise), about -20 dBFS."""
    rng = random.Random(seed)
    n = int(RATE * seconds)
    b0 = b1 = b2 = 0.0
    out = array("h", bytes(2 * n))
    for i in range(n):
        w = rng.uniform(-1.0, 1.0)
        b0 = 0.99765 * b0 + w * 0.0990460
        b1 = 0.96300 * b1 + w * 0.2965164
        b2 = 0.57000 * b2 + w * 1.0526913
        out[i] = max(-32767, min(32767, int((b0 + b1 + b2 + w * 0.1848) * 1500)))
    return out.tobytes()


def clatter(seconds: float, seed: int = 0) -> bytes:
    """Cups and cutlery: sparse short decaying clicks at random moments."""
    rng = random.Random(seed)
    n = int(RATE * seconds)
    out = array("h", bytes(2 * n))
    t = 0
    while True:
        t += int(rng.expovariate(2.5) * RATE)
        if t >= n:
            break
        freq = rng.uniform(1500, 5000)
        amp = rng.uniform(3000, 12000)
        length = int(RATE * rng.uniform(0.02, 0.08))
        for k in range(min(length, n - t)):
            v = out[t + k] + amp * math.exp(-k / (length / 5)) * math.sin(2 * math.pi * freq * k / RATE)
            out[t + k] = max(-32767, min(32767, int(v)))
    return out.tobytes()


def mix(signal: bytes, noise: bytes, snr_db: float | None) -> bytes:
    """`signal` plus `noise` (looped/cut to length) scaled so that speech RMS / noise RMS = `snr_db`.

    The speech level is measured over its voiced part (samples above 1 % of full scale), as SNR of speech is."""
    s = samples(signal)
    if snr_db is None or not noise:
        return signal
    nz = samples(noise)
    voiced = [x for x in s if abs(x) > 327]
    s_rms = math.sqrt(sum(x * x for x in voiced) / len(voiced)) if voiced else 0.0
    n_rms = math.sqrt(sum(x * x for x in nz) / len(nz)) or 1.0
    gain = s_rms / (n_rms * 10 ** (snr_db / 20))
    out = array("h", bytes(2 * len(s)))
    for i, x in enumerate(s):
        out[i] = max(-32767, min(32767, int(x + gain * nz[i % len(nz)])))
    return out.tobytes()


def overlay(parts: list[bytes], gains: list[float] | None = None) -> bytes:
    """Sum several PCM clips (the result is as long as the longest)."""
    arrays = [samples(p) for p in parts]
    n = max((len(a) for a in arrays), default=0)
    gains = gains or [1.0] * len(arrays)
    out = [0.0] * n
    for a, g in zip(arrays, gains, strict=True):
        for i, x in enumerate(a):
            out[i] += g * x
    return array("h", (max(-32767, min(32767, int(v))) for v in out)).tobytes()
