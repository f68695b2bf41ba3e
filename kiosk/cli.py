"""`tablehost`: the kiosk and the tools for café staff and tests. Engines, content and sessions work
without Kivy; only `run` imports it (after setting Kivy's environment)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def _out(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def cmd_run(args: argparse.Namespace) -> int:
    import os

    from kiosk import env
    from table import paths, storage

    source = paths.data_dir()
    folder, problem = storage.choose(source)  # a read-only data folder: run in memory, warn staff
    if problem:
        os.environ["TABLEHOST_DATA"] = str(folder)
    kivy_home = os.environ.get("KIVY_HOME")
    if kivy_home and storage.write_problem(Path(kivy_home)):
        os.environ["KIVY_HOME"] = str(folder / "kivy")
    env.configure(windowed=args.windowed)
    env.apply_config()
    from kiosk.splash import start_kiosk
    from table.notices import add

    app = start_kiosk(folder)  # a splash from the first frame, with progress while content and screens load
    if problem:
        add(app.notices, "storage_readonly", folder=str(source), problem=problem)
    _stop_on_sigterm(app)
    from kivy.clock import Clock

    from kiosk import gc_policy
    from kiosk.warm_up import warm_steps

    # once the first screens are up: what first visits would build anyway, then the collector's policy
    Clock.schedule_once(lambda _dt: gc_policy.settle_after(warm_steps(app)), 5.0)
    app.run()
    return 0


def _stop_on_sigterm(app: Any) -> None:
    """systemctl stop / restart sends SIGTERM: close the game journal, narration and phones cleanly (the
    journal is safe anyway; this makes the stop quick instead of waiting for SIGKILL)."""
    import signal

    def handler(signum: int, _frame: Any) -> None:
        from kivy.clock import Clock

        logging.getLogger(__name__).info("signal %d: stopping", signum)
        app._allow_exit = True
        Clock.schedule_once(lambda dt: app.stop(), 0)

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


def _library() -> Any:
    """The shipped content with the café's overlay (the data folder's content/), as the kiosk loads it."""
    from content.loader import load_library
    from table.paths import data_dir

    overlay = data_dir() / "content"
    return load_library(overlay=overlay if overlay.is_dir() else None)


def _game_engine(name: str) -> tuple[Any, dict[str, Any]] | None:
    """The engine of a game (by library id or engine name) and its content pack; None after saying why."""
    from engines import find_engine

    game = _library().games.get(name)
    try:
        engine = find_engine(game.engine_name if game else name)
    except KeyError as exc:
        print(exc.args[0], file=sys.stderr)
        return None
    return engine, (game.pack if game else {})


def cmd_actions(args: argparse.Namespace) -> int:
    """The action vocabulary: who takes each action, whether it is final or private, its whole doc, each
    field's type and meaning, and the ids a ref field accepts (from the game's content)."""
    found = _game_engine(args.game)
    if found is None:
        return 2
    engine, pack = found
    catalogs: dict[str, list[str]] = {}
    try:
        configs = engine.example_configs(pack)
        view = engine.observe(engine.setup(configs[0], pack, 0), None)
        catalogs = {k: [n.id for n in v] for k, v in view.catalogs.items()}
    except Exception as exc:  # the vocabulary is still useful without the content's ids
        print(f"(no content ids: {exc})", file=sys.stderr)
    actions = engine.describe_actions()
    for action in actions:
        for spec in action["fields"].values():
            if spec["kind"] == "ref" and spec.get("of") in catalogs:
                spec["ids"] = catalogs[spec["of"]]
    _out({"game": engine.name, "version": engine.version, "seats": SEATS_DOC, "actions": actions,
          "catalogs": catalogs})
    return 0


SEATS_DOC = "players are seats 0..n-1 in the config's order; -1 is the table, -2 is chance"
SCENARIO_KEYS = {"config", "seed", "actions", "start", "auto_chance"}
REPLAY_DOC = """A scenario is a JSON object:
  config       the game's set-up, as the kiosk's form gives it (players, modules, case ...)
  seed         the set-up's seed (the deal); the same seed gives the same game
  actions      [{"name": ..., "seat": N, fields ...}], as `tablehost actions GAME` lists them;
               seats as in the JSON everywhere: players 0..n-1, the table -1, chance -2
  start        the moment of the first action in epoch seconds (default 1800000000)
  auto_chance  true (default): chance steps (deals, shuffles, dice) are drawn for you, seeded by
               `seed` and the action's index; false: list them yourself as seat -2 actions
Time: an action without `at` happens at start + its index (seconds); give `at` to place it later.
A timeout (e.g. Spyfall's time_up) is accepted only at or after its deadline: give it an `at`.
Unknown keys are refused. Output: the table view (or --seat N's view), the events that seat saw,
the outcome, who may act, and pending deadlines."""


def cmd_replay(args: argparse.Namespace) -> int:
    """Apply a JSON scenario (see REPLAY_DOC) and print a view, the events, the outcome."""
    import random

    from engines.core import CHANCE, RuleError, stamp

    try:
        scenario = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"cannot read scenario {args.file}: {exc}", file=sys.stderr)
        return 2
    if not isinstance(scenario, dict) or set(scenario) - SCENARIO_KEYS:
        unknown = sorted(set(scenario) - SCENARIO_KEYS) if isinstance(scenario, dict) else "not an object"
        print(f"scenario {args.file}: unknown keys {unknown} (allowed: {sorted(SCENARIO_KEYS)})", file=sys.stderr)
        return 2
    found = _game_engine(args.game)
    if found is None:
        return 2
    engine, pack = found
    seed = int(scenario.get("seed", 0))
    try:
        state = engine.setup(scenario.get("config", {}), pack, seed)
    except (RuleError, ValueError, KeyError) as exc:
        print(f"bad config: {exc}", file=sys.stderr)
        return 1
    seat = args.seat
    if seat is not None and seat not in engine.seats(state):
        print(f"--seat {seat}: the players are seats 0..{len(engine.seats(state)) - 1}", file=sys.stderr)
        return 2
    start = float(scenario.get("start", 1_800_000_000))
    events: list[dict[str, Any]] = []

    def seen(step_events: Any) -> None:
        events.extend(e.to_dict() for e in step_events if e.to is None or (seat is not None and seat in e.to))

    for index, data in enumerate(scenario.get("actions", [])):
        try:
            action = stamp(engine.action_from_dict(data), start + index)
            step = engine.apply(state, action)
        except RuleError as exc:
            who = data.get("seat") if isinstance(data, dict) else None
            print(json.dumps({"error": exc.to_dict(), "index": index, "seat": who, "action": data},
                             ensure_ascii=False), file=sys.stderr)
            print(f"action {index} (seat {who}): {exc.ko} ({exc.en})", file=sys.stderr)
            return 1
        state = step.state
        seen(step.events)
        n = 0
        while scenario.get("auto_chance", True) and engine.outcome(state) is None and CHANCE in engine.to_move(state):
            step = engine.apply(state, engine.sample_chance(state, random.Random(f"{seed}:{index}:{n}")))
            state = step.state
            seen(step.events)
            n += 1
    outcome = engine.outcome(state)
    _out({"seat": seat, "view": engine.view(state, seat), "events": events,
          "outcome": outcome.to_dict() if outcome else None, "to_move": sorted(engine.to_move(state)),
          "deadlines": [{"at": d.at, "action": d.action.to_dict()} for d in engine.deadlines(state)]})
    return 0


def cmd_content_check(args: argparse.Namespace) -> int:
    from content.loader import load_library

    overlay = Path(args.overlay) if args.overlay else None
    library = load_library(overlay=overlay)
    errors: list[object] = list(library.errors)  # content errors, then teaching and voice problems (text)
    try:
        from kiosk.teach.loader import validate_teaching
    except ImportError:  # teaching not installed
        validate_teaching = None  # type: ignore[assignment]
    if validate_teaching is not None:
        errors += validate_teaching(overlay=overlay)
    from audio.voice_choices import check as check_voice_choices

    errors += check_voice_choices(overlay)
    for err in errors:
        print(str(err))
    print(f"{len(library.games)} games loaded, {len(errors)} problems")
    return 1 if errors else 0


def cmd_narration_render(args: argparse.Namespace) -> int:
    """Pre-render every narration segment of the content into the cache (keyed by text, voice, rate)."""
    from audio.cache import progress_bar, render_all
    from content.loader import load_library
    from kiosk.narration import all_segments
    from table.paths import data_dir

    base = data_dir()
    library = load_library(overlay=base / "content")
    segments = [s for s in all_segments(library, base / "content") if args.lang in ("all", s.lang)]
    cache = Path(args.cache) if args.cache else base / "cache" / "narration"
    report = render_all(segments, cache, progress_bar(), force=args.force)
    print(f"{report.segments} segments, {report.sentences} sentences: {report.rendered} rendered, "
          f"{report.already} already cached, {len(report.failed)} failed → {cache}")
    for seg_id, reason in report.failed[:20]:
        print(f"  {seg_id}: {reason}")
    return 1 if report.failed else 0


ENV_FILE = "/etc/tablehost/floor.env"


def cmd_floor(args: argparse.Namespace) -> int:
    """The café floor page (staff, on the LAN): every table live, calls, content, statistics."""
    from dataclasses import replace

    from floor.serve import FloorSetup, read_env, run
    from table.paths import data_dir

    problem = read_env(Path(args.env), required=args.env != ENV_FILE)
    if problem:
        print(f"tablehost floor: {problem}", file=sys.stderr)
        return 2
    setup = FloorSetup.from_env(data_dir())
    if args.listen:
        host, _, port = args.listen.rpartition(":")
        setup = replace(setup, listen=host or setup.listen, web_port=int(port))
    if args.broker:
        host, _, port = args.broker.rpartition(":")
        setup = replace(setup, broker=host or args.broker, broker_port=int(port) if host else setup.broker_port)
    return run(setup)


def cmd_pin_reset(args: argparse.Namespace) -> int:
    """Set a new staff PIN and clear the lockout: the way back in when the settings were damaged (the kiosk
    then refuses every PIN) or the lock is long. Needs a shell on the tablet, i.e. someone who may."""
    from table import settings as settings_mod
    from table.paths import data_dir
    from table.pin import PinLock, valid_new_pin

    pin = args.pin
    if pin is None:
        if sys.stdin.isatty():
            import getpass

            pin = getpass.getpass("new PIN (4-8 digits): ")
            if getpass.getpass("again: ") != pin:
                print("the two PINs differ; nothing changed", file=sys.stderr)
                return 1
        else:
            pin = sys.stdin.readline().strip()
    if not valid_new_pin(pin):
        print("a PIN is 4 to 8 digits; nothing changed", file=sys.stderr)
        return 1
    path = data_dir() / "settings.json"
    settings = settings_mod.load(path)  # keeps whatever else still reads (language, branch …)
    settings.set_pin(pin)
    settings.pin_lock = PinLock()
    settings_mod.save(path, settings)
    print(f"PIN set and lockout cleared in {path}; the running kiosk takes it at the next PIN entry")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tablehost", description="TableHost (테이블 호스트)")
    sub = p.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run", help="start the kiosk")
    run.add_argument("--windowed", action="store_true", help="a normal window (development)")
    run.set_defaults(fn=cmd_run)
    act = sub.add_parser("actions", help="a game's action vocabulary as JSON")
    act.add_argument("game")
    act.set_defaults(fn=cmd_actions)
    rep = sub.add_parser("replay", help="apply a JSON scenario and print a view, events and the outcome",
                         description=REPLAY_DOC, formatter_class=argparse.RawDescriptionHelpFormatter)
    rep.add_argument("game")
    rep.add_argument("file")
    rep.add_argument("--seat", type=int, help="print this player's view and events (0..n-1, as in the JSON)")
    rep.set_defaults(fn=cmd_replay)
    content = sub.add_parser("content", help="content tools")
    csub = content.add_subparsers(dest="content_cmd", required=True)
    check = csub.add_parser("check", help="validate every content file")
    check.add_argument("--overlay", help="a café's overlay folder to check too")
    check.set_defaults(fn=cmd_content_check)
    floor = sub.add_parser("floor", help="the café floor page (staff web page on the LAN)")
    floor.add_argument("--listen", help="HOST:PORT for the page (default TABLEHOST_FLOOR_WEB or 127.0.0.1:8080)")
    floor.add_argument("--broker", help="HOST[:PORT] of mosquitto (default TABLEHOST_FLOOR_BROKER)")
    floor.add_argument("--env", default=ENV_FILE, help="the settings install.sh wrote (default %(default)s; "
                       "the environment wins over it)")
    floor.set_defaults(fn=cmd_floor)
    narr = sub.add_parser("narration", help="narration tools")
    nsub = narr.add_subparsers(dest="narration_cmd", required=True)
    render = nsub.add_parser("render", help="pre-render every narration segment into the cache")
    render.add_argument("--lang", choices=("ko", "en", "all"), default="all")
    render.add_argument("--cache", help="cache folder (default: the data folder's cache/narration)")
    render.add_argument("--force", action="store_true", help="render again what is cached")
    render.set_defaults(fn=cmd_narration_render)
    pin = sub.add_parser("pin", help="staff PIN")
    psub = pin.add_subparsers(dest="pin_cmd", required=True)
    reset = psub.add_parser("reset", help="set a new staff PIN and clear the lockout (asks for it, or reads "
                                          "one line from stdin)")
    reset.add_argument("--pin", help="the new PIN (else asked for; avoid: it stays in the shell history)")
    reset.set_defaults(fn=cmd_pin_reset)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    return int(args.fn(args))


if __name__ == "__main__":
    raise SystemExit(main())
