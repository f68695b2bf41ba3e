"""The `tablehost` command line: actions, replay (including an illegal action), content check."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import engines
from kiosk.cli import main
from tests.engines import reference

ROOT = Path(__file__).resolve().parents[2]
engines.register(reference.ENGINE)


def test_actions_prints_the_vocabulary(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["actions", "secret_nim"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {a["name"] for a in data["actions"]} == {"roll", "take", "time_up"}


def test_actions_unknown_game_exits_2(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["actions", "chess"]) == 2
    assert "chess" in capsys.readouterr().err


def test_replay_prints_view_and_outcome(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    scenario = {"config": {"players": ["가", "나"], "pile": 3}, "seed": 4,
                "actions": [{"name": "roll", "seat": -2, "value": 2}, {"name": "take", "seat": 0, "n": 3}]}
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scenario, ensure_ascii=False), encoding="utf-8")
    assert main(["replay", "secret_nim", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"]["winners"] == [0] and out["view"]["pile"] == 0
    assert "hand" not in out["view"]  # the table view


def test_replay_illegal_action_exits_1_with_message_and_index(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    scenario = {"config": {"players": ["가", "나"]}, "seed": 4,
                "actions": [{"name": "roll", "seat": -2, "value": 1}, {"name": "take", "seat": 0, "n": 5}]}
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scenario), encoding="utf-8")
    assert main(["replay", "secret_nim", str(f)]) == 1
    err = capsys.readouterr().err
    first = json.loads(err.splitlines()[0])
    assert first["index"] == 1 and first["error"]["code"] == "bad_value"  # n: number(1, 3)
    assert "1부터 3까지" in err


def test_content_check_passes_on_shipped_content_and_fails_on_a_broken_overlay(tmp_path: Path) -> None:
    ok = subprocess.run([sys.executable, "-m", "kiosk.cli", "content", "check"], cwd=ROOT, capture_output=True,
                        text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = tmp_path / "games" / "clue"
    bad.mkdir(parents=True)
    (bad / "game.yaml").write_text("name: {ko: 클루}\nplayers: [3, 6]\nminutes: [45]\npitch: {ko: x}\n",
                                   encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "kiosk.cli", "content", "check", "--overlay", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 1
    assert "games/clue/game.yaml:3:" in out.stdout and "minutes" in out.stdout


def test_narration_render_fills_the_cache_and_a_second_run_renders_nothing(tmp_path: Path) -> None:
    import shutil

    if shutil.which("espeak-ng") is None:
        import pytest
        pytest.skip("espeak-ng is not installed")
    env = {**__import__("os").environ, "TABLEHOST_DATA": str(tmp_path / "data")}
    cmd = [sys.executable, "-m", "kiosk.cli", "narration", "render", "--lang", "en", "--cache", str(tmp_path / "c")]
    first = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stdout + first.stderr
    last = first.stdout.strip().splitlines()[-1]
    assert " 0 failed" in last and " 0 rendered" not in last
    assert len(list((tmp_path / "c").rglob("*.wav"))) > 20
    again = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert " 0 rendered" in again.stdout.strip().splitlines()[-1]


def test_kiosk_runs_headless_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    """`tablehost run` starts the kiosk (offscreen here) and `systemctl stop` (SIGTERM) ends it quickly."""
    import os
    import signal
    import time

    from kiosk.testing import wait_main_loop

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(TABLEHOST_DATA=str(tmp_path / "data"), TABLEHOST_NO_VOICE="1", TABLEHOST_PHONES_HOST="127.0.0.1",
               KIVY_HOME=str(tmp_path / "kivy"))
    proc = subprocess.Popen([sys.executable, "-m", "kiosk.cli", "run", "--windowed"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        logs = tmp_path / "kivy" / "logs"
        wait_main_loop(proc, lambda: list(logs.glob("*.txt")))
        time.sleep(1.0)
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert rc == 0
    text = "\n".join(p.read_text(errors="replace") for p in logs.glob("*.txt"))
    assert "Traceback" not in text


def test_replay_refuses_unknown_keys(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"config": {"players": ["가", "나"]}, "action": []}), encoding="utf-8")
    assert main(["replay", "secret_nim", str(f)]) == 2
    assert "action" in capsys.readouterr().err


def test_replay_prints_a_seats_view_and_the_events_it_saw(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    scenario = {"config": {"players": ["가", "나"], "pile": 9}, "seed": 4,
                "actions": [{"name": "roll", "seat": -2, "value": 2}, {"name": "take", "seat": 0, "n": 3}]}
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scenario, ensure_ascii=False), encoding="utf-8")
    assert main(["replay", "secret_nim", str(f), "--seat", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seat"] == 1 and "hand" in out["view"]
    assert [e["kind"] for e in out["events"]] == ["rolled", "took", "rolled"]  # the next roll drawn for us
    assert out["deadlines"] and out["deadlines"][0]["action"]["name"] == "time_up"
    assert main(["replay", "secret_nim", str(f), "--seat", "2"]) == 2


def test_actions_print_whole_docs_field_meanings_and_content_ids(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["actions", "spyfall"]) == 0
    data = json.loads(capsys.readouterr().out)
    actions = {a["name"]: a for a in data["actions"]}
    guess = actions["guess_location"]["fields"]["location"]
    assert guess["kind"] == "ref" and "batcave" in guess["ids"]
    assert actions["accuse"]["final"] and actions["accuse"]["fields"]["accused"]["kind"] == "seat"
    assert actions["choose_dealer"]["by"] == "table" and actions["deal"]["by"] == "chance"
    assert actions["enter_cards"]["doc"].endswith("Harley icon (-1 none).")  # the whole doc, not its first line
