"""Why voice commands fail (issue #38): every take of one part through the kiosk's path with everything the
decision looked at recorded — the noise gate's SNR, the normal decode's n-best, all eight perturbed decodes
(no early stop) — so that decision rules can be compared offline in seconds on the same decodes
(`bench/voice_rules.py`), and a confusion table per command (heard as what, and which step failed).

    python bench/voice_why.py --part tuning --voices 6 --out /tmp/why-tuning.jsonl   # record (slow: vosk)
    python bench/voice_why.py --load /tmp/why-tuning.jsonl                             # tables only

Choices are made on the tuning part; `--catalog` is refused on the held-out part (as bench/voice.py).
Recording turns the gate off (MIN_SNR_DB -inf) and records the SNR instead, so a gate threshold can be tried
offline; the decodes are the kiosk's (denoised, speech span, 1 s of the room before the press).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.voice_split import HELD_OUT, PARTS, SPLIT, TUNING  # noqa: E402

NOISES = ["clean", "pink@20", "babble@20", "clatter@20", "pink@10", "babble@10", "clatter@10"]


def record(args: argparse.Namespace) -> list[dict]:
    """Score the part, recording each take's decodes (see the module docstring)."""
    from audio import asr, vote_runner
    from audio import speechgen as sg
    from audio.asr import ModelLoader
    from audio.intents import load_catalog
    from audio.recognizer import PERTURB_STAGES, snr_db
    from audio.status import StatusBoard
    from audio.voicecheck import score_pcm
    from bench.voice import conditions
    from bench.voice_score import Scorer, bare, phrase_book, phrases_of

    if sg.tools_available():
        sys.exit(f"missing tools: {sg.tools_available()}")
    if args.catalog is not None and args.part != TUNING:
        sys.exit("--catalog tries choices: on the tuning part only")
    catalog = load_catalog(args.catalog) if args.catalog else load_catalog()
    loader = ModelLoader(board=StatusBoard())
    loader.start()
    engine = loader.wait()
    if engine is None:
        sys.exit(f"model not available: {loader.reason}")
    part = SPLIT[args.part]
    scorer = Scorer(engine, catalog, args.corpus, part, args.voices)
    if args.voice_from:
        scorer.voices = scorer.voices[args.voice_from:]
    only = set(args.only.split(",")) if args.only else None
    phrases = phrases_of(catalog, args.sets.split(","), engine.vocabulary, only)
    conds = conditions(args.noise)
    seen: list[dict] = []
    snrs: list[float | None] = []
    heard_audio: list[bytes] = []  # what the perturbed decodes were given: the kiosk's speech span
    orig_decode = vote_runner.decode_perturbed

    def decode_kept(engine_, grammar, audio, speeds):  # noqa: ANN001, ANN202
        heard_audio[:] = [audio]
        return orig_decode(engine_, grammar, audio, speeds)

    vote_runner.decode_perturbed = decode_kept
    free_conds = set(args.free.split(",")) if args.free else set()

    def all_stages(book, candidates, stages, run, *a, **k):  # noqa: ANN001, ANN002, ANN003, ANN202
        decodes = [tuple(candidates)] + [d for stage in stages for d in run(stage)]
        seen.append({"normal": list(candidates), "perturbed": [list(d) for d in decodes[1:]],
                     "snr": snrs[-1] if snrs else None})
        return book.vote(decodes, k.get("quiet", False))

    def agree_all(book, candidates, speeds, run, need=3, *a, **k):  # noqa: ANN001, ANN002, ANN003, ANN202
        decodes = [tuple(candidates)] + [d for stage in PERTURB_STAGES for d in run(stage)]
        seen.append({"normal": list(candidates), "perturbed": [list(d) for d in decodes[1:]],
                     "snr": snrs[-1] if snrs else None})
        return book.pick(candidates)

    orig_check = asr.VoiceController._noise_check

    def check(self, heard):  # noqa: ANN001, ANN202
        snrs.append(snr_db(self._levels, self._floor.value))
        return orig_check(self, heard)

    vote_runner.vote_in_stages = all_stages
    vote_runner.agree_strictly = agree_all
    vote_runner.answer_vote = agree_all
    asr.VoiceController._noise_check = check
    asr.MIN_SNR_DB = float("-inf")
    rows: list[dict] = []
    books = {p.text: phrase_book(catalog, p, engine.vocabulary) for p in phrases}
    t0 = time.perf_counter()
    total = len(phrases) * len(scorer.voices) * len(conds)
    for phrase in phrases:
        for voice in scorer.voices:
            path = scorer.corpus.take(phrase.text, voice)
            take = scorer.reader.read(path)
            for cond in conds:
                pre, pcm = scorer.conditioned(phrase.text, voice, take, cond)
                seen.clear()
                snrs.clear()
                heard_audio.clear()
                outcome, heard, heard_intent, _ = score_pcm(engine, catalog, phrase, pcm, PERTURB_STAGES,
                                                            preroll=pre, streamed=0)
                b, b_heard = bare(engine, books[phrase.text], phrase, pcm)
                rows.append({
                    "phrase": phrase.text, "intent": phrase.intent, "kind": phrase.kind, "game": phrase.game,
                    "intents": list(phrase.intents), "slots": {k: repr(v) for k, v in phrase.slots.items()},
                    "voice": voice.label, "room": path.parent.name,
                    "cond": "clean" if cond[1] is None else f"{cond[0]}@{cond[1]:g}",
                    "votes": list(seen), "ungated": outcome,
                    "ungated_heard": heard, "bare": b, "bare_heard": b_heard,
                })
                if rows[-1]["cond"] in free_conds:  # the same audio, decoded without a grammar (slow: ~2 s)
                    rows[-1]["free"] = list(free_decode(engine, heard_audio[0] if heard_audio else pcm))
                if args.out is not None:  # as it goes: a long run can be looked at before it ends
                    with args.out.open("a", encoding="utf-8") as f:
                        f.write(json.dumps(rows[-1], ensure_ascii=False) + "\n")
                if len(rows) % 100 == 0:
                    print(f"  {len(rows)}/{total} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    print(f"{len(rows)} takes recorded in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return rows


def free_decode(engine, pcm: bytes) -> tuple[str, ...]:  # noqa: ANN001
    """The n-best of a full-vocabulary decode (no grammar: the model's own language model)."""
    import vosk

    from audio.recognizer import N_BEST, RATE, _heard

    rec = vosk.KaldiRecognizer(engine.model, RATE)
    rec.SetMaxAlternatives(N_BEST)
    rec.AcceptWaveform(pcm)
    return _heard(rec.FinalResult()).candidates


def confusion(rows: list[dict], outcome_of, heard_of) -> None:  # noqa: ANN001
    """Per intent: right / wrong / nothing, and what it was heard as."""
    by: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by[r["intent"]].append(r)
    for intent, rs in sorted(by.items(), key=lambda kv: sum(outcome_of(r) == "right" for r in kv[1]) / len(kv[1])):
        c = Counter(outcome_of(r) for r in rs)
        heard = Counter(heard_of(r) for r in rs if outcome_of(r) != "right")
        print(f"{intent:28s} right {c['right']:3d}/{len(rs):3d} wrong {c['wrong']:3d} nothing {c['nothing']:3d}  "
              f"{dict(heard.most_common(5))}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=PARTS, default=TUNING)
    ap.add_argument("--voices", type=int, default=None)
    ap.add_argument("--voice-from", type=int, default=0, help="skip the part's first N voices")
    ap.add_argument("--sets", default="basic,spyfall,mr_jack_ny,clue")
    ap.add_argument("--only", default="")
    ap.add_argument("--noise", nargs="*", default=NOISES)
    ap.add_argument("--catalog", type=Path, default=None)
    ap.add_argument("--corpus", type=Path, default=Path(__file__).resolve().parent / ".voice_corpus")
    ap.add_argument("--free", default="clean", help="conditions also decoded without a grammar ('' for none)")
    ap.add_argument("--out", type=Path, default=None, help="write the recorded takes here (JSON lines)")
    ap.add_argument("--load", type=Path, nargs="*", default=None, help="tables from recorded takes")
    args = ap.parse_args()
    if args.load:
        rows = [json.loads(line) for p in args.load for line in p.read_text(encoding="utf-8").splitlines()]
    else:
        if args.part == HELD_OUT:
            print("# recording the HELD-OUT part: for the final figures only, choose nothing on it")
        if args.out is not None and args.out.exists():
            sys.exit(f"{args.out} exists")
        rows = record(args)
    print("## ungated kiosk path (gate off), per intent")
    confusion(rows, lambda r: r["ungated"], lambda r: r["ungated_heard"] or "∅")
    print("## bare vosk, per intent")
    confusion(rows, lambda r: r["bare"], lambda r: r["bare_heard"] or "∅")


if __name__ == "__main__":
    main()
