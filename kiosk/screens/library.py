"""The game library: filter by number of players and play time; shelf code for this branch."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import NumericProperty
from kivy.uix.screenmanager import Screen

from content.loader import Game
from kiosk import gc_policy
from kiosk.markup import esc, keep_together
from kiosk.widgets.art import game_mark
from kiosk.widgets.keep import Fill, Keep
from kiosk.widgets.theme import LEAD, SMALL, TButton

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

PLAYER_CHOICES = (0, 2, 3, 4, 5, 6, 7, 8)  # 0: any
TIME_CHOICES = (0, 30, 45, 60, 90)  # 0: any; else "the longest play fits in N minutes"


class GameCard(TButton):
    def __init__(self, game: Game, **kw: Any) -> None:
        text = card_text(App.get_running_app(), game)
        super().__init__(text=text, markup=True, size_hint_y=None, height=dp(150), font_size=SMALL, **kw)
        self.game_id = game.id
        self.test_id = f"game_{game.id}"
        self.halign = "left"
        self.padding = [dp(150), 0, 0, 0]  # the game's mark sits in this margin
        self._redraw = Clock.create_trigger(self._draw_mark)
        self.bind(pos=self._redraw, size=self._redraw)

    def _draw_mark(self, *_: Any) -> None:
        self.canvas.after.clear()
        r = min(dp(56), self.height / 2 - dp(12))
        for ins in game_mark(self.game_id, self.x + dp(24) + r, self.center_y, r):
            self.canvas.after.add(ins)


def card_text(app: Any, game: Game) -> str:
    """What a game's card says: its name, players, minutes, teaching time and shelf (in the kiosk's language)."""
    from kiosk.screens.detail import teach_time_text

    lo, hi = game.info.players
    players = app.tr("library.players_one", n=lo) if lo == hi else app.tr("library.players", lo=lo, hi=hi)
    minutes = app.tr("library.minutes", lo=game.info.minutes[0], hi=game.info.minutes[1])
    shelf = game.shelf_code(app.branch)
    where = app.tr("library.shelf", code=shelf) if shelf else app.tr("library.shelf_ask")
    teach = teach_time_text(app, game)
    return (f"[size={LEAD}][b]{esc(game.info.name.get(app.lang))}[/b][/size]\n"
            + " · ".join(keep_together(esc(f)) for f in (players, minutes, teach) if f)  # broken between facts only
            + (f"\n[color=#e0a458]{esc(where)}[/color]" if where else ""))


class LibraryScreen(Screen):
    players = NumericProperty(0)
    minutes = NumericProperty(0)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._keep = Keep(on_drop=gc_policy.drop)  # a card replaced (frozen at start-up): taken apart in a pause

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def on_players(self, *_: Any) -> None:
        self.refresh()

    def on_minutes(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        if app is None or "grid" not in self.ids:
            return
        self._fill_filters(app)
        games = app.library.for_table(players=self.players or None, max_minutes=self.minutes or None,
                                      branch=app.branch or None)
        # the cards and filter buttons are kept while what they say is the same (made anew on every visit,
        # voice's 처음으로 cost a 40-55 ms frame here)
        with Fill(self._keep, self.ids.grid, "games") as fill:
            for game in games:
                fill.built(game.id, card_text(app, game), functools.partial(self._card, app, game))
        self.ids.empty.opacity = 0 if games else 1
        self.ids.empty.text = "" if games else app.tr("library.none_fit")

    def _fill_filters(self, app: Any) -> None:
        rows = (("player_filters", "players", PLAYER_CHOICES, "library.n_players"),
                ("time_filters", "minutes", TIME_CHOICES, "library.within"))
        for row_id, prop, choices, key in rows:
            with Fill(self._keep, self.ids[row_id], row_id) as fill:
                for n in choices:
                    label = app.tr("library.any") if n == 0 else app.tr(key, n=n)
                    fill.add(TButton, f"{n}", functools.partial(setattr, self, prop, n), text=label,
                             selected=getattr(self, prop) == n, test_id=f"{prop}_{n}", font_size=SMALL)

    @staticmethod
    def _card(app: Any, game: Game) -> GameCard:
        card = GameCard(game)
        card.bind(on_release=lambda w: app.open_game(w.game_id))
        return card
