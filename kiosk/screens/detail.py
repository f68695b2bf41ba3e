"""One game's page: pitch, players, time, shelf, components; Teach and Host."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.markup import keep_together

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def teach_time_text(app: Any, game: Any) -> str:
    """The teach time measured at this café's tables (median), else the content's estimate."""
    from kiosk.teach.progress import measured_minutes

    measured = measured_minutes(app.data_dir, game.id)
    if measured is not None:
        return str(app.tr("teaching.minutes_measured", n=measured))
    if game.info.teach_minutes:
        return str(app.tr("detail.teach_time", n=game.info.teach_minutes))
    return ""


class DetailScreen(Screen):
    game_id = StringProperty("")

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def on_game_id(self, *_: Any) -> None:
        """Another game opened while its page shows (the text follows, as the drawings do)."""
        if self.manager is not None and self.manager.current == self.name:
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
        facts.append(app.tr("library.shelf", code=shelf) if shelf else app.tr("library.shelf_ask"))
        teach = teach_time_text(app, game)
        if teach:
            facts.append(teach)
        ids.facts.text = "   ·   ".join(keep_together(f) for f in facts)  # lines break between facts only
        comps = [f"• {c.name.get(lang)}\u00a0×\u00a0{c.count}" for c in info.components]  # "× 8" never alone
        ids.components.text = app.tr("detail.components") + "\n" + "\n".join(comps) if comps else ""
        ids.tip.text = info.first_game_tip.get(lang) if info.first_game_tip else ""
        ids.host.disabled = not game.playable
        resuming = app.table.playing and app.table.game.id == game.id
        ids.host.text = app.tr("detail.resume") if resuming else app.tr("detail.host")
