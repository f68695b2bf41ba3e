"""Offline Korean voice commands: the controller that turns microphone audio into intents for the kiosk
(the model and recognisers are in `audio/recognizer.py`).

The recogniser runs in grammar mode over exactly the phrases the current screen accepts plus decoys (the
Korean model has no `[unk]`, so without decoys any speech is forced onto a command). Kaldi's grammar lets
phrases repeat inside one utterance, so only a whole utterance equal to one phrase counts.

Flow (`VoiceController`): push-to-talk (default; audio is used only while the mic button is held) or
hands-free (the wake phrase opens a short window for one command). Navigation intents are dispatched at
once; final game intents wait for "네"/"아니요" or a tap (`audio/confirm.py`). Audio is dropped while
`MIC_GATE.muted` (the kiosk is speaking). Everything the recogniser heard is reported ("들은 말: …").
Speech under 10 dB above the noise is not acted on (`MIN_SNR_DB`). With `denoise` (the kiosk) the
recogniser hears the audio through a noise filter (`audio/denoise.py`) that learns the room's steady noise
while nobody talks to the kiosk; the noise gate and the endpoint measure the microphone's own audio. With `stages` (the kiosk:
`PERTURB_STAGES`) each finished utterance is decoded again at other speeds: the decodes vote on commands
(`decide`), and must agree for the wake phrase and the confirmation (`confirm_strictly`).

Kiosk wiring (all calls return at once; listeners run on the audio thread — hop to Kivy's main thread):

    voice = start_voice()                         # model loads in the background, mic watchdog starts
    voice.controller.listen(on_voice_event)       # "heard" → show e.heard_ko(); "confirm" → show
                                                  # e.pending.prompt_ko() with 네/아니요 buttons;
                                                  # "intent" → navigation, or to_action(e.intent, ...)
    voice.controller.set_context("spyfall.round", ["next", "help", "spyfall.accuse"],
                                 {"player": {"민호": 0, "지수": 1}})   # on every screen/state change
    voice.controller.press() / .release()         # the mic button (push-to-talk, the default)
    voice.controller.tap_confirm(True)            # the on-screen 네 button
    voice.set_enabled(False)                      # staff switch
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
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
    PERTURB_STAGES,
    RATE,
    Heard,
    ModelLoader,
    NoiseFloor,
    QuickEndpoint,
    Recognizer,
    SpeechEngine,
    VoskEngine,
    chunk_level,
    decode_perturbed,
    snr_db,
    speech_span,
    warm_up,
)
from audio.serial import Serial
from audio.status import BOARD, MIC_GATE, MicGate, StatusBoard

__all__ = [
    "Heard", "ModelLoader", "Mode", "Phase", "QuickEndpoint", "Recognizer", "SpeechEngine", "VoiceController",
    "VoiceEvent", "VoiceSystem", "VoskEngine", "recognise_wav", "start_voice", "warm_up",
]

VOICE_STATUS = "voice"
MAX_UTTERANCE = 15  # seconds of one utterance kept for the noise gate and the perturbed decodes

class Mode(Enum):
    PUSH_TO_TALK = "push_to_talk"
    WAKE_PHRASE = "wake_phrase"


class Phase(Enum):
    IDLE = "idle"  # push-to-talk: button up; wake mode: waiting for the wake phrase
    LISTENING = "listening"  # button held, or the wake window is open
    CONFIRMING = "confirming"  # a final intent waits for 네 / 아니요 / tap


@dataclass(frozen=True)
class VoiceEvent:
    """kind: "heard" (text, intent or None) · "intent" (dispatch it) · "confirm" (pending: show the prompt)
    · "confirm_done" (answer) · "phase" (detail = new phase) · "dropped" (detail = why)."""

    kind: str
    text: str = ""
    intent: Intent | None = None
    pending: Pending | None = None
    answer: Answer | None = None
    detail: str = ""

    def heard_ko(self) -> str:
        """The line the UI shows so people see what the kiosk understood."""
        if self.detail == "noisy":
            return "주변이 시끄러워서 잘 못 들었어요. 마이크 가까이에서 다시 말해 주세요."
        if not self.text:
            return "들은 말: (없음)"
        suffix = "" if self.intent is not None else " (알아듣지 못했어요)"
        return f"들은 말: {self.text}{suffix}"


def decide(engine: SpeechEngine, book: PhraseBook, candidates: tuple[str, ...], audio: bytes,
           stages: tuple[tuple[float, ...], ...]) -> tuple[str, Intent | None]:
    """The normal decode's n-best plus perturbed decodes, stage by stage, until an intent has 3 votes (or
    the stages run out); then `PhraseBook.vote`."""
    decodes: list[tuple[str, ...]] = [candidates]
    for stage in stages:
        decodes += decode_perturbed(engine, book.grammar, audio, stage)
        if book.agreed(decodes, 3):
            break
    return book.vote(decodes)


def confirm_strictly(engine: SpeechEngine, book: PhraseBook, candidates: tuple[str, ...], audio: bytes,
                     speeds: tuple[float, ...], need: int = 3) -> tuple[str, Intent | None]:
    """The wake phrase and 네 / 아니요 count only when the normal decode and at least `need` perturbed ones
    hear the same: the vote makes commands easier to hear, these must be harder to fake (in 10 min of
    no-command audio, narration once woke the kiosk, was heard as an accusation and confirmed by "맞아";
    with 2 of 4 it still was)."""
    text, intent = book.pick(candidates)
    if intent is None:
        return text, None
    agree = sum(1 for c in decode_perturbed(engine, book.grammar, audio, speeds)
                if (i := book.pick(c)[1]) is not None and i.name == intent.name)
    return (text, intent) if agree >= need else (text, None)


class VoiceController:
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
        self.background_vote = False  # release() hands the vote to a thread (the kiosk: release runs on the UI)
        self._gen = 0  # bumped whenever recognition restarts: a late vote for an older utterance is dropped
        self._deciding = 0  # votes running on a thread: the wake window stays open for the command they decide
        self._audio = bytearray()  # the utterance, kept only when `stages` is set
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

    def _vote_later(self, heard: Heard, settle: bool) -> bool:
        """With `background_vote`, the extra decodes (~0.1 s here, several times that on a tablet) run on a
        thread without the lock: release() runs on the UI thread, and the UI thread's tick() would wait for
        a vote started by feed(). False when there is nothing to vote on in the background."""
        key = self._active_key()
        book = self._books.get(key)
        if not (self.background_vote and self._votes(self._utterance) and heard.candidates and book is not None):
            return False
        audio, self._utterance, gen = self._utterance, b"", self._gen
        self._deciding += 1
        threading.Thread(target=self._vote_then_handle, args=(key, book, heard, audio, gen, settle),
                         name="voice-vote", daemon=True).start()
        return True

    def _vote_then_handle(self, key: str, book: PhraseBook, heard: Heard, audio: bytes, gen: int,
                          settle: bool = True) -> None:
        try:
            decided = self._vote(key, book, heard, audio)
        except BaseException:
            with self._lock:
                self._deciding -= 1
            raise
        with self._lock:
            self._deciding -= 1
            if gen != self._gen or self._books.get(key) is not book:
                return  # pressed again, screen changed or reset meanwhile: this result is stale
            self._handle(heard, key, decided)
            if settle and self.phase is Phase.LISTENING and not self._pressed:
                self._set_phase(Phase.IDLE)

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
            if self.gate.muted or not self.enabled:
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
        self._utterance = speech_span(bytes(self._audio), self._levels, self._floor.value) if self.trim else b""
        self._utterance = self._utterance or bytes(self._audio)
        self._levels, self._audio = [], bytearray()
        if heard.candidates and snr is not None and snr < self.min_snr_db:
            if self._active_key() != "wake":  # nobody addressed the kiosk: no message
                self._emit(VoiceEvent("heard", text=heard.text, detail="noisy"))
            return Heard("")
        return heard

    def _votes(self, audio: bytes) -> bool:
        """Whether perturbed decodes take part: they vote on commands and must agree on the wake phrase and
        on confirmations."""
        return bool(self.stages) and bool(audio) and self._engine is not None

    def _vote(self, key: str, book: PhraseBook, heard: Heard, audio: bytes) -> tuple[str, Intent | None]:
        engine = self._engine
        if engine is None or not self._votes(audio):
            return book.pick(heard.candidates)
        if key in ("confirm", "wake"):
            return confirm_strictly(engine, book, heard.candidates, audio, self.stages[0])
        return decide(engine, book, heard.candidates, audio, self.stages)

    def _handle(self, heard: Heard, key: str | None = None, decided: tuple[str, Intent | None] | None = None) -> None:
        key = key or self._active_key()
        book = self._books.get(key)
        if not heard.candidates or book is None:
            return
        if decided is None:
            audio, self._utterance = self._utterance, b""
            decided = self._vote(key, book, heard, audio)
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

    def _drop(self, why: str) -> None:
        if self._in_utterance:
            self._emit(VoiceEvent("dropped", detail=why))
        self._reset_rec()

    def _on_gate(self, muted: bool) -> None:
        if muted and not self._post(self._on_gate, muted):
            with self._lock:
                self._drop("안내 음성 재생 중 / the kiosk is speaking")


def recognise_wav(
    path: Path, engine: SpeechEngine, intents: Iterable[str], slots: SlotInput | None = None,
    catalog: VoiceCatalog | None = None,
) -> tuple[str, Intent | None]:
    """What the recogniser makes of a recording (16 kHz mono 16-bit WAV) with the grammar of the given
    intents: (text heard, intent or None). For the command line and for checking café recordings."""
    import wave

    catalog = catalog or load_catalog()
    with wave.open(str(path), "rb") as wav:
        if (wav.getframerate(), wav.getnchannels(), wav.getsampwidth()) != (RATE, 1, 2):
            raise ValueError(f"{path}: need 16 kHz mono 16-bit PCM (sox in.wav -r 16000 -c 1 -b 16 out.wav)")
        pcm = wav.readframes(wav.getnframes())
    book = build_phrasebook([catalog.intents[n] for n in intents], slots, engine.vocabulary, catalog.decoys)
    rec = engine.recognizer(book.grammar)
    for i in range(0, len(pcm), 3200):
        heard = rec.accept(pcm[i : i + 3200])
        if heard is not None and heard.candidates:
            return book.pick(heard.candidates)
    return book.pick(rec.final().candidates)


@dataclass
class VoiceSystem:
    """Everything voice needs, wired: the background model loader, the controller and the microphone
    watchdog. `start_voice()` builds and starts one; the kiosk calls `controller.set_context(...)` on every
    screen/state change, `press()`/`release()` from the mic button, and listens for `VoiceEvent`s."""

    loader: ModelLoader
    controller: VoiceController
    microphone: Any  # audio.mic.Microphone (imported lazily: tests build controllers without it)

    def set_enabled(self, on: bool) -> None:
        self.controller.set_enabled(on)

    def stop(self) -> None:
        self.microphone.stop()
        self.controller.stop_worker()


def start_voice(
    catalog: VoiceCatalog | None = None,
    mode: Mode = Mode.PUSH_TO_TALK,
    board: StatusBoard = BOARD,
    gate: MicGate = MIC_GATE,
    backend: Any = None,
    model_path: Path | None = None,
    cache: Path | None = None,
) -> VoiceSystem:
    """Start loading the model in the background (progress on the status board as "asr_model") and open
    the microphone (retried every few seconds, so a mic plugged in later is picked up without a restart).
    `cache`: a folder for the grammar-only copy of the installed model (less memory; see audio/grammar_model).
    Nothing here blocks the UI thread."""
    from audio.mic import Microphone

    controller = VoiceController(catalog, None, mode, gate=gate, board=board, stages=PERTURB_STAGES, denoise=True)
    controller.background_vote = True
    controller.serve_in_background()  # the kiosk calls it on its UI thread: no vosk work there
    loader = ModelLoader(model_path, board=board, cache=cache)

    def on_progress(progress: float, _phase: str) -> None:
        if progress >= 1.0 and loader.engine is not None:
            controller.set_engine(loader.engine)
        else:
            controller.refresh_status()

    loader.listen(on_progress)
    microphone = Microphone(controller.feed, controller.mic_available, backend=backend, board=board)
    loader.start()
    microphone.start()
    return VoiceSystem(loader, controller, microphone)
