"""Clue's table does little in the frame of a tap: what a turn shows later (the rooms to enter, a suggestion's and
the accusation's buttons) is made ahead, a grid per frame after the start, and a player's row changes in place.
Driven by taps; what a guest sees is checked in screenshots."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui

SUSPECTS = ("scarlet", "mustard", "white", "green", "peacock", "plum")


def _host(driver: Any) -> Any:
    return driver.app.get_screen("host").ctx.host


def _start(driver: Any, players: int = 3) -> Any:
    driver.app.host("clue")
    driver.wait_screen("host")
    driver.tap(f"clue_count_{players}")
    driver.tap("clue_start")
    driver.app.dismiss_dialogs()  # the round of hands (tested in test_clue.py)
    driver.pump(20)  # the rows, then the grids made ahead, one per frame
    assert not _host(driver).pieces
    return driver.app.table


def _check(driver: Any, name: str) -> None:
    assert driver.screenshot(name).stat().st_size > 5000
    assert driver.small_targets() == [] and driver.overflowing_labels() == []


def test_the_accusation_tap_makes_no_widget(driver: Any) -> None:
    """The accusation's 21 buttons were made in the frame of the tap on 고발 (12-50 ms of UI-thread CPU here):
    now ahead, laid out at their size, and the tap only shows them."""
    session = _start(driver)
    host = _host(driver)
    made = host.keep.made
    driver.tap("clue_accuse")
    assert host.keep.made == made
    env = session.state.envelope
    for key, cid in zip(("suspect", "weapon", "room"), env, strict=True):
        driver.tap(f"clue_acc_{key}_{cid}")
        assert driver.find(f"clue_acc_{key}_{cid}").selected
    assert not driver.find("clue_acc_go").disabled
    _check(driver, "clue_accuse_made_ahead")


def test_rooms_and_suggestion_buttons_are_made_ahead(driver: Any) -> None:
    """Rolling shows the rooms to enter, entering one the suggestion's 12 buttons: those buttons are the ones made
    after the start, not made in the tap's frame."""
    _start(driver)
    host = _host(driver)
    ahead = {w.test_id: w for w in host.keep._widgets.values() if getattr(w, "test_id", "").startswith(
        ("clue_room_", "clue_sus_", "clue_wpn_"))}
    assert len(ahead) == 9 + 6 + 6 and all(w.parent is None or w.parent.parent is None for w in ahead.values())
    driver.tap("clue_roll")  # the first move: every room may be entered
    rooms = [w for w in driver.walk() if getattr(w, "test_id", "").startswith("clue_room_")]
    assert len(rooms) == 9
    assert rooms and all(w is ahead[w.test_id] for w in rooms)
    _check(driver, "clue_rooms_made_ahead")
    driver.tap(rooms[0])
    shown = [w for w in driver.walk() if getattr(w, "test_id", "").startswith(("clue_sus_", "clue_wpn_"))]
    assert len(shown) == 12 and all(w is ahead[w.test_id] for w in shown)
    driver.tap("clue_sus_plum")
    assert driver.find("clue_sus_plum").selected
    _check(driver, "clue_suggestion_made_ahead")


def test_a_tap_before_the_grids_are_made_keeps_what_it_shows(driver: Any) -> None:
    """A guest who opens the accusation before its grids are made ahead: they are made then, and a part made
    ahead later neither takes them off the screen nor clears a pick."""
    app = driver.app
    app.host("clue")
    driver.wait_screen("host")
    driver.tap("clue_start", frames=0)
    app.dismiss_dialogs()
    driver.pump(2)  # the start's frame, the actions' (test_new_tables.py)
    host = _host(driver)
    assert len(host.pieces) > 5  # the rows and the grids to come
    driver.tap("clue_accuse", frames=1)
    driver.tap("clue_acc_suspect_plum", frames=0)
    assert host.pieces
    driver.pump(20)
    assert not host.pieces
    plum = driver.find("clue_acc_suspect_plum")
    assert plum.selected and plum.get_root_window() is not None
    assert len([w for w in driver.walk() if getattr(w, "test_id", "").startswith("clue_acc_")]) == 21 + 2
    _check(driver, "clue_accuse_before_ahead")


def test_a_wrong_accusation_changes_the_row_in_place(driver: Any) -> None:
    """Covers CLUE-52, CLUE-47: the wrong accuser's row says they are out, greyed; the row is the same widget,
    changed in place (made again, it was most of the confirm tap's 47-76 ms of UI-thread CPU with voice on); the
    envelope's hand-over comes in the frame after the tap's."""
    from kiosk.games.clue.parts import ClueText
    from kiosk.widgets.handover import HandOver
    from kiosk.widgets.theme import MUTED

    session = _start(driver)
    env = session.state.envelope
    row = driver.find("clue_notebook_0").parent
    label = next(w for w in row.children if isinstance(w, ClueText))
    before = label.text
    driver.tap("clue_accuse")
    driver.tap(f"clue_acc_suspect_{next(s for s in SUSPECTS if s != env[0])}")
    driver.tap(f"clue_acc_weapon_{env[1]}")
    driver.tap(f"clue_acc_room_{env[2]}")
    driver.tap("clue_acc_go")
    driver.tap("confirm_yes", frames=1)  # the tap's frame: the table changes
    assert 0 in session.state.eliminated and not any(isinstance(w, HandOver) for w in driver.roots())
    driver.pump(1)  # the next: the envelope's hand-over to the accuser
    assert [w.name for w in driver.roots() if isinstance(w, HandOver)] == [session.view(None)["players"][0]["name"]]
    assert driver.find("clue_notebook_0").parent is row and label.text != before
    assert tuple(label.color) == tuple(MUTED) and label.text == row.label.text
    assert not driver.find_all("clue_acc_go") and _host(driver).accusing is False  # the next turn's panel
    app = driver.app
    app.dismiss_dialogs()  # the envelope, for the accuser alone (test_clue.py)
    driver.pump(5)
    _check(driver, "clue_wrong_accuser_row")


def test_the_next_screen_borrows_the_buttons_made_ahead(driver: Any) -> None:
    """A turn's buttons made ahead are lent to the next Clue screen (no new objects per table for the collector);
    the closed screen is freed (no shelved button keeps it), and the borrowed buttons work there."""
    import gc
    import weakref

    app = driver.app
    _start(driver)
    first = _host(driver)
    ahead = {w.test_id: w for w in first.keep.under("clue/body/right/act/act_accuse").values() if getattr(w, "test_id", "")}
    assert len(ahead) == 21 + 2
    driver.tap("clue_accuse")  # shown in the first screen; then the game ends and that screen closes
    old = weakref.ref(first)
    del first
    driver.tap("host_end")
    driver.tap("confirm_yes")
    assert not app.table.playing
    app.go("library")
    driver.wait_screen("library")
    app.host("spyfall")  # another game's screen closes this one
    driver.wait_screen("host")
    gc.collect()
    assert old() is None  # the shelved buttons do not keep the closed screen alive
    session = _start(driver)
    host = _host(driver)
    made = host.keep.made
    driver.tap("clue_accuse")
    shown = {w.test_id: w for w in driver.walk() if getattr(w, "test_id", "").startswith("clue_acc_")}
    assert shown.keys() == ahead.keys() and all(w is ahead[k] for k, w in shown.items())
    assert host.keep.made == made and not any(w.selected for w in shown.values())
    env = session.state.envelope
    for key, cid in zip(("suspect", "weapon", "room"), env, strict=True):
        driver.tap(f"clue_acc_{key}_{cid}")
    driver.tap("clue_acc_go")
    driver.tap("confirm_yes")
    assert session.outcome is not None and session.outcome.winners == (0,)
