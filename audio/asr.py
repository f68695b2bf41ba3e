"""Offline Korean voice commands: the controller that turns microphone audio into intents for the kiosk
(the model and recognisers are in `audio/recognizer.py`).

The recogniser runs in grammar mode over exactly the phrases the current screen accepts plus decoys (the
Korean model has no `[unk]`, so without decoys any speech is forced onto a command). Kaldi's grammar lets
phrases repeat inside one utterance, so only a whole utterance equal to one phrase counts.

Flow (`VoiceController`): push-to-talk (default; audio is used only while the mic button is held) or
hands-free (the wake phrase opens a short window for one command). Navigation intents are dispatched at
once; final game intents wait for "네"/"아니요" or a tap (`audio/confirm.py`). A press acts on one command
(what follows it under the finger is not heard). Audio is dropped while `MIC_GATE.muted` (the kiosk is
speaking). Everything the recogniser heard is reported ("들은 말: …").
Speech under 10 dB above the noise is not acted on (`MIN_SNR_DB`). With `denoise` (the kiosk) the
recogniser hears the audio through a noise filter (`audio/denoise.py`) that learns the room's steady noise
while nobody talks to the kiosk; the noise gate and the endpoint measure the microphone's own audio. With
`stages` (the kiosk: `PERTURB_STAGES`) each utterance is decoded again at other speeds: the decodes vote on
commands and on the confirmation, and must agree for the wake phrase (`audio/vote.py`). Push-to-talk feeds
those decodes while the button is held, so the release only finishes them; hands-free decodes them when the
utterance ends (where and when they run: `audio/vote_runner.py`).

The kiosk starts it with `audio.voice_system.start_voice` (its docstring shows the wiring).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from audio.confirm import DEFAULT_TIMEOUT, Answer, ConfirmFlow, Pending
from audio.denoise import Denoiser
from audio.grammar import SlotValue
from audio.intents import (
    NO,
    WAKE,
    YES,
    Intent,
    PhraseBook,
    SlotInput,
    VoiceCatalog,
    build_phrasebook,
    load_catalog,
    slot_values,
)
from audio.recognizer import (
    MIN_SNR_DB,
    MODEL_STATUS,
    QUIET_SNR_DB,
    RATE,
    Heard,
    ModelLoader,
    NoiseFloor,
    QuickEndpoint,
    Recognizer,
    SpeechEngine,
    VoskEngine,
    chunk_level,
    snr_db,
    speech_span,
    warm_up,
)
from audio.serial import Serial
from audio.status import BOARD, MIC_GATE, MicGate, StatusBoard
from audio.voice_events import Mode, Phase, VoiceEvent
from audio.vote_runner import VoteRunner

__all__ = [
    "Heard", "ModelLoader", "Mode", "Phase", "QuickEndpoint", "Recognizer", "SpeechEngine", "VoiceController",
    "VoiceEvent", "VoskEngine", "warm_up",
]

VOICE_STATUS = "voice"
MAX_UTTERANCE = 15  # seconds of one utterance kept for the noise gate and the perturbed decodes
MAX_AFTER_WAKE = 3  # seconds of audio kept while the wake phrase is decided, for the command after it


class VoiceController(VoteRunner):
    """Audio in, intents out. Thread-safe: `feed` runs on the audio thread, the rest on the UI thread;
    listeners are called on the calling thread, or on the worker after `serve_in_background()` (the kiosk
    hops to the main thread itself)."""

    def __init__(
        self,
        catalog: VoiceCatalog | None = None,
        engine: SpeechEngine | None = None,
        mode: Mode = Mode.PUSH_TO_TALK,
        clock: Callable[[], float] = time.monotonic,
        gate: MicGate = MIC_GATE,
        board: StatusBoard = BOARD,
        wake_window: float = 5.0,
        confirm_timeout: float = DEFAULT_TIMEOUT,
        stages: tuple[tuple[float, ...], ...] = (),
        denoise: bool = False,
    ) -> None:
        self.catalog = catalog or load_catalog()
        self.clock = clock
        self.gate = gate
        self.board = board
        self.mode = mode
        self.wake_window = wake_window
        self.confirm = ConfirmFlow(confirm_timeout)
        self.phase = Phase.IDLE
        self.screen = ""
        self._lock = threading.RLock()
        self._listeners: list[Callable[[VoiceEvent], None]] = []
        self._engine: SpeechEngine | None = None
        self._books: dict[str, PhraseBook] = {}
        self._recs: dict[str, Recognizer] = {}
        self._context: tuple[list[str], dict[str, tuple[SlotValue, ...]]] = ([], {})
        self._pressed = False
        self._window_until = 0.0
        self._in_utterance = False
        self._endpoint = QuickEndpoint()
        self._levels: list[float] = []  # chunk levels of the utterance being heard
        self._floor = NoiseFloor()  # background level while nobody is talking to the kiosk
        self.min_snr_db = MIN_SNR_DB
        self.stages = stages  # perturbed decodes that vote on commands (PERTURB_STAGES in the kiosk)
        self.denoiser = Denoiser() if denoise else None  # the kiosk: on (audio/denoise.py)
        self.trim = True  # perturbed decodes hear the speech only (recognizer.speech_span)
        self._gen = 0  # bumped whenever recognition restarts: a late vote for an older utterance is dropped
        self._init_votes()  # audio/vote_runner.py
        self._audio = bytearray()  # the utterance, kept only when `stages` is set
        self._after_wake: list[bytes] | None = None  # audio heard while a wake vote runs on a thread
        self._acted = False  # push-to-talk: this press's command was acted on; the rest of it is not heard
        self._utterance = b""
        self._mic_ok = False
        self._mic_reason = "마이크 확인 중 / checking the microphone"
        self.enabled = True
        self._serial: Serial | None = None  # serve_in_background()
        gate.listen(self._on_gate)
        if engine is not None:
            self.set_engine(engine)

    # ---- threading ----------------------------------------------------------------------------------
    def serve_in_background(self) -> None:
        """From now on the calls that may reach the recogniser (press, release, feed, tick, set_context, …)
        only queue their work, in call order, for one worker thread, and return at once. The kiosk calls
        them on its UI thread, where a vosk call (the final decode on release, a grammar compiled for a new
        screen, a reset) or waiting for the audio thread's decode under the lock made frames stall."""
        if self._serial is None:
            self._serial = Serial("voice-worker")

    def _post(self, fn: Callable[..., None], *args: Any) -> bool:
        """True when `fn(*args)` was queued for the worker (the caller returns); False: run it now."""
        return self._serial is not None and self._serial.post(fn, *args)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Until the worker has done everything queued so far (True at once without a worker)."""
        return self._serial is None or self._serial.wait_idle(timeout)

    def stop_worker(self) -> None:
        if self._serial is not None:
            self._serial.stop()

    # ---- wiring -------------------------------------------------------------------------------------
    def listen(self, fn: Callable[[VoiceEvent], None]) -> None:
        self._listeners.append(fn)

    def _emit(self, event: VoiceEvent) -> None:
        for fn in list(self._listeners):
            fn(event)

    def set_engine(self, engine: SpeechEngine) -> None:
        if self._post(self.set_engine, engine):
            return
        with self._lock:
            self._engine = engine
            self._recs = {}
            self._rebuild()
        self.refresh_status()

    def set_catalog(self, catalog: VoiceCatalog) -> None:
        """New templates (the café's voice choices changed): every grammar is rebuilt for the same screen."""
        if self._post(self.set_catalog, catalog):
            return
        with self._lock:
            self.catalog = catalog
            self._drop("음성 설정 바뀜 / voice choices changed")
            self._books = {}
            self._rebuild()

    def mic_available(self, ok: bool, reason: str = "") -> None:
        """Called by `audio.mic.Microphone`. Losing the mic drops any half-spoken command."""
        if self._post(self.mic_available, ok, reason):
            return
        with self._lock:
            self._mic_ok = ok
            self._mic_reason = reason
            if not ok:
                self._drop("마이크 끊김 / microphone lost")
                self._pressed = False
        self.refresh_status()

    def set_enabled(self, on: bool) -> None:
        """Staff switch (kiosk settings): off drops all audio and any pending confirmation."""
        self.enabled = on  # at once: `available` answers the UI's next question
        if self._post(self.set_enabled, on):
            return
        with self._lock:
            self.enabled = on
            if not on:
                self._pressed = False
                self._drop("음성 명령 꺼짐 / voice turned off")
                pending = self.confirm.cancel()
                if pending is not None:
                    self._emit(VoiceEvent("confirm_done", intent=pending, answer=Answer.CANCELLED))
                self._set_phase(Phase.IDLE)
        self.refresh_status()

    @property
    def engine(self) -> SpeechEngine | None:
        """The loaded recogniser (None until the model is ready)."""
        return self._engine

    @property
    def available(self) -> bool:
        return self.enabled and self._engine is not None and self._mic_ok

    def refresh_status(self) -> None:
        """Publish "voice" on the status board: on when the model is loaded and a mic is open, else off
        with every reason (for the staff screen)."""
        reasons = []
        if not self.enabled:
            reasons.append("직원이 음성 명령을 껐어요 / turned off in staff settings")
        if self._engine is None:
            model = self.board.get(MODEL_STATUS)
            reasons.append(model.reason if model and model.reason else "음성 모델 준비 전 / model not loaded")
        if not self._mic_ok:
            reasons.append(self._mic_reason or "마이크 없음 / no microphone")
        self.board.set(VOICE_STATUS, not reasons, "; ".join(reasons))

    # ---- grammar ------------------------------------------------------------------------------------
    def set_context(self, screen: str, intents: Iterable[str], slots: SlotInput | None = None) -> None:
        """The current screen and what it accepts: intent names from the catalog ("next", "spyfall.accuse")
        and slot values from the view (`{"player": {"민호": 0, "지수": 1}}`: spoken text → value). Rebuilds
        the grammar; a command half-spoken for the old screen is dropped."""
        names = list(dict.fromkeys(intents))
        unknown = [n for n in names if n not in self.catalog.intents]
        if unknown:
            raise KeyError(f"unknown voice intents: {unknown}")
        if not self._post(self._set_context, screen, names, slots):
            self._set_context(screen, names, slots)

    def _set_context(self, screen: str, names: list[str], slots: SlotInput | None) -> None:
        with self._lock:
            pending = self.confirm.pending
            if pending is not None and (screen != self.screen or pending.intent.name not in names):
                # the question was asked about a screen that is gone: never dispatch it later
                self.confirm.cancel()
                self._emit(VoiceEvent("confirm_done", intent=pending.intent, answer=Answer.CANCELLED))
                self._set_phase(Phase.LISTENING if self._pressed else Phase.IDLE)
            self.screen = screen
            self._context = (names, slot_values(slots))
            self._drop("화면 바뀜 / screen changed")
            self._rebuild(only_command=True)

    def _rebuild(self, only_command: bool = False) -> None:
        """Phrase books and recognisers; the confirmation and wake grammars never depend on the screen,
        so a screen change rebuilds only the command grammar."""
        vocab = self._engine.vocabulary if self._engine is not None else None
        names, slots = self._context
        decoys = self.catalog.decoys
        books = {"command": build_phrasebook([self.catalog.intents[n] for n in names], slots, vocab, decoys)}
        if not only_command or "confirm" not in self._books:
            books["confirm"] = build_phrasebook([self.catalog.intents[YES], self.catalog.intents[NO]], {}, vocab, decoys)
            books["wake"] = build_phrasebook([self.catalog.intents[WAKE]], {}, vocab, decoys)
        self._books.update(books)
        for key in books:
            self._streams.pop(key, None)
        if self._engine is not None:
            for key, book in books.items():
                self._recs[key] = self._engine.recognizer(book.grammar)

    def book(self, key: str = "command") -> PhraseBook:
        return self._books.get(key) or build_phrasebook([])  # no lock: the UI thread asks

    def _active_key(self) -> str:
        if self.phase is Phase.CONFIRMING:
            return "confirm"
        if self.mode is Mode.WAKE_PHRASE and self.phase is Phase.IDLE:
            return "wake"
        return "command"

    # ---- input --------------------------------------------------------------------------------------
    def set_mode(self, mode: Mode) -> None:
        if self._post(self.set_mode, mode):
            return
        with self._lock:
            self.mode = mode
            self._pressed = False
            self._drop("모드 바뀜 / mode changed")
            if self.phase is Phase.LISTENING:
                self._set_phase(Phase.IDLE)

    def press(self) -> None:
        """Mic button down (push-to-talk)."""
        if self._post(self.press):
            return
        with self._lock:
            self._pressed = True
            self._acted = False
            self._reset_rec()
            if self.phase is Phase.IDLE:
                self._set_phase(Phase.LISTENING)

    def release(self) -> None:
        """Mic button up: what was said while it was held is decided now."""
        if self._post(self.release):
            return
        with self._lock:
            if not self._pressed:
                return
            self._pressed = False
            rec = self._recs.get(self._active_key())
            heard = rec.final() if rec is not None and self._in_utterance else Heard("")
            self._in_utterance = False
            heard = self._noise_check(heard)
            if self._vote_later(heard, settle=True):
                return
            self._handle(heard)
            if self.phase is Phase.LISTENING:
                self._set_phase(Phase.IDLE)

    def _after_waking(self) -> None:
        """The wake vote ended: what was said meanwhile goes to the recogniser it decided on (the command's,
        when the window opened: the start of a command said right after the wake phrase used to be lost)."""
        with self._lock:
            kept, self._after_wake = self._after_wake or [], None
            for pcm in kept:
                self._accept(pcm)

    def _listening(self) -> bool:
        if self.mode is Mode.PUSH_TO_TALK:
            return self._pressed
        return True

    def feed(self, pcm: bytes) -> None:
        """16 kHz mono s16le audio from the microphone. Dropped while the kiosk makes sound, while
        push-to-talk is up, and before the model is ready."""
        if self._post(self.feed, pcm):
            return
        self.tick()
        with self._lock:
            self._accept(pcm)

    def _accept(self, pcm: bytes) -> None:
        """One chunk of audio (under the lock)."""
        if self.gate.muted or not self.enabled:
            return
        if self._after_wake is not None:  # the wake phrase is being decided: keep what follows it
            self._after_wake = [*self._after_wake[-(MAX_AFTER_WAKE * 10 - 1):], pcm]
            return
        if self._pressed and self._acted:  # one command per press: trailing noise is not heard
            return
        level = chunk_level(pcm)
        if not self._listening() or not self._in_utterance:
            self._floor.update(level)
        if not self._listening():
            if self.denoiser is not None:
                self.denoiser.learn(pcm)  # the room's noise, heard while nobody talks to the kiosk
            return
        rec = self._recs.get(self._active_key())
        if rec is None:
            return
        raw, pcm = pcm, pcm if self.denoiser is None else self.denoiser.process(pcm)
        self._in_utterance = True
        self._levels.append(level)
        if self.stages:
            self._audio += pcm
            if self._pressed and self._engine is not None and self.streamed:
                self._stream(pcm, level)
        if len(self._levels) > MAX_UTTERANCE * 10:  # hands-free in endless noise: keep the last 15 s
            del self._levels[:-MAX_UTTERANCE * 10]
            del self._audio[: -MAX_UTTERANCE * RATE * 2]
        heard = rec.accept(pcm)
        if heard is None and self._endpoint.update(raw):
            heard = rec.final()
        if heard is not None:
            self._in_utterance = False
            self._endpoint.reset()
            heard = self._noise_check(heard)
            if not self._vote_later(heard, settle=False):
                self._handle(heard)

    def tap_confirm(self, yes: bool) -> None:
        """The on-screen 네 / 아니요 buttons."""
        if self._post(self.tap_confirm, yes):
            return
        with self._lock:
            self._resolve(yes)

    def tick(self) -> None:
        """Timeouts: the confirmation and the wake window. Called by `feed` and by the kiosk's clock."""
        if self._post(self.tick):
            return
        now = self.clock()
        with self._lock:
            expired = self.confirm.expire(now)
            if expired is not None:
                self._emit(VoiceEvent("confirm_done", intent=expired[1], answer=expired[0]))
                self._set_phase(Phase.LISTENING if self._pressed else Phase.IDLE)
            # a command said inside the window and still being decided is not cut off by the window's end
            if (self.mode is Mode.WAKE_PHRASE and self.phase is Phase.LISTENING and now >= self._window_until
                    and not self._deciding):
                self._reset_rec()
                self._set_phase(Phase.IDLE)

    # ---- decisions ----------------------------------------------------------------------------------
    def _noise_check(self, heard: Heard) -> Heard:
        """Speech too close to the noise is not acted on (a "heard" event with detail "noisy" says so):
        in loud noise the recogniser mostly picks a wrong command."""
        snr = snr_db(self._levels, self._floor.value)
        self._quiet = snr is not None and snr >= QUIET_SNR_DB
        self._utterance = speech_span(bytes(self._audio), self._levels, self._floor.value) if self.trim else b""
        self._utterance = self._utterance or bytes(self._audio)
        self._levels, self._audio = [], bytearray()
        if heard.candidates and snr is not None and snr < self.min_snr_db:
            if self._active_key() != "wake":  # nobody addressed the kiosk: no message
                self._emit(VoiceEvent("heard", text=heard.text, detail="noisy"))
            return Heard("")
        return heard

    def _handle(self, heard: Heard, key: str | None = None, decided: tuple[str, Intent | None] | None = None) -> None:
        key = key or self._active_key()
        book = self._books.get(key)
        live = None
        if decided is None:  # this utterance's streams (a vote on a thread had none)
            live, self._live = self._live, None
        if not heard.candidates or book is None:
            return
        if decided is None:
            audio, self._utterance = self._utterance, b""
            decided = self._vote(key, book, heard, audio, live, quiet=self._quiet)
        text, intent = decided
        if key == "wake":
            if intent is not None:
                self._window_until = self.clock() + self.wake_window
                self._reset_rec()
                self._set_phase(Phase.LISTENING)
            return
        self._emit(VoiceEvent("heard", text=text, intent=intent))
        if intent is None:
            return
        if key == "confirm":
            self._resolve(intent.name == YES)
            return
        if intent.final:
            pending = self.ask_confirmation(intent)
            self._emit(VoiceEvent("confirm", text=text, intent=intent, pending=pending))
            return
        self._acted = self._pressed
        self._emit(VoiceEvent("intent", text=text, intent=intent))
        if self.mode is Mode.WAKE_PHRASE:
            self._set_phase(Phase.IDLE)

    def ask_confirmation(self, intent: Intent) -> Pending:
        """Wait for 네 / 아니요 about `intent` (a final intent heard does this; so does the staff voice check)."""
        with self._lock:
            pending = self.confirm.request(intent, self.clock())
            self._reset_rec()
            self._set_phase(Phase.CONFIRMING)
            return pending

    def _resolve(self, yes: bool) -> None:
        result = self.confirm.answer(yes, self.clock())
        if result is None:
            return
        answer, intent = result
        self._acted = self._pressed
        self._emit(VoiceEvent("confirm_done", intent=intent, answer=answer))
        if answer is Answer.CONFIRMED:
            self._emit(VoiceEvent("intent", text=intent.text, intent=intent))
        self._reset_rec()
        self._set_phase(Phase.LISTENING if self._pressed else Phase.IDLE)

    def _set_phase(self, phase: Phase) -> None:
        if phase is not self.phase:
            self.phase = phase
            self._emit(VoiceEvent("phase", detail=phase.value))

    def _reset_rec(self) -> None:
        self._gen += 1
        for rec in self._recs.values():
            rec.reset()
        self._in_utterance = False
        self._endpoint.reset()
        if self.denoiser is not None:
            self.denoiser.reset()
        self._levels = []
        self._audio = bytearray()
        self._utterance = b""
        self._live, self._preroll = None, []

    def _drop(self, why: str) -> None:
        if self._in_utterance:
            self._emit(VoiceEvent("dropped", detail=why))
        self._reset_rec()

    def _on_gate(self, muted: bool) -> None:
        if muted and not self._post(self._on_gate, muted):
            with self._lock:
                self._drop("안내 음성 재생 중 / the kiosk is speaking")
