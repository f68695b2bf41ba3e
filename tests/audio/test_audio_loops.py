"""The numpy audio loops give the same samples as the former pure-Python loops (bench/audio_loops.py)."""

from __future__ import annotations

import random
from array import array

import pytest

from audio.pcm import Clip, ClipReader, rms
from audio.recognizer import chunk_level, perturb
from bench import audio_loops as base


def noise(n: int, seed: int) -> bytes:
    rng = random.Random(seed)
    return array("h", (rng.randrange(-32768, 32768) for _ in range(n))).tobytes()


@pytest.mark.parametrize("n", [0, 1, 2, 3, 801, 4800])
def test_perturb_and_levels_match_the_python_loops(n: int) -> None:
    pcm = noise(n, n) + b"\x07"  # an odd trailing byte is ignored
    for f in (0.75, 0.85, 1.0, 1.1, 1.25):
        assert perturb(pcm, f) == base.perturb_py(pcm, f)
    if n:
        assert chunk_level(pcm) == base.chunk_level_py(pcm)
        x = array("h", pcm[: 2 * n])
        assert rms(x) == (base.chunk_level_py(pcm) - 1.0) / 32767


def test_mixer_sum_clips_like_the_python_loop() -> None:
    loud = [array("h", noise(256, 1)), array("h", noise(200, 2))]
    assert base.mix_np(loud, [1.3, 0.9], 256) == base.mix_py(loud, [1.3, 0.9], 256)


@pytest.mark.parametrize("rate", [8000, 16000, 44100])
def test_clip_reader_streams_the_same_samples(rate: int) -> None:
    clip = Clip(array("h", noise(3001, rate)), rate)
    rng = random.Random(rate)
    new, old = ClipReader(clip, 22050), ClipReader(clip, 22050)
    while True:
        k = rng.randrange(1, 700)
        a, b = new.read(k), base.read_py(old, k)
        assert a == b and new._pos == old._pos
        if not a:
            break


def test_bench_prints_ratios(capsys: pytest.CaptureFixture[str]) -> None:
    base.main([])
    out = capsys.readouterr().out
    assert "×" in out and "DIFFERENT" not in out and out.count("identical") == 4
