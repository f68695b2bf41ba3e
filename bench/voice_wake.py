"""The wake phrase's agreement rule compared offline (issue #38): how many of the 4 first-stage perturbed decodes
must hear the wake phrase as the normal decode did (audio/vote_runner.py AGREE_NEED["wake"]).

    python bench/voice_wake.py --part tuning --voices 12 --cafe-seconds 300    # choose here (tuning part only)
    python bench/voice_wake.py --voices 8 --cafe-seconds 150                    # held out: the figures

One pass: the kiosk's hands-free path runs with the shipped rule, and every time the normal decode picks the
wake phrase all 4 perturbed decodes are made (no early stop) and how many agree is recorded. A take wakes under
"k of 4" when one of its moments had k or more agreeing; café audio (no wake phrase in it) wakes falsely once
per such moment. Moments a looser rule would have woken on but the shipped one did not are counted as they
came (the listening window a wake opens, which would have hidden a moment right after it, is not modelled:
the false wakes of a looser rule are an upper bound). Bare vosk on the wake grammar beside it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.voice_split import HELD_OUT, PARTS, SPLIT  # noqa: E402

NOISES = ["clean", "pink@10", "babble@10", "clatter@10"]


def main() -> None:
    from audio import vote_runner
    from audio.asr import ModelLoader
    from audio.intents import WAKE, load_catalog
    from audio.status import StatusBoard
    from bench.voice import conditions
    from bench.voice_score import Scorer, quiet_run

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=PARTS, default=HELD_OUT)
    ap.add_argument("--voices", type=int, default=None)
    ap.add_argument("--wake", default=None, help="the wake phrase (default: the catalog's)")
    ap.add_argument("--noise", nargs="*", default=NOISES)
    ap.add_argument("--cafe-seconds", type=float, default=150.0, help="café audio per kind (4 kinds)")
    ap.add_argument("--corpus", type=Path, default=Path(__file__).resolve().parent / ".voice_corpus")
    args = ap.parse_args()

    moments: list[int] = []  # agreeing perturbed decodes, each time the normal decode picked the wake phrase
    shipped = vote_runner.agree_strictly

    def recording(book, candidates, speeds, run, need=3, width=4):  # type: ignore[no-untyped-def]
        text, intent = book.pick(candidates)
        if intent is None:
            return text, None
        agree = sum(1 for c in run(speeds) if (h := book.pick(c)[1]) is not None and h.name == intent.name)
        moments.append(agree)
        return (text, intent) if agree >= need else (text, None)

    vote_runner.agree_strictly = recording  # type: ignore[assignment]
    loader = ModelLoader(board=StatusBoard())
    loader.start()
    engine = loader.wait()
    if engine is None:
        sys.exit(f"model not available: {loader.reason}")
    catalog = load_catalog()
    wake = args.wake or catalog.intents[WAKE].templates[0]
    part = SPLIT[args.part]
    scorer = Scorer(engine, catalog, args.corpus, part, args.voices)
    conds = conditions(args.noise)
    need = vote_runner.AGREE_NEED["wake"]
    print(f"# Wake rule, {part.name.upper()} part: {wake!r}, {len(scorer.voices)} voices x {', '.join(args.noise)}; "
          f"shipped rule {need} of 4")
    t0 = time.perf_counter()
    takes: list[tuple[str, list[int], str]] = []  # (condition, its moments, bare vosk)
    from audio.voicecheck import CheckPhrase

    phrase = CheckPhrase(wake, WAKE, "wake", "호출어")
    for cond in conds:
        for voice in scorer.voices:
            start = len(moments)
            scorer.voices, keep = (voice,), scorer.voices
            try:
                row = scorer.score([phrase], [cond], catalog.with_wake(wake))[0]
            finally:
                scorer.voices = keep
            takes.append((row.cond, moments[start:], row.bare))
    print(f"{len(takes)} takes in {time.perf_counter() - t0:.0f} s")
    t0 = time.perf_counter()
    start = len(moments)
    quiet = quiet_run(engine, catalog.with_wake(wake), scorer.cafe(args.cafe_seconds)) if args.cafe_seconds else None
    cafe = moments[start:]
    hours = quiet.seconds / 3600 if quiet else 0.0
    if quiet:
        print(f"café audio {quiet.seconds / 60:.0f} min in {time.perf_counter() - t0:.0f} s; shipped rule: "
              f"{sum(quiet.wakes.values())} wakes {dict(quiet.wakes)}; bare vosk {sum(quiet.bare_wakes.values())}; "
              f"commands acted on {quiet.nav}, final actions dispatched {quiet.final_dispatched}")
    print(f"\n## Rule (perturbed decodes of 4 agreeing), {part.name} part")
    for k in (4, 3, 2, 1, 0):
        woke = Counter(c for c, ms, _ in takes if any(m >= k for m in ms))
        n = Counter(c for c, _, _ in takes)
        per = ", ".join(f"{c} {woke[c]}/{n[c]}" for c in n)
        fw = sum(1 for m in cafe if m >= k)
        tail = f"; café: {fw} moments = {fw / hours:.1f}/h" if hours else ""
        mark = "  <- shipped" if k == need else ""
        print(f"{k} of 4: woke {sum(woke.values())}/{len(takes)} ({per}){tail}{mark}")
    bare = sum(b == "right" for _, _, b in takes)
    print(f"bare vosk: woke {bare}/{len(takes)}; café moments where the normal decode heard it: {len(cafe)} "
          f"(agreeing: {dict(Counter(cafe))})")
    vote_runner.agree_strictly = shipped  # type: ignore[assignment]


if __name__ == "__main__":
    main()
