"""Shared helpers for the teaching tests."""

from __future__ import annotations

from functools import cache

from kiosk.teach.loader import GameTeaching, load_teaching
from kiosk.teach.model import TryIt
from kiosk.teach.tryit import TryRun


@cache
def teaching(game: str) -> GameTeaching:
    gt, errors = load_teaching(game)
    assert errors == [] and gt is not None, errors
    return gt


def try_spec(game: str) -> TryIt:
    spec = next(s.try_it for s in teaching(game).teaching.steps if s.try_it is not None)
    assert spec is not None
    return spec


def fresh_run(game: str) -> TryRun:
    return TryRun(try_spec(game), teaching(game).folder).start()


def correct(run: TryRun) -> int:
    return next(i for i, c in enumerate(run.choices()) if c.correct)
