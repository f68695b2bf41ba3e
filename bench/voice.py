"""Voice command benchmark on audio we make ourselves (espeak-ng Korean voices, room transformations, café
noise), measured on the HELD-OUT part of the split in bench/voice_split.py, next to bare vosk on the same takes.

    python bench/voice.py                          # held-out: commands clean + 10 dB, wake phrase, café audio
    python bench/voice.py --voices 4 --cafe-seconds 60     # a smaller sample (CPU is scarce)
    python bench/voice.py --part tuning --catalog /tmp/try.yaml --sets basic --only previous,confirm.no
                                                   # try phrasings / decoys: on the TUNING part only
    python bench/voice.py --wake "게임 마스터,헤이 테이블"   # wake phrase candidates (default: the catalog's)
    python bench/voice.py --recordings DIR [--noise pink@10]   # real people (the staff voice check folder)
    python bench/voice.py --make-takes DIR [--sets basic,spyfall]   # espeak takes of held-out voices

Why commands fail and which decision rule to keep: bench/voice_why.py records every decode of each take (the
gate's SNR, the normal n-best, all eight perturbed decodes) and bench/voice_rules.py compares rules on them
offline with audio/vote.py's own code (`--report`: before / now / bare vosk side by side). The wake phrase's
agreement rule: bench/voice_wake.py (every rule from one pass, takes and café audio).

Every figure is printed for one part, named in every heading: the held-out part unless `--part tuning`.
Choices (phrasings, decoys, the vote, the wake phrase) are made on `--part tuning`; `--catalog` (other
templates than content/voice/ko.yaml) is refused on the held-out part. The corpus is rendered once into
`--corpus` (bench/.voice_corpus/<part>/, kept between runs). Reports, per condition, per noise kind, per
intent, per phrase and per room, the kiosk's path and bare vosk side by side (right / wrong accept / nothing;
what each is: bench/voice_score.py), each wake candidate's wake rate and its false wakes per hour of the
part's café audio (narration, babble, clatter, a busy mix), final actions dispatched from that audio, and the
goals of issue #38 (push-to-talk latency with the kiosk's UI running: bench/voice_ui.py, held-out voices). Espeak speech is robotic: a floor, not a field test. Figures are printed; nothing is asserted.

`--recordings DIR` measures real speakers: every `DIR/<speaker>/<phrase>[.N].wav` (16 kHz mono 16-bit, or
anything sox converts; the staff voice check writes `<data>/voicecheck` in this layout) is one utterance of
the phrase named by the file, e.g. `지수/민호 범인.2.wav`, scored as the kiosk decides it (audio/voicecheck.py:
the screen's grammar, push-to-talk; hands-free for the wake phrase; 네/아니요 in the confirmation grammar;
sample players 민호, 지수, 서연, 지훈). Per phrase, speaker, kind and condition (`--noise pink@10 …` adds
noisy copies with the held-out part's noise), and latency.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from audio import speechgen as sg  # noqa: E402
from audio.asr import ModelLoader  # noqa: E402
from audio.intents import load_catalog  # noqa: E402
from audio.status import StatusBoard  # noqa: E402
from audio.voicecheck import SCREENS  # noqa: E402, F401  (tests read the screens through this module)
from bench.voice_split import HELD_OUT, PARTS, SPLIT, TUNING  # noqa: E402

CORPUS = Path(__file__).resolve().parent / ".voice_corpus"
SETS = "basic,spyfall,mr_jack_ny,clue"
NOISES = ["clean", "pink@10", "babble@10", "clatter@10"]
FOCUS = {"previous": "뒤로", "confirm.no": "취소", "spyfall.pause_clock": "시계 정지",
         "mr_jack_ny.end_turn": "턴 종료", "clue.end_turn": "턴 종료", "clue.use_passage": "비밀 통로 이동"}
GOALS = {"clean": 0.92, "10 dB": 0.75, "each noise kind at 10 dB": 0.60, "wrong accepts": 0.02, "wake": 0.90,
         "false wakes per hour": 1.0, "final actions from café audio": 0}


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def progress(done: int, total: int) -> None:
    if done % 100 == 0 or done == total:
        print(f"  {done}/{total} utterances", file=sys.stderr, flush=True)


def conditions(specs: list[str]) -> list[tuple[str, float | None]]:
    return [("clean", None) if c == "clean" else (c.split("@")[0], float(c.split("@")[1])) for c in specs]


def pct(c: Counter, key: str) -> str:
    n = sum(c.values())
    return f"{c[key] / n:6.1%}" if n else "     -"


def line(label: str, kiosk: Counter, bare: Counter, width: int = 28) -> str:
    n = sum(kiosk.values())
    return (f"{label:{width}s} kiosk {pct(kiosk, 'right')} right {pct(kiosk, 'wrong')} wrong {pct(kiosk, 'nothing')} "
            f"nothing | bare vosk {pct(bare, 'right')} right {pct(bare, 'wrong')} wrong  (n={n})")


def tally(rows, key) -> dict[str, tuple[Counter, Counter]]:
    out: dict[str, tuple[Counter, Counter]] = defaultdict(lambda: (Counter(), Counter()))
    for r in rows:
        k = key(r)
        if k is None:
            continue
        out[k][0][r.kiosk] += 1
        out[k][1][r.bare] += 1
    return out


def report_commands(part: str, rows) -> dict[str, float]:
    """Prints the command tables; returns the figures the goals need."""
    print(f"\n## Commands, {part} part: kiosk path vs bare vosk on the same takes")
    for cond, (k, b) in tally(rows, lambda r: r.cond).items():
        print(line(cond, k, b))
    ten = tally(rows, lambda r: "10 dB" if r.cond.endswith("@10") else None)
    for label, (k, b) in ten.items():
        print(line(f"all noise at {label}", k, b))
    allk, allb = tally(rows, lambda r: "all").get("all", (Counter(), Counter()))
    print(line("all conditions", allk, allb))
    print(f"\n### Per room ({part})")
    for room, (k, b) in sorted(tally(rows, lambda r: r.room).items()):
        print(line(room, k, b))
    print(f"\n### Per voice ({part})")
    for voice, (k, b) in sorted(tally(rows, lambda r: r.voice).items()):
        print(line(voice, k, b))
    print(f"\n### Per intent ({part}, all conditions)")
    for intent, (k, b) in sorted(tally(rows, lambda r: r.intent).items(), key=lambda kv: kv[1][0]["right"] / sum(kv[1][0].values())):
        print(line(intent + (f" ({FOCUS[intent]})" if intent in FOCUS else ""), k, b, 40))
    print(f"\n### Per phrase ({part}, worst first; clean | 10 dB; what the kiosk heard instead)")
    by_phrase: dict[str, list] = defaultdict(list)
    for r in rows:
        by_phrase[r.phrase].append(r)
    for text, rs in sorted(by_phrase.items(), key=lambda kv: sum(r.kiosk == "right" for r in kv[1]) / len(kv[1])):
        clean = [r for r in rs if r.cond == "clean"]
        noisy = [r for r in rs if r.cond != "clean"]
        miss = Counter(f"{r.kiosk_heard or '∅'}{' (wrong)' if r.kiosk == 'wrong' else ''}" for r in rs if r.kiosk != "right")
        print(f"{text!r:22s} ({rs[0].intent}) kiosk clean {sum(r.kiosk == 'right' for r in clean)}/{len(clean)}, "
              f"noisy {sum(r.kiosk == 'right' for r in noisy)}/{len(noisy)}, wrong {sum(r.kiosk == 'wrong' for r in rs)}"
              f" | bare {sum(r.bare == 'right' for r in rs)}/{len(rs)}, wrong {sum(r.bare == 'wrong' for r in rs)}"
              f"  {dict(miss.most_common(4)) if miss else ''}")
    figures = {"clean": _rate(rows, lambda r: r.cond == "clean"), "10 dB": _rate(rows, lambda r: r.cond.endswith("@10")),
               "wrong accepts": _rate(rows, lambda r: True, "wrong")}
    kinds = {r.cond for r in rows if r.cond.endswith("@10")}
    figures["each noise kind at 10 dB"] = min((_rate(rows, lambda r, c=c: r.cond == c) for c in kinds), default=float("nan"))
    return figures


def _rate(rows, keep, outcome: str = "right") -> float:
    sel = [r for r in rows if keep(r)]
    return sum(r.kiosk == outcome for r in sel) / len(sel) if sel else float("nan")


def report_wake(part: str, rows, quiet: dict, current: str) -> dict[str, float]:
    print(f"\n## Wake phrase candidates, {part} part (hands-free, the candidate as the one wake phrase)")
    figures: dict[str, float] = {}
    measured: dict[str, list[float]] = {}
    for cand in dict.fromkeys(r.phrase for r in rows):
        rs = [r for r in rows if r.phrase == cand]
        by = tally(rs, lambda r: "clean" if r.cond == "clean" else "noisy")
        k, b = tally(rs, lambda r: "all")["all"]
        q = quiet.get(cand)
        fw = ""
        if q is not None:
            hours = q.seconds / 3600
            fw = (f"; café audio {q.seconds / 60:.0f} min: {sum(q.wakes.values())} false wakes = "
                  f"{sum(q.wakes.values()) / hours:.1f}/h {dict(q.wakes)} (bare vosk {sum(q.bare_wakes.values())} = "
                  f"{sum(q.bare_wakes.values()) / hours:.0f}/h), commands acted on {q.nav}, final actions requested "
                  f"{q.final_requested}, dispatched {q.final_dispatched}")
        mark = "  <- the catalog's wake phrase" if cand == current else ""
        print(f"{cand!r}: woke {pct(k, 'right')} (clean {pct(by['clean'][0], 'right')}, 10 dB "
              f"{pct(by['noisy'][0], 'right')}; n={sum(k.values())}) | bare vosk {pct(b, 'right')}{fw}{mark}")
        if q is not None:
            measured[cand] = [k["right"], sum(k.values()), round(sum(q.wakes.values()) / (q.seconds / 3600), 1)]
        if cand == current:
            figures["wake"] = k["right"] / max(1, sum(k.values()))
            if q is not None:
                figures["false wakes per hour"] = sum(q.wakes.values()) / (q.seconds / 3600)
                figures["final actions from café audio"] = q.final_dispatched
    if measured and part == HELD_OUT:  # what the staff's wake phrase buttons show (content/voice/ko.yaml)
        print("wake.measured for content/voice/ko.yaml: {" + ", ".join(
            f"{c}: [{w}, {n}, {f:g}]" for c, (w, n, f) in measured.items()) + "}")
    return figures


def report_goals(part: str, figures: dict[str, float]) -> None:
    print(f"\n## Goals (issue #38), {part} part")
    for name, goal in GOALS.items():
        if name not in figures:
            print(f"{name:32s} not measured in this run")
            continue
        got = figures[name]
        upper = name in ("wrong accepts", "false wakes per hour", "final actions from café audio")
        met = got <= goal if upper else got >= goal
        share = isinstance(goal, float) and goal < 1
        shown = f"{got:.1%}" if share else f"{got:g}"
        want = ("≤ " if upper else "≥ ") + (f"{goal:.0%}" if share else f"{goal:g}")
        print(f"{name:32s} {shown:>8s}  goal {want:8s} {'met' if met else 'NOT MET'}")


def main() -> None:
    from bench.voice_score import Scorer, phrases_of, quiet_run

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=PARTS, default=HELD_OUT, help="the part scored (choices: on tuning only)")
    ap.add_argument("--voices", type=int, default=None, help="only the part's first N voices (a sample)")
    ap.add_argument("--sets", default=SETS, help="voice check sets whose phrases are said, comma-separated")
    ap.add_argument("--only", default="", help="only these intents (comma-separated names)")
    ap.add_argument("--noise", nargs="*", default=None, metavar="NOISE@DB", help=f"conditions (default {NOISES})")
    ap.add_argument("--wake", default=None, help="wake candidates, comma-separated (default: the catalog's; '': skip)")
    ap.add_argument("--cafe-seconds", type=float, default=150.0, help="café audio per kind (4 kinds); 0: skip")
    ap.add_argument("--catalog", type=Path, default=None, help="other templates (tuning part only)")
    ap.add_argument("--decoy-weight", type=float, default=None, help="audio.intents.DECOY_WEIGHT (tuning part only)")
    ap.add_argument("--need", nargs="*", default=[], metavar="KEY=N",
                    help="wake=N: perturbed decodes of 4 that must agree with the normal one; confirm=N: decodes of 9 "
                         "that must hear the answer (tuning part only)")
    ap.add_argument("--denoise", nargs="*", default=[], metavar="KEY=X",
                    help="audio.denoise.SETTINGS, e.g. over=2 low_hz=200 (tuning part only)")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--recordings", type=Path, default=None, help="folder of real speakers' WAVs (see above)")
    ap.add_argument("--make-takes", type=Path, default=None, help="write espeak takes into this folder")
    args = ap.parse_args()
    if sg.tools_available():
        sys.exit(f"missing tools: {sg.tools_available()}")
    if (args.catalog is not None or args.need or args.denoise or args.decoy_weight is not None) and args.part != TUNING:
        sys.exit("--catalog, --need, --denoise and --decoy-weight try choices: on the tuning part only (--part tuning)")
    from audio import denoise, intents

    denoise.SETTINGS.update({k: float(v) for k, v in (d.split("=") for d in args.denoise)})
    from audio.vote_runner import AGREE_NEED

    if args.decoy_weight is not None:
        intents.DECOY_WEIGHT = args.decoy_weight
    AGREE_NEED.update({k: int(v) for k, v in (n.split("=") for n in args.need)})
    catalog = load_catalog(args.catalog) if args.catalog else load_catalog()
    if args.make_takes is not None:
        from audio.vocab import default_model_path, read_vocabulary

        vocab = read_vocabulary(default_model_path())
        voices = [f"{v.variant or 'ko'}/{v.speed}/{v.pitch}" for v in SPLIT[HELD_OUT].voices]
        print(f"{make_takes(args.make_takes, catalog, vocab, args.sets.split(','), voices)} takes written")
        return
    t0 = time.perf_counter()
    loader = ModelLoader(board=StatusBoard())
    loader.start()
    engine = loader.wait()
    if engine is None:
        sys.exit(f"model not available: {loader.reason}")
    print(f"model load + vocabulary + warm-up: {time.perf_counter() - t0:.2f} s; RSS {rss_mb():.0f} MB")
    if args.recordings is not None:
        conds = [("none", None)] + conditions(args.noise or [])
        run_recordings(engine, catalog, args.recordings, conds, args.corpus)
        print(f"\npeak RSS {rss_mb():.0f} MB")
        return
    part = SPLIT[args.part]
    scorer = Scorer(engine, catalog, args.corpus, part, args.voices)
    conds = conditions(args.noise if args.noise is not None else NOISES)
    only = set(args.only.split(",")) if args.only else None
    phrases = phrases_of(catalog, args.sets.split(","), engine.vocabulary, only)
    print(f"# Voice benchmark: the {part.name.upper()} part of bench/voice_split.py — every figure below is for it")
    print(f"perturbed decodes that must agree: {AGREE_NEED}; a decoy counts {intents.DECOY_WEIGHT:g} against an intent "
          f"in the vote; catalog {args.catalog or 'content/voice/ko.yaml'}; noise filter {denoise.SETTINGS}")
    print(f"{len(scorer.voices)} voices ({', '.join(v.label for v in scorer.voices)}); rooms: "
          f"{', '.join(r.name for r in part.rooms)} (one per take); conditions: {', '.join(args.noise or NOISES)}; "
          f"{len(phrases)} phrases of {args.sets}")
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    rows = scorer.score(phrases, conds, progress=progress)
    print(f"{len(rows)} utterances scored twice (kiosk + bare) in {time.perf_counter() - t0:.0f} s "
          f"({time.process_time() - cpu0:.0f} s CPU)")
    figures = report_commands(part.name, rows) if rows else {}
    wake = [w.strip() for w in args.wake.split(",") if w.strip()] if args.wake is not None else list(catalog.wake_candidates)
    if wake:
        t0 = time.perf_counter()
        wrows = scorer.wake_phrases(wake, conds, progress=progress)
        quiet = {}
        if args.cafe_seconds > 0:
            cafe = scorer.cafe(args.cafe_seconds)
            quiet = {c: quiet_run(engine, catalog.with_wake(c), cafe) for c in wake}
        current = catalog.intents["wake"].templates[0]
        figures.update(report_wake(part.name, wrows, quiet, current))
        print(f"(wake candidates and café audio: {time.perf_counter() - t0:.0f} s)")
    report_goals(part.name, figures)
    print(f"\npeak RSS {rss_mb():.0f} MB")


def make_takes(folder: Path, catalog, vocabulary, sets: list[str], voices: list[str]) -> int:
    """espeak-ng takes of the voice check's phrase sets: `folder/<variant_speed_pitch>/<phrase>.wav`, each
    with 0.3 s of silence before and 0.4 s after (as a push-to-talk take); existing files are kept."""
    from array import array

    from audio.pcm import Clip, write_wav
    from audio.voicecheck import check_phrases

    made = 0
    for label in voices:
        variant, speed, pitch = label.split("/")
        voice = sg.Voice("" if variant == "ko" else variant, int(speed), int(pitch))
        for which in sets:
            for phrase in check_phrases(catalog, which, vocabulary):
                path = folder / label.replace("/", "_") / f"{phrase.text}.wav"
                if path.exists():
                    continue
                samples = array("h")
                samples.frombytes(sg.silence(0.3) + sg.speak(phrase.text, voice) + sg.silence(0.4))
                write_wav(path, Clip(samples, sg.RATE))
                made += 1
    return made


def load_recording(path: Path) -> bytes:
    import wave

    try:
        with wave.open(str(path), "rb") as wav:
            if (wav.getframerate(), wav.getnchannels(), wav.getsampwidth()) == (sg.RATE, 1, 2):
                return wav.readframes(wav.getnframes())
    except (wave.Error, EOFError):
        pass
    import subprocess

    return subprocess.run(["sox", str(path), "-r", str(sg.RATE), "-c", "1", "-b", "16", "-e", "signed-integer",
                           "-t", "raw", "-"], check=True, capture_output=True, timeout=60).stdout


def run_recordings(engine, catalog, folder: Path, conditions: list[tuple[str, float | None]], corpus: Path) -> None:
    """Every take in `folder` (the staff voice check's layout) scored as the kiosk decides it
    (audio/voicecheck.py: push-to-talk for commands and 네/아니요, hands-free for the wake phrase), clean and
    mixed with our noises; per phrase, speaker, kind and condition, with latency."""
    from audio.voicecheck import VoiceCheck, score_pcm

    phrases = VoiceCheck(folder, catalog, engine.vocabulary).all_phrases()
    from bench.voice_corpus import Corpus, PartReader

    held = SPLIT[HELD_OUT]  # the noise of the held-out part (nothing was tuned on it)
    noises = {k: PartReader(corpus, held.name).read(Corpus(corpus, held).noise(k))
              for k in {n for n, snr in conditions if snr is not None}}
    tables: dict[str, dict[str, Counter]] = {k: defaultdict(Counter) for k in ("phrase", "speaker", "kind", "condition")}
    heard_as: dict[str, Counter] = defaultdict(Counter)
    latency: dict[str, list[float]] = defaultdict(list)
    unknown: list[str] = []
    for path in sorted(folder.rglob("*.wav")):
        text = " ".join(path.stem.split(".")[0].replace("_", " ").split())
        phrase = phrases.get(text)
        if phrase is None:
            unknown.append(path.name)
            continue
        clean = load_recording(path)
        for noise, snr in conditions:
            pcm = clean if snr is None else sg.mix(sg.silence(0.5) + clean, noises[noise], snr)
            outcome, heard, _, lat = score_pcm(engine, catalog, phrase, pcm)
            cond = "clean" if snr is None else f"{noise}@{snr:g}dB"
            for key, value in (("phrase", text), ("speaker", path.parent.name), ("kind", phrase.kind),
                               ("condition", cond)):
                tables[key][value][outcome] += 1
            if outcome == "wrong":
                heard_as[text][heard] += 1
            if outcome == "right":
                latency["wake phrase (end of speech → awake)" if phrase.kind == "wake"
                        else "push-to-talk (release → intent)"].append(lat)
    print(f"\n## Recordings in {folder} (conditions: {', '.join(c for c in tables['condition'])})")
    if unknown:
        print(f"not a phrase of any screen (skipped): {unknown}")
    for label, table in tables.items():
        print()
        for key, c in sorted(table.items(), key=lambda kv: kv[1]["right"] / sum(kv[1].values())):
            n = sum(c.values())
            wrong = f" (heard {dict(heard_as[key])})" if label == "phrase" and heard_as[key] else ""
            print(f"{label} {key!r}: {c['right']}/{n} right, {c['wrong']} wrong{wrong}, {c['nothing']} nothing")
    tot: Counter = Counter()
    for c in tables["condition"].values():
        tot.update(c)
    n = sum(tot.values())
    if n:
        print(f"\nrecordings: {tot['right'] / n:.1%} right, {tot['wrong'] / n:.1%} wrong accept, "
              f"{tot['nothing'] / n:.1%} nothing (n={n})")
    for what, values in latency.items():
        values.sort()
        print(f"latency {what}: median {values[len(values) // 2]:.2f} s, p90 {values[int(len(values) * 0.9)]:.2f} s, "
              f"max {values[-1]:.2f} s (n={len(values)})")




if __name__ == "__main__":
    main()
