"""Dialogs made for one use (kiosk/widgets/one_use.py) are taken apart in a pause once closed and faded out, so that
reference counting frees them even frozen (kiosk/gc_policy.py: a game's screen is frozen during play, with whatever
is on show over it; a dialog closed after that was garbage until a thaw, a 150-500 ms frame). A dialog opened again
later (the question's, the rule look-up) is kept whole until it is replaced."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from kiosk import gc_policy
from tests.kiosk.conftest import spyfall_table
from tests.tables import act

pytestmark = pytest.mark.ui


def hand_over(driver: Any) -> tuple[Any, Callable[[], None]]:
    from kivy.uix.label import Label

    spyfall_table(driver)
    ctx = driver.app.get_screen("host").ctx
    ho = ctx.private("지수", lambda done: Label(text="비밀"), None, "reveal")
    driver.pump(3)
    driver.tap("handover_i_am")

    def close() -> None:
        driver.tap("handover_done")
        assert ctx.open_dialog is None

    return ho, close


def staff_pin(driver: Any) -> tuple[Any, Callable[[], None]]:
    from engines.spyfall.actions import ChooseDealer, RevealJoker, StartClock
    from kiosk.widgets.pin_dialog import StaffPinDialog

    session = spyfall_table(driver)
    act(session, ChooseDealer(-1, dealer=1))
    act(session, StartClock(-1))
    act(session, RevealJoker(session.state.round.facts.joker))
    driver.pump(3)
    driver.tap("host_undo")  # across the Joker's reveal: staff only
    ctx = driver.app.get_screen("host").ctx
    assert isinstance(ctx.open_dialog, StaffPinDialog)

    def close() -> None:
        driver.tap("staffpin_cancel")
        assert ctx.open_dialog is None

    return ctx.open_dialog, close


def phones(driver: Any) -> tuple[Any, Callable[[], None]]:
    from kiosk.phones.panel import PhonesPanel

    spyfall_table(driver)
    driver.tap("host_phones")
    driver.tap("phones_show_1")
    panel = next(w for w in driver.roots() if isinstance(w, PhonesPanel))
    return panel, lambda: driver.tap("phones_close")


def case_form(driver: Any) -> tuple[Any, Callable[[], None]]:
    from kiosk.floor.case_form import CaseForm

    driver.staff_login()
    driver.tap("staff_nav_floor")
    driver.tap("floor_case_open")
    form = next(w for w in driver.roots() if isinstance(w, CaseForm))
    return form, lambda: driver.tap("case_cancel")


def call_dialog(driver: Any) -> tuple[Any, Callable[[], None]]:
    from kiosk.floor.ui import CallDialog

    spyfall_table(driver)
    called: list[str] = []
    dialog = CallDialog(SimpleNamespace(app=driver.app, call=called.append))  # (no broker: FloorBridge's part)
    dialog.open()
    driver.pump(8)

    def close() -> None:
        driver.tap("floor_reason_rules")
        assert called == ["rules"]

    return dialog, close


def actions_menu(driver: Any) -> tuple[Any, Callable[[], None]]:
    from kivy.uix.modalview import ModalView

    from tests.kiosk.games.watson_holmes_steps import open_case, skip_opening

    session = open_case(driver)
    skip_opening(driver)
    driver.tap(f"wh_acts_{session.state.turn}")  # a player's any-time actions (Watson & Holmes)
    menu = next(w for w in driver.roots() if isinstance(w, ModalView))
    return menu, lambda: driver.tap("wh_act_close")


@pytest.mark.parametrize("opened", [hand_over, staff_pin, phones, case_form, call_dialog, actions_menu],
                         ids=lambda f: f.__name__)
def test_a_closed_one_use_dialog_is_freed_by_reference_counting_after_a_pause(driver: Any, monkeypatch: Any,
                                                                              opened: Any) -> None:
    """Opened and used by taps, frozen (as a game's screen freezes what is on show over it), closed by a tap: after
    its fade and a pause every widget of it is freed by reference counting, the collector off. Before, only the
    hand-over was taken apart (wired by hand) and without its secret; the others stayed cyclic garbage, frozen
    until a thaw."""
    collector = gc_policy.IdleCollector()  # not installed: its pause work is run by hand below
    monkeypatch.setattr(gc_policy, "COLLECTOR", collector)
    dialog, close = opened(driver)
    driver.wait_for(lambda: not gc_policy.animating())  # as the collector freezes: not while its fade-in runs
    refs = [weakref.ref(w) for w in dialog.walk(restrict=True)]
    assert len(refs) >= 4
    del dialog
    assert _alive_after(close, driver, collector, refs) == []
    assert not driver.app.errors


def test_the_recovery_overlay_is_freed_by_reference_counting_once_the_game_is_back(driver: Any,
                                                                                  monkeypatch: Any) -> None:
    """An uncaught error shows "잠시만요" over the table (kiosk/keeper.py) while the game is resumed under it, then
    closes it. A plain ModalView before, it stayed cyclic garbage, frozen until a thaw like any dialog closed during
    play; a one-use dialog now, it is taken apart and freed by reference counting."""
    from kivy.clock import Clock

    collector = gc_policy.IdleCollector()
    monkeypatch.setattr(gc_policy, "COLLECTOR", collector)
    journal = spyfall_table(driver).journal
    keeper = driver.app.keeper
    # the recovery comes 0.8 s (wall clock) after the error: held until the test has looked at the overlay (a slow
    # machine's two frames took longer, and the overlay was gone)
    recover = keeper._recover
    due: list[Any] = []
    monkeypatch.setattr(keeper, "_recover", due.append)

    def boom(_dt: float) -> None:
        raise RuntimeError("a bug in a screen")

    Clock.schedule_once(boom, 0)
    driver.pump(2)
    overlay = next(w for w in driver.roots() if getattr(w, "test_id", "") == "recovering")
    refs = [weakref.ref(w) for w in overlay.walk(restrict=True)]
    assert len(refs) == 2  # the overlay and its words
    del overlay

    def recovered() -> None:
        driver.wait_for(lambda: bool(due), 5)
        recover(due.pop())
        driver.wait_for(lambda: not keeper.recovering, 5)

    assert _alive_after(recovered, driver, collector, refs) == []
    assert driver.app.table.playing and driver.app.table.journal is not journal  # the game resumed
    assert "a bug in a screen" in driver.app.errors.pop() and not driver.app.errors


def _alive_after(close: Callable[[], None], driver: Any, collector: Any, refs: list[Any]) -> list[str]:
    """Frozen (as a game's screen freezes what is on show over it) and closed by `close`: the widgets in `refs` still
    alive after its fade and the pauses' work (`collector`'s, run by hand), the collector off (what is freed is
    freed by reference counting)."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        close()
        for _ in range(40):  # its fade, then pauses
            driver.pump(1)
            collector.take_closed()
        _while_animated(refs, driver, collector)
        return [type(w).__name__ for r in refs if (w := r()) is not None]
    finally:
        gc.enable()
        gc.unfreeze()


def _while_animated(refs: list[Any], driver: Any, collector: Any, timeout: float = 5.0) -> None:
    """Frames (and the pauses' work) for as long as a running animation holds one of the widgets in `refs`: Kivy's
    Animation holds what it animates until it ends, and a ScrollView fades its scroll bar for 0.5 s from 0.5 s after
    it last moved (its own clock event, cancelled by the take-apart; the fade, once started, is not). Once it ends,
    reference counting frees the scroll view: a time on Kivy's clock, not a number of frames (under
    tests/fastclock.py 3 a look-up's ScrollView and BoxLayout were still alive 10 frames after its take-apart). An
    animation that never ends (or anything else holding them) still leaves them alive."""
    import time

    from kivy.animation import Animation

    def animated() -> bool:
        held = {id(d["widget"]) for a in list(Animation._instances) for d in a._widgets.values()}
        return any(id(w) in held for r in refs if (w := r()) is not None)

    end = time.monotonic() + timeout
    while animated() and time.monotonic() < end:
        driver.pump(1)
        collector.take_closed()


def test_reused_dialogs_stay_whole_until_replaced(driver: Any, monkeypatch: Any) -> None:
    """The question's dialog is asked again, and the rule look-up opened again for the same game: closed, neither is
    taken apart (a tap on it would do nothing). A look-up replaced by one for another game is closed and freed."""
    from kiosk.teach.lookup_view import RuleLookup, open_lookup
    from kiosk.widgets.dialogs import ConfirmDialog

    collector = gc_policy.IdleCollector()
    monkeypatch.setattr(gc_policy, "COLLECTOR", collector)
    spyfall_table(driver)
    ctx = driver.app.get_screen("host").ctx
    said: list[str] = []
    ctx.confirm("가", lambda: said.append("first"))
    driver.pump(3)
    question = ConfirmDialog.showing()
    driver.tap("confirm_no")
    driver.wait_for(lambda: question.parent is None)  # faded out: a tap during its fade goes to it (Kivy's ModalView)
    driver.tap("help")
    lookup = next(w for w in driver.roots() if isinstance(w, RuleLookup))
    driver.tap("lookup_close")
    for _ in range(20):
        driver.pump(1)
        collector.take_closed()
    assert not collector.closed and not collector.dropped
    ctx.confirm("나", lambda: said.append("second"))
    driver.pump(3)
    assert ConfirmDialog.showing() is question
    driver.tap("confirm_yes")
    assert said == ["second"]
    driver.wait_for(lambda: question.parent is None)
    driver.tap("help")
    assert next(w for w in driver.roots() if isinstance(w, RuleLookup)) is lookup
    driver.tap("lookup_close")
    refs = [weakref.ref(w) for w in lookup.walk(restrict=True)]
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        del lookup
        open_lookup(game_id="clue").dismiss(animation=False)  # another game's: the last one replaced
        for _ in range(10):
            driver.pump(1)
            collector.take_closed()
        _while_animated(refs, driver, collector)
        assert [type(w).__name__ for r in refs if (w := r()) is not None] == []
    finally:
        gc.enable()
        gc.unfreeze()
    assert not driver.app.errors
