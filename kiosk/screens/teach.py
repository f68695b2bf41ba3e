"""Teaching (placeholder until the teaching work lands): shows the game's tip and what is coming."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class TeachScreen(Screen):
    game_id = StringProperty("")

    def on_pre_enter(self, *args: Any) -> None:
        app = App.get_running_app()
        game = app.library.games.get(self.game_id)
        if game is None:
            return
        self.ids.title.text = app.tr("teach.title", game=game.info.name.get(app.lang))
        tip = game.info.first_game_tip.get(app.lang) if game.info.first_game_tip else ""
        self.ids.body.text = "\n\n".join(x for x in (game.info.pitch.get(app.lang), tip, app.tr("teach.coming"))
                                         if x)
