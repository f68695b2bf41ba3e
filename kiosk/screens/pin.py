"""The staff PIN pad between guests and the staff screen (and so the operating system)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.pin import CHECKS, PinLock
from kiosk.widgets.pin_dialog import post

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class PinScreen(Screen):
    entered = StringProperty("")
    message = StringProperty("")
    checking = BooleanProperty(False)  # the PIN's hash runs on a worker thread (kiosk.pin.Checks)

    def on_pre_enter(self, *args: Any) -> None:
        App.get_running_app().reload_settings_if_changed()
        self.entered = ""
        self.message = ""
        self._tick(0)
        Clock.schedule_interval(self._tick, 0.5)

    def on_leave(self, *args: Any) -> None:
        Clock.unschedule(self._tick)

    def _tick(self, _dt: float) -> None:
        if self.checking:
            return
        app = App.get_running_app()
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
