"""The voice bench's audio, rendered per part of the split (bench/voice_split.py) into its own folder:

    <root>/<part>/takes/<voice>/<room>/<phrase>.wav   a command said by a voice, through one room transformation
    <root>/<part>/noise/<kind>-s<seed>.wav             20 s of pink / babble / clatter, mixed in at scoring time
    <root>/<part>/cafe/<kind>-<seconds>-s<seed>.wav    café audio with no command in it (the kiosk's own
                                                       narration of the part's texts, babble, clatter, a mix)

Everything is made here from text and seeds (espeak-ng speaks, sox transforms; numpy mixes), nothing is
downloaded, and files once made are kept (a second run renders nothing). Scoring reads audio only through a
`PartReader`, which refuses any file outside its part's folder.
"""

from __future__ import annotations

import subprocess
import wave
import zlib
from pathlib import Path

import numpy as np

from audio import speechgen as sg
from bench.voice_split import NARRATOR, Part, Room

RATE = sg.RATE
NOISE_SECONDS = 20.0
CAFE_KINDS = ("narration", "babble", "clatter", "busy mix")


class SplitError(Exception):
    """A scorer asked for a file of the other part."""


def _key(*parts: str) -> int:
    return zlib.crc32("|".join(parts).encode("utf-8"))


def _safe(name: str) -> str:
    return name.replace("/", "_").replace(" ", "_").replace("+", "p")


def transform(pcm: bytes, room: Room) -> bytes:
    """16 kHz mono s16le through the room's sox effects (reverb tails kept: 0.6 s of padding first)."""
    if not room.effects:
        return pcm
    fmt = ["-t", "raw", "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed-integer"]
    out = subprocess.run(["sox", *fmt, "-", *fmt, "-", "pad", "0", "0.6", *room.effects, "channels", "1",
                          "rate", str(RATE)], input=pcm, check=True, capture_output=True, timeout=60).stdout
    a = np.frombuffer(out, dtype=np.int16).astype(np.float64)
    peak = float(np.max(np.abs(a))) if len(a) else 0.0
    if peak > 30000:  # reverb and pitch can clip: bring the peak back under full scale
        a *= 30000 / peak
    return a.astype(np.int16).tobytes()


def write_pcm(path: Path, pcm: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with wave.open(str(tmp), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm)
    tmp.replace(path)
    return path


def overlay(parts: list[bytes], gains: list[float]) -> bytes:
    n = max(len(p) for p in parts) // 2
    out = np.zeros(n)
    for p, g in zip(parts, gains, strict=True):
        a = np.frombuffer(p, dtype=np.int16, count=len(p) // 2)
        out[: len(a)] += g * a
    return np.clip(out, -32767, 32767).astype(np.int16).tobytes()


def mix(speech: bytes, noise: bytes, snr_db: float, offset: int = 0) -> bytes:
    """`speech` plus `noise` (looped, starting `offset` samples in) at `snr_db`: speech RMS over its voiced
    samples (above 1 % of full scale) over the noise's RMS, as speechgen.mix measures it."""
    s = np.frombuffer(speech, dtype=np.int16).astype(np.float64)
    nz = np.frombuffer(noise, dtype=np.int16).astype(np.float64)
    voiced = s[np.abs(s) > 327]
    s_rms = float(np.sqrt(np.mean(voiced**2))) if len(voiced) else 0.0
    n_rms = float(np.sqrt(np.mean(nz**2))) or 1.0
    idx = (np.arange(len(s)) + offset) % len(nz)
    out = s + nz[idx] * s_rms / (n_rms * 10 ** (snr_db / 20))
    return np.clip(out, -32767, 32767).astype(np.int16).tobytes()


class Corpus:
    """Renders one part's audio into `<root>/<part>` (and nowhere else)."""

    def __init__(self, root: Path, part: Part) -> None:
        self.part = part
        self.dir = Path(root) / part.name

    def room_for(self, text: str, voice: sg.Voice) -> Room:
        """Each take goes through one of the part's rooms, the same one every run."""
        return self.part.rooms[_key(text, voice.label) % len(self.part.rooms)]

    def take(self, text: str, voice: sg.Voice) -> Path:
        room = self.room_for(text, voice)
        path = self.dir / "takes" / _safe(voice.label) / _safe(room.name) / f"{text}.wav"
        if not path.exists():
            speech = transform(sg.speak(text, voice), room)
            write_pcm(path, sg.silence(0.3) + speech + sg.silence(0.4))
        return path

    def noise(self, kind: str) -> Path:
        path = self.dir / "noise" / f"{kind}-s{self.part.noise_seed}.wav"
        if not path.exists():
            write_pcm(path, self._noise(kind, NOISE_SECONDS, self.part.noise_seed))
        return path

    def cafe(self, kind: str, seconds: float) -> Path:
        """`seconds` of café audio with no command in it."""
        path = self.dir / "cafe" / f"{_safe(kind)}-{seconds:g}-s{self.part.noise_seed}.wav"
        if not path.exists():
            seed = self.part.noise_seed + 1000
            if kind == "narration":
                pcm = self._speech(self.part.narration, (NARRATOR,), seconds, seed, (0.4, 1.5))
            elif kind == "busy mix":
                pcm = overlay([self._noise(k, seconds, seed) for k in ("babble", "clatter", "pink")], [1.0, 0.7, 0.3])
            else:
                pcm = self._noise(kind, seconds, seed)
            write_pcm(path, pcm)
        return path

    def _noise(self, kind: str, seconds: float, seed: int) -> bytes:
        if kind == "pink":
            return sg.pink_noise(seconds, seed)
        if kind == "clatter":
            return sg.clatter(seconds, seed)
        if kind == "babble":  # four other talkers at once
            talkers = [self._speech(self.part.talk, self.part.babble_voices, seconds, seed + k, (0.1, 0.6), k)
                       for k in range(4)]
            return overlay(talkers, [0.5] * 4)
        raise KeyError(f"unknown noise {kind!r}")

    @staticmethod
    def _speech(lines: tuple[str, ...], voices: tuple[sg.Voice, ...], seconds: float, seed: int,
                gap: tuple[float, float], first: int = 0) -> bytes:
        rng = np.random.default_rng(seed)
        n = 2 * int(RATE * seconds)
        out = b""
        k = first
        while len(out) < n:
            out += sg.speak(lines[int(rng.integers(len(lines)))], voices[k % len(voices)])
            out += sg.silence(float(rng.uniform(*gap)))
            k += 1
        return out[:n]


class PartReader:
    """The only way the scorer reads audio: files of its own part, nothing else."""

    def __init__(self, root: Path, part: str) -> None:
        self.dir = (Path(root) / part).resolve()
        self.read_paths: list[Path] = []

    def read(self, path: Path) -> bytes:
        real = Path(path).resolve()
        if not real.is_relative_to(self.dir):
            raise SplitError(f"{path} is not a file of {self.dir.name}")
        with wave.open(str(real), "rb") as w:
            if (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (RATE, 1, 2):
                raise SplitError(f"{path}: not 16 kHz mono 16-bit")
            pcm = w.readframes(w.getnframes())
        self.read_paths.append(real)
        return pcm


def noise_offset(text: str, voice: sg.Voice, kind: str) -> int:
    """Where in the noise loop a take's noise starts (varies per take, the same every run)."""
    return _key(text, voice.label, kind) % int(RATE * NOISE_SECONDS)
