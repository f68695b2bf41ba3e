"""kiosk.widgets.pieces: a screen built over several frames (Spyfall's set-up form)."""

from __future__ import annotations

from typing import Any

import pytest

from kiosk.widgets.kept_form import Kept

pytestmark = pytest.mark.ui


def test_pieces_run_one_per_drawn_frame_and_finish_runs_the_rest_now(driver: Any) -> None:
    from kiosk.widgets.pieces import Pieces

    ran: list[int] = []
    pieces = Pieces()
    for i in range(3):
        pieces.add(lambda i=i: ran.append(i))
    assert ran == [] and len(pieces) == 3
    seen = []
    for _ in range(6):
        driver.pump(1)
        seen.append(len(ran))
    assert ran == [0, 1, 2] and all(b - a <= 1 for a, b in zip([0, *seen[:-1]], seen, strict=True))  # never two in a frame
    pieces.add(lambda: ran.append(3))
    pieces.add(lambda: ran.append(4))
    pieces.finish()
    assert ran == [0, 1, 2, 3, 4] and len(pieces) == 0
    driver.pump(3)
    assert ran == [0, 1, 2, 3, 4]


def test_no_collection_lands_in_a_frame_that_builds_a_piece(driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The idle collector (kiosk/gc_policy.py) counts a screen built in pieces as moving: a new Mr. Jack screen's
    quick collection landed in the frame of one of its pieces, 61 ms of UI-thread CPU (bench/frames.py)."""
    from kivy.animation import Animation

    from kiosk import gc_policy
    from kiosk.widgets.pieces import Pieces, building

    # no animation of an earlier test still running on this worker's app (CI: a toast fading kept it True)
    monkeypatch.setattr(Animation, "_instances", set())

    pieces, other = Pieces(), Pieces()
    pieces.add(lambda: None)
    pieces.add(lambda: None)
    other.add(lambda: None)
    assert building() and gc_policy.animating()
    other.cancel()
    driver.pump(1)
    assert building()  # one piece of `pieces` left
    driver.pump(3)
    assert not building() and not gc_policy.animating()
    pieces.add(lambda: None)
    assert building()
    pieces.finish()
    assert not building()


def test_spyfall_setup_makes_the_seats_in_play_first_and_the_rest_after(driver: Any,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The tap that opens Spyfall the first time makes the name fields of the seats in play (a text field is 5-10 ms
    of UI-thread CPU here); the others come one per frame, and the form below them does not move as they come."""
    from kiosk.games.spyfall import setup

    monkeypatch.setattr(setup, "KEPT", Kept())  # no form kept from an earlier screen
    app = driver.app
    lo, hi = app.library.games["spyfall"].info.players
    app.host("spyfall")
    form = app.get_screen("host").ctx.host.setup_form  # (in a FitScroll: it scrolls on a short window)
    count = int(form.count)
    assert len(form.fields) == count < hi
    driver.pump(2)
    height = form.ids.names.height
    driver.wait_screen("host")
    driver.pump(hi)
    assert len(form.fields) == hi and form.ids.names.height == height
    assert [f.test_id for f in form.fields] == [f"spy_name_{i}" for i in range(hi)]
    assert [f.disabled for f in form.fields] == [i >= count for i in range(hi)]
    app.go("library")
    driver.wait_screen("library")
    app.host("watson_holmes")  # Spyfall's screen closes
    setup.KEPT.form = None
    app.host("spyfall")
    form = app.get_screen("host").ctx.host.setup_form
    assert len(form.fields) == count
    form.count = hi  # the seat count's button: more seats before the last fields came, all made at once
    assert len(form.fields) == hi and not any(f.disabled for f in form.fields)
    driver.wait_screen("host")
    driver.fill(f"spy_name_{hi - 1}", "지수")
    assert form.names()[-1] == "지수"


def test_spyfall_location_list_shows_a_screenful_first_and_a_search_starts_again(driver: Any) -> None:
    """The location list (30-40 rows, in the frame that starts a game) makes the rows that fit on screen at once,
    the rest a few per frame; a search made meanwhile drops what was still to come."""
    from engines.spyfall.views import Place
    from kiosk.games.spyfall.panels import FIRST, LocationList

    locations = [Place(f"l{i}", f"장소 {i}", f"Place {i}", ()) for i in range(30)]
    picked: list[str] = []
    lst = LocationList(locations, "ko", lambda key, **_: key, on_pick=picked.append)
    assert len(lst.shown()) == FIRST
    driver.pump(1)
    lst.query = "장소 2"  # 2, 20-29: the rows still to come are dropped, the search's rows made anew
    driver.pump(12)
    assert lst.shown() == ["spy_loc_l2"] + [f"spy_loc_l{i}" for i in range(20, 30)]
    lst.query = ""
    driver.pump(12)
    assert lst.shown() == [f"spy_loc_l{i}" for i in range(30)]
