"""Staff mode: language, branch, leave the kiosk. (More in the kiosk-operations work.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from kiosk.i18n import LANGS
from kiosk.widgets.theme import TButton

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class StaffScreen(Screen):
    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        langs = self.ids.langs
        langs.clear_widgets()
        for code in LANGS:
            b = TButton(text=app.tr(f"staff.lang_{code}"), selected=app.settings.lang == code,
                        test_id=f"staff_lang_{code}")
            b.bind(on_release=lambda w, code=code: self._set_lang(code))
            langs.add_widget(b)
        branches = self.ids.branches
        branches.clear_widgets()
        for br in app.library.branches.branches:
            b = TButton(text=br.name.get(app.lang), selected=app.branch == br.id, test_id=f"staff_branch_{br.id}")
            b.bind(on_release=lambda w, bid=br.id: self._set_branch(bid))
            branches.add_widget(b)
        self.ids.pin_warning.text = app.tr("staff.default_pin") if app.settings.pin_is_default else ""
        errors = app.library.errors
        self.ids.content_status.text = (app.tr("staff.content_ok", n=len(app.library.games)) if not errors else
                                        app.tr("staff.content_errors", n=len(errors)) + "\n" +
                                        "\n".join(str(e) for e in errors[:6]))

    def _set_lang(self, code: str) -> None:
        app = App.get_running_app()
        app.settings.lang = code
        app.set_lang(code)
        app.save_settings()
        self.refresh()

    def _set_branch(self, branch: str) -> None:
        app = App.get_running_app()
        app.settings.branch = branch
        app.branch = branch
        app.save_settings()
        self.refresh()

    def ask_exit(self) -> None:
        app = App.get_running_app()
        from kiosk.widgets.dialogs import ConfirmDialog
        ConfirmDialog(app.tr("staff.confirm_exit"), app.tr("common.yes"), app.tr("common.no"), app.exit_kiosk,
                      danger=True).open()
