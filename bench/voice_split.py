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
which session 6-7 choices looked at) are all TUNING: none of them can be held out any more.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    narration: tuple[str, ...]  # narration-like text in the no-command café audio


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
        ),
        noise_seed=11,
        babble_voices=tuple(map(_v, ["ko/150/50", "f2/130/60", "m3/170/40", "f4/150/70"])),
        talk=(
            "이번에는 누가 먼저 할 차례인지 잘 모르겠어",
            "커피 한 잔 더 시킬까 아니면 케이크를 먹을까",
            "그 카드는 아까 내가 이미 봤던 것 같은데",
            "잠깐만 기다려 봐 화장실 좀 다녀올게",
            "진짜 재미있다 다음 주에도 또 오자",
        ),
        narration=(
            "안개가 짙게 깔린 런던의 밤 베이커 가의 하숙집에 한 통의 편지가 도착했습니다",
            "모두 눈을 감아 주세요 지금부터 비밀 역할을 나누어 드리겠습니다",
            "이번 라운드의 제한 시간은 팔 분입니다 질문은 시계 방향으로 이어집니다",
        ),
    ),
    HELD_OUT: Part(
        HELD_OUT,
        voices=tuple(map(_v, [
            "m7/160/48", "m8/135/58", "grandma/150/62", "Annie/140/72", "linda/170/55", "klatt4/125/42",
            "steph/155/68", "Gene/145/38",
        ])),
        rooms=(
            _room("none"),
            _room("tempo 0.86", "tempo 0.86"),
            _room("tempo 1.17", "tempo 1.17"),
            _room("pitch -250", "pitch -250"),
            _room("pitch +250", "pitch 250"),
            _room("reverb hall", "reverb 75 30 100"),
            _room("tablet band", "highpass 450 lowpass 3200 gain -3"),
            _room("distance 3 m", "lowpass 3800 reverb 80 60 100 100 20 1"),
            _room("band + reverb", "reverb 55 50 80 highpass 400 lowpass 3600"),
        ),
        noise_seed=29,
        babble_voices=tuple(map(_v, ["m7/160/48", "grandma/150/62", "linda/170/55", "Gene/145/38"])),
        talk=(
            "너는 왜 그렇게 생각하는 거야 증거가 있어",
            "우리 팀이 이기고 있는 것 같아 조금만 더 하자",
            "이 게임 규칙이 생각보다 복잡하네",
            "아까 그 사람 표정 봤어 완전 수상하던데",
            "배고프다 끝나면 떡볶이 먹으러 가자",
        ),
        narration=(
            "탐정들은 각자 마차를 타고 도시 곳곳의 장소를 방문해 단서를 모읍니다",
            "잭은 어둠 속으로 사라졌습니다 목격자를 불러 주세요",
            "용의자와 무기와 방을 모두 맞히면 사건이 해결됩니다",
            "첫 번째 플레이어는 카드를 한 장 뽑은 뒤 왼쪽 사람에게 넘겨 주세요",
        ),
    ),
}


def part(name: str) -> Part:
    try:
        return SPLIT[name]
    except KeyError:
        raise KeyError(f"unknown part {name!r}: {', '.join(PARTS)}") from None
