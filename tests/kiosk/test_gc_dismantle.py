"""A closed game's screen is taken apart (kiosk/widgets/dismantle.py): reference counting frees most of it even
while frozen, so that a thaw (a traversal of every object, kiosk/gc_policy.py) is rarely needed."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from kiosk import gc_policy

pytestmark = pytest.mark.ui

GAMES = ("spyfall", "watson_holmes", "mr_jack_ny", "clue")


def start(driver: Any, game: str, seed: int, actions: int) -> Any:
    from engines import find_engine

    app = driver.app
    app.host(game)
    driver.wait_screen("host")
    ctx = app.get_screen("host").ctx
    g = app.library.games[game]
    ctx.start(find_engine(g.engine_name).example_configs(g.pack)[0], seed=seed)
    for _ in range(actions):
        legal = [a for seat in range(6) for a in ctx.session.legal(seat)]
        if legal and ctx.session.outcome is None:
            ctx.dispatch(legal[seed % len(legal)])
        driver.pump(2)
    return ctx


def test_a_closed_frozen_game_screen_is_mostly_freed_by_reference_counting(driver: Any, monkeypatch: Any) -> None:
    """Each game's screen, played, frozen (as during play) and closed: at least half of what it leaves is freed
    at once by reference counting (measured 61-96 %; before, 0-3 %: all of it waited for a thaw); the next
    screen of the same game takes its kept set-up form intact and plays."""
    monkeypatch.setattr(gc_policy, "COLLECTOR", None)  # taken apart at once
    app = driver.app
    freed: dict[str, float] = {}
    try:
        for game in GAMES:
            start(driver, game, seed=1, actions=4)
            gc.collect()
            gc.freeze()
            frozen = gc.get_freeze_count()
            app.go("detail")
            driver.pump(2)
            app.get_screen("host").clear_body()
            driver.pump(3)
            by_refcount = frozen - gc.get_freeze_count()
            gc.unfreeze()
            cyclic = gc.collect()  # what is left of the screen (and a few frames' garbage)
            freed[game] = by_refcount / (by_refcount + cyclic)
    finally:
        gc.unfreeze()
    # alone here: Clue 0.92-0.96, Spyfall 0.77-0.80, W&H 0.61-0.68, Mr. Jack 0.62-0.65 (old code 0.004); after
    # other tests in the same process Spyfall's share was 0.45 (something of an earlier test holds part of it)
    assert min(freed.values()) > 0.4, freed
    for game in GAMES:  # a kept set-up form was left out: the next screen takes it and its game starts
        ctx = start(driver, game, seed=2, actions=2)
        assert ctx.session is not None and ctx.host.children
    assert not app.errors
