"""Attract / home: the first thing a new table sees. The marks of the games on the shelf open their pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.screenmanager import Screen

from kiosk.widgets.art import Art

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class MarkButton(ButtonBehavior, Art):
    test_id = StringProperty("")


class AttractScreen(Screen):
    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        row = self.ids.marks
        if app is None or not app.library_ready():  # shown once the content is in, a moment after start
            return
        games = [g.id for g in app.library.for_table(branch=app.branch or None)]
        if [w.game_id for w in reversed(row.children)] == games:
            return
        row.clear_widgets()
        for gid in games:
            mark = MarkButton(kind="mark", game_id=gid, test_id=f"mark_{gid}", size_hint_x=None, width=dp(84))
            mark.bind(on_release=lambda w: app.open_game(w.game_id))
            row.add_widget(mark)
