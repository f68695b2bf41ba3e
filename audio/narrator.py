"""The narrator service: a queue of segments spoken one after another, with captions.

    narrator = Narrator(overlay_dir=..., cache_dir=...)
    narrator.listen(lambda cap: Clock.schedule_once(lambda dt: caption_widget.show(cap)))  # kiosk side
    narrator.speak(Segment("wh.case01.intro", "ko", "…"))
    narrator.pause() / resume() / skip() / stop()         # each effective within one mixer chunk (~12 ms)
    narrator.reveal(solution_segment)                       # the only way a secret segment is spoken
    narrator.play_sound("your_turn")                        # mixed over the narration

Sources, per segment: a recording (overlay folder `<overlay>/<lang>/<id>.wav`, then the segment's own
`recording`) → the pre-rendered cache (per sentence, keyed by text, voice, rate) → live synthesis (per
sentence: playback starts after the first sentence is rendered, the rest follows while it plays) →
captions alone, timed by an estimate. Every failure degrades to the next and is reported on BOARD
("recording", "tts"; the mixer reports "speaker"); nothing raises into the caller.

Listeners are called from the narrator thread: UI code must hop to its own thread (Kivy:
Clock.schedule_once). audio/ never imports Kivy.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import threading
import time
from array import array
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from audio.cache import RenderCache, resolve_voice
from audio.captions import CaptionState, estimate_duration, estimated_cues, split_sentences
from audio.gate import NarrationGate
from audio.pcm import Clip, ClipReader, CorruptAudio, read_wav
from audio.playback import Mixer, Playing
from audio.segments import Segment, overlay_path
from audio.sounds import prewarm, sound
from audio.status import BOARD, StatusBoard
from audio.synth_types import SynthError, SynthUnavailable
from audio.tts import Synthesizer, VoiceSettings

log = logging.getLogger(__name__)
_ids = itertools.count(1)


class SentenceSource:
    """Mixer source fed sentence by sentence; plays zeros while the next sentence is still being made."""

    def __init__(self, rate: int) -> None:
        self.rate = rate
        self._lock = threading.Lock()
        self._readers: list[ClipReader] = []
        self._cur = 0
        self.starts: list[int] = []  # start frame of each sentence added
        self.end = 0  # frame where the audio added so far ends
        self.pos = 0  # frames delivered
        self.exhausted = False

    def add(self, clip: Clip) -> None:
        reader = ClipReader(clip, self.rate)
        with self._lock:
            start = max(self.end, self.pos)
            self.starts.append(start)
            self._readers.append(reader)
            self.end = start + reader.total_frames

    def finish(self) -> None:
        self.exhausted = True

    def read(self, n: int) -> array[int]:
        out = array("h")
        with self._lock:
            while len(out) < n and self._cur < len(self._readers):
                reader = self._readers[self._cur]
                out.extend(reader.read(n - len(out)))
                if reader.done:
                    self._cur += 1
            if len(out) < n and not self.exhausted:
                out.extend(array("h", bytes(2 * (n - len(out)))))
            self.pos += len(out)
        return out


class ClockPlayback:
    """Captions-only playback: no audio, time passes on the monotonic clock (pause/stop like Playing)."""

    def __init__(self, duration: float, paused: bool = False, speed: float = 1.0) -> None:
        self.duration = duration
        self.speed = speed
        self.paused = paused
        self.stopped = False
        self.end_reason = ""
        self.first_write: float | None = None
        self.finished = threading.Event()
        self._elapsed = 0.0
        self._since = None if paused else time.monotonic()

    def position(self) -> float:
        run = (time.monotonic() - self._since) * self.speed if self._since is not None else 0.0
        return min(self.duration, self._elapsed + run)

    def pause(self) -> None:
        if self._since is not None:
            self._elapsed += (time.monotonic() - self._since) * self.speed
            self._since = None
        self.paused = True

    def resume(self) -> None:
        if self._since is None:
            self._since = time.monotonic()
        self.paused = False

    def stop(self) -> None:
        self.stopped = True
        self.end_reason = "stopped"
        self.finished.set()

    def poll(self) -> None:
        if not self.finished.is_set() and self.position() >= self.duration:
            self.end_reason = "end"
            self.finished.set()


Playback = Playing | ClockPlayback


def utterance_mark() -> int:
    """An id above every utterance made so far (ids only grow): captions of older ones can be told apart."""
    return next(_ids)


@dataclass(eq=False)
class Utterance:
    segment: Segment
    id: int = field(default_factory=lambda: next(_ids))
    state: str = "queued"  # queued → playing/paused → finished | stopped | skipped; or refused
    sentences: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # per sentence: recorded / cached / live / captions
    starts: list[float] = field(default_factory=list)  # caption cue start per sentence (s)
    duration: float = 0.0
    tapped: float = field(default_factory=time.perf_counter)
    cancel: str = ""  # "stopped" / "skipped" requested
    playback: Playback | None = None
    done: threading.Event = field(default_factory=threading.Event)

    @property
    def source(self) -> str:
        return self.sources[0] if self.sources else ""

    @property
    def first_sample(self) -> float | None:
        return self.playback.first_write if self.playback is not None else None


class Narrator:
    def __init__(self, *, mixer: Mixer | None = None, synth: Synthesizer | None = None,
                 overlay_dir: str | Path | None = None, cache_dir: str | Path | None = None,
                 content_root: str | Path | None = None, gate: NarrationGate | None = None,
                 board: StatusBoard = BOARD, settings: VoiceSettings | None = None, tick: float = 0.05,
                 caption_speed: float = 1.0) -> None:
        self._own = (mixer is None, synth is None)
        if synth is None:
            from audio.tts import default_synth

            synth = default_synth()
        self.mixer = mixer if mixer is not None else Mixer(board=board)
        self.synth = synth
        self.overlay_dir = Path(overlay_dir) if overlay_dir else None
        self.cache = RenderCache(cache_dir) if cache_dir else None
        self.content_root = Path(content_root) if content_root else None
        self.gate = gate or NarrationGate()
        self.board = board
        self.settings = settings or VoiceSettings()
        self.tick = tick
        self.caption_speed = caption_speed  # >1 only in tests: captions-only time runs faster
        self.captions_only = False  # chosen by staff (muted tablet, noisy café): nothing is heard
        self._voice_memo: dict[str, str] = {}
        self._synth_dead = ""
        self._listeners: list[Callable[[CaptionState], None]] = []
        self._lock = threading.Condition()
        self._queue: deque[Utterance] = deque()
        self._current: Utterance | None = None
        self._paused = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="narrator", daemon=True)
        self._thread.start()
        prewarm()  # sounds take ~0.8 s of pure Python to generate: once per process, off the UI thread

    # ---------------------------------------------------------------- control (any thread)
    def listen(self, fn: Callable[[CaptionState], None]) -> None:
        self._listeners.append(fn)

    def unlisten(self, fn: Callable[[CaptionState], None]) -> None:
        """Stop calling `fn` (a screen going away: the narrator lives as long as the app and would keep it)."""
        if fn in self._listeners:
            self._listeners.remove(fn)

    def speak(self, segment: Segment, *, interrupt: bool = False) -> Utterance:
        """Queue a segment. A secret segment that was not revealed is refused (state "refused"): its text
        goes nowhere. `interrupt` stops what is playing and clears the queue first."""
        utt = Utterance(segment)
        if not self.gate.allows(segment):
            log.warning("narration gate: secret segment %s refused (not revealed)", segment.id)
            utt.state = "refused"
            utt.done.set()
            return utt
        if interrupt:
            self.stop()
        with self._lock:
            self._queue.append(utt)
            self._lock.notify_all()
        return utt

    def say(self, text: str, lang: str = "ko", segment_id: str | None = None) -> Utterance:
        """A one-off, non-secret prompt (engine messages, tutorial hints). Its id defaults to
        "prompt.<hash of the text>", so a café can still record a fixed prompt."""
        if segment_id is None:
            segment_id = "prompt." + hashlib.sha1(f"{lang}:{text}".encode()).hexdigest()[:12]
        return self.speak(Segment(segment_id, lang, text))

    def reveal(self, segment: Segment, *, interrupt: bool = True) -> Utterance:
        """The explicit reveal action: unlock the segment, play the sting, speak it."""
        self.gate.reveal(segment.id)
        self.play_sound("reveal")
        return self.speak(segment, interrupt=interrupt)

    def pause(self) -> None:
        self._set_paused(True)

    def resume(self) -> None:
        self._set_paused(False)

    def _set_paused(self, paused: bool) -> None:
        with self._lock:
            self._paused = paused
            cur = self._current
            if cur is not None and cur.playback is not None:
                if paused:
                    cur.playback.pause()
                else:
                    cur.playback.resume()
                cur.state = "paused" if paused else "playing"
        if cur is not None and cur.playback is not None:
            self._emit(cur)

    def skip(self) -> None:
        """End the current utterance; the queue goes on."""
        with self._lock:
            self._cancel_current("skipped")

    def stop(self) -> None:
        """End the current utterance and drop the queue."""
        with self._lock:
            dropped = list(self._queue)
            self._queue.clear()
            self._cancel_current("stopped")
        for utt in dropped:
            utt.state = "stopped"
            self._emit(utt)  # listeners waiting for it hear that it will not come
            utt.done.set()

    def _cancel_current(self, how: str) -> None:
        cur = self._current
        if cur is not None and not cur.done.is_set():
            cur.cancel = how
            if cur.playback is not None:
                cur.playback.stop()
            self._lock.notify_all()

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def busy(self) -> bool:
        with self._lock:
            return bool(self._queue) or (self._current is not None and not self._current.done.is_set())

    def set_volume(self, value: float) -> None:
        self.mixer.set_volume("voice", value)

    def set_sound_volume(self, value: float) -> None:
        self.mixer.set_volume("effect", value)

    def set_rate(self, rate: float) -> None:
        """Relative speaking rate (1.0 normal) for synthesised speech, from the next utterance on.
        Recordings play at their own pace."""
        self.settings.rate = rate

    def set_voice(self, lang: str, voice_id: str | None) -> None:
        if voice_id is None:
            self.settings.voices.pop(lang, None)
        else:
            self.settings.voices[lang] = voice_id
        self._voice_memo.pop(lang, None)

    def play_sound(self, name: str) -> Playing | None:
        """A generated sound on the effect channel, summed over any narration."""
        try:
            return self.mixer.play_clip(sound(name), channel="effect")
        except KeyError:
            log.warning("unknown sound %r", name)
            return None

    def stop_sounds(self) -> None:
        """Stop the sound effects playing (a table turnover: the last table's fanfare is not the next guests')."""
        self.mixer.stop_all(channel="effect")

    @property
    def audible(self) -> bool:
        return self.mixer.audible

    def wait_idle(self, timeout: float = 10.0) -> bool:
        end = time.monotonic() + timeout
        while self.busy:
            if time.monotonic() > end:
                return False
            time.sleep(0.005)
        return True

    def close(self) -> None:
        self.stop()
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        self._thread.join(timeout=2)
        if self._own[0]:
            self.mixer.close()
        if self._own[1]:
            self.synth.close()

    # ---------------------------------------------------------------- worker
    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._closed and not self._queue:
                    self._lock.wait()
                if self._closed:
                    return
                utt = self._queue.popleft()
                self._current = utt
            try:
                self._narrate(utt)
            except Exception:  # never let one utterance kill the narrator
                log.exception("narration failed for %s", utt.segment.id)
                utt.state = utt.cancel or "finished"
            finally:
                utt.done.set()
                with self._lock:
                    self._current = None

    def _recorded(self, seg: Segment) -> Clip | None:
        paths: list[Path] = []
        if self.overlay_dir is not None:
            paths.append(overlay_path(self.overlay_dir, seg))
        if seg.recording:
            p = Path(seg.recording)
            paths.append(self.content_root / p if self.content_root and not p.is_absolute() else p)
        for p in paths:
            if not p.exists():
                continue
            try:
                return read_wav(p)
            except CorruptAudio as exc:
                self.board.set("recording", False, f"녹음 파일을 읽을 수 없습니다 (corrupt recording: {exc})")
        return None

    def _sentence_clip(self, sentence: str, voice: str, wpm: int) -> tuple[Clip | None, str]:
        if self.cache is not None:
            clip = self.cache.get(sentence, voice, wpm)
            if clip is not None:
                return clip, "cached"
        if self._synth_dead:
            return None, "captions"
        try:
            clip = self.synth.synthesize(sentence, voice, wpm)
        except SynthUnavailable as exc:
            self._synth_dead = str(exc)
            self.board.set("tts", False, str(exc))
            return None, "captions"
        except SynthError as exc:
            log.warning("synthesis failed: %s", exc)
            return None, "captions"
        self.board.set("tts", True, getattr(self.synth, "degraded", ""))
        return clip, "live"

    def _narrate(self, utt: Utterance) -> None:
        seg = utt.segment
        if not self.gate.allows(seg):  # defence in depth: checked again right before any use of the text
            utt.state = "refused"
            return
        utt.sentences = split_sentences(seg.text, seg.lang)
        if not utt.sentences:
            utt.state = "finished"
            return
        rate = self.settings.rate
        estimates = [estimate_duration(s, seg.lang, rate) for s in utt.sentences]
        src = SentenceSource(self.mixer.rate)
        pending: list[int] = []
        voice, wpm = "", self.settings.wpm
        recorded = None if self.captions_only else self._recorded(seg)
        if self.captions_only:
            utt.sources = ["captions"] * len(utt.sentences)
            utt.starts = [c.start for c in estimated_cues(utt.sentences, sum(estimates))]
            utt.duration = sum(estimates)
        elif recorded is not None:
            src.add(recorded)
            src.finish()
            utt.sources = ["recorded"] * len(utt.sentences)
            utt.starts = [c.start for c in estimated_cues(utt.sentences, recorded.duration)]
            utt.duration = recorded.duration
        else:
            voice = resolve_voice(None if self._synth_dead else self.synth, self.settings, seg.lang,
                                  self._voice_memo)
            clip, kind = self._sentence_clip(utt.sentences[0], voice, wpm)
            utt.sources.append(kind)
            if clip is not None:
                src.add(clip)
                pending = list(range(1, len(utt.sentences)))
            else:  # no voice at all: captions alone, timed by the estimate
                utt.sources = ["captions"] * len(utt.sentences)
                utt.starts = [c.start for c in estimated_cues(utt.sentences, sum(estimates))]
                utt.duration = sum(estimates)
        with self._lock:
            if utt.cancel:
                utt.state = utt.cancel
                return
            if utt.sources[0] == "captions":
                utt.playback = ClockPlayback(utt.duration, paused=self._paused, speed=self.caption_speed)
            else:
                utt.playback = self.mixer.play(src, channel="voice", paused=self._paused)
            utt.state = "paused" if self._paused else "playing"
        pb = utt.playback
        self._emit(utt)
        last_emit = time.monotonic()
        while not pb.finished.is_set():
            if pending and not utt.cancel:
                i = pending.pop(0)
                clip, kind = self._sentence_clip(utt.sentences[i], voice, wpm)
                utt.sources.append(kind)
                src.add(clip if clip is not None else Clip.silence(estimates[i], self.mixer.rate))
                if not pending:
                    src.finish()
                continue
            if recorded is None and isinstance(pb, Playing):
                src.finish()
            if isinstance(pb, ClockPlayback):
                pb.poll()
            if pb.finished.wait(self.tick) or time.monotonic() - last_emit >= self.tick:
                self._emit(utt)
                last_emit = time.monotonic()
        utt.state = utt.cancel or ("stopped" if pb.end_reason == "stopped" else "finished")
        self._emit(utt)

    def _timeline(self, utt: Utterance) -> tuple[list[float], float]:
        pb = utt.playback
        if isinstance(pb, Playing) and utt.sources and utt.sources[0] != "recorded":
            src = pb.source
            assert isinstance(src, SentenceSource)
            starts = [s / src.rate for s in src.starts]
            rest = len(utt.sentences) - len(starts)
            known = src.end / src.rate
            extra = sum(estimate_duration(s, utt.segment.lang, self.settings.rate)
                        for s in utt.sentences[len(starts):]) if rest else 0.0
            return starts, known + extra
        return utt.starts, utt.duration

    def _emit(self, utt: Utterance) -> None:
        if not self._listeners:
            return
        if utt.playback is None:  # never played: only its end is told (stopped or skipped while queued)
            if utt.state in ("stopped", "skipped"):
                cap = CaptionState(utt.id, utt.segment.id, utt.segment.lang, tuple(utt.sentences), 0, 0.0, 0.0,
                                   utt.state, audible=False)
                for fn in list(self._listeners):
                    try:
                        fn(cap)
                    except Exception:
                        log.exception("caption listener failed")
            return
        starts, duration = self._timeline(utt)
        position = utt.playback.position()
        if utt.state == "finished":
            position = duration
        current = max((i for i, s in enumerate(starts) if s <= position + 1e-9), default=0)
        cap = CaptionState(utt.id, utt.segment.id, utt.segment.lang, tuple(utt.sentences), current,
                           position, duration, utt.state,
                           audible=self.mixer.audible and utt.source not in ("captions", ""))
        for fn in list(self._listeners):
            try:
                fn(cap)
            except Exception:
                log.exception("caption listener failed")
