"""Per-sample audio work: numpy (what the kiosk runs) against the former pure-Python loops (the baseline,
kept here), timed in the same run, with a check that both give the same samples.

    python -m bench.audio_loops             # timings and sample equality
    python -m bench.audio_loops --decode 12 # also decode 12 espeak commands at the 8 perturbed speeds with
                                            # both resamplers and compare the recogniser's answers

Timed: `perturb` (1.5 s utterance, each of the 8 speeds), `chunk_level` (0.1 s chunk), the mixer's sum of
one chunk of two sources and its clip to int16, and ClipReader resampling 1 s of 16 kHz to 22,050 Hz.
Times are CPU time of this process (time.process_time), best of 5 repeats: the machine is shared.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from array import array
from collections.abc import Callable

import numpy as np

from audio.pcm import MAX, Clip, ClipReader
from audio.recognizer import PERTURB_STAGES, RATE, chunk_level, perturb

SPEEDS = tuple(s for stage in PERTURB_STAGES for s in stage)


# --- the baseline: the loops as they were before numpy -----------------------------------------------------
def perturb_py(pcm: bytes, factor: float) -> bytes:
    if factor == 1.0:
        return pcm
    src = memoryview(pcm[: len(pcm) // 2 * 2]).cast("h")
    n = len(src)
    if n < 2:
        return pcm
    out = array("h", bytes(2 * int(n / factor)))
    last = n - 1
    for i in range(len(out)):
        x = i * factor
        j = int(x)
        if j >= last:
            out[i] = src[last]
            continue
        t = x - j
        out[i] = int(src[j] + (src[j + 1] - src[j]) * t)
    return out.tobytes()


def chunk_level_py(pcm: bytes) -> float:
    n = len(pcm) // 2
    samples = memoryview(pcm[: 2 * n]).cast("h")
    return math.sqrt(sum(x * x for x in samples) / n) + 1.0


def mix_py(sources: list[array[int]], gains: list[float], n: int) -> bytes:
    acc = [0.0] * n
    for data, g in zip(sources, gains, strict=True):
        for i, s in enumerate(data):
            acc[i] += s * g
    return array("h", [MAX if x > MAX else -MAX - 1 if x < -MAX - 1 else int(x) for x in acc]).tobytes()


def mix_np(sources: list[array[int]], gains: list[float], n: int) -> bytes:  # as audio.playback.Mixer
    acc = np.zeros(n)
    for data, g in zip(sources, gains, strict=True):
        acc[: len(data)] += np.frombuffer(data, dtype=np.int16) * g
    return bytes(np.clip(acc, -MAX - 1, MAX).astype(np.int16).tobytes())


def read_py(reader: ClipReader, n: int) -> array[int]:
    src = reader.clip.samples
    size = len(src)
    out = array("h")
    pos, step = reader._pos, reader._step
    last = size - 1
    for _ in range(n):
        i = int(pos)
        if i >= size:
            break
        frac = pos - i
        a = src[i]
        b = src[i + 1] if i < last else a
        out.append(int(a + (b - a) * frac))
        pos += step
    reader._pos = pos
    return out


# --- measuring ----------------------------------------------------------------------------------------------
def best(fn: Callable[[], object], repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def noise(seconds: float, seed: int = 1) -> bytes:
    rng = random.Random(seed)
    return array("h", (rng.randrange(-12000, 12000) for _ in range(int(seconds * RATE)))).tobytes()


def stream(clip: Clip, read: Callable[[ClipReader, int], array[int]]) -> array[int]:
    r = ClipReader(clip, 22050)
    out = array("h")
    while chunk := read(r, 256):
        out.extend(chunk)
    return out


def row(name: str, base: float, new: float, same: bool) -> None:
    print(f"  {name:<38} {base * 1e3:>9.3f} ms {new * 1e3:>9.3f} ms {base / max(new, 1e-9):>8.1f}×   "
          f"{'identical' if same else 'DIFFERENT'}")


def timings() -> None:
    utt = noise(1.5)
    chunk = utt[:3200]
    srcs = [array("h", utt[:512]), array("h", utt[512:1024])]
    clip = Clip(array("h", utt), RATE)
    print(f"  {'work':<38} {'Python loop':>12} {'numpy':>12} {'speed-up':>9}   samples")
    row("perturb 1.5 s, 8 speeds", best(lambda: [perturb_py(utt, f) for f in SPEEDS]),
        best(lambda: [perturb(utt, f) for f in SPEEDS]),
        all(perturb_py(utt, f) == perturb(utt, f) for f in SPEEDS))
    row("chunk_level 0.1 s", best(lambda: chunk_level_py(chunk)), best(lambda: chunk_level(chunk)),
        chunk_level_py(chunk) == chunk_level(chunk))
    row("mixer: 2 sources × 256 frames", best(lambda: mix_py(srcs, [0.8, 0.5], 256)),
        best(lambda: mix_np(srcs, [0.8, 0.5], 256)), mix_py(srcs, [0.8, 0.5], 256) == mix_np(srcs, [0.8, 0.5], 256))
    row("ClipReader 1.5 s 16→22.05 kHz (256/read)", best(lambda: stream(clip, read_py)),
        best(lambda: stream(clip, ClipReader.read)), stream(clip, read_py) == stream(clip, ClipReader.read))


def decodes(n: int) -> None:
    """The recogniser's n-best on espeak commands, perturbed by each resampler (needs espeak-ng and the model)."""
    from audio import speechgen as sg
    from audio.recognizer import ModelLoader, decode_all

    loader = ModelLoader()
    loader.start()
    engine = loader.wait(120)
    if engine is None:
        print(f"  decode check skipped: {loader.reason}")
        return
    phrases = ["다음", "이전", "다시", "멈춰", "네", "아니요", "처음으로", "도움말"]
    grammar = [p for p in phrases if all(w in (engine.vocabulary or {w}) for w in p.split())]
    same = again = total = 0
    for i in range(n):
        pcm = sg.speak(grammar[i % len(grammar)], sg.Voice("", 130 + 10 * (i % 5), 50))
        for f in SPEEDS:
            a = decode_all(engine, grammar, perturb_py(pcm, f)).candidates
            b = decode_all(engine, grammar, perturb(pcm, f)).candidates
            c = decode_all(engine, grammar, perturb_py(pcm, f)).candidates
            same += a == b
            again += a == c
            total += 1
    # vosk's n-best is not fully deterministic: the same bytes decoded twice can differ in the tail
    print(f"  n-best equal, Python vs numpy resampling: {same}/{total} decodes ({n} utterances × 8 speeds); "
          f"noise: Python vs Python again {again}/{total}; ratio {same / max(again, 1):.2f}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decode", type=int, default=0, help="utterances to decode with both resamplers")
    args = ap.parse_args(argv)
    print("Per-sample audio work: numpy against the former Python loops (CPU time, best of 5)")
    timings()
    if args.decode:
        decodes(args.decode)


if __name__ == "__main__":
    main()
