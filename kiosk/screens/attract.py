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
        self._show_resume(app)
        games = [g.id for g in app.library.for_table(branch=app.branch or None)]
        if [w.game_id for w in reversed(row.children)] == games:
            return
        row.clear_widgets()
        for gid in games:
            mark = MarkButton(kind="mark", game_id=gid, test_id=f"mark_{gid}", size_hint_x=None, width=dp(84))
            mark.bind(on_release=lambda w: app.open_game(w.game_id))
            row.add_widget(mark)

    def _show_resume(self, app: Any) -> None:
        """이어서 하기 for the game in progress at this table (not for a finished one: its results are its end)."""
        table = app.table
        going = table.playing and table.outcome is None
        button = self.ids.resume
        button.text = app.tr("attract.resume", game=table.game.info.name.get(app.lang)) if going else ""
        button.disabled = not going  # first: a TButton greys itself when disabled (theme.kv)
        button.width, button.opacity = (dp(460), 1) if going else (0, 0)
        self.ids.start_row.spacing = dp(28) if going else 0

    def resume(self) -> None:
        app = App.get_running_app()
        if app.table.playing:
            app.get_screen("detail").game_id = app.table.game.id
            app.host(app.table.game.id)
