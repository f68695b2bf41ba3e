"""Narration latency benchmark (issue 7).

    /tmp/venvtest/bin/python -m bench.narration [--runs 12] [--synth process|pyttsx3|espeak-ng]

Tap → first audible sample handed to the audio device, for the three sources (recorded file, pre-rendered
cache, live synthesis) of a ~300-character Korean paragraph; beside it the espeak-ng command line
synthesising the same text in the same run, as a ratio. Then stop and pause latency (request → the last
audible sample has left the device buffer) and the mixer's CPU use while playing. Last, live synthesis
through the pyttsx3 worker process (`ProcessSynth`, what the kiosk uses) vs pyttsx3 in this process
(`Pyttsx3Synth`), the worker's start time and the time to speak again after a worker crash.

There is no sound card on the build machine: the device is `FakeOutput`, which paces writes in real time
like a card with a 30 ms buffer and records when each chunk arrives. Goals: recorded/cached ≤ 50 ms,
live ≤ 150 ms, stop ≤ 100 ms. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from audio.cache import render_all
from audio.narrator import Narrator
from audio.pcm import write_wav
from audio.playback import FakeOutput, Mixer
from audio.segments import Segment, overlay_path
from audio.status import MicGate, StatusBoard
from audio.synth_process import ProcessSynth
from audio.synth_types import SynthError
from audio.tts import EspeakSynth, Pyttsx3Synth, Synthesizer, VoiceSettings

PARAGRAPH = (
    "안개가 유난히 짙게 깔린 밤이었습니다. 템스 강변의 낡은 창고 앞에서 한 남자가 쓰러진 채 발견되었고, "
    "그의 손에는 찢어진 기차표 한 장이 쥐어져 있었습니다. 경감은 이 사건이 단순한 강도가 아니라고 확신했습니다. "
    "창고 주인은 그날 밤 아무 소리도 듣지 못했다고 말했지만, 이웃 여관의 종업원은 자정 무렵 마차 한 대가 "
    "급히 떠나는 것을 보았다고 증언했습니다. 창고 뒤편 골목에는 진흙 묻은 발자국이 부두 쪽으로 길게 "
    "이어져 있었습니다. 이제 여러분이 단서를 모아 진실을 밝혀낼 차례입니다. 자, 어느 장소부터 먼저 조사하시겠습니까?"
)
SEGMENT = Segment("bench.case.intro", "ko", PARAGRAPH)


def median_ms(xs: list[float]) -> float:
    return statistics.median(xs) * 1000


def espeak_cli(text: str, runs: int) -> tuple[list[float], list[float]]:
    """(time to the first audio bytes on stdout, time to the whole WAV) for `espeak-ng -v ko --stdout`."""
    first, whole = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.Popen(["espeak-ng", "-v", "ko", "-s", "200", "--stdout", text], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        assert proc.stdout is not None
        proc.stdout.read(4096)  # header + first audio
        first.append(time.perf_counter() - t0)
        proc.stdout.read()
        proc.wait()
        whole.append(time.perf_counter() - t0)
    return first, whole


def measure_taps(narrator: Narrator, dev: FakeOutput, runs: int, expect: str) -> tuple[list[float], list[float]]:
    """Tap → first audible sample; then after ~0.25 s of playback, stop → silence."""
    taps, stops = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        utt = narrator.speak(SEGMENT)
        while utt.first_sample is None and not utt.done.is_set():
            time.sleep(0.0005)
        first = dev.first_audible_after(t0)
        assert utt.source == expect, (utt.source, expect)
        assert first is not None
        taps.append(first - t0)
        time.sleep(0.25)
        t1 = time.perf_counter()
        narrator.stop()
        utt.done.wait(5)
        time.sleep(0.1)
        silent = dev.silent_from()
        assert silent is not None
        stops.append(max(0.0, silent - t1))
    return taps, stops


def measure_pause(narrator: Narrator, dev: FakeOutput, runs: int) -> tuple[list[float], list[float]]:
    """(pause → silence, resume → first audible sample again)."""
    out, back = [], []
    for _ in range(runs):
        utt = narrator.speak(SEGMENT)
        while utt.first_sample is None:
            time.sleep(0.0005)
        time.sleep(0.2)
        t1 = time.perf_counter()
        narrator.pause()
        time.sleep(0.15)
        silent = dev.silent_from()
        assert silent is not None
        out.append(max(0.0, silent - t1))
        t2 = time.perf_counter()
        narrator.resume()
        while (again := dev.first_audible_after(t2)) is None:
            time.sleep(0.0005)
        back.append(again - t2)
        narrator.stop()
        utt.done.wait(5)
    return out, back


def cpu_while_playing(narrator: Narrator, seconds: float = 3.0) -> float:
    utt = narrator.speak(SEGMENT)
    while utt.first_sample is None:
        time.sleep(0.001)
    c0, w0 = time.process_time(), time.perf_counter()
    time.sleep(seconds)
    c1, w1 = time.process_time(), time.perf_counter()
    narrator.stop()
    utt.done.wait(5)
    return (c1 - c0) / (w1 - w0)


def isolation(mixer: Mixer, dev: FakeOutput, board: StatusBoard, runs: int) -> None:
    """Live tap → first sample and one-sentence synthesis, worker process vs in-process pyttsx3."""
    settings = VoiceSettings()
    first = "안개가 유난히 짙게 깔린 밤이었습니다."
    t = time.perf_counter()
    cold = ProcessSynth()
    cold.synthesize("준비.", "ko", settings.wpm)
    start_ms = (time.perf_counter() - t) * 1000
    cold.close()
    rows = []
    for label, synth in (("worker process", ProcessSynth()), ("in-process", Pyttsx3Synth(shared=False))):
        synth.synthesize("준비.", "ko", settings.wpm)  # warm-up: engine start is not a tap
        calls = []
        for _ in range(runs):
            t = time.perf_counter()
            synth.synthesize(first, "ko", settings.wpm)
            calls.append(time.perf_counter() - t)
        n = Narrator(mixer=mixer, synth=synth, board=board, settings=settings)
        measure_taps(n, dev, 1, "live")  # warm-up: the narrator's first tap (voice lookup, first chunks)
        taps, _ = measure_taps(n, dev, runs, "live")
        n.close()
        synth.close()
        rows.append((label, median_ms(taps), max(taps) * 1000, median_ms(calls)))
    logging.getLogger("audio.synth_process").setLevel(logging.ERROR)  # the crash below is on purpose
    crashy = ProcessSynth(env={"TABLEHOST_SYNTH_FAULTS": "💥=segv"})
    crashy.synthesize("준비.", "ko", settings.wpm)
    try:
        crashy.synthesize("💥", "ko", settings.wpm)
    except SynthError:
        pass
    t = time.perf_counter()
    crashy.synthesize(first, "ko", settings.wpm)
    restart_ms = (time.perf_counter() - t) * 1000
    crashy.close()
    print(f"live synthesis, pyttsx3 isolated vs in-process ({runs} runs; first sentence {len(first)} characters):")
    print(f"{'':<16}{'tap→first sample':>18}{'max':>10}{'synthesize(1st sentence)':>27}")
    for label, med, mx, call in rows:
        print(f"{label:<16}{med:>15.1f} ms{mx:>7.1f} ms{call:>24.1f} ms")
    print(f"worker overhead: {rows[0][1] - rows[1][1]:+.1f} ms per tap (×{rows[0][1] / rows[1][1]:.2f}); "
          f"worker cold start (spawn + pyttsx3.init + first sentence) {start_ms:.0f} ms, in the background; "
          f"speaking again after a worker segfault {restart_ms:.0f} ms")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=12)
    ap.add_argument("--synth", choices=["process", "pyttsx3", "espeak-ng"], default="process")
    args = ap.parse_args(argv)
    if shutil.which("espeak-ng") is None:
        raise SystemExit("espeak-ng is needed for the benchmark")
    make: Callable[[], Synthesizer] = {"process": ProcessSynth, "pyttsx3": Pyttsx3Synth,
                                       "espeak-ng": EspeakSynth}[args.synth]
    synth = make()
    runs = args.runs
    print(f"paragraph: {len(PARAGRAPH)} characters; synthesiser: {synth.name}; runs per figure: {runs}")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        board = StatusBoard()
        dev = FakeOutput(latency=0.03)
        mixer = Mixer(dev, gate=MicGate(), board=board)
        settings = VoiceSettings()
        synth.synthesize("준비.", "ko", settings.wpm)  # warm-up: engine start is not a tap
        # The "recording": the whole paragraph rendered once and placed in the overlay folder.
        write_wav(overlay_path(root / "overlay", SEGMENT), EspeakSynth().synthesize(PARAGRAPH, "ko", 200))
        t = time.perf_counter()
        report = render_all([SEGMENT], root / "cache", synth=synth, settings=settings)
        render_s = time.perf_counter() - t
        results: dict[str, tuple[list[float], list[float]]] = {}
        for kind, overlay, cache in (("recorded", root / "overlay", root / "cache"),
                                     ("cached", None, root / "cache"), ("live", None, None)):
            n = Narrator(mixer=mixer, synth=synth, overlay_dir=overlay, cache_dir=cache, board=board,
                         settings=settings)
            results[kind] = measure_taps(n, dev, runs, kind)
            if kind == "cached":
                pauses, resumes = measure_pause(n, dev, runs)
                cpu = cpu_while_playing(n)
            n.close()
        cli_first, cli_whole = espeak_cli(PARAGRAPH, runs)
    synth.close()
    if args.synth == "espeak-ng":
        mixer.close()

    print(f"cache render: {report.sentences} sentences in {render_s * 1000:.0f} ms")
    print(f"espeak-ng CLI, same text: first audio bytes {median_ms(cli_first):.1f} ms, "
          f"whole WAV {median_ms(cli_whole):.1f} ms (medians)")
    print(f"{'source':<10}{'tap→first sample':>18}{'goal':>8}{'÷ CLI first':>13}{'÷ CLI whole':>13}{'stop→silence':>15}")
    for kind, (taps, stops) in results.items():
        goal = 150 if kind == "live" else 50
        m = median_ms(taps)
        print(f"{kind:<10}{m:>15.1f} ms{goal:>5} ms{m / median_ms(cli_first):>13.2f}"
              f"{m / median_ms(cli_whole):>13.2f}{median_ms(stops):>12.1f} ms")
    print(f"pause→silence: median {median_ms(pauses):.1f} ms, max {max(pauses) * 1000:.1f} ms (goal ≤ 100 ms)")
    print(f"resume→first sample: median {median_ms(resumes):.1f} ms, max {max(resumes) * 1000:.1f} ms")
    allstops = [s for _, st in results.values() for s in st]
    print(f"stop→silence over all runs: median {median_ms(allstops):.1f} ms, max {max(allstops) * 1000:.1f} ms "
          f"(fake device buffer 30 ms)")
    print(f"process CPU while narrating (pure-Python mixer, 22.05 kHz): {cpu * 100:.1f} % of one core")
    if args.synth != "espeak-ng":
        print()
        isolation(mixer, dev, board, runs)
        mixer.close()


if __name__ == "__main__":
    main()
