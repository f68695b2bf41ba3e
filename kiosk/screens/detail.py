"""One game's page: pitch, players, time, shelf, components; Teach and Host."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.markup import keep_together
from kiosk.widgets.pieces import Pieces, building, ran_in_this_frame

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

PREPARE_AFTER_S = 1.0  # on the page this long, the game's screen is built behind it (HostScreen.prepare)


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

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._prepare_event: Any = None
        self._pieces = Pieces()

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def on_enter(self, *args: Any) -> None:
        self._prepare_later()

    def on_pre_leave(self, *args: Any) -> None:
        self._stop_preparing()
        app = App.get_running_app()
        if app.sm.has_screen("host"):
            app.get_screen("host").forget_prepared()

    def on_game_id(self, *_: Any) -> None:
        """Another game opened while its page shows (the text follows, as the drawings do)."""
        if self.manager is not None and self.manager.current == self.name:
            self.refresh()
            self._prepare_later()

    # ------------------------------------------------------------ the game's screen, behind the page
    def _prepare_later(self) -> None:
        """While guests read the page, the game's screen is built behind it, a step a frame (`HostScreen.prepare`):
        the last screen taken off (none open at the table; else the new one is built aside), the new one made, laid
        out in the frame after, then drawn once the pieces it builds in are done; a guest's tap on 게임 시작 then only
        shows it."""
        self._stop_preparing()
        self._prepare_event = Clock.schedule_once(lambda _dt: self._prepare(self.game_id), PREPARE_AFTER_S)

    def _stop_preparing(self) -> None:
        if self._prepare_event is not None:
            self._prepare_event.cancel()
            self._prepare_event = None
        self._pieces.cancel()

    def _prepare(self, game_id: str) -> None:
        self._prepare_event = None
        app = App.get_running_app()
        host = app.get_screen("host")
        table = app.table
        if not self._shows(game_id) or host.prepared == (game_id, app.lang) or (
                table.playing and table.game.id == game_id):  # a game on: its screen is shown again as left
            return
        if host.host_widget is not None and not table.playing:
            self._pieces.add(lambda: self._shows(game_id) and not app.table.playing and host.clear_body())
        self._pieces.add(lambda: self._shows(game_id) and host.prepare(game_id))
        self._pieces.add(lambda: None)  # the frame it is laid out in (Kivy's layout trigger): not drawn in that one too

        def draw() -> None:
            """Drawn once, into a texture nobody sees (its first drawing is not in the tap's frame), after the pieces
            it builds in, not in a frame one of them ran in: the host frame with it, or, built aside while another
            game is open, itself."""
            built = host.prepared_widget(game_id) if self._shows(game_id) else None
            if built is None:
                return
            if building() or ran_in_this_frame():
                self._pieces.add(draw)  # the next frame
                return
            (host if built is host.host_widget else built).export_as_image()

        self._pieces.add(draw)

    def _shows(self, game_id: str) -> bool:
        return self.game_id == game_id and self.manager is not None and self.manager.current == self.name

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
