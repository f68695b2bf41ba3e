"""The staff PIN pad between guests and the staff screen (and so the operating system). With no PIN yet (a fresh
install without TABLEHOST_PIN: table/settings.py) it asks staff to choose one, twice, before anything else; the
attract screen comes here until they have (issue #42: no more 0000 on every fresh install)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.widgets.pin_dialog import post
from table.pin import CHECKS, PinLock, hash_pin, valid_new_pin
from table.settings import DEFAULT_PIN

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class PinScreen(Screen):
    entered = StringProperty("")
    message = StringProperty("")
    checking = BooleanProperty(False)  # the PIN's hash runs on a worker thread (table.pin.Checks)
    choosing = BooleanProperty(False)  # no PIN yet: staff choose one (no way back to the guests before)
    step = BooleanProperty(False)  # the message says the next step (while choosing), not what went wrong
    first = ""  # while choosing: the PIN entered once

    def on_pre_enter(self, *args: Any) -> None:
        app = App.get_running_app()
        app.reload_settings_if_changed()
        self.entered = ""
        self.first = ""
        self.choosing = app.settings.pin_unset
        self.message = app.tr("staff.pin_new") if self.choosing else ""
        self.step = self.choosing
        self._tick(0)
        Clock.schedule_interval(self._tick, 0.5)

    def on_leave(self, *args: Any) -> None:
        Clock.unschedule(self._tick)

    def _tick(self, _dt: float) -> None:
        if self.checking:
            return
        app = App.get_running_app()
        if self.choosing:
            self.ids.pad.disabled = False
            return
        if app.settings.pin_disabled:  # damaged settings: no PIN opens the staff screen until a reset
            self.ids.pad.disabled = True
            self.message = app.tr("damage.pin_disabled")
            return
        lock = app.settings.pin_lock
        now = app.now()
        locked = lock.locked(now)
        self.ids.pad.disabled = locked
        if locked:
            self.message = app.tr("pin.locked", s=lock.seconds_left(now))
        elif self.message.startswith(app.tr("pin.locked", s="")[:4]):
            self.message = ""

    def press(self, key: str) -> None:
        if key == "back":
            self.entered = self.entered[:-1]
        elif key == "ok":
            self.submit()
        elif len(self.entered) < 8:
            self.entered += key

    def submit(self) -> None:
        if self.checking:
            return
        app = App.get_running_app()
        app.reload_settings_if_changed()
        entered, self.entered = self.entered, ""
        if self.choosing:
            self._choose(entered)
            return
        self.checking, self.ids.pad.disabled, self.message = True, True, app.tr("pin.checking")
        CHECKS.start(app.settings.pin_lock, entered, app.settings.pin_hash, app.now(), post, self._checked)

    def _checked(self, ok: bool, lock: PinLock) -> None:
        app = App.get_running_app()
        self.checking, self.ids.pad.disabled, self.message = False, False, ""
        app.settings.pin_lock = lock
        app.save_settings()
        if app.sm.current != "pin":  # the guest left while it was checked
            return
        if ok:
            app.go("staff")
        elif lock.locked(app.now()):
            self.message = app.tr("pin.locked", s=lock.seconds_left(app.now()))
            self.ids.pad.disabled = True
        else:
            self.message = app.tr("pin.wrong", left=5 - lock.failures)

    def _choose(self, pin: str) -> None:
        """A new PIN, entered twice; hashed on a worker thread (PBKDF2: a frozen screen on the UI thread)."""
        app = App.get_running_app()
        if not valid_new_pin(pin) or (self.first and pin != self.first):
            self.message = app.tr("staff.pin_mismatch" if self.first else "staff.pin_invalid")
            self.first, self.step = "", False
            return
        if not self.first:
            self.first, self.message, self.step = pin, app.tr("staff.pin_again"), True
            return
        self.checking, self.ids.pad.disabled, self.message = True, True, app.tr("pin.checking")

        def work() -> None:
            hashed = hash_pin(pin)
            post(lambda: self._chosen(hashed, pin == DEFAULT_PIN))

        threading.Thread(target=work, name="pin-hash", daemon=True).start()

    def _chosen(self, hashed: str, is_default: bool) -> None:
        app = App.get_running_app()
        self.checking, self.ids.pad.disabled, self.first, self.choosing = False, False, "", False
        app.settings.pin_hash, app.settings.pin_is_default, app.settings.pin_lock = hashed, is_default, PinLock()
        app.save_settings()
        app.go("staff")
