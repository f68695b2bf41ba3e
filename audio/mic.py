"""The microphone: a sounddevice input stream (16 kHz mono int16) kept open when possible, watched for
disappearing, and reopened when a microphone comes back — without restarting the kiosk.

States reach the status board ("microphone": available + a Korean/English reason for the staff screen)
and the voice controller (`on_status(ok, reason)`), which drops a half-spoken command when the mic goes.
Failure modes measured here: without libportaudio2 `import sounddevice` raises OSError; with no device
the device list is empty and opening a stream raises PortAudioError; `RawInputStream` needs no numpy.
The backend is an interface so tests drive every path with a fake device.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from audio.status import BOARD, StatusBoard

RATE = 16000
BLOCK = 1600  # 0.1 s
MIC_STATUS = "microphone"


class MicUnavailable(Exception):
    """No usable microphone; `str(exc)` is the reason shown to staff."""


class InputStream(Protocol):
    @property
    def active(self) -> bool: ...

    def close(self) -> None: ...


class AudioBackend(Protocol):
    def input_devices(self) -> list[str]:
        """Names of input devices now present. Raises MicUnavailable when audio itself is missing."""

    def open(self, on_audio: Callable[[bytes], None]) -> InputStream:
        """Open and start the default input device; raises MicUnavailable."""

    def rescan(self) -> None:
        """Refresh the device list (PortAudio only sees devices present when it was initialised)."""


class SoundDeviceBackend:
    def __init__(self, device: int | str | None = None) -> None:
        self.device = device

    def _sd(self) -> Any:
        try:
            import sounddevice
        except OSError as exc:  # libportaudio2 missing
            raise MicUnavailable(f"PortAudio 없음 (libportaudio2 설치 필요) / PortAudio missing: {exc}") from exc
        except ImportError as exc:
            raise MicUnavailable(f"sounddevice 없음 / sounddevice not installed: {exc}") from exc
        return sounddevice

    def input_devices(self) -> list[str]:
        sd = self._sd()
        return [str(d["name"]) for d in sd.query_devices() if int(d.get("max_input_channels", 0)) > 0]

    def open(self, on_audio: Callable[[bytes], None]) -> InputStream:
        sd = self._sd()

        def callback(data: Any, frames: int, time_info: Any, status: Any) -> None:
            on_audio(bytes(data))

        try:
            stream = sd.RawInputStream(
                samplerate=RATE, blocksize=BLOCK, channels=1, dtype="int16", device=self.device, callback=callback
            )
            stream.start()
        except (sd.PortAudioError, ValueError) as exc:
            raise MicUnavailable(f"마이크를 열 수 없음 / cannot open the microphone: {exc}") from exc
        return _SdStream(stream)

    def rescan(self) -> None:
        sd = self._sd()
        try:
            sd._terminate()
            sd._initialize()
        except Exception:  # noqa: BLE001 - a failed rescan just means "try again later"
            pass


class _SdStream:
    def __init__(self, stream: Any) -> None:
        self._stream = stream

    @property
    def active(self) -> bool:
        return bool(self._stream.active)

    def close(self) -> None:
        try:
            self._stream.abort()
            self._stream.close()
        except Exception:  # noqa: BLE001 - the device may already be gone
            pass


class Microphone:
    """Owns the stream. `check()` is one step of the watchdog (tests call it directly; `start()` runs it
    in a thread every `retry_every` seconds). Audio is queued by the device callback and handed to `sink`
    on the worker thread (`pump()`), never inside the PortAudio callback."""

    def __init__(
        self,
        sink: Callable[[bytes], None],
        on_status: Callable[[bool, str], None] | None = None,
        backend: AudioBackend | None = None,
        board: StatusBoard = BOARD,
        retry_every: float = 3.0,
        stall_after: float = 1.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.sink = sink
        self.on_status = on_status
        self.backend: AudioBackend = backend or SoundDeviceBackend()
        self.board = board
        self.retry_every = retry_every
        self.stall_after = stall_after
        self.clock = clock
        self.ok = False
        self.reason = ""
        self._stream: InputStream | None = None
        self._last_audio = 0.0
        self._failed_before = False
        self._queue: queue.Queue[bytes] = queue.Queue(maxsize=200)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _report(self, ok: bool, reason: str) -> None:
        changed = (ok, reason) != (self.ok, self.reason)
        self.ok, self.reason = ok, reason
        self.board.set(MIC_STATUS, ok, reason)
        if changed and self.on_status is not None:
            self.on_status(ok, reason)

    def _on_audio(self, pcm: bytes) -> None:
        self._last_audio = self.clock()
        try:
            self._queue.put_nowait(pcm)
        except queue.Full:
            pass  # the worker is behind; dropping audio beats blocking the device callback

    def check(self) -> None:
        """Open the mic if closed; close it and report if it stopped delivering audio."""
        if self._stream is not None:
            stalled = self.clock() - self._last_audio > self.stall_after
            if self._stream.active and not stalled:
                return
            self._stream.close()
            self._stream = None
            self._drain()
            self._failed_before = True
            self._report(False, "마이크 연결이 끊겼어요 / microphone disconnected")
            return
        try:
            if self._failed_before:
                self.backend.rescan()
            devices = self.backend.input_devices()
            if not devices:
                raise MicUnavailable("마이크 없음 / no microphone connected")
            self._last_audio = self.clock()
            self._stream = self.backend.open(self._on_audio)
        except MicUnavailable as exc:
            self._failed_before = True
            self._report(False, str(exc))
            return
        self._report(True, "")

    def _drain(self) -> None:
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                return

    def pump(self, timeout: float = 0.0) -> int:
        """Hand queued audio to the sink; returns how many blocks."""
        n = 0
        while True:
            try:
                pcm = self._queue.get(timeout=timeout) if n == 0 and timeout else self._queue.get_nowait()
            except queue.Empty:
                return n
            self.sink(pcm)
            n += 1

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="microphone", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def _run(self) -> None:
        next_check = 0.0
        while not self._stop.is_set():
            now = self.clock()
            if now >= next_check or self._stream is not None:
                self.check()
                next_check = now + self.retry_every
            if self._stream is None:
                self._stop.wait(min(self.retry_every, 0.5))
            else:
                self.pump(timeout=0.2)
