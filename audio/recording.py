"""Staff-mode recording backend (the UI comes later): record a segment with a countdown and a level
meter, play the take back, keep it (saved to the overlay folder, used from then on) or discard it.
Silence at both ends is trimmed when the take ends.

    rec = RecordingSession(segment, overlay_dir, mixer=narrator.mixer)
    rec.start(on_countdown=show_number, on_level=meter.set, on_done=show_take)   # callbacks: any thread
    rec.stop()            # → Take (raw and trimmed clips)
    rec.play()            # hear the trimmed take
    rec.keep()            # → Path of <overlay>/<lang>/<id>.wav   |   rec.discard()

Callbacks come from the recorder thread (the kiosk hops to the UI thread with Clock.schedule_once).
A missing microphone never raises from start(): the session goes to state "failed" with `error` set and
BOARD "recorder" says why.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from audio.pcm import Clip, dbfs, peak, rms, trim_silence, write_wav
from audio.playback import RATE, DeviceUnavailable, Mixer, Playing
from audio.segments import Segment, overlay_path
from audio.status import BOARD, StatusBoard


class InputDevice(Protocol):
    def open(self, rate: int, blocksize: int, on_block: Callable[[bytes], None]) -> None: ...

    def close(self) -> None: ...


class SoundDeviceInput:
    """sounddevice RawInputStream (mono int16, no numpy needed)."""

    def __init__(self, device: int | str | None = None) -> None:
        self.device = device
        self._stream: Any = None

    def open(self, rate: int, blocksize: int, on_block: Callable[[bytes], None]) -> None:
        try:
            import sounddevice as sd
        except OSError as exc:
            raise DeviceUnavailable(f"PortAudio 라이브러리가 없습니다 (PortAudio missing: {exc})") from exc
        except ImportError as exc:
            raise DeviceUnavailable(f"sounddevice 모듈이 없습니다 (sounddevice missing: {exc})") from exc

        def callback(indata: Any, frames: int, t: Any, status: Any) -> None:
            on_block(bytes(indata))

        try:
            stream = sd.RawInputStream(samplerate=rate, blocksize=blocksize, device=self.device, channels=1,
                                       dtype="int16", callback=callback)
            stream.start()
        except (sd.PortAudioError, ValueError, OSError) as exc:
            raise DeviceUnavailable(f"마이크가 없습니다 (no input device: {exc})") from exc
        self._stream = stream

    def close(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.stop()
                stream.close()
            except Exception:
                pass


class FakeInput:
    """Feeds a prepared clip block by block from a thread (tests; no microphone here)."""

    def __init__(self, clip: Clip | None = None, speed: float = 1.0, fail: str = "") -> None:
        self.clip = clip or Clip(array("h"), RATE)
        self.speed = speed
        self.fail = fail
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.fed = 0  # frames handed over so far (tests wait for the whole clip)

    def open(self, rate: int, blocksize: int, on_block: Callable[[bytes], None]) -> None:
        if self.fail:
            raise DeviceUnavailable(self.fail)
        data = self.clip.samples

        def feed() -> None:
            i = 0
            while not self._stop.is_set():
                block = data[i : i + blocksize] if i < len(data) else array("h", bytes(2 * blocksize))
                on_block(block.tobytes())
                i += blocksize
                self.fed = i
                self._stop.wait(blocksize / rate / self.speed)

        self._stop.clear()
        self._thread = threading.Thread(target=feed, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1)


@dataclass(frozen=True)
class Level:
    """One level-meter reading (about every 50 ms)."""

    rms: float  # 0..1
    peak: float  # 0..1
    dbfs: float  # of rms
    elapsed: float  # seconds recorded so far

    @property
    def meter(self) -> float:
        """0..1 for a bar: −60 dBFS → 0, 0 dBFS → 1."""
        return min(1.0, max(0.0, (self.dbfs + 60.0) / 60.0))


@dataclass(frozen=True)
class Take:
    raw: Clip
    clip: Clip  # trimmed

    @property
    def duration(self) -> float:
        return self.clip.duration


class RecordingSession:
    def __init__(self, segment: Segment, overlay_dir: str | Path, *, input_device: InputDevice | None = None,
                 mixer: Mixer | None = None, rate: int = RATE, board: StatusBoard = BOARD,
                 countdown_interval: float = 1.0) -> None:
        self.segment = segment
        self.path = overlay_path(overlay_dir, segment)
        self.input = input_device if input_device is not None else SoundDeviceInput()
        self.mixer = mixer
        self.rate = rate
        self.board = board
        self.countdown_interval = countdown_interval
        self.state = "idle"  # idle → countdown → recording → recorded → kept | discarded; or failed
        self.error = ""
        self.take: Take | None = None
        self._samples = array("h")
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._on_level: Callable[[Level], None] | None = None
        self._max_seconds = 180.0

    def start(self, *, countdown: int = 3, max_seconds: float = 180.0,
              on_countdown: Callable[[int], None] | None = None, on_level: Callable[[Level], None] | None = None,
              on_done: Callable[[Take | None], None] | None = None) -> None:
        """Count down (on_countdown(3), (2), (1), then (0) when recording starts), then record until
        stop() or `max_seconds`. on_level gets a Level about every 50 ms; on_done the take (None on failure)."""
        if self.state in ("countdown", "recording"):
            return
        self.state, self.error, self.take = "countdown", "", None
        self._samples = array("h")
        self._stop.clear()
        self._on_level = on_level
        self._max_seconds = max_seconds
        self._thread = threading.Thread(target=self._run, args=(countdown, max_seconds, on_countdown, on_done),
                                        name="recorder", daemon=True)
        self._thread.start()

    def _run(self, countdown: int, max_seconds: float, on_countdown: Callable[[int], None] | None,
             on_done: Callable[[Take | None], None] | None) -> None:
        for n in range(countdown, 0, -1):
            if on_countdown:
                on_countdown(n)
            if self._stop.wait(self.countdown_interval):
                self.state = "idle"
                if on_done:
                    on_done(None)
                return
        if on_countdown:
            on_countdown(0)
        try:
            self.input.open(self.rate, self.rate // 20, self._on_block)
        except DeviceUnavailable as exc:
            self.state, self.error = "failed", str(exc)
            self.board.set("recorder", False, str(exc))
            if on_done:
                on_done(None)
            return
        self.board.set("recorder", True)
        self.state = "recording"
        self._stop.wait(max_seconds + 5.0)  # _on_block stops at max_seconds of audio; this is a safety net
        self.input.close()
        with self._lock:
            raw = Clip(array("h", self._samples), self.rate)
        self.take = Take(raw, trim_silence(raw))
        self.state = "recorded"
        if on_done:
            on_done(self.take)

    def _on_block(self, data: bytes) -> None:
        block = array("h")
        block.frombytes(data[: len(data) - len(data) % 2])
        with self._lock:
            if self._stop.is_set():
                return
            self._samples.extend(block)
            elapsed = len(self._samples) / self.rate
        if elapsed >= self._max_seconds:
            self._stop.set()
        if self._on_level is not None:
            level = rms(block)
            self._on_level(Level(level, peak(block), dbfs(level), elapsed))

    def stop(self, timeout: float = 5.0) -> Take | None:
        """End the countdown or the recording; returns the take (None if it never started)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        return self.take

    def wait(self, timeout: float = 10.0) -> Take | None:
        if self._thread is not None:
            self._thread.join(timeout)
        return self.take

    def play(self) -> Playing | None:
        """Play the trimmed take back (on the mixer given at construction)."""
        if self.take is None or self.mixer is None or not self.take.clip.frames:
            return None
        return self.mixer.play_clip(self.take.clip)

    def keep(self) -> Path:
        """Save the trimmed take to the overlay folder; the narrator uses it from the next time on."""
        if self.take is None or not self.take.clip.frames:
            raise ValueError("녹음된 소리가 없습니다 (nothing recorded to keep)")
        write_wav(self.path, self.take.clip)
        self.state = "kept"
        self.board.set("recording", True)
        return self.path

    def discard(self) -> None:
        self.take = None
        self.state = "discarded"

    @staticmethod
    def existing(overlay_dir: str | Path, segment: Segment) -> Path | None:
        p = overlay_path(overlay_dir, segment)
        return p if p.exists() else None

    @staticmethod
    def delete(overlay_dir: str | Path, segment: Segment) -> bool:
        """Remove a café recording: the segment goes back to the cache / live voice."""
        p = overlay_path(overlay_dir, segment)
        existed = p.exists()
        p.unlink(missing_ok=True)
        return existed


def inventory(segments: Iterable[Segment], overlay_dir: str | Path) -> list[tuple[Segment, Path | None]]:
    """For the staff screen's segment chooser: each segment with its café recording (None: not recorded)."""
    return [(seg, RecordingSession.existing(overlay_dir, seg)) for seg in segments]
