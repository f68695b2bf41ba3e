"""Crash-proof synthesis: the pyttsx3 engine runs in a child process (`audio.synth_worker`), never in the
kiosk process.

    synth = ProcessSynth(prestart=True)     # the worker starts in a background thread; nothing blocks
    clip = synth.synthesize("안녕하세요.", "ko", 200)
    synth.close()                           # the worker is ended and reaped

A segfault in libespeak (seen once in a CI-like run), a hung SAPI5 call or a killed worker costs one
request: it raises `SynthError` (the narrator speaks that sentence as captions) and the next request
starts a fresh worker. After `max_crashes` failures within `crash_window` seconds the synthesiser gives up
with `SynthUnavailable` (Korean + English reason, shown on the staff screen) and `FallbackSynth` moves on
to the espeak-ng command line. The worker is started with `subprocess` (`python -m audio.synth_worker`,
no fork assumptions: the same on Linux, Windows and macOS) and exits by itself when its stdin closes, so
it cannot outlive the kiosk.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from array import array
from collections import deque
from pathlib import Path
from queue import Empty, Queue
from typing import Any, NoReturn

from audio.pcm import Clip
from audio.synth_types import SynthError, SynthUnavailable, VoiceInfo

log = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parents[1]  # the folder holding the `audio` package


class _Hung(Exception):
    pass


class _Died(Exception):
    pass


def describe_exit(code: int | None) -> str:
    if code is None:
        return "closed its pipe"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    if os.name == "nt" and code >= 0xC0000000:
        return f"crashed (0x{code:08X})"  # e.g. 0xC0000005, access violation
    return f"exited with code {code}"


class _Worker:
    """One worker process, its pipes and the thread that reads its replies."""

    def __init__(self, cmd: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=str(ROOT),
                                     stderr=subprocess.DEVNULL if sys.__stderr__ is None else None,
                                     creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0))
        self.replies: Queue[tuple[dict[str, Any], bytes] | None] = Queue()
        self._reader = threading.Thread(target=self._read, name="synth-reader", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        try:
            while line := out.readline():
                header = json.loads(line)
                n = int(header.get("n", 0))
                payload = out.read(n) if n else b""
                if len(payload) < n:
                    break
                self.replies.put((header, payload))
        except (OSError, ValueError):
            pass
        self.replies.put(None)  # end of stream: the worker died (or was stopped)

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(msg, ensure_ascii=False).encode() + b"\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as exc:  # BrokenPipeError, or stdin already closed
            raise _Died(self.exit_reason()) from exc

    def reply(self, timeout: float) -> tuple[dict[str, Any], bytes]:
        try:
            item = self.replies.get(timeout=timeout)
        except Empty:
            raise _Hung(f"no answer within {timeout:g} s") from None
        if item is None:
            raise _Died(self.exit_reason())
        return item

    def exit_reason(self) -> str:
        try:
            return describe_exit(self.proc.wait(timeout=2))
        except subprocess.TimeoutExpired:
            return describe_exit(None)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self, grace: float = 1.0) -> None:
        """Close its stdin (it exits on EOF), kill it if it does not, and reap it: no zombie."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(timeout=2)
        if not self._reader.is_alive() and self.proc.stdout is not None:
            self.proc.stdout.close()


class ProcessSynth:
    """pyttsx3 in a child process; see the module docstring. Thread-safe: requests are serialised."""

    name = "pyttsx3-process"

    def __init__(self, driver: str | None = None, *, timeout: float = 10.0, start_timeout: float = 30.0,
                 max_crashes: int = 3, crash_window: float = 60.0, prestart: bool = False,
                 env: dict[str, str] | None = None) -> None:
        self.driver = driver
        self.timeout = timeout  # per request; a worker silent for longer is killed
        self.start_timeout = start_timeout  # Python start + pyttsx3.init (SAPI5's first run can be slow)
        self.max_crashes = max_crashes
        self.crash_window = crash_window
        self.env = dict(env or {})
        self.starts = 0  # workers started so far
        self.crashes: deque[float] = deque()  # monotonic times of recent failures
        self._lock = threading.Lock()
        self._worker: _Worker | None = None
        self._dead = ""
        self._closed = False
        self._voices: list[VoiceInfo] | None = None
        self._tmp = Path(tempfile.mkdtemp(prefix="tablehost-tts-"))
        if prestart:
            threading.Thread(target=self._prestart, name="synth-start", daemon=True).start()

    @property
    def pid(self) -> int | None:
        """The current worker's process id (None before the first start and after a crash or close)."""
        w = self._worker
        return w.proc.pid if w is not None and w.alive else None

    # ---------------------------------------------------------------- Synthesizer
    def voices(self) -> list[VoiceInfo]:
        if self._voices is None:
            _, payload = self._request({"op": "voices"})
            self._voices = [VoiceInfo(str(i), str(n), tuple(langs)) for i, n, langs in json.loads(payload)]
        return list(self._voices)

    def synthesize(self, text: str, voice: str, wpm: int) -> Clip:
        header, payload = self._request({"op": "synth", "text": text, "voice": voice, "wpm": int(wpm)})
        samples = array("h")
        samples.frombytes(payload[: len(payload) - len(payload) % 2])
        if not samples:
            raise SynthError("pyttsx3 worker returned no audio")
        return Clip(samples, int(header["rate"]))

    def close(self) -> None:
        """End the worker (also one busy with a request, which then fails) and remove the temp folder."""
        self._closed = True
        w, self._worker = self._worker, None
        if w is not None:
            w.stop()
        shutil.rmtree(self._tmp, ignore_errors=True)

    # ---------------------------------------------------------------- worker management
    def _prestart(self) -> None:
        try:
            with self._lock:
                if not self._closed and not self._dead:
                    self._ensure()
        except (SynthError, SynthUnavailable) as exc:
            log.warning("TTS worker did not start: %s", exc)

    def _request(self, msg: dict[str, Any]) -> tuple[dict[str, Any], bytes]:
        with self._lock:
            w = self._ensure()
            try:
                w.send(msg)
                header, payload = w.reply(self.timeout)
            except _Hung as exc:
                self._failed(w, f"hung ({exc})")
            except _Died as exc:
                self._failed(w, str(exc))
        if not header.get("ok"):
            raise SynthError(str(header.get("error") or "pyttsx3 worker failed"))
        return header, payload

    def _ensure(self) -> _Worker:
        """The running worker, starting one if needed. Caller holds the lock."""
        if self._closed:
            raise SynthUnavailable("음성 합성이 종료되었습니다 (synthesiser closed)")
        if self._dead:
            raise SynthUnavailable(self._dead)
        w = self._worker
        if w is not None and w.alive:
            return w
        if w is not None:  # died while idle (killed from outside): counts, but this request still runs
            self._worker = None
            w.stop()
            self._crashed(w.exit_reason() + " while idle")
        env = {**os.environ, **self.env}
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
        if self.driver:
            env["TABLEHOST_SYNTH_DRIVER"] = self.driver
        try:
            w = _Worker([sys.executable, "-m", "audio.synth_worker", str(self._tmp)], env)
        except OSError as exc:
            self._dead = f"음성 합성 프로세스를 시작할 수 없습니다 (cannot start the TTS worker: {exc})"
            raise SynthUnavailable(self._dead) from exc
        self._worker = w
        self.starts += 1
        if self._closed:  # close() ran meanwhile and did not see this worker
            w.stop()
            raise SynthUnavailable("음성 합성이 종료되었습니다 (synthesiser closed)")
        try:
            header, _ = w.reply(self.start_timeout)
        except _Hung:
            self._failed(w, f"did not start within {self.start_timeout:g} s")
        except _Died as exc:
            self._failed(w, f"{exc} while starting")
        if not header.get("ready"):
            self._worker = None
            w.stop()
            self._dead = f"음성 합성 엔진이 없습니다 (TTS unavailable: {header.get('error', '?')})"
            raise SynthUnavailable(self._dead)
        return w

    def _failed(self, w: _Worker, reason: str) -> NoReturn:
        """The worker crashed or hung: kill and reap it, count it, raise SynthError (or SynthUnavailable
        when it keeps crashing). The next request starts a new worker."""
        if self._worker is w:
            self._worker = None
        w.stop(grace=0)
        if self._closed:
            raise SynthError("synthesiser closed during the request")
        self._crashed(reason)
        raise SynthError(f"pyttsx3 worker {reason}; it restarts on the next request")

    def _crashed(self, reason: str) -> None:
        now = time.monotonic()
        self.crashes.append(now)
        while self.crashes and now - self.crashes[0] > self.crash_window:
            self.crashes.popleft()
        log.warning("TTS worker failed (%d in %g s): %s", len(self.crashes), self.crash_window, reason)
        if len(self.crashes) >= self.max_crashes:
            n = len(self.crashes)
            self._dead = (f"음성 합성 프로세스가 {self.crash_window:g}초 안에 {n}번 멈췄습니다 "
                          f"(TTS worker failed {n} times in {self.crash_window:g} s: {reason})")
            raise SynthUnavailable(self._dead)
