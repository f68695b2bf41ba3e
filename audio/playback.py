"""Our own playback (pyttsx3's is broken, see FACTS.md): one mixer thread writes small chunks to an output
device, so pause / stop / skip act within one chunk (~12 ms) plus the device buffer.

- `Mixer.play(source)` → `Playing` handle (pause / resume / stop, `finished` event, position).
  Several sources play at once and are summed (sounds over narration, never cutting it).
- The microphone gate (audio.status.MIC_GATE) is held while anything audible plays.
- No device (no PortAudio, no output device, a device lost mid-stream): the mixer switches to a silent,
  real-time-paced device, sets BOARD "speaker" unavailable with the reason, and carries on, so captions
  still advance in time. Never raises into callers.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from audio.pcm import MAX, Clip, ClipReader
from audio.status import BOARD, MIC_GATE, MicGate, StatusBoard

log = logging.getLogger(__name__)

RATE = 22050  # espeak-ng's native rate; everything is mixed at it
CHUNK = 256  # frames per write: 11.6 ms


class DeviceUnavailable(Exception):
    """The output device cannot be used; `str(exc)` is the reason shown to staff."""


class OutputDevice(Protocol):
    audible: bool
    latency: float  # seconds of audio still buffered after write() returns

    def open(self, rate: int, blocksize: int) -> None: ...

    def write(self, data: bytes) -> None: ...

    def idle(self) -> None: ...

    def flush(self) -> int:
        """Drop what is buffered but not yet heard (on stop and pause, so silence comes at once);
        returns how many frames were dropped (pause replays them on resume)."""

    def close(self) -> None: ...


class Source(Protocol):
    """Mono int16 samples at the mixer rate. `read(n)` may return fewer than n samples (or zeros while
    waiting for data); once `exhausted` is True and a read returns short, the source is done."""

    exhausted: bool

    def read(self, n: int) -> array[int]: ...


class ClipSource:
    def __init__(self, clip: Clip, rate: int = RATE) -> None:
        self._reader = ClipReader(clip, rate)
        self.exhausted = True

    def read(self, n: int) -> array[int]:
        return self._reader.read(n)


class SoundDeviceOutput:
    """sounddevice RawOutputStream (no numpy needed) in blocking-write mode."""

    audible = True

    def __init__(self, device: int | str | None = None, latency: str | float = "low") -> None:
        self.device = device
        self._latency_req = latency
        self.latency = 0.05
        self._stream: Any = None
        self._sd: Any = None
        self._rate = RATE

    def open(self, rate: int, blocksize: int) -> None:
        if self._stream is not None:
            return
        try:
            import sounddevice as sd
        except OSError as exc:
            raise DeviceUnavailable(f"PortAudio 라이브러리가 없습니다 (PortAudio missing: {exc})") from exc
        except ImportError as exc:
            raise DeviceUnavailable(f"sounddevice 모듈이 없습니다 (sounddevice missing: {exc})") from exc
        self._sd = sd
        try:
            sd.query_devices(self.device, "output")
            stream = sd.RawOutputStream(samplerate=rate, channels=1, dtype="int16", blocksize=blocksize,
                                        device=self.device, latency=self._latency_req)
            stream.start()
        except (sd.PortAudioError, ValueError, OSError) as exc:
            raise DeviceUnavailable(f"출력 장치가 없습니다 (no output device: {exc})") from exc
        self._stream = stream
        self._rate = rate
        self.latency = float(stream.latency)

    def write(self, data: bytes) -> None:
        try:
            if not self._stream.active:
                self._stream.start()
            self._stream.write(data)
        except Exception as exc:  # PortAudioError when the device disappears
            self.close()
            raise DeviceUnavailable(f"출력 장치 오류 (output device error: {exc})") from exc

    def idle(self) -> None:
        try:
            if self._stream is not None and self._stream.active:
                self._stream.stop()
        except Exception:
            self.close()

    def flush(self) -> int:
        try:  # Pa_AbortStream discards pending buffers; the next write starts the stream again
            if self._stream is not None and self._stream.active:
                self._stream.abort()
                return int(self.latency * self._rate)  # PortAudio's own estimate of what was queued
        except Exception:
            self.close()
        return 0

    def close(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.close()
            except Exception:
                pass


class PacedOutput:
    """A device emulated in real time: write() blocks like a sound card whose buffer holds `latency`
    seconds. Base of the silent fallback and of the fake device used by tests and the benchmark."""

    audible = False

    def __init__(self, latency: float = 0.03, speed: float = 1.0) -> None:
        self.latency = latency
        self.speed = speed  # >1 plays faster than real time (tests)
        self.rate = RATE
        self._play_end = 0.0
        self.opened = False

    def open(self, rate: int, blocksize: int) -> None:
        self.rate = rate
        self.opened = True

    def write(self, data: bytes) -> None:
        now = time.perf_counter()
        seconds = len(data) / 2 / self.rate / self.speed
        self._play_end = max(self._play_end, now) + seconds
        self._received(now, data, self._play_end)
        ahead = self._play_end - now - self.latency / self.speed
        if ahead > 0:
            time.sleep(ahead)

    def _received(self, now: float, data: bytes, play_end: float) -> None:
        pass

    def idle(self) -> None:
        pass

    def flush(self) -> int:
        now = time.perf_counter()
        dropped = int(round(max(0.0, self._play_end - now) * self.rate * self.speed))
        self._play_end = min(self._play_end, now)
        self._flushed(now, dropped)
        return dropped

    def _flushed(self, now: float, dropped: int) -> None:
        pass

    def close(self) -> None:
        self.opened = False


class SilentOutput(PacedOutput):
    """What the mixer uses when there is no speaker: nothing is heard, time still passes (captions only)."""


@dataclass
class Write:
    at: float  # perf_counter when the chunk was handed to the device
    frames: int
    audible: bool  # any non-zero sample
    play_end: float  # when the device will have played it out


class FakeOutput(PacedOutput):
    """Records every write (time, non-silence) — for tests and bench/narration.py (there is no sound card)."""

    audible = True

    def __init__(self, latency: float = 0.03, speed: float = 1.0, fail_open: str = "",
                 fail_after: int = -1) -> None:
        super().__init__(latency, speed)
        self.writes: list[Write] = []
        self.flushes: list[float] = []
        self.samples = array("h")
        self.fail_open = fail_open
        self.fail_after = fail_after
        self._lock = threading.Lock()

    def open(self, rate: int, blocksize: int) -> None:
        if self.fail_open:
            raise DeviceUnavailable(self.fail_open)
        super().open(rate, blocksize)

    def write(self, data: bytes) -> None:
        if self.fail_after >= 0 and len(self.writes) >= self.fail_after:
            raise DeviceUnavailable("출력 장치 오류 (device lost)")
        super().write(data)

    def _received(self, now: float, data: bytes, play_end: float) -> None:
        chunk = array("h")
        chunk.frombytes(data)
        with self._lock:
            self.writes.append(Write(now, len(chunk), any(chunk), play_end))
            self.samples.extend(chunk)

    def first_audible_after(self, t: float) -> float | None:
        with self._lock:
            return next((w.at for w in self.writes if w.at >= t and w.audible), None)

    def _flushed(self, now: float, dropped: int) -> None:
        with self._lock:
            self.flushes.append(now)
            if dropped:  # `samples` is what was heard: the dropped tail never was
                del self.samples[-dropped:]

    def silent_from(self) -> float | None:
        """When the last audible sample handed over so far will have been played out (or was dropped)."""
        with self._lock:
            last = next((w for w in reversed(self.writes) if w.audible), None)
            if last is None:
                return None
            cut = [f for f in self.flushes if f >= last.at]
            return min([last.play_end, *cut])


_ids = itertools.count(1)


@dataclass(eq=False)
class Playing:
    source: Source
    channel: str = "voice"  # "voice" (narration) or "effect" (sounds)
    gain: float = 1.0
    on_end: Callable[[Playing], None] | None = None
    id: int = field(default_factory=lambda: next(_ids))
    paused: bool = False
    stopped: bool = False
    frames: int = 0  # frames handed to the device
    first_write: float | None = None  # perf_counter of the first chunk handed over
    end_reason: str = ""  # "end", "stopped", "error"
    finished: threading.Event = field(default_factory=threading.Event)
    mixer: Mixer | None = None
    # Pause drops the device's buffered tail and replays it on resume: nothing is lost or repeated.
    history: array[int] = field(default_factory=lambda: array("h"))  # last frames handed over
    replay: array[int] = field(default_factory=lambda: array("h"))  # frames to play again first
    pause_done: bool = True  # the mixer has handled the latest pause

    def pause(self) -> None:
        self.pause_done = False
        self.paused = True
        if self.mixer:
            self.mixer.wake()

    def resume(self) -> None:
        self.paused = False
        self.pause_done = True
        if self.mixer:
            self.mixer.wake()

    def take(self, n: int, keep: int) -> array[int]:
        """The next n frames (replayed ones first); remembers the last `keep` frames."""
        if self.replay:
            data = self.replay[:n]
            del self.replay[:n]
            if len(data) < n:
                data.extend(self.source.read(n - len(data)))
        else:
            data = self.source.read(n)
        self.history.extend(data)
        if len(self.history) > keep:
            del self.history[: len(self.history) - keep]
        return data

    def stop(self) -> None:
        self.stopped = True
        if self.mixer:
            self.mixer.wake()

    def position(self) -> float:
        """Seconds of this source already heard (frames handed over minus what is still buffered)."""
        if self.mixer is None:
            return 0.0
        return max(0.0, self.frames / self.mixer.rate - (0.0 if self.finished.is_set() else self.mixer.latency))


class Mixer:
    def __init__(self, device: OutputDevice | None = None, *, rate: int = RATE, chunk: int = CHUNK,
                 gate: MicGate = MIC_GATE, board: StatusBoard = BOARD, idle_after: float = 2.0,
                 retry_after: float = 30.0) -> None:
        self.rate = rate
        self.chunk = chunk
        self.volumes = {"master": 1.0, "voice": 1.0, "effect": 0.6}
        self._device: OutputDevice = device if device is not None else SoundDeviceOutput()
        self._wanted = self._device
        self._gate = gate
        self._board = board
        self._idle_after = idle_after
        self._retry_after = retry_after
        self._failed_at: float | None = None
        self._opened = False
        self._holding = False
        self._cond = threading.Condition()
        self._active: list[Playing] = []
        self._closed = False
        self._ready = threading.Event()  # set once the device was probed (opened or found missing)
        self._thread = threading.Thread(target=self._run, name="mixer", daemon=True)
        self._thread.start()

    # ---- public API (any thread) ----
    @property
    def audible(self) -> bool:
        """True when sound reaches a speaker (False: captions only). Waits for the first device probe."""
        self._ready.wait(2.0)
        return self._device.audible and self._failed_at is None

    @property
    def latency(self) -> float:
        return self._device.latency

    def play(self, source: Source, *, channel: str = "voice", gain: float = 1.0,
             on_end: Callable[[Playing], None] | None = None, paused: bool = False) -> Playing:
        p = Playing(source, channel, gain, on_end, paused=paused)
        p.mixer = self
        with self._cond:
            if self._closed:
                p.end_reason = "stopped"
                p.finished.set()
                return p
            self._active.append(p)
            self._cond.notify_all()
        return p

    def play_clip(self, clip: Clip, **kw: Any) -> Playing:
        return self.play(ClipSource(clip, self.rate), **kw)

    def set_volume(self, channel: str, value: float) -> None:
        self.volumes[channel] = min(1.0, max(0.0, value))

    def wake(self) -> None:
        with self._cond:
            self._cond.notify_all()

    def stop_all(self, channel: str | None = None) -> None:
        """Stop what plays (on one channel, or all)."""
        with self._cond:
            for p in self._active:
                if channel is None or p.channel == channel:
                    p.stopped = True
            self._cond.notify_all()

    def close(self) -> None:
        self.stop_all()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout=2)

    # ---- mixer thread ----
    def _runnable(self) -> bool:
        return any(p.stopped or not p.paused or not p.pause_done for p in self._active)

    def _run(self) -> None:
        try:
            self._ensure_device()  # probe at start: BOARD knows about the speaker before anything plays
        except Exception as exc:
            self._fall_back(f"재생 오류 (playback error: {exc})")
        self._ready.set()
        idle_since = time.monotonic()
        while True:
            with self._cond:
                while not self._closed and not self._runnable():
                    if self._holding:
                        self._cond.wait(timeout=self._device.latency)
                        if not self._runnable():
                            self._set_hold(False)
                        continue
                    if self._opened and time.monotonic() - idle_since > self._idle_after:
                        self._device.idle()
                        idle_since = float("inf")
                    self._cond.wait(timeout=0.5)
                if self._closed:
                    break
                active = list(self._active)
            try:
                self._mix_once(active)
            except Exception as exc:  # never let the mixer thread die
                self._board.set("speaker", False, f"재생 오류 (playback error: {exc})")
                for p in active:
                    p.stopped = True
                self._finish([p for p in active])
            idle_since = time.monotonic()
        self._set_hold(False)
        for p in list(self._active):
            p.end_reason = p.end_reason or "stopped"
            p.finished.set()
        try:
            self._device.close()
        except Exception:
            pass

    def _ensure_device(self) -> None:
        if self._failed_at is not None and time.monotonic() - self._failed_at > self._retry_after:
            self._device, self._failed_at, self._opened = self._wanted, None, False
        if self._opened:
            return
        try:
            self._device.open(self.rate, self.chunk)
            if self._device.audible:
                self._board.set("speaker", True)
        except DeviceUnavailable as exc:
            self._fall_back(str(exc))
            self._device.open(self.rate, self.chunk)
        self._opened = True

    def _fall_back(self, reason: str) -> None:
        self._board.set("speaker", False, reason)
        self._failed_at = time.monotonic()
        self._device = SilentOutput(latency=self._wanted.latency, speed=getattr(self._wanted, "speed", 1.0))
        self._opened = False
        self._set_hold(False)

    def _set_hold(self, hold: bool) -> None:
        if hold != self._holding:
            self._holding = hold
            (self._gate.hold if hold else self._gate.release)()

    def _mix_once(self, active: list[Playing]) -> None:
        self._ensure_device()
        n = self.chunk
        acc = np.zeros(n)
        ended: list[Playing] = []
        contributing: list[Playing] = []
        newly_paused: list[Playing] = []
        audible = self._device.audible
        for p in active:
            if p.stopped:
                p.end_reason = "stopped"
                ended.append(p)
                continue
            if p.paused:
                if not p.pause_done:
                    newly_paused.append(p)
                continue
            if p.channel == "effect" and not audible:
                p.end_reason = "end"  # sounds are pointless on the silent device; don't delay anything
                ended.append(p)
                continue
            try:
                data = p.take(n, keep=self.rate)
            except Exception:  # one broken source ends alone; the others play on
                log.exception("audio source failed")
                p.end_reason = "error"
                ended.append(p)
                continue
            g = p.gain * self.volumes.get(p.channel, 1.0) * self.volumes["master"]
            if data:
                acc[: len(data)] += np.frombuffer(data, dtype=np.int16) * g
            p.frames += len(data)
            contributing.append(p)
            if len(data) < n and p.source.exhausted and not p.replay:
                p.end_reason = "end"
                ended.append(p)
        if not contributing and any(p.end_reason == "stopped" for p in ended):
            self._device.flush()  # stopped and nothing else plays: drop the buffered tail now
        elif not contributing and newly_paused:
            dropped = self._device.flush()  # paused and nothing else plays: silence now, replay on resume
            for p in newly_paused:
                k = min(dropped, len(p.history))
                if k:
                    p.replay = p.history[-k:] + p.replay
                    del p.history[-k:]
                    p.frames -= k
        for p in newly_paused:
            p.pause_done = True
        if contributing:
            if audible:
                self._set_hold(True)
            out = np.clip(acc, -MAX - 1, MAX).astype(np.int16)  # clipped, then truncated toward zero
            now = time.perf_counter()
            for p in contributing:
                if p.first_write is None:
                    p.first_write = now
            try:
                self._device.write(out.tobytes())
            except DeviceUnavailable as exc:
                self._fall_back(str(exc))
        self._finish(ended)

    def _finish(self, ended: list[Playing]) -> None:
        if not ended:
            return
        with self._cond:
            self._active = [p for p in self._active if p not in ended]
        for p in ended:
            p.finished.set()
            if p.on_end is not None:
                try:
                    p.on_end(p)
                except Exception:
                    pass
