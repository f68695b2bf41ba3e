"""The wake phrase's agreement rule (issue #38, session 18): hands-free, the kiosk wakes when the normal decode
and 2 of the 4 first-stage perturbed decodes hear the wake phrase (audio/vote_runner.py AGREE_NEED, chosen on
the tuning part with bench/voice_wake.py; it was 3 of 4)."""

from __future__ import annotations

from audio.intents import WAKE, build_phrasebook, load_catalog
from audio.vote import agree_strictly
from audio.vote_runner import AGREE_NEED

CATALOG = load_catalog()
BOOK = build_phrasebook([CATALOG.intents[WAKE]], {}, None, CATALOG.decoys)
SPEEDS = (0.85, 0.9, 1.1, 1.15)


def heard(wake_at: set[float], normal: str = "게임 도우미") -> bool:
    def run(speeds: tuple[float, ...]) -> list[tuple[str, ...]]:
        return [("게임 도우미",) if s in wake_at else ("커피",) for s in speeds]

    return agree_strictly(BOOK, (normal,), SPEEDS, run, AGREE_NEED["wake"])[1] is not None


def test_the_normal_decode_and_two_of_four_perturbed_ones_wake_the_kiosk() -> None:
    assert heard({0.9, 1.15})  # fails on 3 of 4
    assert heard(set(SPEEDS))


def test_one_perturbed_decode_or_a_normal_decode_that_heard_other_words_does_not() -> None:
    assert not heard({1.1})
    assert not heard(set())
    assert not heard(set(SPEEDS), normal="커피")  # the normal decode must hear it
    assert not heard(set(SPEEDS), normal="게임 도우미 커피")
