"""Speech synthesis to audio clips — never to the speaker.

pyttsx3 (FACTS.md): `save_to_file` + `runAndWait` in ONE worker thread works (a 311-character Korean
paragraph in ~45 ms); its playback (`say`, `stop`) is broken, so it is never used. The kiosk runs pyttsx3
in a child process (`audio.synth_process.ProcessSynth`): a crash inside libespeak costs one sentence, not
the kiosk. `Pyttsx3Synth` owns the engine in a thread of this process (tests, benchmark comparison);
both render one utterance per `runAndWait` (queued calls lose all but the last; `audio.synth_worker`).
`EspeakSynth` shells out to the espeak-ng command line (a fallback, and the benchmark's reference).

Voices: one per language. pyttsx3 picks espeak-ng on Linux, SAPI5 on Windows, NSSpeechSynthesizer on
macOS; `choose_voice` finds the Korean voice on each (espeak-ng `ko`, SAPI5 "Microsoft Heami", macOS
"Yuna").
"""

from __future__ import annotations

import io
import logging
import os
import platform
import queue
import shutil
import subprocess
import tempfile
import threading
import wave
from array import array
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from audio.pcm import Clip, CorruptAudio
from audio.synth_types import SynthError, SynthUnavailable, VoiceInfo

log = logging.getLogger(__name__)

BASE_WPM = 200  # pyttsx3's default rate on every platform; our rate 1.0


# Known Korean voices per platform, checked in order (substrings of id or name, lower case).
PLATFORM_PREFERENCES: dict[str, dict[str, tuple[str, ...]]] = {
    "Linux": {"ko": ("ko",), "en": ("en-us", "gmw/en-us", "en")},
    "Windows": {"ko": ("heami", "ko-kr", "korean"), "en": ("zira", "david", "en-us")},
    "Darwin": {"ko": ("yuna", "ko-kr", "ko_kr"), "en": ("samantha", "alex", "en-us", "en_us")},
}


def _lang_codes(v: VoiceInfo) -> list[str]:
    return [str(x).lower().replace("_", "-").lstrip("\x05") for x in v.languages]


def choose_voice(voices: Sequence[VoiceInfo], lang: str, system: str | None = None) -> str | None:
    """The id of the best voice for `lang` on this platform, or None when it has none."""
    system = system or platform.system()
    lang = lang.lower()
    prefs = PLATFORM_PREFERENCES.get(system, {}).get(lang, ())
    for pref in prefs:
        for v in voices:  # exact id first (espeak-ng "ko"), then substrings
            if v.id.lower() == pref:
                return v.id
        for v in voices:
            if len(pref) > 2 and (pref in v.id.lower() or pref in v.name.lower()):
                return v.id
    for v in voices:
        codes = _lang_codes(v)
        if any(c == lang or c.startswith(lang + "-") for c in codes):
            return v.id
    for v in voices:
        if v.id.lower().split("/")[-1] == lang:
            return v.id
    return None


@dataclass
class VoiceSettings:
    """One voice per language (None = choose automatically) and a relative rate (1.0 = normal)."""

    voices: dict[str, str] = field(default_factory=dict)
    rate: float = 1.0

    @property
    def wpm(self) -> int:
        return max(60, min(450, round(BASE_WPM * self.rate)))


class Synthesizer(Protocol):
    @property
    def name(self) -> str: ...

    def voices(self) -> list[VoiceInfo]: ...

    def synthesize(self, text: str, voice: str, wpm: int) -> Clip: ...

    def close(self) -> None: ...


class _Pyttsx3Worker:
    """The thread that owns a pyttsx3 engine; each request is rendered to a temporary WAV in it."""

    def __init__(self, driver: str | None, timeout: float) -> None:
        self._driver = driver
        self._timeout = timeout
        self._jobs: queue.Queue[tuple[str, tuple[Any, ...], Future[Any]] | None] = queue.Queue()
        self._dead = ""
        self._tmp = Path(tempfile.mkdtemp(prefix="tablehost-tts-"))
        self._thread = threading.Thread(target=self._run, name="pyttsx3", daemon=True)
        self._thread.start()

    def call(self, op: str, *args: Any) -> Any:
        if self._dead:
            raise SynthUnavailable(self._dead)
        fut: Future[Any] = Future()
        self._jobs.put((op, args, fut))
        try:
            return fut.result(timeout=self._timeout)
        except TimeoutError as exc:
            self._dead = "pyttsx3가 응답하지 않습니다 (pyttsx3 engine hung)"
            raise SynthUnavailable(self._dead) from exc

    def stop(self) -> None:
        self._jobs.put(None)
        shutil.rmtree(self._tmp, ignore_errors=True)

    def _run(self) -> None:
        from audio.synth_worker import list_voices, open_engine, render

        engine: Any = None
        try:
            engine = open_engine(self._driver)
        except Exception as exc:  # ImportError, RuntimeError("could not initialize espeak"), OSError…
            self._dead = f"음성 합성 엔진이 없습니다 (TTS unavailable: {type(exc).__name__}: {exc})"
        n = 0
        while True:
            job = self._jobs.get()
            if job is None:
                return
            op, args, fut = job
            if engine is None:
                fut.set_exception(SynthUnavailable(self._dead))
                continue
            try:
                if op == "voices":
                    fut.set_result([VoiceInfo(*v) for v in list_voices(engine)])
                else:
                    text, voice, wpm = args
                    n += 1
                    fut.set_result(render(engine, text, voice, wpm, self._tmp / f"u{n}.wav"))
            except CorruptAudio as exc:
                fut.set_exception(SynthError(f"pyttsx3 produced no audio: {exc}"))
            except Exception as exc:
                fut.set_exception(exc if isinstance(exc, SynthError) else SynthError(f"{type(exc).__name__}: {exc}"))


_shared_lock = threading.Lock()
_shared: dict[str | None, tuple[_Pyttsx3Worker, int]] = {}


class Pyttsx3Synth:
    """pyttsx3 inside this process (a segfault in the engine kills it: the kiosk uses ProcessSynth).
    pyttsx3 is not thread-safe and `pyttsx3.init()` hands every caller the same engine, so all
    Pyttsx3Synth objects of a process share one worker thread per driver (reference-counted;
    `shared=False` gives a private one, for tests)."""

    name = "pyttsx3"

    def __init__(self, driver: str | None = None, timeout: float = 20.0, shared: bool = True) -> None:
        self._driver = driver
        self._shared = shared
        self._closed = False
        if not shared:
            self._worker = _Pyttsx3Worker(driver, timeout)
            return
        with _shared_lock:
            worker, users = _shared.get(driver, (None, 0))
            if worker is None:
                worker = _Pyttsx3Worker(driver, timeout)
            _shared[driver] = (worker, users + 1)
        self._worker = worker

    def voices(self) -> list[VoiceInfo]:
        return list(self._worker.call("voices"))

    def synthesize(self, text: str, voice: str, wpm: int) -> Clip:
        return self._worker.call("synth", text, voice, wpm)  # type: ignore[no-any-return]

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if not self._shared:
            self._worker.stop()
            return
        with _shared_lock:
            worker, users = _shared[self._driver]
            if users <= 1:
                del _shared[self._driver]
                worker.stop()
            else:
                _shared[self._driver] = (worker, users - 1)


class EspeakSynth:
    """espeak-ng command line → WAV on stdout."""

    name = "espeak-ng"

    def __init__(self, binary: str = "espeak-ng") -> None:
        self.binary = binary

    def _exe(self) -> str:
        exe = shutil.which(self.binary)
        if exe is None:
            raise SynthUnavailable(f"espeak-ng가 설치되어 있지 않습니다 (espeak-ng missing: {self.binary})")
        return exe

    def voices(self) -> list[VoiceInfo]:
        out = subprocess.run([self._exe(), "--voices"], capture_output=True, text=True, timeout=10).stdout
        voices = []
        for line in out.splitlines()[1:]:
            parts = line.split()
            if len(parts) >= 5:
                voices.append(VoiceInfo(parts[1], parts[3], (parts[1],)))
        return voices

    def synthesize(self, text: str, voice: str, wpm: int) -> Clip:
        try:
            # the text goes on stdin, never on the command line: a line starting with "-" is not an option
            proc = subprocess.run([self._exe(), "--stdin", "-v", voice, "-s", str(wpm), "--stdout"],
                                  input=text.encode("utf-8"), capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SynthError(str(exc)) from exc
        if proc.returncode != 0:
            raise SynthError(proc.stderr.decode(errors="replace").strip() or f"exit {proc.returncode}")
        return wav_bytes_to_clip(proc.stdout)

    def close(self) -> None:
        pass


def wav_bytes_to_clip(data: bytes) -> Clip:
    """espeak-ng --stdout writes a header with a placeholder length; read whatever frames follow."""
    try:
        with wave.open(io.BytesIO(data), "rb") as w:
            rate, width, channels = w.getframerate(), w.getsampwidth(), w.getnchannels()
            raw = w.readframes(1 << 30)
    except (wave.Error, EOFError) as exc:
        raise SynthError(f"bad WAV from synthesiser: {exc}") from exc
    if width != 2 or channels != 1:
        raise SynthError(f"unexpected synthesiser format: {width * 8} bit, {channels} ch")
    samples = array("h")
    samples.frombytes(raw[: len(raw) - len(raw) % 2])
    return Clip(samples, rate)


class FallbackSynth:
    """The first synthesiser that works: moves on to the next when one is unavailable (not on a single
    failed sentence). `degraded` says why the ones before were given up ("" while the first works)."""

    def __init__(self, synths: Sequence[Synthesizer]) -> None:
        self._synths = list(synths)
        self._i = 0
        self._lock = threading.Lock()
        self._skipped: list[str] = []

    @property
    def degraded(self) -> str:
        with self._lock:
            return "; ".join(self._skipped)

    @property
    def name(self) -> str:
        return self._synths[min(self._i, len(self._synths) - 1)].name

    def _each(self, op: str, *args: Any) -> Any:
        reasons: list[str] = []
        while True:
            with self._lock:
                i = self._i
            if i >= len(self._synths):
                raise SynthUnavailable("; ".join(reasons) or "no synthesiser")
            try:
                return getattr(self._synths[i], op)(*args)
            except SynthUnavailable as exc:
                reasons.append(str(exc))
                with self._lock:
                    if self._i == i:
                        self._i = i + 1
                        self._skipped.append(str(exc))
                        log.warning("synthesiser %s given up: %s", self._synths[i].name, exc)

    def voices(self) -> list[VoiceInfo]:
        return list(self._each("voices"))

    def synthesize(self, text: str, voice: str, wpm: int) -> Clip:
        return self._each("synthesize", text, voice, wpm)  # type: ignore[no-any-return]

    def close(self) -> None:
        for s in self._synths:
            s.close()


def default_synth() -> Synthesizer:
    """pyttsx3 (SAPI5 / NSSpeechSynthesizer / espeak-ng) in a worker process, started in the background
    now, then the espeak-ng command line if it cannot start or keeps crashing.
    TABLEHOST_TTS=espeak-ng picks the command line only; TABLEHOST_TTS=inprocess runs pyttsx3 in this
    process (no crash isolation)."""
    choice = os.environ.get("TABLEHOST_TTS")
    if choice == "espeak-ng":
        return EspeakSynth()
    if choice == "inprocess":
        return FallbackSynth([Pyttsx3Synth(), EspeakSynth()])
    from audio.synth_process import ProcessSynth

    return FallbackSynth([ProcessSynth(prestart=True), EspeakSynth()])
