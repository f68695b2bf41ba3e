"""Mono 16-bit PCM clips: WAV read/write, streaming resampling, levels and silence trimming. Clips hold
array('h'); per-sample work (resampling, levels) is done in numpy, not Python loops.

A `Clip` is the unit every source (recording, cache, live synthesis, generated sound) is turned into.
Stereo files keep only their first channel (C-speed slicing; a Python downmix of a long recording would
cost hundreds of milliseconds before the first sample)."""

from __future__ import annotations

import math
import os
import struct
import tempfile
import wave
from array import array
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAX = 32767


class CorruptAudio(Exception):
    """A WAV file that cannot be read (bad header, unsupported format, no audio)."""


@dataclass
class Clip:
    samples: array[int]  # array('h'), mono
    rate: int

    @property
    def frames(self) -> int:
        return len(self.samples)

    @property
    def duration(self) -> float:
        return len(self.samples) / self.rate if self.rate else 0.0

    @classmethod
    def silence(cls, seconds: float, rate: int) -> Clip:
        return cls(array("h", bytes(2 * max(0, int(seconds * rate)))), rate)

    def to_bytes(self) -> bytes:
        return self.samples.tobytes()


def _read_aiff(path: str | os.PathLike[str], data: bytes) -> tuple[int, int, int, bytes]:
    """(channels, sample width, rate, little-endian frames) of an AIFF/AIFF-C file: pyttsx3's macOS
    driver (NSSpeechSynthesizer) writes AIFF whatever the file name says."""
    channels = width = rate = 0
    little = False
    frames = b""
    kind = data[8:12]
    i = 12
    while i + 8 <= len(data):
        cid, size = data[i : i + 4], struct.unpack(">I", data[i + 4 : i + 8])[0]
        body = data[i + 8 : i + 8 + size]
        if cid == b"COMM" and len(body) >= 18:
            channels, _n, bits = struct.unpack(">hIh", body[:8])
            exp, mant = struct.unpack(">HQ", body[8:18])
            rate = int(mant * 2.0 ** ((exp & 0x7FFF) - 16383 - 63)) if mant else 0
            width = (bits + 7) // 8
            little = kind == b"AIFC" and body[18:22] == b"sowt"
            if kind == b"AIFC" and body[18:22] not in (b"NONE", b"sowt"):
                raise CorruptAudio(f"{Path(path).name}: compressed AIFF-C is not supported")
        elif cid == b"SSND" and len(body) >= 8:
            offset = struct.unpack(">I", body[:4])[0]
            frames = body[8 + offset :]
        i += 8 + size + (size & 1)
    if width == 2 and not (kind == b"AIFC" and little):
        swapped = array("h")
        swapped.frombytes(frames[: len(frames) - len(frames) % 2])
        swapped.byteswap()
        frames = swapped.tobytes()
    elif width == 1:
        frames = bytes((b + 128) & 0xFF for b in frames)  # AIFF 8-bit is signed; WAV's is unsigned
    return channels, width, rate, frames


def read_wav(path: str | os.PathLike[str]) -> Clip:
    """Read a WAV (or AIFF) file as a mono 16-bit clip. Raises CorruptAudio on anything unreadable or empty."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(12)
            if head[:4] == b"FORM" and head[8:12] in (b"AIFF", b"AIFC"):
                channels, width, rate, raw = _read_aiff(path, head + fh.read())
                return _to_clip(path, channels, width, rate, raw)
    except OSError as exc:
        raise CorruptAudio(f"{Path(path).name}: {exc}") from exc
    except struct.error as exc:
        raise CorruptAudio(f"{Path(path).name}: bad AIFF: {exc}") from exc
    try:
        with wave.open(str(path), "rb") as w:
            channels, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
            raw = w.readframes(w.getnframes())
    except (wave.Error, EOFError, OSError, ValueError) as exc:
        raise CorruptAudio(f"{Path(path).name}: {exc}") from exc
    return _to_clip(path, channels, width, rate, raw)


def _to_clip(path: str | os.PathLike[str], channels: int, width: int, rate: int, raw: bytes) -> Clip:
    if rate <= 0 or channels <= 0:
        raise CorruptAudio(f"{Path(path).name}: bad header (rate {rate}, channels {channels})")
    if width == 2:
        samples = array("h")
        samples.frombytes(raw[: len(raw) - len(raw) % 2])
    elif width == 1:
        samples = array("h", ((b - 128) << 8 for b in raw))
    else:
        raise CorruptAudio(f"{Path(path).name}: unsupported sample width {width * 8} bit")
    if channels > 1:
        samples = samples[0 : len(samples) - len(samples) % channels : channels]
    if not samples:
        raise CorruptAudio(f"{Path(path).name}: no audio frames")
    return Clip(samples, rate)


def write_wav(path: str | os.PathLike[str], clip: Clip) -> Path:
    """Write atomically (temp file + rename) so a crash never leaves a half-written recording or cache entry."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".wav.tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh, wave.open(fh, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(clip.rate)
            w.writeframes(clip.to_bytes())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


class ClipReader:
    """Streams a clip at another sample rate (linear interpolation, computed chunk by chunk on demand)."""

    def __init__(self, clip: Clip, rate: int) -> None:
        self.clip = clip
        self.rate = rate
        self._step = clip.rate / rate
        self._pos = 0.0  # position in source frames

    @property
    def total_frames(self) -> int:
        return int(self.clip.frames / self._step)

    @property
    def done(self) -> bool:
        return self._pos >= self.clip.frames

    def read(self, n: int) -> array[int]:
        src = self.clip.samples
        size = len(src)
        if self._step == 1.0:
            start = int(self._pos)
            out = src[start : start + n]
            self._pos = float(start + len(out))
            return out
        if self._pos >= size:
            return array("h")
        # positions accumulate step by step, exactly as a running `pos += step` would
        steps = np.full(n + 1, self._step)
        steps[0] = self._pos
        pos = np.cumsum(steps)
        idx = pos.astype(np.int64)
        k = min(n, int(np.searchsorted(idx, size)))  # positions increase: the first k are inside the clip
        self._pos = float(pos[k])
        if k == 0:
            return array("h")
        lo, hi = int(idx[0]), min(size, int(idx[k - 1]) + 2)
        s = np.frombuffer(src, dtype=np.int16, count=hi - lo, offset=2 * lo).astype(np.float64)
        i = idx[:k] - lo
        a = s[i]
        b = s[np.minimum(i + 1, hi - lo - 1)]
        return array("h", np.trunc(a + (b - a) * (pos[:k] - idx[:k])).astype(np.int16).tobytes())


def rms(samples: array[int]) -> float:
    """Root mean square level, 0..1."""
    if not samples:
        return 0.0
    x = np.frombuffer(samples, dtype=np.int16).astype(np.int64)
    return math.sqrt(int(x @ x) / len(x)) / MAX


def peak(samples: array[int]) -> float:
    return (max(abs(max(samples)), abs(min(samples))) / MAX) if samples else 0.0


def dbfs(level: float) -> float:
    return 20 * math.log10(level) if level > 1e-9 else -120.0


def trim_silence(clip: Clip, *, threshold_db: float = -45.0, relative_db: float = 40.0, pad: float = 0.15,
                 window: float = 0.01) -> Clip:
    """Cut silence at both ends. A 10 ms window counts as sound when its RMS is above both `threshold_db`
    dBFS and (loudest window − `relative_db`); `pad` seconds are kept around the sound. All-silent → empty."""
    n = max(1, int(clip.rate * window))
    levels = [rms(clip.samples[i : i + n]) for i in range(0, clip.frames, n)]
    if not levels:
        return Clip(array("h"), clip.rate)
    loud = max(levels)
    threshold = max(10 ** (threshold_db / 20), loud * 10 ** (-relative_db / 20))
    voiced = [i for i, lv in enumerate(levels) if lv > threshold]
    if not voiced:
        return Clip(array("h"), clip.rate)
    keep = int(pad * clip.rate)
    start = max(0, voiced[0] * n - keep)
    end = min(clip.frames, (voiced[-1] + 1) * n + keep)
    return Clip(clip.samples[start:end], clip.rate)


def concat(clips: list[Clip], rate: int) -> Clip:
    out = array("h")
    for c in clips:
        if c.rate == rate:
            out.extend(c.samples)
        else:
            reader = ClipReader(c, rate)
            out.extend(reader.read(reader.total_frames + 1))
    return Clip(out, rate)
