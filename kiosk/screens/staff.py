"""Staff mode (behind the PIN): table turnover, language and branch, sound and voice, PIN change, device
status, content, statistics, logs, exit. Section panels are built in kiosk/screens/staff_panels.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.screens import staff_panels
from kiosk.widgets.fit_scroll import FitScroll  # noqa: F401  (used in staff.kv)
from kiosk.widgets.theme import SMALL, TOUCH_MIN, TButton

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

SECTIONS = ("table", "general", "sound", "recordings", "pin", "devices", "content", "stats", "floor", "logs")


class StaffScreen(Screen):
    section = StringProperty("table")

    def on_pre_enter(self, *args: Any) -> None:
        self.section = "table"
        self.refresh()

    def on_section(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        if app is None or "nav" not in self.ids:
            return
        nav = self.ids.nav
        nav.clear_widgets()
        for name in SECTIONS:
            b = TButton(text=app.tr(f"staff.section_{name}"), selected=self.section == name,
                        test_id=f"staff_nav_{name}", font_size=SMALL, size_hint_y=None, height=TOUCH_MIN)
            b.bind(on_release=lambda _w, name=name: setattr(self, "section", name))
            nav.add_widget(b)
        self.ids.pin_warning.text = app.tr("staff.default_pin") if app.settings.pin_is_default else ""
        panel = self.ids.panel
        panel.clear_widgets()
        getattr(staff_panels, f"build_{self.section}")(app, panel, self)

    def ask_exit(self) -> None:
        app = App.get_running_app()
        from kiosk.widgets.dialogs import ConfirmDialog
        ConfirmDialog.ask(app.tr("staff.confirm_exit"), app.tr("common.yes"), app.tr("common.no"), app.exit_kiosk,
                          danger=True)
