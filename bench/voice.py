"""Voice command benchmark on audio we make ourselves (espeak-ng Korean + café-like noise).

    python bench/voice.py                 # full run: clean + noisy commands, 10 min of no-command audio
    python bench/voice.py --quick         # fewer voices, 2 min of no-command audio
    python bench/voice.py --select        # per-phrasing accuracy on clean speech, to choose templates
    python bench/voice.py --game spyfall  # add that game's intents to the screen grammar
    python bench/voice.py --noise pink@10 clatter@10 --no-command-seconds 0   # those conditions only
    python bench/voice.py --recordings DIR [--noise pink@10]   # real people (the staff voice check folder)
    python bench/voice.py --make-takes DIR [--sets basic,spyfall] [--voices m5/145/65 …]   # espeak takes

Reports per-phrase accuracy, wrong-accept rate (an intent other than the one spoken), false accepts per
hour on audio with no command in it (pink noise + clatter, babble of overlapping voices, our own narration,
a busy mix), latency from the end of speech to the intent, the real-time factor and the RSS.
Espeak speech is robotic: a floor, not a field test. Figures are printed; nothing is asserted.

`--make-takes DIR` writes espeak-ng takes in that layout (one speaker folder per voice) for voices the
main benchmark does not use: HELD_OUT scores, TUNING is what front-end and phrasing choices were tried on.

`--recordings DIR` measures real speakers: every `DIR/<speaker>/<phrase>[.N].wav` (16 kHz mono 16-bit, or
anything sox converts; the staff voice check writes `<data>/voicecheck` in this layout) is one utterance of
the phrase named by the file, e.g. `지수/민호 범인.2.wav`, scored as the kiosk decides it (audio/voicecheck.py:
the screen's grammar, push-to-talk; hands-free for the wake phrase; 네/아니요 in the confirmation grammar;
sample players 민호, 지수, 서연, 지훈). Per phrase, speaker, kind and condition (`--noise pink@10 …` adds
noisy copies), and latency.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from audio import speechgen as sg  # noqa: E402
from audio.asr import Mode, ModelLoader, QuickEndpoint, VoiceController, VoiceEvent, VoskEngine  # noqa: E402
from audio.denoise import Denoiser  # noqa: E402
from audio.intents import Intent, IntentSpec, PhraseBook, build_phrasebook, load_catalog  # noqa: E402
from audio.recognizer import MIN_SNR_DB, PERTURB_STAGES, chunk_level, snr_db  # noqa: E402
from audio.status import MicGate, StatusBoard  # noqa: E402
from audio.voicecheck import SCREENS, sample_slots  # noqa: E402
from audio.vote import decide  # noqa: E402

CHUNK = 3200  # 0.1 s of 16 kHz s16le
VOICES = [
    sg.Voice("", 150, 50),
    sg.Voice("f2", 130, 60),
    sg.Voice("m3", 170, 40),
    sg.Voice("f4", 150, 70),
    sg.Voice("", 190, 50),
    sg.Voice("m1", 120, 45),
]
# Voices (variant/speed/pitch) for --make-takes, none of them in VOICES: choices made in session 4 (noise
# filter, phrasings) were tried on TUNING only; HELD_OUT scores them.
TUNING = ["m2/140/55", "f1/160/45", "m4/175/60", "f3/125/40"]
HELD_OUT = ["m5/145/65", "f5/165/50", "m6/130/45"]
# Not commands: table talk for babble, and narration-like text (our own words).
TALK = [
    "이번에는 누가 먼저 할 차례인지 잘 모르겠어",
    "커피 한 잔 더 시킬까 아니면 케이크를 먹을까",
    "그 카드는 아까 내가 이미 봤던 것 같은데",
    "잠깐만 기다려 봐 화장실 좀 다녀올게",
    "진짜 재미있다 다음 주에도 또 오자",
    "너는 왜 그렇게 생각하는 거야 증거가 있어",
    "우리 팀이 이기고 있는 것 같아 조금만 더 하자",
    "이 게임 규칙이 생각보다 복잡하네",
]
NARRATION = [
    "안개가 짙게 깔린 런던의 밤 베이커 가의 하숙집에 한 통의 편지가 도착했습니다",
    "모두 눈을 감아 주세요 지금부터 비밀 역할을 나누어 드리겠습니다",
    "이번 라운드의 제한 시간은 팔 분입니다 질문은 시계 방향으로 이어집니다",
    "탐정들은 각자 마차를 타고 도시 곳곳의 장소를 방문해 단서를 모읍니다",
    "잭은 어둠 속으로 사라졌습니다 목격자를 불러 주세요",
    "용의자와 무기와 방을 모두 맞히면 사건이 해결됩니다",
]


WRONG: list[tuple[str, str, str, str]] = []  # every wrong accept: (condition, voice, phrase said, heard)


@dataclass
class Item:
    intent: str
    slots: dict[str, object]
    text: str
    voice: sg.Voice
    noise: str
    snr: float | None


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def speech_end(pcm: bytes) -> float:
    a = sg.samples(pcm)
    last = max((i for i in range(len(a) - 1, -1, -1) if abs(a[i]) > 500), default=0)
    return last / sg.RATE


def make_noises(seconds: float, seed: int = 1) -> dict[str, bytes]:
    rng = random.Random(seed)
    babble_parts = []
    for k in range(4):
        clip = b""
        while len(clip) < 2 * sg.RATE * seconds:
            clip += sg.speak(rng.choice(TALK), VOICES[(k + len(clip)) % len(VOICES)]) + sg.silence(rng.uniform(0.1, 0.6))
        babble_parts.append(clip[: int(2 * sg.RATE * seconds)])
    return {
        "pink": sg.pink_noise(seconds, seed),
        "babble": sg.overlay(babble_parts, [0.5] * 4),
        "clatter": sg.clatter(seconds, seed),
    }


def screen_specs(catalog, game: str | None, screen: str | None = None) -> list[IntentSpec]:
    specs = list(catalog.navigation())
    if game and screen:
        specs += [catalog.intents[f"{game}.{n}"] for n in SCREENS[game][screen]]
    elif game:
        specs += catalog.game_intents(game)
    return specs


def screens(game: str | None) -> list[str | None]:
    return list(SCREENS.get(game or "", {None: []})) or [None]


def recognise(engine: VoskEngine, book: PhraseBook, pcm: bytes, end: float
              ) -> tuple[str, Intent | None, float, float, float]:
    """Hands-free style: feed 0.1 s chunks as a live mic would; returns (text, intent, endpoint latency, PTT
    latency, decode seconds). Endpoint latency = audio time of the result minus end of speech plus the wall
    time spent on that chunk and on the vote. Text and intent are what the controller decides:
    `PhraseBook.vote` over the n-best of the normal decode and of the speed-perturbed ones (PERTURB_STAGES;
    the vote may turn down the intent of the text it heard), or ("", None) when its noise gate would drop
    the utterance. The recogniser hears the audio through the kiosk's noise filter (audio/denoise.py); the
    gate measures the microphone's audio."""
    raw, pcm = pcm, denoised(pcm)
    rec = engine.recognizer(book.grammar)
    endpoint = QuickEndpoint()
    decode = 0.0
    base: tuple[str, ...] = ()
    lat = float("nan")
    for i in range(0, len(pcm), CHUNK):
        t0 = time.perf_counter()
        chunk = pcm[i : i + CHUNK]
        heard = rec.accept(chunk)
        if heard is None and endpoint.update(raw[i : i + CHUNK]):
            heard = rec.final()
        dt = time.perf_counter() - t0
        decode += dt
        if heard is not None and heard.candidates:
            base = heard.candidates
            lat = (i + CHUNK) / 2 / sg.RATE - end + dt
            break
    # Push-to-talk: release just after speech; what matters is the flush (and the vote after it).
    rec2 = engine.recognizer(book.grammar)
    cut = int(min(len(pcm), (end + 0.25) * sg.RATE * 2)) // 2 * 2
    for i in range(0, cut, CHUNK):
        t0 = time.perf_counter()
        rec2.accept(pcm[i : min(i + CHUNK, cut)])
        decode += time.perf_counter() - t0
    t0 = time.perf_counter()
    ptt_cands = rec2.final().candidates
    flush = time.perf_counter() - t0
    # the controller's noise gate (audio/recognizer.py MIN_SNR_DB) on the audio of the utterance
    snr = snr_db([chunk_level(raw[i : i + CHUNK]) for i in range(0, cut, CHUNK)])
    t0 = time.perf_counter()
    text, intent = decide(engine, book, base or ptt_cands, pcm[:cut], PERTURB_STAGES)
    voting = time.perf_counter() - t0
    decode += flush + voting
    lat += voting
    if snr is not None and snr < MIN_SNR_DB:
        text, intent = "", None
    return text, intent, lat, flush + voting, decode


def denoised(pcm: bytes) -> bytes:
    """`pcm` through a fresh noise filter, chunk by chunk as the controller feeds it."""
    dn = Denoiser()
    return b"".join(dn.process(pcm[i : i + CHUNK]) for i in range(0, len(pcm), CHUNK))


def tested_phrases(book: PhraseBook, per_intent: int, seed: int = 3) -> list[str]:
    """Every phrase, except that intents with many slot combinations are sampled (`per_intent`)."""
    by_intent: dict[str, list[str]] = defaultdict(list)
    for text, (spec, _) in sorted(book.phrases.items()):
        by_intent[spec.name].append(text)
    rng = random.Random(seed)
    out: list[str] = []
    for texts in by_intent.values():
        out += texts if len(texts) <= per_intent else sorted(rng.sample(texts, per_intent))
    return out


def run_commands(engine, catalog, game, voices, conditions, noises, per_intent=8, nav=True):
    """Every screen of the game (navigation is measured on the first screen only, not once per screen)."""
    per_phrase: dict[str, Counter] = defaultdict(Counter)
    confusions: dict[str, Counter] = defaultdict(Counter)
    per_cond: dict[str, Counter] = defaultdict(Counter)
    lat_ep: list[float] = []
    lat_ptt: list[float] = []
    decode = audio = 0.0
    cache: dict[tuple[str, sg.Voice], tuple[bytes, float]] = {}
    books: dict[str, PhraseBook] = {}
    jobs: list[tuple[PhraseBook, str]] = []
    for k, screen in enumerate(screens(game)):
        book = build_phrasebook(screen_specs(catalog, game, screen), sample_slots(game), engine.vocabulary,
                                catalog.decoys)
        books[screen or "all"] = book
        jobs += [(book, t) for t in tested_phrases(book, per_intent)
                 if (k == 0 and nav) or book.phrases[t][0].kind == "game"]
    for book, text in jobs:
        spec, sl = book.phrases[text]
        for voice in voices:
            key = (text, voice)
            if key not in cache:
                speech = sg.silence(0.3) + sg.speak(text, voice)
                cache[key] = (speech + sg.silence(1.2), speech_end(speech))
            clean, end = cache[key]
            for noise, snr in conditions:
                pcm = clean if snr is None else sg.mix(clean, noises[noise], snr)
                got, intent, lep, lptt, dec = recognise(engine, book, pcm, end)
                decode += dec
                audio += len(pcm) / 2 / sg.RATE
                cond = "clean" if snr is None else f"{noise}@{snr:g}dB"
                if intent is not None and intent.name == spec.name and dict(intent.slots) == dict(sl):
                    outcome = "correct"
                    if lep == lep:
                        lat_ep.append(lep)
                    lat_ptt.append(lptt)
                elif intent is not None:
                    outcome = "wrong"
                    WRONG.append((cond, voice.label, text, got))
                else:
                    outcome = "rejected"
                per_phrase[text][outcome] += 1
                per_cond[cond][outcome] += 1
                if outcome != "correct":
                    turned_down = outcome == "rejected" and book.match(got) is not None  # by the vote
                    confusions[text][f"{got} (turned down)" if turned_down else got or "∅"] += 1
    return books, per_phrase, confusions, per_cond, lat_ep, lat_ptt, decode, audio


def no_command_audio(seconds: float, noises: dict[str, bytes], seed: int = 7) -> dict[str, bytes]:
    rng = random.Random(seed)
    part = seconds / 4
    n = int(sg.RATE * part) * 2

    def loop(pcm: bytes) -> bytes:
        return (pcm * (n // len(pcm) + 1))[:n]

    narration = b""
    while len(narration) < n:
        narration += sg.speak(rng.choice(NARRATION), rng.choice(VOICES)) + sg.silence(rng.uniform(0.3, 1.0))
    return {
        "pink+clatter": sg.overlay([loop(noises["pink"]), loop(noises["clatter"])]),
        "babble": loop(noises["babble"]),
        "narration": narration[:n],
        "busy mix": sg.overlay([loop(noises["babble"]), loop(noises["clatter"]), loop(noises["pink"])], [1.0, 0.7, 0.3]),
    }


def run_no_command(engine, catalog, game, audio: dict[str, bytes]) -> None:
    """One grammar with navigation and every intent of the game(s) at once: more phrases than any real
    screen, so more chances for a false accept."""
    specs = list(catalog.navigation())
    for g in (list(SCREENS) if game == "all" else [game] if game else []):
        specs += catalog.game_intents(g)
    names = [s.name for s in specs]
    total = sum(len(p) for p in audio.values()) / 2 / sg.RATE
    hours = total / 3600
    print(f"\n## No-command audio: {total / 60:.1f} min ({', '.join(audio)})")
    # 1. Command grammar listening all the time (no wake phrase, no button): the raw false-accept rate.
    book = build_phrasebook(specs, sample_slots(game), engine.vocabulary, catalog.decoys)
    raw = Counter()
    finals = Counter()
    for name, mic in audio.items():
        pcm = denoised(mic)
        rec = engine.recognizer(book.grammar)
        endpoint = QuickEndpoint()
        for i in range(0, len(pcm), CHUNK):
            heard = rec.accept(pcm[i : i + CHUNK])
            if heard is None and endpoint.update(mic[i : i + CHUNK]):
                heard = rec.final()
            if heard is not None:
                intent = book.pick(heard.candidates)[1]
                if intent is not None:
                    raw[name] += 1
                    finals[name] += intent.final
    print(f"- always-on command grammar: {sum(raw.values())} intents = {sum(raw.values()) / hours:.0f}/h "
          f"(final actions requested {sum(finals.values())}); per source {dict(raw)}")
    # 2. The real hands-free pipeline: wake phrase → command → confirmation.
    t = [0.0]
    ctl = VoiceController(catalog, engine, Mode.WAKE_PHRASE, clock=lambda: t[0], gate=MicGate(), board=StatusBoard(),
                          stages=PERTURB_STAGES, denoise=True)
    ctl.mic_available(True)
    ctl.set_context("bench", names, sample_slots(game))
    events: Counter = Counter()
    woke = [0]

    def on(e: VoiceEvent) -> None:
        if e.kind == "phase" and e.detail == "listening":
            woke[0] += 1
        if e.kind == "intent" and e.intent is not None:
            events["final dispatched" if e.intent.final else "nav dispatched"] += 1
        if e.kind == "confirm":
            events["final requested"] += 1

    ctl.listen(on)
    for pcm in audio.values():
        for i in range(0, len(pcm), CHUNK):
            t[0] += CHUNK / 2 / sg.RATE
            ctl.feed(pcm[i : i + CHUNK])
    print(f"- hands-free (wake phrase): wake triggers {woke[0]} = {woke[0] / hours:.1f}/h; "
          f"navigation dispatched {events['nav dispatched']} = {events['nav dispatched'] / hours:.1f}/h; "
          f"final requested {events['final requested']}; final dispatched after confirmation "
          f"{events['final dispatched']} = {events['final dispatched'] / hours:.1f}/h")
    print("- push-to-talk: audio is discarded while the button is up → 0 by construction")


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


def run_recordings(engine, catalog, folder: Path, conditions: list[tuple[str, float | None]]) -> None:
    """Every take in `folder` (the staff voice check's layout) scored as the kiosk decides it
    (audio/voicecheck.py: push-to-talk for commands and 네/아니요, hands-free for the wake phrase), clean and
    mixed with our noises; per phrase, speaker, kind and condition, with latency."""
    from audio.voicecheck import VoiceCheck, score_pcm

    phrases = VoiceCheck(folder, catalog, engine.vocabulary).all_phrases()
    noises = make_noises(12.0) if any(snr is not None for _, snr in conditions) else {}
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--select", action="store_true", help="clean speech only, per phrasing, all voices")
    ap.add_argument("--game", default=None, help="a game, or 'all' (default: navigation only)")
    ap.add_argument("--no-command-seconds", type=float, default=600.0, help="0: skip the no-command audio")
    ap.add_argument("--per-intent", type=int, default=6, help="phrases tested per slot-filled intent")
    ap.add_argument("--recordings", type=Path, default=None, help="folder of real speakers' WAVs (see above)")
    ap.add_argument("--noise", nargs="*", default=[], metavar="NOISE@DB",
                    help="also mixed with our noise, e.g. pink@10 babble@10 clatter@20 (default without "
                         "--recordings: pink, babble and clatter at 20, 10 and 5 dB)")
    ap.add_argument("--make-takes", type=Path, default=None, help="write espeak takes into this folder")
    ap.add_argument("--sets", default="basic", help="with --make-takes: voice check sets, comma-separated")
    ap.add_argument("--voices", nargs="*", default=HELD_OUT, help="with --make-takes: variant/speed/pitch")
    args = ap.parse_args()
    if sg.tools_available():
        sys.exit(f"missing tools: {sg.tools_available()}")
    catalog = load_catalog()
    if args.make_takes is not None:
        from audio.vocab import default_model_path, read_vocabulary

        vocab = read_vocabulary(default_model_path())
        print(f"{make_takes(args.make_takes, catalog, vocab, args.sets.split(','), args.voices)} takes written")
        return
    t0 = time.perf_counter()
    loader = ModelLoader(board=StatusBoard())
    loader.start()
    engine = loader.wait()
    if engine is None:
        sys.exit(f"model not available: {loader.reason}")
    print(f"# Voice benchmark (game={args.game or 'navigation only'})")
    print(f"model load + vocabulary + warm-up: {time.perf_counter() - t0:.2f} s; RSS {rss_mb():.0f} MB")
    if args.recordings is not None:
        conds = [("none", None)] + [(c.split("@")[0], float(c.split("@")[1])) for c in args.noise]
        run_recordings(engine, catalog, args.recordings, conds)
        print(f"\npeak RSS {rss_mb():.0f} MB")
        return
    voices = VOICES[:3] if args.quick else VOICES
    noisy_voices = voices[:3]
    noises = make_noises(12.0)
    games: list[str | None] = list(SCREENS) if args.game == "all" else [args.game]
    books: dict[str, PhraseBook] = {}
    per_phrase: dict[str, Counter] = defaultdict(Counter)
    conf: dict[str, Counter] = defaultdict(Counter)
    per_cond: dict[str, Counter] = defaultdict(Counter)
    lep: list[float] = []
    lptt: list[float] = []
    dec = aud = 0.0
    noisy = ([(c.split("@")[0], float(c.split("@")[1])) for c in args.noise] if args.noise
             else [(n, s) for n in ("pink", "babble", "clatter") for s in (20.0, 10.0, 5.0)])
    for i, game in enumerate(games):
        runs = [(voices, [("none", None)])] + ([] if args.select else [(noisy_voices, noisy)])
        for vs, conditions in runs:
            b, pp, cf, pc, le, lp, d, a = run_commands(
                engine, catalog, game, vs, conditions, noises, args.per_intent, nav=i == 0)
            books.update({f"{game}/{k}": v for k, v in b.items()})
            for key, c in pc.items():
                per_cond[key].update(c)
            if conditions[0][1] is None:  # per-phrase figures and latency: clean speech only
                for key, c in pp.items():
                    per_phrase[key].update(c)
                for key, c in cf.items():
                    conf[key].update(c)
                lep += le
                lptt += lp
            dec += d
            aud += a
    spec_of = {}
    for screen, book in books.items():
        print(f"\nscreen {screen}: {len(book.phrases)} phrases + {len(book.decoys)} decoys; dropped: {list(book.dropped)}")
        spec_of.update({t: s for t, (s, _) in book.phrases.items()})
    print("\n## Per phrase, clean speech (" + ", ".join(v.label for v in voices) + ")")
    by_intent: dict[str, Counter] = defaultdict(Counter)
    for text, c in sorted(per_phrase.items(), key=lambda kv: kv[1]["correct"]):
        spec = spec_of[text]
        by_intent[spec.name].update(c)
        n = sum(c.values())
        print(f"{c['correct']}/{n} correct, {c['wrong']} wrong  {text!r} ({spec.name})  misses: {dict(conf[text])}")
    print("\n## Per intent, clean")
    for name, c in sorted(by_intent.items()):
        n = sum(c.values())
        print(f"{name:24s} {c['correct'] / n:6.1%} correct  {c['wrong'] / n:6.1%} wrong")
    for label, keep in (("all phrases", lambda s: True), ("navigation", lambda s: s.kind == "nav"),
                        ("game intents", lambda s: s.kind == "game"), ("final actions", lambda s: s.final)):
        tot = Counter()
        for text, c in per_phrase.items():
            if keep(spec_of[text]):
                tot.update(c)
        n = sum(tot.values())
        if n:
            print(f"clean, {label:14s}: {tot['correct'] / n:6.1%} correct, {tot['wrong'] / n:5.1%} wrong accept (n={n})")
    print("\n## Per condition")
    for cond, c in per_cond.items():
        n = sum(c.values())
        print(f"{cond:16s} {c['correct'] / n:6.1%} correct  {c['wrong'] / n:6.1%} wrong accept  "
              f"{c['rejected'] / n:6.1%} rejected  (n={n})")
    for cond, voice, text, got in WRONG:
        print(f"wrong accept {cond}: {text!r} heard as {got!r} ({voice})")
    lep.sort()
    lptt.sort()
    if lep:
        print(f"\nlatency end of speech → intent, hands-free (endpointing): median {lep[len(lep) // 2]:.2f} s, "
              f"p90 {lep[int(len(lep) * 0.9)]:.2f} s (n={len(lep)})")
    if lptt:
        print(f"latency button release → intent, push-to-talk: median {lptt[len(lptt) // 2] * 1000:.0f} ms, "
              f"max {lptt[-1] * 1000:.0f} ms")
    print(f"real-time factor (grammar mode): {dec / aud:.3f} ({aud:.0f} s of audio)")
    if not args.select and args.no_command_seconds > 0:
        secs = 120.0 if args.quick else args.no_command_seconds
        run_no_command(engine, catalog, args.game, no_command_audio(secs, noises))
    print(f"\npeak RSS {rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
