"""One game's page: pitch, players, time, shelf, components; Teach and Host."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class DetailScreen(Screen):
    game_id = StringProperty("")

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        game = app.library.games.get(self.game_id)
        if game is None:
            return
        info, lang = game.info, app.lang
        lo, hi = info.players
        ids = self.ids
        ids.title.text = info.name.get(lang)
        ids.pitch.text = info.pitch.get(lang)
        players = app.tr("library.players_one", n=lo) if lo == hi else app.tr("library.players", lo=lo, hi=hi)
        facts = [players, app.tr("library.minutes", lo=info.minutes[0], hi=info.minutes[1])]
        shelf = game.shelf_code(app.branch)
        if shelf:
            facts.append(app.tr("library.shelf", code=shelf))
        if info.teach_minutes:
            facts.append(app.tr("detail.teach_time", n=info.teach_minutes))
        ids.facts.text = "   ·   ".join(facts)
        comps = [f"• {c.name.get(lang)} × {c.count}" for c in info.components]
        ids.components.text = app.tr("detail.components") + "\n" + "\n".join(comps) if comps else ""
        ids.tip.text = info.first_game_tip.get(lang) if info.first_game_tip else ""
        ids.host.disabled = not game.playable
        resuming = app.session is not None and app.session.game.id == game.id
        ids.host.text = app.tr("detail.resume") if resuming else app.tr("detail.host")
