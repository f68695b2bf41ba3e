"""Generated sounds (no downloaded assets). Covers issue 7 item 5."""

from __future__ import annotations

import pytest

from audio.pcm import peak, rms
from audio.playback import RATE
from audio.sounds import SOUNDS, sound


@pytest.mark.parametrize(("name", "low", "high"),
                         [("timer_warning", 0.3, 0.6), ("alarm", 1.0, 2.0), ("your_turn", 0.5, 1.2),
                          ("reveal", 0.8, 2.0), ("winner", 1.0, 2.0),
                          ("staff_call", 1.0, 1.5)])
def test_each_sound_is_audible_bounded_and_sized(name: str, low: float, high: float) -> None:
    clip = sound(name)
    assert clip.rate == RATE
    assert low <= clip.duration <= high
    assert 0.7 < peak(clip.samples) <= 0.81  # normalised with headroom to mix over narration
    assert rms(clip.samples) > 0.05
    assert abs(clip.samples[-1]) < 2000  # fades out: no click at the end


def test_sounds_differ_and_are_cached() -> None:
    clips = {n: sound(n) for n in SOUNDS}
    assert len({c.samples.tobytes() for c in clips.values()}) == len(SOUNDS)
    assert sound("alarm") is clips["alarm"]
    with pytest.raises(KeyError):
        sound("fanfare")
