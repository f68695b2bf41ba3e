"""One part of the split (bench/voice_split.py) scored: commands through the kiosk's path next to bare vosk on
the same takes, wake phrase candidates, and café audio that must not wake the kiosk or act. bench/voice.py
prints it; this module only measures. Audio comes from the part's corpus folder (bench/voice_corpus.py)
through a `PartReader`, so scoring one part cannot read the other's files.

Kiosk path = audio.voicecheck.score_pcm: the screen's grammar and decoys, the noise filter and noise gate
(having heard the room for 1 s before the button is pressed), 5-best, the perturbed-decode vote; push-to-talk
for commands and 네/아니요, hands-free for the wake phrase. Bare vosk = one recogniser on the same grammar
(phrases + decoys), the whole take, its best text taken if it is exactly one phrase: no filter, gate, n-best
or vote.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from audio.asr import Mode, VoiceController, VoiceEvent
from audio.intents import NO, WAKE, YES, PhraseBook, VoiceCatalog, build_phrasebook
from audio.recognizer import PERTURB_STAGES
from audio.speechgen import Voice, silence
from audio.status import MicGate, StatusBoard
from audio.voicecheck import CheckPhrase, check_phrases, sample_slots, score_pcm
from bench.voice_corpus import CAFE_KINDS, Corpus, PartReader, mix, noise_offset
from bench.voice_split import Part

CHUNK = 3200
PREROLL = 1.0  # seconds of the room before each push-to-talk take (clean: silence)

Condition = tuple[str, float | None]  # (noise kind, SNR dB) or ("clean", None)


@dataclass(frozen=True)
class Row:
    phrase: str
    intent: str
    kind: str  # wake | nav | confirm | game
    voice: str
    room: str
    cond: str  # clean | pink@10 …
    kiosk: str  # right | wrong | nothing
    kiosk_heard: str
    bare: str
    bare_heard: str
    latency: float  # kiosk: release → decision (wake: end of speech → awake)


def phrase_book(catalog: VoiceCatalog, phrase: CheckPhrase, vocabulary: object) -> PhraseBook:
    """The grammar the kiosk hears `phrase` in."""
    if phrase.kind == "wake":
        specs = [catalog.intents[WAKE]]
    elif phrase.kind == "confirm":
        specs = [catalog.intents[YES], catalog.intents[NO]]
    else:
        specs = [catalog.intents[n] for n in phrase.intents]
    slots = sample_slots(phrase.game) if phrase.kind == "game" else {}
    return build_phrasebook(specs, slots, vocabulary, catalog.decoys)  # type: ignore[arg-type]


def bare(engine, book: PhraseBook, phrase: CheckPhrase, pcm: bytes) -> tuple[str, str]:
    rec = engine.recognizer(book.grammar)
    heard = None
    for i in range(0, len(pcm), CHUNK):
        heard = rec.accept(pcm[i : i + CHUNK])
        if heard is not None and heard.text:
            break
    else:
        heard = rec.final()
    intent = book.match(heard.text)
    if intent is None:
        return "nothing", heard.text
    ok = intent.name == phrase.intent and dict(intent.slots) == dict(phrase.slots)
    return ("right" if ok else "wrong"), heard.text


class Scorer:
    def __init__(self, engine, catalog: VoiceCatalog, root: Path, part: Part, voices: int | None = None) -> None:
        self.engine = engine
        self.catalog = catalog
        self.corpus = Corpus(root, part)
        self.reader = PartReader(root, part.name)
        self.voices: tuple[Voice, ...] = part.voices[:voices] if voices else part.voices
        self._noise: dict[str, bytes] = {}

    def noise(self, kind: str) -> bytes:
        if kind not in self._noise:
            self._noise[kind] = self.reader.read(self.corpus.noise(kind))
        return self._noise[kind]

    def conditioned(self, text: str, voice: Voice, take: bytes, cond: Condition) -> tuple[bytes, bytes]:
        """(the room before the button, the take) under a condition."""
        kind, snr = cond
        pre = silence(PREROLL)
        if snr is None:
            return pre, take
        both = mix(pre + take, self.noise(kind), snr, noise_offset(text, voice, kind))
        return both[: len(pre)], both[len(pre) :]

    def score(self, phrases: list[CheckPhrase], conditions: list[Condition], catalog: VoiceCatalog | None = None,
              streamed: int = 0, progress: Callable[[int, int], None] | None = None) -> list[Row]:
        catalog = catalog or self.catalog
        rows: list[Row] = []
        books = {p.text: phrase_book(catalog, p, self.engine.vocabulary) for p in phrases}
        total = len(phrases) * len(self.voices) * len(conditions)
        for phrase in phrases:
            for voice in self.voices:
                path = self.corpus.take(phrase.text, voice)
                take = self.reader.read(path)
                room = path.parent.name
                for cond in conditions:
                    pre, pcm = self.conditioned(phrase.text, voice, take, cond)
                    outcome, heard, _, lat = score_pcm(self.engine, catalog, phrase, pcm, PERTURB_STAGES,
                                                       preroll=pre, streamed=streamed)
                    b, b_heard = bare(self.engine, books[phrase.text], phrase, pcm)
                    name = "clean" if cond[1] is None else f"{cond[0]}@{cond[1]:g}"
                    rows.append(Row(phrase.text, phrase.intent, phrase.kind, voice.label, room, name, outcome,
                                    heard, b, b_heard, lat))
                    if progress is not None:
                        progress(len(rows), total)
        return rows

    def wake_phrases(self, candidates: list[str], conditions: list[Condition],
                     progress: Callable[[int, int], None] | None = None) -> list[Row]:
        """Each candidate said by the part's voices, heard hands-free with it as the one wake phrase."""
        rows: list[Row] = []
        for cand in candidates:
            phrase = CheckPhrase(cand, WAKE, "wake", "호출어")
            rows += self.score([phrase], conditions, self.catalog.with_wake(cand), progress=progress)
        return rows

    def cafe(self, seconds: float) -> dict[str, bytes]:
        """`seconds` of each kind of the part's café audio (no command in it)."""
        return {k: self.reader.read(self.corpus.cafe(k, seconds)) for k in CAFE_KINDS}


@dataclass
class Quiet:
    """What café audio with no command in it did to the hands-free kiosk (and to bare vosk's wake grammar)."""

    seconds: float
    wakes: Counter
    bare_wakes: Counter
    nav: int = 0
    final_requested: int = 0
    final_dispatched: int = 0


def quiet_run(engine, catalog: VoiceCatalog, audio: dict[str, bytes], game: str | None = "spyfall") -> Quiet:
    """The hands-free pipeline (wake phrase → command → 네/아니요) over café audio: every wake, every command
    acted on, every final action dispatched; the grammar holds navigation and all of `game`'s intents."""
    names = [s.name for s in catalog.navigation()] + ([s.name for s in catalog.game_intents(game)] if game else [])
    t = [0.0]
    q = Quiet(sum(len(p) for p in audio.values()) / 2 / 16000, Counter(), Counter())
    wake_book = build_phrasebook([catalog.intents[WAKE]], {}, engine.vocabulary, catalog.decoys)
    for kind, pcm in audio.items():
        ctl = VoiceController(catalog, engine, Mode.WAKE_PHRASE, clock=lambda: t[0], gate=MicGate(),
                              board=StatusBoard(), stages=PERTURB_STAGES, denoise=True)
        ctl.mic_available(True)
        ctl.set_context("bench", names, sample_slots(game))

        def on(e: VoiceEvent, kind: str = kind) -> None:
            if e.kind == "phase" and e.detail == "listening":
                q.wakes[kind] += 1
            elif e.kind == "intent" and e.intent is not None:
                if e.intent.final:
                    q.final_dispatched += 1
                else:
                    q.nav += 1
            elif e.kind == "confirm":
                q.final_requested += 1

        ctl.listen(on)
        rec = engine.recognizer(wake_book.grammar)
        for i in range(0, len(pcm), CHUNK):
            t[0] += 0.1
            chunk = pcm[i : i + CHUNK]
            ctl.feed(chunk)
            heard = rec.accept(chunk)
            if heard is not None and wake_book.match(heard.text) is not None:
                q.bare_wakes[kind] += 1
    return q


def timed(fn: Callable[[], object]) -> tuple[object, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def phrases_of(catalog: VoiceCatalog, sets: list[str], vocabulary: object, only: set[str] | None = None
               ) -> list[CheckPhrase]:
    """The voice check's phrases of these sets, without the wake phrase (scored apart), optionally only those
    of some intents."""
    out: list[CheckPhrase] = []
    for which in sets:
        for p in check_phrases(catalog, which, vocabulary):  # type: ignore[arg-type]
            if p.kind != "wake" and (only is None or p.intent in only) and all(q.text != p.text for q in out):
                out.append(p)
    return out
