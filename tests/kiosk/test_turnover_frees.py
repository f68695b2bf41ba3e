"""Table turnover lets the game screen go: nothing keeps the last game's widgets alive (memory over an hour
of play, bench/memory.py)."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest

from tests.kiosk.refchain import chain

pytestmark = pytest.mark.ui


def test_turnover_frees_the_game_screen_after_typing_a_name(driver: Any) -> None:
    """A name typed in the set-up form: Kivy's TextInput remembered that field in a class-level closure
    (`_adjust_viewport`, a Clock.triggered function) and through it the whole game screen after every turnover
    (fails on the old code: the Mr. Jack host stayed alive)."""
    app = driver.app
    app.host("mr_jack_ny")
    driver.wait_screen("host")
    driver.fill("mj_name_detective", "민호")
    host = weakref.ref(app.get_screen("host").host_widget)
    assert host() is not None
    app.keeper.new_table()
    driver.wait_screen("attract")
    driver.pump(4)
    gc.collect()
    assert host() is None, chain(host())
