"""The table reporter: what changes the status, game start and end events (scores as the table sees them),
and a kiosk restart that resumes a game without reporting it twice."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import engines
from floor.report import TableReporter
from tests.floor.test_no_secrets import PlaySession, step


def _reporter(tmp: Path, sent: list[tuple[str, Any]], clock: list[float]) -> TableReporter:
    return TableReporter("t01", lambda topic, payload, retain=False, key="": sent.append((topic, payload)),
                         tmp / "table.json", clock=lambda: clock[0])


def _play_to_the_end(session: PlaySession, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(5000):
        if session.outcome is not None:
            return
        if step(session, rng):
            session.now += 5


def test_seating_a_table_is_published_though_clocks_alone_are_not(tmp_path: Path) -> None:
    sent: list[tuple[str, Any]] = []
    clock = [1000.0]
    r = _reporter(tmp_path, sent, clock)
    r.send_status()
    r.seated()
    assert [p["seated_s"] for _, p in sent] == [None, 0]
    clock[0] += 30
    r.send_status()
    assert len(sent) == 2  # only the clock moved
    r.left()
    assert sent[-1][1]["seated_s"] is None


def test_game_events_once_with_the_table_scores_and_no_repeat_after_a_restart(tmp_path: Path) -> None:
    sent: list[tuple[str, Any]] = []
    clock = [1_800_000_000.0]
    engine = engines.find_engine("clue")
    from tests.packs import pack_for

    session = PlaySession(engine, engine.example_configs(pack_for("clue"))[0], 3, "clue")
    r = _reporter(tmp_path, sent, clock)
    r.observe(session)
    r.observe(session)
    again = _reporter(tmp_path, sent, clock)  # the kiosk restarted and resumed the same game
    again.observe(session)
    started = [p for t, p in sent if t.endswith("/event") and p["kind"] == "game_started"]
    assert len(started) == 1 and started[0]["players"] == 3
    _play_to_the_end(session, 3)
    clock[0] += 600
    again.observe(session)
    again.observe(None)  # the table is turned over after the end: no second "ended"
    ended = [p for t, p in sent if t.endswith("/event") and p["kind"] == "game_ended"]
    assert len(ended) == 1 and ended[0]["finished"] and ended[0]["minutes"] == 10.0
    names = [p["name"] for p in session.view(None)["players"]]
    assert set(ended[0]["winners"]) <= set(names)
    assert sent[-1][1]["game"] is None and sent[-1][0].endswith("/status")


def test_a_table_turned_over_mid_game_reports_it_abandoned(tmp_path: Path) -> None:
    sent: list[tuple[str, Any]] = []
    engine = engines.find_engine("spyfall")
    from tests.packs import pack_for

    session = PlaySession(engine, engine.example_configs(pack_for("spyfall"))[0], 1, "spyfall")
    r = _reporter(tmp_path, sent, [1_800_000_000.0])
    r.observe(session)
    r.observe(None)
    ended = [p for _, p in sent if p.get("kind") == "game_ended"]
    assert len(ended) == 1 and not ended[0]["finished"] and ended[0]["reason"] == "abandoned"
