"""kiosk/widgets/dialogs.py: the confirmation dialog, made once and asked again."""

from __future__ import annotations

from typing import Any

import pytest


def test_a_closed_confirmation_asks_the_next_question_with_its_own_words_and_answers(driver: Any) -> None:
    """The next question reuses the closed dialog (made anew it cost 10-20 ms of UI-thread CPU): its words,
    its colour and its answers are the new question's; a closed dialog keeps no callback of the last one."""
    app = driver.app
    app.host("spyfall")
    driver.wait_screen("host")
    ctx = app.get_screen("host").ctx
    said: list[str] = []
    ctx.confirm(app.tr("host.confirm_undo"), lambda: said.append("undo"))
    driver.pump(3)
    first = ctx.open_dialog
    assert first.message.text == app.tr("host.confirm_undo") and first.yes_button.kind == "primary"
    driver.tap("confirm_no")
    driver.wait_for(lambda: first.parent is None)
    assert said == [] and ctx.open_dialog is None and first.under is None
    ctx.confirm(app.tr("host.confirm_end"), lambda: said.append("end"), danger=True)
    driver.pump(3)
    second = ctx.open_dialog
    assert second is first and second.message.text == app.tr("host.confirm_end")
    assert second.yes_button.kind == "danger" and driver.find("confirm_yes") is second.yes_button
    driver.screenshot("confirm_reused")
    driver.tap("confirm_yes")
    assert said == ["end"]
    second._on_yes()  # what a closed dialog still holds does nothing
    assert said == ["end"] and second._on_no is None


def test_a_question_asked_while_another_is_on_show_replaces_it(driver: Any) -> None:
    """One question at a time: the game's question asked while the idle check's is on show (a phone's
    accusation, say) takes its place in the same dialog, the old one cancelled as its caller asked (the idle
    check: somebody is there); stacked, the one under waited for an answer to a question nobody remembered
    (bench/frames.py: three on top of each other)."""
    from kivy.core.window import Window

    from kiosk.widgets.dialogs import ConfirmDialog

    app = driver.app
    app.host("spyfall")
    driver.wait_screen("host")
    ctx = app.get_screen("host").ctx
    ctx.start({"players": ["지수", "민호", "서연", "도윤"], "rounds": 2}, seed=4)
    driver.pump(3)
    app.keeper.last_touch -= app.keeper.idle_seconds + 1
    app.keeper.check_idle()
    driver.pump(3)
    asking = app.keeper.asking
    assert asking is not None and asking.message.text == app.tr("table.still_playing")
    said: list[str] = []
    ctx.confirm(app.tr("host.confirm_end"), lambda: said.append("end"), danger=True)
    driver.pump(3)
    shown = [w for w in Window.children if isinstance(w, ConfirmDialog)]
    assert shown == [asking] and asking.message.text == app.tr("host.confirm_end")  # the same dialog, asked again
    assert app.keeper.asking is None and app.table.playing  # cancelled as still playing, not as "left"
    assert ctx.open_dialog is asking and asking.under is None
    driver.tap("confirm_yes")
    assert said == ["end"] and ctx.open_dialog is None
    assert ConfirmDialog.showing() is None


def test_a_kept_dialog_tells_its_questions_apart(driver: Any) -> None:
    """Whoever asked (voice) closes its own question only: the kept dialog may hold another one since."""
    from kiosk.widgets.dialogs import ConfirmDialog

    first = ConfirmDialog.ask("가", "네", "아니요", lambda: None)
    asked = first.asked
    first._answer(False)
    driver.wait_for(lambda: not first._is_open)
    second = ConfirmDialog.ask("나", "네", "아니요", lambda: None)
    assert second is first and second.asked != asked
    second._answer(False)


@pytest.mark.parametrize("closed_by", ["dismiss_dialogs", "recovery"])
def test_the_idle_check_asks_again_after_its_question_is_closed_without_an_answer(driver: Any, closed_by: str) -> None:
    """The idle check's question closed by another path than its buttons (every dialog closed at once: a turnover's
    `dismiss_dialogs`, the recovery after an uncaught error) is cancelled as by the next question: somebody is
    there, the idle count starts again, and the table is asked again once idle. Before, `asking` stayed set and
    the idle check never asked again: a table left after that kept its game on show for good."""
    from kivy.clock import Clock

    from kiosk.widgets.dialogs import ConfirmDialog

    app = driver.app
    app.host("spyfall")
    driver.wait_screen("host")
    app.get_screen("host").ctx.start({"players": ["지수", "민호", "서연", "도윤"], "rounds": 2}, seed=4)
    driver.pump(3)
    keeper = app.keeper
    keeper.last_touch -= keeper.idle_seconds + 1
    keeper.check_idle()
    driver.pump(3)
    assert keeper.asking is not None and ConfirmDialog.showing() is keeper.asking
    if closed_by == "dismiss_dialogs":
        app.dismiss_dialogs()
    else:
        def boom(_dt: float) -> None:
            raise RuntimeError("a bug in a screen")

        Clock.schedule_once(boom, 0)
        driver.pump(2)
        driver.wait_for(lambda: not keeper.recovering, 5)
        driver.wait_screen("host")
    driver.pump(3)
    assert ConfirmDialog.showing() is None and app.table.playing
    assert keeper.asking is None and keeper.idle_for() < 10  # somebody was there: counted from now
    keeper.last_touch -= keeper.idle_seconds + 1
    keeper.check_idle()
    driver.pump(3)
    shown = ConfirmDialog.showing()
    assert shown is not None and shown is keeper.asking and shown.message.text == app.tr("table.still_playing")
    driver.tap("confirm_yes")
    assert keeper.asking is None and app.sm.current == "host"


def test_a_withdrawn_question_closes_at_once_and_answers_nothing(driver: Any) -> None:
    """Voice asked and the guest answered by voice (네): voice takes its question back. It goes at once (no fade the
    next question would have to wait for), calls none of its answers (not even the cancel a closing by another
    path calls: the action already ran), keeps none of them, and the next question is asked in the same dialog."""
    from kivy.core.window import Window

    from kiosk.widgets.dialogs import ConfirmDialog

    said: list[str] = []
    dlg = ConfirmDialog.ask("가", "네", "아니요", lambda: said.append("yes"), on_no=lambda: said.append("no"),
                            on_cancel=lambda: said.append("cancel"))
    driver.pump(3)
    assert ConfirmDialog.showing() is dlg
    dlg.withdraw()
    assert dlg not in Window.children and not dlg._is_open and ConfirmDialog.showing() is None
    driver.pump(3)
    assert said == [] and dlg._on_no is None and dlg._on_cancel is None
    dlg._on_yes()
    assert said == []
    again = ConfirmDialog.ask("나", "네", "아니요", lambda: said.append("yes 2"))
    driver.pump(3)
    assert again is dlg and ConfirmDialog.showing() is dlg
    driver.tap("confirm_yes")
    assert said == ["yes 2"]


def _asked(driver: Any, on_yes: Any) -> Any:
    """Spyfall's screen on show with the undo question asked over it: the dialog."""
    app = driver.app
    app.host("spyfall")
    driver.wait_screen("host")
    ctx = app.get_screen("host").ctx
    ctx.confirm(app.tr("host.confirm_undo"), on_yes)
    driver.pump(3)
    return ctx.open_dialog


def test_a_tap_right_after_an_answer_reaches_the_screen_while_the_dialog_fades(driver: Any) -> None:
    """예 tapped, the dialog fades out (0.1 s); a tap on the screen under it in the next frame is the screen's (Kivy's
    modal took every touch until its fade ended: a guest's quick next tap was lost)."""
    from kivy.core.window import Window

    app = driver.app
    said: list[str] = []
    dialog = _asked(driver, lambda: said.append("yes"))
    driver.tap("confirm_yes", frames=1)
    assert said == ["yes"] and dialog in Window.children  # still fading out
    target = driver.find("host_phones") if not driver.find("host_phones").disabled else driver.find("help")
    pressed: list[str] = []
    target.fbind("on_release", lambda *_: pressed.append("tap"))
    touch = driver._touch(target)
    touch.touch_down()
    touch.touch_up()
    assert pressed == ["tap"] and dialog in Window.children  # the fading dialog let it through
    driver.wait_for(lambda: dialog not in Window.children)
    app.dismiss_dialogs()
