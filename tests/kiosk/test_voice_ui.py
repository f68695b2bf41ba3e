"""Voice in the kiosk, with the recogniser's fake engine (text in place of speech): per-screen grammar,
"들은 말", navigation, a game intent dispatched as the same action touch sends, confirmation of a final
action by tap, and the mic button hidden when voice is unavailable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from audio.asr import VoiceController
from kiosk.testing import stop_voice
from tests.audio.voice_fakes import FakeEngine
from tests.kiosk.conftest import spyfall_table
from tests.tables import act

pytestmark = pytest.mark.ui


def say(controller: VoiceController, text: str) -> None:
    controller.press()
    controller.feed(text.encode("utf-8"))
    controller.feed(b"")
    controller.release()


@pytest.fixture
def voice(driver: Any) -> Any:
    app = driver.app
    engine = FakeEngine()
    controller = VoiceController(engine=engine)
    controller.mic_available(True)
    app.start_voice(controller=controller)
    driver.pump(3)
    yield app.voice
    stop_voice(app)


def test_grammar_follows_the_screen_and_navigation_works(driver: Any, voice: Any) -> None:
    controller = voice.controller
    assert voice.bar.opacity == 1
    driver.tap("start")
    driver.wait_screen("library")
    assert controller.screen == "library"
    say(controller, "이전")
    driver.wait_screen("attract")
    assert "들은 말: 이전" in voice.bar.heard.text
    assert driver.app.toast_widget.last_text == voice.bar.heard.text
    say(controller, "아무말 대잔치")
    driver.pump(3)
    assert "알아듣지 못했어요" in voice.bar.heard.text
    # not understood: the toast suggests what this screen accepts, best-measured phrasing first
    toast = driver.app.toast_widget.last_text
    assert "이렇게 말해 보세요: " in toast and "계속" in toast.split("\n")[1]
    driver.screenshot("voice_not_understood")
    assert driver.overflowing_labels() == []


def test_game_intent_dispatches_the_same_action_as_touch(driver: Any, voice: Any) -> None:
    session = spyfall_table(driver)
    grammar = voice.controller.book().grammar
    assert any("민호" in phrase for phrase in grammar)  # names from the table view
    before = session.count
    say(voice.controller, "딜러 민호")
    driver.pump(4)
    assert session.count > before
    assert voice.dispatched and voice.dispatched[-1].NAME == "choose_dealer"
    assert voice.dispatched[-1].dealer == 1
    assert driver.find("voice_mic").opacity == 1
    driver.screenshot("voice_host_bar")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []


def test_voice_does_not_start_the_clock_before_every_card_is_seen(driver: Any, voice: Any) -> None:
    """Voice asks the screen (GameHost.holds_back) as the greyed button does: the Spyfall clock waits until
    every player has seen their card, whichever way it is asked for."""
    from tests.kiosk.games.test_spyfall import _see_cards

    app = driver.app
    session = spyfall_table(driver)
    say(voice.controller, "딜러 민호")
    driver.wait_for(lambda: bool(driver.find_all("spy_start_clock")))
    before = session.count
    say(voice.controller, "게임 시작")
    driver.pump(4)
    why = driver.find("spy_start_clock").why
    assert session.count == before and why and app.toast_widget.last_text == why
    _see_cards(driver)
    say(voice.controller, "게임 시작")
    driver.pump(4)
    assert session.count > before and voice.dispatched[-1].NAME == "start_clock"


def test_final_action_waits_for_confirmation(driver: Any, voice: Any) -> None:
    say(voice.controller, "새 게임")
    driver.pump(4)
    assert voice.confirm_dialog is not None  # "새 게임" is final: nothing happened yet
    assert voice.confirm_dialog.message.text == "'새 게임', 이대로 할까요? (네 / 아니요)"  # said back once
    assert driver.app.sm.current == "attract"
    driver.screenshot("voice_confirm")
    driver.tap("confirm_yes")
    driver.wait_screen("library")


def test_mic_button_hides_without_a_microphone(driver: Any, voice: Any) -> None:
    voice.controller.mic_available(False, "no microphone")
    driver.wait_for(lambda: voice.bar.opacity == 0)  # the bridge's next tick (every 0.2 s) reads it
    assert voice.bar.disabled
    voice.controller.mic_available(True)
    driver.wait_for(lambda: voice.bar.opacity == 1)
    assert not voice.bar.disabled


def test_teaching_steps_follow_voice(driver: Any, voice: Any) -> None:
    """Covers teaching navigation by voice: 다음 on the teaching screen moves to the next step."""
    app = driver.app
    app.teach("spyfall")
    driver.wait_screen("teach")
    assert driver.find("voice_mic").opacity == 1
    screen = app.get_screen("teach")
    before = screen.index
    say(voice.controller, "다음")
    driver.pump(4)
    assert voice.controller.screen == "teach"
    assert screen.index == before + 1
    driver.screenshot("voice_teach")


def test_a_tap_on_the_rule_lookup_in_the_frame_voice_opened_it(driver: Any, voice: Any,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """"도움말" opens the rule look-up from the clock; a guest's tap on its search field in that frame raised
    IndexError in Kivy (the field's lines were laid out only in the next frame): bench/frames.py crashed so."""
    from kiosk.teach import lookup_view

    monkeypatch.setattr(lookup_view, "_kept", [])  # made anew, as the first time after start
    spyfall_table(driver)
    say(voice.controller, "도움말")
    driver.pump(1)  # the frame whose clock hears it and opens the look-up
    field = driver.find("lookup_input")
    driver.tap(field)
    assert driver.app.keyboard.visible and driver.app.keyboard.target is field and field.focus
    driver.tap("kb_done")
    driver.tap("lookup_close")


def test_only_a_guests_command_counts_as_input_for_the_collector(driver: Any, voice: Any, monkeypatch: Any) -> None:
    """The kiosk collects only when nobody touched the screen or spoke a command for a while
    (kiosk/gc_policy.py). The mic's listening light turning on and off, and a press with nothing said, are not a
    guest at the screen: counted as input, voice every ~1.5 s kept the collector from ever finding a pause (the
    closed screens were never taken apart, RSS 790 MB in bench/frames.py). A command heard is."""
    from kiosk import gc_policy

    noted: list[str] = []
    monkeypatch.setattr(gc_policy, "note_voice", lambda: noted.append(voice.controller.phase.value))
    controller = voice.controller
    controller.press()
    controller.release()  # nothing said: the light goes on and off
    driver.pump(3)
    assert noted == []
    say(controller, "이전")
    driver.pump(3)
    assert noted, "a command heard counts as input"


def test_help_said_twice_opens_one_rule_lookup(driver: Any, voice: Any) -> None:
    """"도움말" while the rule look-up is on show brings up the same dialog, not a second one on top: the guests
    needed as many closes as they had asked, and every dialog stayed alive under the next (bench/frames.py: 7
    look-ups alive after four games, ~120 observers and 8 clock events each)."""
    from kivy.core.window import Window

    from kiosk.teach.lookup_view import RuleLookup

    spyfall_table(driver)
    for _ in range(3):
        say(voice.controller, "도움말")
        driver.pump(3)
    assert len([w for w in Window.children if isinstance(w, RuleLookup)]) == 1
    assert len(driver.find_all("lookup_input")) == 1
    driver.tap("lookup_close")
    driver.pump(2)
    assert not [w for w in Window.children if isinstance(w, RuleLookup)]
    assert driver.app.sm.current == "host"


@pytest.mark.parametrize("words", ["새 게임", "이전"])
def test_a_command_heard_over_the_screens_question_waits_for_its_answer(driver: Any, voice: Any, words: str) -> None:
    """Under a question a tap reaches nothing; neither does voice (heard hands-free, or from a press begun
    before it), and a toast says why. A final command (새 게임): its pending confirmation is cancelled as a tap
    on 아니요 would (before: voice's question on top, the screen's left under it). Navigation (이전): the screen
    is not left from under the question (before: it stayed open over the game's page, its yes still able to
    end the game from there)."""
    from kivy.core.window import Window

    from audio.asr import Phase
    from kiosk.widgets.dialogs import ConfirmDialog

    spyfall_table(driver)
    app = driver.app
    driver.tap("host_end")
    driver.pump(3)
    say(voice.controller, words)
    driver.pump(4)
    shown = [w for w in Window.children if isinstance(w, ConfirmDialog)]
    assert len(shown) == 1 and shown[0].message.text == app.tr("host.confirm_end")
    assert voice.controller.confirm.pending is None and voice.controller.phase is not Phase.CONFIRMING
    assert app.sm.current == "host" and app.toast_widget.last_text == app.tr("voice.answer_first")
    driver.tap("confirm_no")
    driver.pump(3)
    assert app.sm.current == "host" and app.table.playing  # neither the end nor the command
    say(voice.controller, "이전")  # answered: voice acts again
    driver.wait_screen("detail")


def test_the_idle_check_asking_over_voices_question_cancels_it(driver: Any, voice: Any) -> None:
    """A question from the kiosk over voice's: voice's pending confirmation is cancelled through the same
    path as its 아니요 (nothing dispatched, the controller listening again), and its late "confirm_done" does
    not close the question now on show in the same dialog."""
    from kivy.core.window import Window

    from audio.asr import Phase
    from kiosk.widgets.dialogs import ConfirmDialog

    spyfall_table(driver)
    app = driver.app
    say(voice.controller, "새 게임")
    driver.pump(4)
    assert voice.confirm_dialog is not None and voice.controller.phase is Phase.CONFIRMING
    app.keeper.last_touch -= app.keeper.idle_seconds + 1
    app.keeper.check_idle()
    driver.pump(4)
    shown = [w for w in Window.children if isinstance(w, ConfirmDialog)]
    assert len(shown) == 1 and shown[0].message.text == app.tr("table.still_playing")
    assert voice.controller.confirm.pending is None and voice.controller.phase is not Phase.CONFIRMING
    assert app.sm.current == "host"  # 새 게임 not done
    driver.tap("confirm_yes")
    driver.pump(3)
    assert app.keeper.asking is None and app.table.playing


@pytest.mark.parametrize("words", ["새 게임", "이전"])
def test_no_command_acts_over_a_players_private_screen(driver: Any, voice: Any, words: str) -> None:
    """A hand-over is one guest's screen (their secret on show while they hold it): heard then, a final command
    (새 게임) opened its question on top, where another guest could answer it and it hid the secret's "hide";
    navigation (이전) left the game's screen with the hand-over still open over the game's page. Now neither
    acts, a toast says why, and the guest's hold and "hide" work as before; closed, voice acts again."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    from audio.asr import Phase
    from kiosk.widgets.handover import HandOver

    app = driver.app
    session = spyfall_table(driver)
    say(voice.controller, "딜러 민호")
    driver.wait_for(lambda: bool(driver.find_all("spy_pass_cards")))
    driver.tap("spy_pass_cards")
    driver.wait_for(lambda: bool(driver.find_all("handover_i_am")))
    driver.tap("handover_i_am")
    say(voice.controller, words)
    driver.pump(4)
    assert [type(w) for w in Window.children if isinstance(w, ModalView)] == [HandOver]  # no question on top
    assert voice.controller.confirm.pending is None and voice.controller.phase is not Phase.CONFIRMING
    assert app.sm.current == "host" and app.toast_widget.last_text == app.tr("voice.private_first")
    driver.screenshot(f"voice_over_private_{'final' if words == '새 게임' else 'navigation'}")
    secret, seen = next(w for w in Window.children if isinstance(w, HandOver)).secret, []
    driver.hold("handover_hold", 0.05, during=lambda: seen.append(secret.opacity))
    driver.tap("handover_done")
    assert seen == [1] and secret.opacity == 0
    for _ in session.state.players[1:]:  # the rest of the table sees its cards
        driver.wait_for(lambda: bool(driver.find_all("handover_i_am")))
        driver.tap("handover_i_am")
        driver.tap("handover_done")
    driver.wait_for(lambda: not any(isinstance(w, HandOver) for w in Window.children))
    say(voice.controller, "이전")
    driver.wait_screen("detail")


def _staff_pin_for_undo(driver: Any, before_undo: Callable[[], None] = lambda: None) -> Any:
    """A Spyfall round with the Joker revealed, and the staff PIN pad asked for by an undo across that reveal (after
    `before_undo`)."""
    from engines.spyfall.actions import ChooseDealer, RevealJoker, StartClock

    session = spyfall_table(driver)
    act(session, ChooseDealer(-1, dealer=1))
    act(session, StartClock(-1))
    act(session, RevealJoker(session.state.round.facts.joker))
    driver.pump(3)
    before_undo()
    driver.tap("host_undo")
    return session


def test_a_staff_pin_pad_nobody_uses_closes_and_the_idle_check_goes_on(driver: Any, voice: Any,
                                                                       monkeypatch: Any) -> None:
    """The idle check waits while the staff PIN pad is on show; a pad a guest's undo opened and nobody uses closes
    by itself GIVE_UP_S after its last key (else the table never went back to the attract screen), and the idle
    check asks again."""
    import time

    from kiosk.widgets import pin_dialog

    def give_up_after_keys() -> None:
        """2 s, or 3 times a key's spacing below on this machine: ~0.3 s plus two taps' frames (10), which take
        what the machine takes (under bench/slowcpu.py slow_down(10) over 2 s: the pad gave up between two keys)."""
        start = time.monotonic()
        driver.pump(10)
        monkeypatch.setattr(pin_dialog, "GIVE_UP_S", max(2.0, 3 * (0.3 + time.monotonic() - start)))

    app = driver.app
    session = _staff_pin_for_undo(driver, give_up_after_keys)
    give_up = pin_dialog.GIVE_UP_S
    end = time.monotonic() + 1.5 * give_up  # longer than GIVE_UP_S, with a key every ~0.3 s: counted again from each
    while time.monotonic() < end:
        driver.tap("staffpin_0")
        stop = time.monotonic() + 0.3
        while time.monotonic() < stop:
            driver.pump(1)
        driver.tap("staffpin_back")  # never a whole PIN: none is checked
    assert driver.find_all("staffpin_ok")
    driver.wait_for(lambda: not driver.find_all("staffpin_ok"), give_up + 3)
    keeper = app.keeper
    keeper.last_touch -= keeper.idle_seconds + 1
    keeper.check_idle()
    driver.pump(3)
    assert keeper.asking is not None
    assert session.state.round.phase != "play"  # nothing was undone


def test_no_question_opens_over_the_staff_pin_pad(driver: Any, voice: Any) -> None:
    """While staff type the PIN (an undo across the Joker's reveal) no question opens on top: the idle check
    waits and counts from when the pad closes (before: "아직 게임 중인가요?" over the pad, e.g. while staff wait
    out a lock), and voice refuses with a toast (before: 새 게임's question over the pad, 이전 left the game's
    screen under it). With the pad closed, both ask again."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    from audio.asr import Phase
    from kiosk.widgets.dialogs import ConfirmDialog
    from kiosk.widgets.pin_dialog import StaffPinDialog

    app = driver.app
    session = _staff_pin_for_undo(driver)
    driver.tap("staffpin_0")
    driver.tap("staffpin_0")  # half typed
    keeper = app.keeper
    keeper.last_touch -= keeper.idle_seconds + 1
    keeper.check_idle()
    driver.pump(3)
    assert keeper.asking is None and keeper.idle_for() < 10
    for words in ("새 게임", "이전"):
        say(voice.controller, words)
        driver.pump(4)
        assert [type(w) for w in Window.children if isinstance(w, ModalView)] == [StaffPinDialog]
        assert voice.controller.phase is not Phase.CONFIRMING and app.sm.current == "host"
        assert app.toast_widget.last_text == app.tr("voice.staff_first")
    driver.screenshot("voice_over_staff_pin")
    driver.tap("staffpin_0")
    driver.enter_pin("0", pad="staffpin")
    driver.wait_for(lambda: session.state.round.phase == "play" and not driver.find_all("staffpin_ok"))
    keeper.last_touch -= keeper.idle_seconds + 1
    keeper.check_idle()
    driver.pump(3)
    assert keeper.asking is not None and ConfirmDialog.showing() is keeper.asking
    driver.tap("confirm_yes")
    say(voice.controller, "이전")
    driver.wait_screen("detail")


def test_a_voice_command_on_a_games_screen_leaves_no_cyclic_garbage(driver: Any, voice: Any) -> None:
    """What a command makes (its events, the heard line, the toast placed over the screen) is freed by reference
    counting, not left for the full collections in the guests' pauses (kiosk/gc_policy.py). The toast's walk of the
    screen was a closure calling itself: a cycle at every toast, ~90 objects a command over Spyfall's table."""
    import gc

    spyfall_table(driver)
    for words in ("다시", "아무말 대잔치"):  # what a first command makes and keeps (the toast's texture, the book)
        say(voice.controller, words)
        driver.pump(3)
    # the last game's screen, closed by spyfall_table and taken apart, is freed by reference counting once nothing
    # holds it, its drawn canvases left to the collector (kiosk/widgets/dismantle.py): not a command's garbage. A scroll
    # view fading its bar holds it until the fade ends (Kivy's Animation: 0.5 s, from 0.5 s after it last moved), a
    # time on Kivy's clock: under tests/fastclock.py 3 it ended among the commands below (19 objects, its canvases)
    driver.wait_for(lambda: not _animating_off_screen())
    gc.collect()
    gc.collect()  # Kivy's size bookkeeping of the widgets the first one freed (left in cycles by that collection)
    gc.disable()
    try:
        for words in ("다시", "아무말 대잔치", "다시"):
            say(voice.controller, words)
            driver.pump(3)
        assert "들은 말: 다시" in voice.bar.heard.text and driver.app.toast_widget.last_text  # heard, and toasts shown
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0


def _animating_off_screen() -> bool:
    """An animation holds a widget on no window (Kivy's Animation holds what it animates until it ends)."""
    from kivy.animation import Animation

    return any(d["widget"].get_root_window() is None for a in list(Animation._instances) for d in a._widgets.values())
