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

    from kiosk import env, paths, storage

    source = paths.data_dir()
    folder, problem = storage.choose(source)  # a read-only data folder: run in memory, warn staff
    if problem:
        os.environ["TABLEHOST_DATA"] = str(folder)
    kivy_home = os.environ.get("KIVY_HOME")
    if kivy_home and storage.write_problem(Path(kivy_home)):
        os.environ["KIVY_HOME"] = str(folder / "kivy")
    env.configure(windowed=args.windowed)
    env.apply_config()
    from kiosk.app import TableHostApp, register_fonts
    from kiosk.notices import add

    register_fonts()
    app = TableHostApp(data_dir=folder)
    if problem:
        add(app.notices, "storage_readonly", folder=str(source), problem=problem)
    _stop_on_sigterm(app)
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


def cmd_actions(args: argparse.Namespace) -> int:
    from engines import find_engine

    try:
        engine = find_engine(args.game)
    except KeyError as exc:
        print(exc.args[0], file=sys.stderr)
        return 2
    _out({"game": engine.name, "version": engine.version, "actions": engine.describe_actions()})
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Apply a JSON scenario {config, seed, actions:[...]} and print the table view and the outcome."""
    from content.loader import load_library
    from engines import find_engine
    from engines.core import CHANCE, RuleError, stamp

    try:
        scenario = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"cannot read scenario {args.file}: {exc}", file=sys.stderr)
        return 2
    library = load_library()
    game = library.games.get(args.game)
    try:
        engine = find_engine(game.engine_name if game else args.game)
    except KeyError as exc:
        print(exc.args[0], file=sys.stderr)
        return 2
    pack = game.pack if game else {}
    seed = int(scenario.get("seed", 0))
    try:
        state = engine.setup(scenario.get("config", {}), pack, seed)
    except (RuleError, ValueError, KeyError) as exc:
        print(f"bad config: {exc}", file=sys.stderr)
        return 1
    start = float(scenario.get("start", 1_800_000_000))
    for index, data in enumerate(scenario.get("actions", [])):
        try:
            action = stamp(engine.action_from_dict(data), start + index)
            state = engine.apply(state, action).state
        except RuleError as exc:
            print(json.dumps({"error": exc.to_dict(), "index": index, "action": data}, ensure_ascii=False),
                  file=sys.stderr)
            print(f"action {index}: {exc.ko} ({exc.en})", file=sys.stderr)
            return 1
        if scenario.get("auto_chance", True):
            import random
            n = 0
            while engine.outcome(state) is None and CHANCE in engine.to_move(state):
                state = engine.apply(state, engine.sample_chance(state, random.Random(f"{seed}:{index}:{n}"))).state
                n += 1
    outcome = engine.outcome(state)
    _out({"view": engine.view(state, None), "outcome": outcome.to_dict() if outcome else None,
          "to_move": sorted(engine.to_move(state))})
    return 0


def cmd_content_check(args: argparse.Namespace) -> int:
    from content.loader import load_library

    overlay = Path(args.overlay) if args.overlay else None
    library = load_library(overlay=overlay)
    errors = list(library.errors)
    try:
        from kiosk.teach.loader import validate_teaching
    except ImportError:  # teaching not installed
        validate_teaching = None  # type: ignore[assignment]
    if validate_teaching is not None:
        errors += validate_teaching(overlay=overlay)
    for err in errors:
        print(str(err))
    print(f"{len(library.games)} games loaded, {len(errors)} problems")
    return 1 if errors else 0


def cmd_narration_render(args: argparse.Namespace) -> int:
    """Pre-render every narration segment of the content into the cache (keyed by text, voice, rate)."""
    from audio.cache import progress_bar, render_all
    from content.loader import load_library
    from kiosk.narration import all_segments
    from kiosk.paths import data_dir

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


def cmd_floor(args: argparse.Namespace) -> int:
    """The café floor page (staff, on the LAN): every table live, calls, content, statistics."""
    from dataclasses import replace

    from kiosk.floor.serve import FloorSetup, run
    from kiosk.paths import data_dir

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
    from kiosk import settings as settings_mod
    from kiosk.paths import data_dir
    from kiosk.pin import PinLock, valid_new_pin

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
    rep = sub.add_parser("replay", help="apply a JSON scenario and print the view and outcome")
    rep.add_argument("game")
    rep.add_argument("file")
    rep.set_defaults(fn=cmd_replay)
    content = sub.add_parser("content", help="content tools")
    csub = content.add_subparsers(dest="content_cmd", required=True)
    check = csub.add_parser("check", help="validate every content file")
    check.add_argument("--overlay", help="a café's overlay folder to check too")
    check.set_defaults(fn=cmd_content_check)
    floor = sub.add_parser("floor", help="the café floor page (staff web page on the LAN)")
    floor.add_argument("--listen", help="HOST:PORT for the page (default TABLEHOST_FLOOR_WEB or 127.0.0.1:8080)")
    floor.add_argument("--broker", help="HOST[:PORT] of mosquitto (default TABLEHOST_FLOOR_BROKER)")
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
