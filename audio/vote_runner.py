"""Where and when the voice controller's votes run (the decision itself is `audio/vote.py`): push-to-talk's
perturbed decodes stream while the button is held (`_stream`), a finished utterance is decided on a thread
of its own when the release or the endpoint comes on the worker (`_vote_later`, `_vote_then_handle`), and a
vote for an utterance recognition has moved on from stops before its next decodes (`_Stale`).

`VoteRunner` is a part of `audio.asr.VoiceController` (its only subclass): it shares the controller's lock,
recognition generation, phrase books and `_handle`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial

from audio.intents import Intent, PhraseBook
from audio.recognizer import Heard, NoiseFloor, SpeechEngine, decode_perturbed
from audio.serial import Serial
from audio.voice_events import Phase
from audio.vote import PerturbedStreams, agree_strictly, answer_vote, vote_in_stages

SPEECH_MARGIN = 3  # chunks (0.1 s) the perturbed decodes hear before the speech starts (as `speech_span`)
MAX_BEHIND = 4  # calls waiting for the worker: beyond this the perturbed decodes wait (see _stream)
# How many of the first stage's perturbed decodes must hear the wake phrase as the normal decode did
# (audio/vote.py agree_strictly), and how many of all the decodes must hear 네 / 아니요 (answer_vote, which
# says what was measured). bench/voice.py --need tries others, on the tuning part only. Wake 2 of 4 (was 3),
# session 18, bench/voice_wake.py --part tuning (게임 도우미, 12 tuning voices x clean + pink/babble/clatter 10 dB,
# 20 min of tuning café audio): 3 of 4 woke 29/48, 2 of 4 31/48, 1 of 4 33/48; café moments the normal decode
# heard the wake phrase in: 4, with 0, 0, 1 and 1 perturbed decodes agreeing (1 of 4: 6 false wakes/h; 2: none).
AGREE_NEED = {"wake": 2, "confirm": 5}


class _Stale(Exception):
    """A vote on a thread for an utterance recognition has moved on from."""


class VoteRunner:
    """The vote-running part of `VoiceController` (see the module's docstring)."""

    # the controller's, used here
    stages: tuple[tuple[float, ...], ...]
    phase: Phase
    _lock: threading.RLock
    _engine: SpeechEngine | None
    _books: dict[str, PhraseBook]
    _floor: NoiseFloor
    _serial: Serial | None
    _gen: int  # bumped whenever recognition restarts: a late vote for an older utterance is dropped
    _pressed: bool
    _utterance: bytes
    _quiet: bool  # the utterance being decided was said in a quiet room (asr's _noise_check)
    _after_wake: list[bytes] | None
    _active_key: Callable[[], str]
    _post: Callable[..., bool]
    _handle: Callable[..., None]
    _set_phase: Callable[[Phase], None]
    _after_waking: Callable[[], None]

    def _init_votes(self) -> None:
        self.streamed = 2  # push-to-talk: stages decoded while the button is held (0: all after the release)
        self.background_vote = False  # release() hands the vote to a thread (the kiosk: release runs on the UI)
        self._deciding = 0  # votes running on a thread: the wake window stays open for the command they decide
        self._streams: dict[str, PerturbedStreams] = {}  # push-to-talk's perturbed decodes, per grammar
        self._live: PerturbedStreams | None = None  # those hearing the utterance now (from its speech on)
        self._preroll: list[bytes] = []  # the last chunks before the speech: the streams hear them too
        self._quiet = False

    def _vote_later(self, heard: Heard, settle: bool) -> bool:
        """With `background_vote`, the extra decodes (~0.1 s here, several times that on a tablet) run on a
        thread without the lock: release() runs on the UI thread, and the UI thread's tick() would wait for
        a vote started by feed(). False when there is nothing to vote on in the background, or when the
        perturbed decodes heard the utterance while it was said (push-to-talk): finishing them is quick."""
        key = self._active_key()
        book = self._books.get(key)
        if self._live is not None and self._live.book is book:
            return False
        if not (self.background_vote and self._votes(self._utterance) and heard.candidates and book is not None):
            return False
        audio, self._utterance, gen = self._utterance, b"", self._gen
        self._deciding += 1
        if key == "wake":
            self._after_wake = []
        threading.Thread(target=self._vote_then_handle, args=(key, book, heard, audio, gen, settle, self._quiet),
                         name="voice-vote", daemon=True).start()
        return True

    def _vote_then_handle(self, key: str, book: PhraseBook, heard: Heard, audio: bytes, gen: int,
                          settle: bool = True, quiet: bool = False) -> None:
        try:
            decided: tuple[str, Intent | None] | None = self._vote(key, book, heard, audio, gen=gen, quiet=quiet)
        except _Stale:
            decided = None
        except BaseException:
            with self._lock:
                self._deciding -= 1
            raise
        with self._lock:
            self._deciding -= 1
            if decided is not None and gen == self._gen and self._books.get(key) is book:  # else pressed
                self._handle(heard, key, decided)  # again, screen changed or reset meanwhile: the result is stale
                if settle and self.phase is Phase.LISTENING and not self._pressed:
                    self._set_phase(Phase.IDLE)
            if key == "wake" and not self._post(self._after_waking):
                self._after_waking()

    def _stream(self, pcm: bytes, level: float) -> None:
        """Push-to-talk: the perturbed decodes of the first `streamed` stages hear the utterance while the
        button is held, from `SPEECH_MARGIN` chunks before the speech starts (a chunk 6 dB over the
        background, as `speech_span` trims it), so the release only finishes them. They catch up on the
        audio as the worker has time: the first stage unless the worker is more than `MAX_BEHIND` calls
        behind the audio, the later ones (needed only when the first is not decisive) only when the worker
        has nothing else queued. What they have heard is kept; the release decodes only the rest (a worker
        that fell behind used to drop the streams and decode the whole utterance again after the release).
        The wake phrase streams its one stage."""
        if self._live is None:
            self._preroll = (self._preroll + [pcm])[-(SPEECH_MARGIN + 1):]
            floor = self._floor.value
            if floor is not None and level <= 2.0 * max(floor, 1.0):
                return
            key = self._active_key()
            book = self._books[key]
            live = self._streams.get(key)
            stages = self.stages[: 1 if key == "wake" else self.streamed]
            speeds = tuple(f for stage in stages for f in stage)
            if live is None or live.book is not book or live.speeds != speeds:
                assert self._engine is not None
                live = self._streams[key] = PerturbedStreams.build(self._engine, book, stages)
            live.reset()
            self._live = live
            pcm, self._preroll = b"".join(self._preroll), []
        self._live.push(pcm)
        backlog = self._serial.backlog() if self._serial is not None else 0
        if backlog <= MAX_BEHIND:
            self._live.catch_up(1 if backlog else len(self.stages))

    def _votes(self, audio: bytes) -> bool:
        """Whether perturbed decodes take part: they vote on commands and must agree on the wake phrase and
        on confirmations."""
        return bool(self.stages) and bool(audio) and self._engine is not None

    def _vote(self, key: str, book: PhraseBook, heard: Heard, audio: bytes, live: PerturbedStreams | None = None,
              gen: int | None = None, quiet: bool = False) -> tuple[str, Intent | None]:
        """The decision on one utterance (`audio/vote.py`). With `gen` (a vote on a thread) the decodes stop
        as soon as recognition restarted (a new press, another screen): the stale result would be dropped
        anyway, and its decodes took the CPU from the next utterance's. `quiet`: said in a quiet room (a
        command's vote counts no decoy against it)."""
        engine = self._engine
        if engine is None or not (self._votes(audio) or (live is not None and live.book is book)):
            return book.pick(heard.candidates)
        decode = partial(decode_perturbed, engine, book.grammar, audio)

        def run(speeds: tuple[float, ...]) -> list[tuple[str, ...]]:  # streamed, or decoded now
            if gen is not None and gen != self._gen:
                raise _Stale
            if live is not None and live.book is book and set(speeds) <= set(live.speeds):
                return live.finish(speeds)
            return decode(speeds)

        if key == "confirm":
            return answer_vote(book, heard.candidates, self.stages, run, AGREE_NEED[key])
        if key == "wake":
            return agree_strictly(book, heard.candidates, self.stages[0], run, AGREE_NEED[key])
        return vote_in_stages(book, heard.candidates, self.stages, run, quiet=quiet)
