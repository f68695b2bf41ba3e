"""The pyttsx3 worker process: `python -m audio.synth_worker TMPDIR`, driven by `audio.synth_process`.

It owns the pyttsx3 engine in its main thread (what SAPI5 and NSSpeechSynthesizer prefer) and renders one
utterance per request (`save_to_file` + `runAndWait` into a WAV in TMPDIR, FACTS.md), so a crash inside
libespeak / SAPI5 / NSSpeech kills this process only.

Protocol (binary pipes; the child's fd 1 is moved to stderr so stray prints cannot corrupt it):
- request, one JSON line on stdin: {"op": "voices"} or {"op": "synth", "text", "voice", "wpm"}
- reply on stdout: one JSON header line {"ok": bool, "n": payload bytes, ...} then n payload bytes.
  The first reply, unasked, is {"ok": true, "ready": true} once the engine is up, or {"ok": false,
  "unavailable": true, "error": …} when it cannot start. "voices": payload is a JSON list of
  [id, name, [languages]]. "synth": header has "rate"; payload is mono 16-bit native-endian PCM.
  A failed request: {"ok": false, "error": …}; the worker goes on.
- stdin closed (parent gone or closing) → the process exits at once, even in the middle of a request.

Test hook: TABLEHOST_SYNTH_FAULTS="marker=action,…" makes a synth request whose text contains `marker`
fail with action "segv" (SIGSEGV), "abort" (os.abort) or "hang" (never answers). Never set in production.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, BinaryIO

from audio.pcm import Clip, CorruptAudio, read_wav

FAULTS_ENV = "TABLEHOST_SYNTH_FAULTS"


def open_engine(driver: str | None) -> Any:
    """pyttsx3's engine, with the espeak driver's per-file print() silenced."""
    import pyttsx3

    engine = pyttsx3.init(driver) if driver else pyttsx3.init()
    quiet = sys.modules.get("pyttsx3.drivers.espeak")
    if quiet is not None:  # it print()s "Audio saved to …" on every file
        quiet.print = lambda *a, **k: None  # type: ignore[attr-defined]
    return engine


def list_voices(engine: Any) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(str(v.id), str(v.name or ""), tuple(str(x) for x in (v.languages or ())))
            for v in engine.getProperty("voices")]


def render(engine: Any, text: str, voice: str, wpm: int, path: Path) -> Clip:
    """One utterance per runAndWait (queued calls lose all but the last). pyttsx3's espeak driver now and
    then writes an empty WAV (about 1 call in 250): try again before giving up. Raises CorruptAudio."""
    engine.setProperty("voice", voice)
    engine.setProperty("rate", wpm)
    for attempt in range(3):
        engine.save_to_file(text, str(path))
        engine.runAndWait()
        try:
            return read_wav(path)
        except CorruptAudio:
            if attempt == 2:
                raise
        finally:
            path.unlink(missing_ok=True)
    raise AssertionError("unreachable")


def _faults() -> dict[str, str]:
    out = {}
    for item in os.environ.get(FAULTS_ENV, "").split(","):
        marker, _, action = item.partition("=")
        if marker and action:
            out[marker] = action
    return out


def _fault(action: str) -> None:
    if action == "segv" and hasattr(signal, "SIGSEGV") and os.name != "nt":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif action == "hang":
        while True:
            time.sleep(3600)
    os.abort()


def _send(out: BinaryIO, header: dict[str, Any], payload: bytes = b"") -> None:
    header["n"] = len(payload)
    out.write(json.dumps(header, ensure_ascii=False).encode() + b"\n" + payload)
    out.flush()


def _read_requests(inp: BinaryIO, jobs: queue.Queue[dict[str, Any]]) -> None:
    for line in iter(inp.readline, b""):
        try:
            jobs.put(json.loads(line))
        except ValueError:
            jobs.put({"op": "bad"})
    os._exit(0)  # parent closed the pipe or died: leave now, even if the engine is busy or hung


def main(argv: list[str]) -> None:
    out = os.fdopen(os.dup(1), "wb")
    try:
        err = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # no stderr (e.g. a pythonw parent on Windows)
        err = os.open(os.devnull, os.O_WRONLY)
    os.dup2(err, 1)  # prints from pyttsx3 / C libraries go to stderr, not into the protocol
    tmp = Path(argv[0]) if argv else Path.cwd()
    driver = os.environ.get("TABLEHOST_SYNTH_DRIVER") or None
    jobs: queue.Queue[dict[str, Any]] = queue.Queue()
    threading.Thread(target=_read_requests, args=(sys.stdin.buffer, jobs), daemon=True).start()
    try:
        engine = open_engine(driver)
    except Exception as exc:  # ImportError, RuntimeError("could not initialize espeak"), OSError…
        _send(out, {"ok": False, "unavailable": True, "error": f"{type(exc).__name__}: {exc}"})
        os._exit(0)  # not a normal shutdown: the reader thread holds stdin's lock
    _send(out, {"ok": True, "ready": True, "pid": os.getpid()})
    faults = _faults()
    n = 0
    while True:
        req = jobs.get()
        try:
            if req.get("op") == "voices":
                _send(out, {"ok": True}, json.dumps(list_voices(engine), ensure_ascii=False).encode())
            elif req.get("op") == "synth":
                text = str(req["text"])
                for marker, action in faults.items():
                    if marker in text:
                        _fault(action)
                n += 1
                clip = render(engine, text, str(req["voice"]), int(req["wpm"]), tmp / f"w{os.getpid()}-{n}.wav")
                _send(out, {"ok": True, "rate": clip.rate}, clip.samples.tobytes())
            else:
                _send(out, {"ok": False, "error": f"unknown request {req.get('op')!r}"})
        except CorruptAudio as exc:
            _send(out, {"ok": False, "error": f"pyttsx3 produced no audio: {exc}"})
        except Exception as exc:
            _send(out, {"ok": False, "error": f"{type(exc).__name__}: {exc}"})


if __name__ == "__main__":
    main(sys.argv[1:])
