"""The café's own voice check (staff mode "음성 점검"): the phrases of every screen, recorded by staff or
willing guests as `<folder>/<speaker>/<phrase>.wav` (the `bench/voice.py --recordings` layout) and scored
with the kiosk's own pipeline (`VoiceController` with the perturbed-decode vote and the noise gate):
right, wrong (heard as what), or nothing. No Kivy here; the staff panel is kiosk/screens/staff_voicecheck.py.

    check = VoiceCheck(data_dir / "voicecheck", catalog)
    phrases = check.phrases("basic")          # wake phrase, navigation, 네/아니요 ("spyfall" …: a game's)
    check.save(speaker, phrase, clip)         # a take (any rate; kept at 16 kHz)
    score = check.score(engine, speaker, phrase)
    check.results(engine)                     # every take in the folder, scored (cached by file time)
    summarise(results) / write_csv(results, path)
"""

from __future__ import annotations

import csv
import json
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from audio.asr import Mode, VoiceController, VoiceEvent
from audio.grammar import expand
from audio.intents import NO, WAKE, YES, Intent, VoiceCatalog
from audio.pcm import Clip, ClipReader, CorruptAudio, read_wav, write_wav
from audio.recognizer import PERTURB_STAGES, RATE, SpeechEngine
from audio.status import MicGate, StatusBoard

CHUNK = 3200  # 0.1 s of 16 kHz s16le

# Sample names the check says in place of the table's own (the grammar holds all four players etc.).
PLAYERS: dict[str, object] = {"민호": 0, "지수": 1, "서연": 2, "지훈": 3}
SAMPLE_SLOTS: dict[str, dict[str, dict[str, object]]] = {
    "spyfall": {"locations": {"아틀란티스": "atlantis", "배트케이브": "batcave", "데일리 플래닛": "daily_planet",
                             "아캄": "arkham_asylum", "고독의 요새": "fortress_of_solitude"}},
    "mr_jack_ny": {"characters": {"클라우드 라이더": "cloud_rider", "비치": "beach", "래티머": "latimer",
                                 "그랜트": "grant", "캘러핸": "callahan", "이스트먼": "eastman", "스미스": "smith"}},
    "clue": {
        "suspects": {"스칼렛": "scarlet", "머스타드": "mustard", "화이트": "white", "그린": "green", "피콕": "peacock",
                    "플럼": "plum"},
        "weapons": {"끈": "rope", "파이프": "lead_pipe", "칼": "knife", "렌치": "wrench", "촛대": "candlestick",
                   "권총": "revolver"},
        "rooms": {"부엌": "kitchen", "볼룸": "ballroom", "온실": "conservatory", "식당": "dining_room",
                 "당구장": "billiard_room", "도서관": "library", "라운지": "lounge", "홀": "hall", "서재": "study"},
    },
}
# Which game intents the kiosk listens for together: kiosk/voice_intents.py keeps those whose action is legal
# now (plus `always` ones); these are the sets seen in random play of each game (most common first).
SCREENS: dict[str, dict[str, list[str]]] = {
    "spyfall": {"dealer": ["choose_dealer"], "start": ["start_clock"], "running": ["pause_clock", "accuse"],
                "paused": ["resume_clock"], "discussion": ["start_pointing"], "joker": ["guess_location"]},
    "watson_holmes": {"watson": ["watson_read", "watson_pass", "end_game"]},
    "mr_jack_ny": {"pick": ["pick", "escape"], "act": ["end_turn", "arrest", "escape"]},
    "clue": {"start": ["roll_die", "use_passage"], "move": ["enter_room", "stay_out"], "suggest": ["suggest", "end_turn"]},
}
BASIC = "basic"
SETS = (BASIC, *SCREENS)
OUTCOMES = ("right", "wrong", "nothing")


def sample_slots(game: str | None) -> dict[str, dict[str, object]]:
    """The slot values the grammar gets for a game ("all": every game's)."""
    if game == "all":
        merged: dict[str, dict[str, object]] = {"player": dict(PLAYERS)}
        for slots in SAMPLE_SLOTS.values():
            merged.update(slots)
        return merged
    return {"player": dict(PLAYERS), **SAMPLE_SLOTS.get(game or "", {})}


@dataclass(frozen=True)
class CheckPhrase:
    """One phrase to say: `intent` (with `slots`) is what the kiosk should understand; `kind` is wake,
    confirm, nav or game; `intents` the command grammar it is heard in (the screen's intents)."""

    text: str
    intent: str
    kind: str
    label: str
    slots: Mapping[str, object] = field(default_factory=dict)
    intents: tuple[str, ...] = ()
    game: str | None = None


@dataclass(frozen=True)
class Score:
    speaker: str
    phrase: str
    intent: str
    outcome: str  # right | wrong | nothing
    heard: str = ""  # the recogniser's text ("" = nothing usable)
    heard_intent: str = ""  # the intent it was taken for (wrong), or ""
    seconds: float = 0.0  # latency: push-to-talk release (wake phrase: end of speech) → decision


def _one_per_shape(template: str, slots: Mapping[str, dict[str, object]]) -> list[tuple[str, dict[str, object]]]:
    """Each wording of a template once, with the first sample value of each slot."""
    from audio.intents import slot_values

    first = {k: dict(list(v.items())[:1]) for k, v in slots.items()}
    return [(" ".join(words), dict(values)) for words, values in expand(template, slot_values(first))]


def check_phrases(catalog: VoiceCatalog, which: str = BASIC, vocabulary: frozenset[str] | None = None) -> list[CheckPhrase]:
    """The phrases of one set: BASIC = every wake phrase candidate, every navigation phrasing and every 네/아니요 word;
    a game id = each wording of that game's intents, in the grammar of the screen that accepts them."""
    nav = tuple(s.name for s in catalog.navigation())
    out: list[CheckPhrase] = []

    def add(spec_name: str, kind: str, intents: tuple[str, ...], game: str | None, slots: Mapping[str, Any]) -> None:
        spec = catalog.intents[spec_name]
        for template in spec.templates:
            for text, values in _one_per_shape(template, slots):
                if vocabulary is not None and any(w not in vocabulary for w in text.split()):
                    continue  # the kiosk drops it too
                if all(p.text != text for p in out):
                    out.append(CheckPhrase(text, spec_name, kind, spec.label_ko or spec_name, values, intents, game))

    if which == BASIC:
        label = catalog.intents[WAKE].label_ko or WAKE
        for text in catalog.wake_candidates or catalog.intents[WAKE].templates:  # each is measured alone
            if (vocabulary is None or all(w in vocabulary for w in text.split())) and all(p.text != text for p in out):
                out.append(CheckPhrase(text, WAKE, "wake", label))
        for name in nav:
            add(name, "nav", nav, None, {})
        add(YES, "confirm", (), None, {})
        add(NO, "confirm", (), None, {})
        return out
    if which not in SCREENS:
        raise KeyError(f"unknown voice check set: {which}")
    for names in SCREENS[which].values():
        full = tuple(f"{which}.{n}" for n in names if f"{which}.{n}" in catalog.intents)
        for name in full:
            add(name, "game", nav + full, which, sample_slots(which))
    return out


def score_pcm(engine: SpeechEngine, catalog: VoiceCatalog, phrase: CheckPhrase, pcm: bytes,
              stages: tuple[tuple[float, ...], ...] = PERTURB_STAGES, denoise: bool = True, preroll: bytes = b"",
              streamed: int = 2) -> tuple[str, str, str, float]:
    """(outcome, heard text, heard intent, latency s) of one utterance (16 kHz mono s16le), decided by a
    `VoiceController` as in the kiosk: push-to-talk for commands and confirmations (latency: the button's
    release → the decision), hands-free for the wake phrase (latency: end of the take → awake, audio time
    plus the time spent on the chunk that woke it). `preroll`: the room heard before the button is pressed
    (the noise filter and the noise gate learn it, as in the kiosk). `streamed=0` decodes every perturbed
    copy after the release (the same decision, in stages: cheaper, for benches; latency is then not the
    kiosk's). A wake phrase (any candidate) is heard as the catalog's one wake phrase."""
    now = [0.0]
    mode = Mode.WAKE_PHRASE if phrase.kind == "wake" else Mode.PUSH_TO_TALK
    if phrase.kind == "wake":
        catalog = catalog.with_wake(phrase.text)  # a candidate is heard as the one wake phrase
    ctl = VoiceController(catalog, engine, mode, clock=lambda: now[0], gate=MicGate(), board=StatusBoard(),
                          stages=stages, denoise=denoise)
    ctl.streamed = streamed
    ctl.mic_available(True)
    heard: list[VoiceEvent] = []
    woke = [False]

    def on(event: VoiceEvent) -> None:
        if event.kind == "heard":
            heard.append(event)
        elif event.kind == "phase" and event.detail == "listening" and ctl.mode is Mode.WAKE_PHRASE:
            woke[0] = True

    ctl.listen(on)
    slots = sample_slots(phrase.game) if phrase.kind == "game" else {}
    if phrase.kind == "confirm":
        ctl.set_context("voicecheck", ["new_game"])
        spec = catalog.intents["new_game"]
        ctl.ask_confirmation(Intent(spec, spec.templates[0], {}))
    else:
        ctl.set_context("voicecheck", list(phrase.intents), slots)
    quiet = bytes(CHUNK)
    if mode is Mode.WAKE_PHRASE:
        pcm = preroll + pcm
        audio = quiet * 3 + pcm + quiet * 10
        for i in range(0, len(audio), CHUNK):
            now[0] += 0.1
            t0 = time.perf_counter()
            ctl.feed(audio[i : i + CHUNK])
            if woke[0]:
                latency = (i + CHUNK - 3 * CHUNK - len(pcm)) / 2 / RATE + time.perf_counter() - t0
                return "right", phrase.text, WAKE, max(0.0, latency)
        return "nothing", "", "", 0.0
    for i in range(0, len(preroll), CHUNK):
        now[0] += 0.1
        ctl.feed(preroll[i : i + CHUNK])
    ctl.press()
    for i in range(0, len(pcm), CHUNK):
        now[0] += 0.1
        ctl.feed(pcm[i : i + CHUNK])
    t0 = time.perf_counter()
    ctl.release()
    latency = time.perf_counter() - t0
    got = next((e for e in reversed(heard) if e.text), None)
    if got is None or got.intent is None:
        return "nothing", got.text if got is not None else "", "", latency
    ok = got.intent.name == phrase.intent and dict(got.intent.slots) == dict(phrase.slots)
    return ("right" if ok else "wrong"), got.text, got.intent.name, latency


def to_pcm(clip: Clip) -> bytes:
    """A clip as 16 kHz samples."""
    if clip.rate == RATE:
        return clip.samples.tobytes()
    reader = ClipReader(clip, RATE)
    return reader.read(reader.total_frames + 1).tobytes()


def phrase_of(path: Path) -> str:
    """`서연 범인.2.wav` → "서연 범인" (as bench/voice.py reads the folder)."""
    return " ".join(path.stem.split(".")[0].replace("_", " ").split())


class VoiceCheck:
    """The check's folder: takes, and their scores cached in `scores.json` by file time."""

    def __init__(self, folder: Path, catalog: VoiceCatalog, vocabulary: frozenset[str] | None = None) -> None:
        self.folder = Path(folder)
        self.catalog = catalog
        self.vocabulary = vocabulary
        self._lock = threading.Lock()

    def phrases(self, which: str = BASIC) -> list[CheckPhrase]:
        return check_phrases(self.catalog, which, self.vocabulary)

    def all_phrases(self) -> dict[str, CheckPhrase]:
        out: dict[str, CheckPhrase] = {}
        for which in SETS:
            for p in self.phrases(which):
                out.setdefault(p.text, p)
        return out

    def speakers(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted((p.name for p in self.folder.iterdir() if p.is_dir()), key=lambda s: (len(s), s))

    def new_speaker(self) -> str:
        """The next free speaker folder name: "1", "2", …"""
        taken = set(self.speakers())
        n = 1
        while str(n) in taken:
            n += 1
        (self.folder / str(n)).mkdir(parents=True, exist_ok=True)
        return str(n)

    def path(self, speaker: str, phrase: str) -> Path:
        return self.folder / speaker / f"{phrase}.wav"

    def save(self, speaker: str, phrase: str, clip: Clip) -> Path:
        return write_wav(self.path(speaker, phrase), Clip(_samples(to_pcm(clip)), RATE))

    def score(self, engine: SpeechEngine, speaker: str, phrase: str) -> Score:
        """Score one take (and remember the score)."""
        spec = self.all_phrases().get(phrase)
        path = self.path(speaker, phrase)
        if spec is None:
            return Score(speaker, phrase, "", "nothing")
        try:
            pcm = to_pcm(read_wav(path))
        except CorruptAudio:
            return Score(speaker, phrase, spec.intent, "nothing")
        outcome, heard, heard_intent, latency = score_pcm(engine, self.catalog, spec, pcm)
        score = Score(speaker, phrase, spec.intent, outcome, heard, heard_intent, round(latency, 3))
        with self._lock:
            cache = self._cache()
            cache[f"{speaker}/{phrase}"] = {"mtime": path.stat().st_mtime, **asdict(score)}
            self._store(cache)
        return score

    def results(self, engine: SpeechEngine | None) -> list[Score]:
        """Every take in the folder whose name is a check phrase; takes changed since they were scored are
        scored again (needs `engine`; without one they are left out)."""
        phrases = self.all_phrases()
        with self._lock:
            cache = self._cache()
        out: list[Score] = []
        for path in sorted(self.folder.glob("*/*.wav")):
            speaker, phrase = path.parent.name, phrase_of(path)
            if phrase not in phrases:
                continue
            hit = cache.get(f"{speaker}/{phrase}")
            if hit is not None and hit.get("mtime") == path.stat().st_mtime:
                out.append(Score(**{k: v for k, v in hit.items() if k != "mtime"}))
            elif engine is not None:
                out.append(self.score(engine, speaker, phrase))
        return out

    def _cache(self) -> dict[str, Any]:
        try:
            data = json.loads((self.folder / "scores.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _store(self, cache: dict[str, Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / "scores.json.tmp"
        tmp.write_text(json.dumps(cache, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(self.folder / "scores.json")


def _samples(pcm: bytes) -> Any:
    from array import array

    a = array("h")
    a.frombytes(pcm[: len(pcm) // 2 * 2])
    return a


@dataclass
class Tally:
    counts: Counter[str] = field(default_factory=Counter)
    heard_as: Counter[str] = field(default_factory=Counter)  # wrong: the phrase heard instead

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def rate(self, outcome: str = "right") -> float:
        return self.counts[outcome] / self.total if self.total else 0.0


def summarise(scores: Iterable[Score]) -> tuple[dict[str, Tally], dict[str, Tally], Tally]:
    """(per phrase, per speaker, total)."""
    per_phrase: dict[str, Tally] = {}
    per_speaker: dict[str, Tally] = {}
    total = Tally()
    for s in scores:
        for tally in (per_phrase.setdefault(s.phrase, Tally()), per_speaker.setdefault(s.speaker, Tally()), total):
            tally.counts[s.outcome] += 1
            if s.outcome == "wrong":
                tally.heard_as[s.heard] += 1
    return per_phrase, per_speaker, total


def write_csv(scores: list[Score], path: Path) -> int:
    """Every take, then the statistics per phrase, per speaker and in total; returns the number of takes."""
    per_phrase, per_speaker, total = summarise(scores)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8-sig", newline="") as fh:  # BOM: Excel opens Korean text right
        w = csv.writer(fh)
        w.writerow(["row", "speaker", "phrase", "intent", "outcome", "heard", "heard_intent", "latency_s"])
        for s in scores:
            w.writerow(["take", s.speaker, s.phrase, s.intent, s.outcome, s.heard, s.heard_intent, s.seconds])
        w.writerow([])
        w.writerow(["row", "key", "takes", "right", "wrong", "nothing", "right_rate", "heard_as"])
        for kind, table in (("phrase", per_phrase), ("speaker", per_speaker), ("total", {"": total})):
            for key, t in sorted(table.items()):
                heard_as = "; ".join(f"{k or '∅'}×{n}" for k, n in t.heard_as.most_common())
                w.writerow([kind, key, t.total, t.counts["right"], t.counts["wrong"], t.counts["nothing"],
                            f"{t.rate():.3f}", heard_as])
    tmp.replace(path)
    return len(scores)
