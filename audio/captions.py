"""Captions: sentence splitting (Korean first), cue timing from audio durations, and the state the kiosk
shows (current sentence highlighted, progress bar).

Timing: when each sentence has its own audio (live synthesis and the cache render sentence by sentence)
the cues are exact; for one recording of a whole segment the cues are spread over its duration in
proportion to how long each sentence takes to say (`speech_units`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# A sentence ends at . ! ? … (ASCII or full-width) plus any closing quotes/brackets, before space or end.
_END = re.compile(r"""([.!?…。！？]+["'”’」』)\]]*)(?=\s|$)""")
_ABBREV = {"mr.", "mrs.", "ms.", "dr.", "st.", "no.", "vs.", "etc.", "e.g.", "i.e."}
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_LATIN = re.compile(r"[A-Za-z]")
_DIGIT = re.compile(r"[0-9]")
_PAUSE = re.compile(r"[,，、;:·]")

SYLLABLES_PER_SECOND = 6.0  # measured on espeak-ng `ko` at rate 200 (FACTS: 311 chars ≈ 39 s incl. pauses)
SENTENCE_PAUSE_UNITS = 2.0  # a sentence break costs about two syllables of time


def split_sentences(text: str, lang: str = "ko") -> list[str]:
    """Split into sentences: at line breaks and at sentence-final punctuation followed by a space.
    Decimals ("3.5"), ellipses inside a sentence without a following space and English abbreviations
    ("Mr. Jack") do not split. Returns stripped, non-empty sentences whose concatenation (ignoring
    whitespace) is the input text."""
    out: list[str] = []
    for line in re.split(r"\n\s*", text):
        line = " ".join(line.split())
        if not line:
            continue
        start = 0
        for m in _END.finditer(line):
            end = m.end()
            piece = line[start:end]
            last_word = piece.rsplit(" ", 1)[-1].lower()
            if last_word in _ABBREV:
                continue
            if piece.strip():
                out.append(piece.strip())
            start = end
        rest = line[start:].strip()
        if rest:
            out.append(rest)
    return out


def speech_units(sentence: str) -> float:
    """Rough time to say a sentence, in Korean-syllable units (also fine for English)."""
    units = len(_HANGUL.findall(sentence)) + 0.4 * len(_LATIN.findall(sentence))
    units += 0.9 * len(_DIGIT.findall(sentence)) + 1.0 * len(_PAUSE.findall(sentence))
    return max(units, 1.0) + SENTENCE_PAUSE_UNITS


def estimate_duration(text: str, lang: str = "ko", rate: float = 1.0) -> float:
    """Seconds to say `text` at a relative `rate` (1.0 = normal): used for captions when there is no audio."""
    units = sum(speech_units(s) for s in split_sentences(text, lang))
    return units / (SYLLABLES_PER_SECOND * max(rate, 0.1))


@dataclass(frozen=True)
class Cue:
    index: int
    text: str
    start: float
    end: float


def timed_cues(sentences: list[str], durations: list[float]) -> list[Cue]:
    """Exact cues when each sentence has its own audio."""
    cues: list[Cue] = []
    t = 0.0
    for i, (s, d) in enumerate(zip(sentences, durations, strict=True)):
        cues.append(Cue(i, s, t, t + d))
        t += d
    return cues


def estimated_cues(sentences: list[str], total: float) -> list[Cue]:
    """Spread `total` seconds over the sentences in proportion to their speech units."""
    weights = [speech_units(s) for s in sentences]
    whole = sum(weights) or 1.0
    return timed_cues(sentences, [total * w / whole for w in weights])


def cue_at(cues: list[Cue], t: float) -> int:
    """Index of the sentence being spoken at time t (clamped to the first/last sentence)."""
    if not cues:
        return -1
    for cue in cues:
        if t < cue.end:
            return cue.index
    return cues[-1].index


@dataclass(frozen=True)
class CaptionState:
    """What the caption widget shows. Sent to listeners from the narrator thread: the kiosk must hop to
    the UI thread (Clock.schedule_once) before touching widgets."""

    utterance: int
    segment_id: str
    lang: str
    sentences: tuple[str, ...]
    current: int  # index into sentences of the highlighted one
    position: float  # seconds heard
    duration: float  # seconds in total (as known so far)
    state: str  # "playing", "paused", "finished", "stopped", "skipped"
    audible: bool  # False: captions only (no speaker, no voice)

    @property
    def progress(self) -> float:
        if self.state == "finished":
            return 1.0
        return min(1.0, self.position / self.duration) if self.duration > 0 else 0.0
