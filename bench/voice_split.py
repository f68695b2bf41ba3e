"""The one place that says what voice audio is for tuning and what is held out (issue #38).

Every synthetic voice (espeak-ng Korean variant, rate, pitch), every room transformation (tempo, pitch shift,
reverberation, a tablet microphone's band, distance), every noise recording (the seed of its pink noise and
clatter, the sentences and voices of its babble) and every sentence of the café audio that must not wake the
kiosk belongs to exactly one part. Phrasings, decoys, vote settings and the wake phrase are chosen by looking
at the TUNING part only (`bench/voice.py --part tuning`); every figure `bench/voice.py` prints by default is
for the HELD_OUT part. The corpus of each part is rendered into its own folder (`bench/voice_corpus.py`) and
read only through a reader bound to that folder; tests/audio/test_voice_split.py proves that scoring one part
opens no file of the other and that the parts share nothing below.

Voices the project's benches used before this split (bench/voice.py's old VOICES, TUNING and HELD_OUT lists,
which session 6-7 choices looked at) are all TUNING: none of them can be held out any more. So are the first
held-out part's voices, rooms, noise seed and sentences (sessions 14-16 measured the vote and the phrasings
on them): the held-out part below is new in session 17, and nothing was chosen on it.

Narration in the café audio is the product's own: its guest-facing texts (content/i18n/ko, split by file:
each file's texts belong to one part) said by the kiosk's narrator voice (espeak-ng `ko` at pyttsx3's 200 wpm).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from audio.speechgen import Voice

TUNING = "tuning"
HELD_OUT = "heldout"
PARTS = (TUNING, HELD_OUT)


@dataclass(frozen=True)
class Room:
    """A transformation a real room makes, as sox effects applied to the clean take (`()`: none)."""

    name: str
    effects: tuple[str, ...] = ()


@dataclass(frozen=True)
class Part:
    name: str
    voices: tuple[Voice, ...]  # who says the commands (a take = phrase x voice, with one room each)
    rooms: tuple[Room, ...]
    noise_seed: int  # pink noise and clatter
    babble_voices: tuple[Voice, ...]  # the other tables' talk
    talk: tuple[str, ...]  # what the other tables say (babble)
    narration_files: tuple[str, ...]  # content/i18n/ko files whose texts the narrator says in the café audio

    @property
    def narration(self) -> tuple[str, ...]:
        return narration_texts(self.narration_files)


NARRATOR = Voice("", 200, 50)  # the kiosk's narrator: espeak-ng `ko` at pyttsx3's default 200 wpm
I18N_KO = Path(__file__).resolve().parent.parent / "content" / "i18n" / "ko"


def _strings(node: object) -> list[str]:
    if isinstance(node, dict):
        return [s for v in node.values() for s in _strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return [node] if isinstance(node, str) else []


@cache
def narration_texts(files: tuple[str, ...]) -> tuple[str, ...]:
    """The guest-facing texts of these i18n files as the narrator says them: placeholders filled with a
    player's name (particles dropped), texts with fewer than 8 Hangul syllables left out."""
    out: dict[str, None] = {}
    for name in files:
        for text in _strings(yaml.safe_load((I18N_KO / f"{name}.yaml").read_text(encoding="utf-8"))):
            said = " ".join(re.sub(r"\{[^}]*\}", "지수", text).split())
            if len(re.sub(r"[^가-힣]", "", said)) >= 8:
                out[said] = None
    return tuple(out)


SPENT = ("m7", "m8", "grandma", "Annie", "linda", "klatt4", "steph", "Gene")  # session 14-16's held-out voices


def _v(label: str) -> Voice:
    variant, speed, pitch = label.split("/")
    return Voice("" if variant == "ko" else variant, int(speed), int(pitch))


def _room(name: str, *effects: str) -> Room:
    return Room(name, tuple(" ".join(effects).split()))


SPLIT: dict[str, Part] = {
    TUNING: Part(
        TUNING,
        voices=tuple(map(_v, [
            "ko/150/50", "f2/130/60", "m3/170/40", "f4/150/70", "ko/190/50", "m1/120/45",  # old bench VOICES
            "m2/140/55", "f1/160/45", "m4/175/60", "f3/125/40",  # old TUNING
            "m5/145/65", "f5/165/50", "m6/130/45",  # old HELD_OUT (choices were made on them: tuning now)
            "klatt/140/55", "Andy/155/45", "belinda/145/65",
            "m7/160/48", "m8/135/58", "grandma/150/62", "Annie/140/72", "linda/170/55", "klatt4/125/42",
            "steph/155/68", "Gene/145/38",  # session 14-16's held-out part (spent)
        ])),
        rooms=(
            _room("none"),
            _room("tempo 0.92", "tempo 0.92"),
            _room("tempo 1.1", "tempo 1.1"),
            _room("pitch -150", "pitch -150"),
            _room("pitch +150", "pitch 150"),
            _room("reverb small", "reverb 40 50 60"),
            _room("tablet band", "highpass 300 lowpass 3600"),
            _room("distance 1.5 m", "lowpass 6000 reverb 50 50 70 100 10 -2"),
            _room("tempo 0.86", "tempo 0.86"),  # session 14-16's held-out rooms (spent)
            _room("tempo 1.17", "tempo 1.17"),
            _room("pitch -250", "pitch -250"),
            _room("pitch +250", "pitch 250"),
            _room("reverb hall", "reverb 75 30 100"),
            _room("tablet band 450", "highpass 450 lowpass 3200 gain -3"),
            _room("distance 3 m", "lowpass 3800 reverb 80 60 100 100 20 1"),
            _room("band + reverb", "reverb 55 50 80 highpass 400 lowpass 3600"),
        ),
        noise_seed=11,
        babble_voices=tuple(map(_v, ["ko/150/50", "f2/130/60", "m3/170/40", "f4/150/70"])),
        talk=(
            "이번에는 누가 먼저 할 차례인지 잘 모르겠어",
            "커피 한 잔 더 시킬까 아니면 케이크를 먹을까",
            "그 카드는 아까 내가 이미 봤던 것 같은데",
            "잠깐만 기다려 봐 화장실 좀 다녀올게",
            "진짜 재미있다 다음 주에도 또 오자",
            "너는 왜 그렇게 생각하는 거야 증거가 있어",  # session 14-16's held-out talk (spent)
            "우리 팀이 이기고 있는 것 같아 조금만 더 하자",
            "이 게임 규칙이 생각보다 복잡하네",
            "아까 그 사람 표정 봤어 완전 수상하던데",
            "배고프다 끝나면 떡볶이 먹으러 가자",
        ),
        narration_files=("spyfall", "clue", "table", "ui"),
    ),
    HELD_OUT: Part(  # session 17: new; nothing was chosen on it
        HELD_OUT,
        voices=tuple(map(_v, [
            "adam/145/47", "Alicia/150/64", "aunty/138/58", "benjamin/162/43", "david/133/52", "shelby/158/69",
            "victor/170/40", "Andrea/142/61",
        ])),
        rooms=(
            _room("none"),
            _room("tempo 0.89", "tempo 0.89"),
            _room("tempo 1.13", "tempo 1.13"),
            _room("pitch -200", "pitch -200"),
            _room("pitch +200", "pitch 200"),
            _room("reverb room", "reverb 65 40 90 100 5"),
            _room("tablet band", "highpass 350 lowpass 3400 gain -2"),
            _room("distance 2 m", "lowpass 4500 reverb 60 55 85 100 15 0 gain -4"),
            _room("band + distance", "lowpass 4200 reverb 45 60 75 highpass 380 lowpass 3300 gain -5"),
        ),
        noise_seed=47,
        babble_voices=tuple(map(_v, ["iven/150/52", "zac/160/46", "norbert/140/57", "Jacky/155/63"])),
        talk=(
            "이번 판은 내가 꼭 이길 거야 두고 봐",
            "물 좀 갖다 줄래 목이 너무 마르다",
            "방금 그 사람 말 믿어도 될까 좀 이상한데",
            "다음 판에는 자리 바꿔서 하자",
            "주문한 와플 아직 안 나왔나 봐",
        ),
        narration_files=("mr_jack_ny", "watson_holmes"),
    ),
}


def part(name: str) -> Part:
    try:
        return SPLIT[name]
    except KeyError:
        raise KeyError(f"unknown part {name!r}: {', '.join(PARTS)}") from None
