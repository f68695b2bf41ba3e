"""The staff PIN asked for in place, over a game (e.g. an undo that crosses a revealed secret). Same PIN and
the same lockout as the staff screen's PIN pad."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk.widgets.keypad import Keypad
from kiosk.widgets.one_use import OneUse
from kiosk.widgets.theme import ACCENT, BODY, DANGER_TEXT, LEAD, MUTED, PANEL, SMALL, TEXT, Panel, TButton
from table.pin import CHECKS, PinLock

GIVE_UP_S = 180.0  # no key pressed for this long: nobody is at the pad (a guest's undo asked for staff and the
# guests left). It closes as if cancelled, so the table's idle check, which waits while it is on show, goes on


def post(fn: Callable[[], None]) -> None:
    """Run `fn` on the UI thread (a worker's result)."""
    Clock.schedule_once(lambda _dt: fn())


class StaffPinDialog(OneUse):
    """Made for one use (kiosk.widgets.one_use): taken apart once closed."""

    for_one = "staff"  # staff at the PIN pad: no other question over it (kiosk.widgets.dialogs.for_one_on_show)

    def __init__(self, app: Any, reason: str, on_ok: Callable[[], None]) -> None:
        super().__init__(size_hint=(None, None), size=(dp(760), dp(720)), auto_dismiss=False,
                         background_color=(0, 0, 0, 0.7), background="")
        self.app, self.on_ok = app, on_ok
        self.checking = False  # the PIN's hash runs on a worker thread (table.pin.Checks)
        box = Panel(orientation="vertical", bg=PANEL, padding=dp(20), spacing=dp(10))
        top = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(12))
        cancel = TButton(text=app.tr("common.cancel"), test_id="staffpin_cancel", size_hint_x=None, width=dp(150))
        cancel.bind(on_release=lambda *_: self.dismiss())
        top.add_widget(cancel)
        top.add_widget(Label(text=app.tr("pin.title"), font_size=LEAD, bold=True, color=TEXT))
        box.add_widget(top)
        self.reason = Label(text=reason, font_size=BODY, color=TEXT, halign="center", valign="middle",
                            size_hint_y=None, height=dp(80))
        self.reason.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - dp(10), None)))
        box.add_widget(self.reason)
        self.dots = Label(text=app.tr("pin.prompt"), font_size=BODY, color=ACCENT, size_hint_y=None, height=dp(50))
        box.add_widget(self.dots)
        self.message = Label(text="", font_size=SMALL, color=DANGER_TEXT, size_hint_y=None, height=dp(34))
        box.add_widget(self.message)
        self.pad = Keypad(app.tr("common.ok"), app.tr("pin.erase"), self.submit, prefix="staffpin", later=True,
                          size_hint=(None, None), size=(dp(400), dp(380)))  # its keys in the frames after
        self.pad.bind(entered=lambda _w, v: setattr(self.dots, "text", "●" * len(v) or app.tr("pin.prompt")))
        self._give_up = Clock.create_trigger(self._gave_up, GIVE_UP_S)  # (a method: held weakly until scheduled)
        self.pad.bind(entered=lambda *_: self._count_again())
        holder = AnchorLayout()
        holder.add_widget(self.pad)
        box.add_widget(holder)
        self.add_widget(box)
        self._locked_message()

    def on_open(self) -> None:
        self._count_again()

    def _gave_up(self, _dt: float) -> None:
        if not self.checking:
            self.dismiss()

    def _count_again(self) -> None:
        """GIVE_UP_S from now (a trigger already scheduled would keep its old time)."""
        self._give_up.cancel()
        self._give_up()

    def on_dismiss(self) -> None:
        self._give_up.cancel()

    def _locked_message(self) -> bool:
        lock = self.app.settings.pin_lock
        now = self.app.now()
        locked = bool(lock.locked(now))
        self.pad.disabled = locked
        if locked:
            self.message.text = self.app.tr("pin.locked", s=lock.seconds_left(now))
        return locked

    def submit(self, value: str) -> None:
        app = self.app
        if self.checking or self._locked_message():
            return
        self.checking, self.pad.disabled = True, True
        self.message.text, self.message.color = app.tr("pin.checking"), MUTED
        CHECKS.start(app.settings.pin_lock, value, app.settings.pin_hash, app.now(), post, self._checked)

    def _checked(self, ok: bool, lock: PinLock) -> None:
        app = self.app
        self.checking, self.pad.disabled = False, False
        self.message.text, self.message.color = "", DANGER_TEXT
        app.settings.pin_lock = lock
        app.save_settings()
        if self._window is None:  # cancelled while it was checked
            return
        if ok:
            self.dismiss()
            self.on_ok()
        elif not self._locked_message():
            self.message.text = app.tr("pin.wrong", left=5 - lock.failures)
