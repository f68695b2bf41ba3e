"""The Spyfall screen's results: a round's (the place, the Joker, the points) and the game's (the winners), and a
location's name in the guests' language."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from engines.core import TABLE
from engines.spyfall import actions as A
from engines.spyfall.views import SpyView
from kiosk.games.spyfall.panels import ScoreTable, note, title
from kiosk.games.spyfall.private import SpyPrivate
from kiosk.widgets.buttons import button
from kiosk.widgets.keep import box_in
from kiosk.widgets.theme import BODY, LEAD


class SpyResults(SpyPrivate):
    """The results of the Spyfall screen (SpyfallHost, which keeps `cards`: the physical reveal's entry)."""

    cards: dict[str, Any]

    def place_name(self, loc_id: str) -> str:
        for loc in self.seen().locations:
            if loc.id == loc_id:
                return loc.en if self.ctx.lang == "en" else loc.ko
        return loc_id

    # -- results
    def _main_round_over(self, view: SpyView, main: Any) -> None:
        self._result(view, main)
        with box_in(main, BoxLayout, "row", size_hint_y=None, height=dp(76), spacing=dp(16)) as row:
            button(row, self.tr("result.end"), "spy_end_session", lambda: self.send(
                A.EndSession(TABLE), self.tr("result.end_confirm"), danger=True), height=76)
            button(row, self.tr("result.next"), "spy_next", lambda: self.send(A.NextRound(TABLE)), kind="primary",
                   height=76)
        self.cards = {"kind": "standard", "joker": -1, "harley": -1}

    def _main_over(self, view: SpyView, main: Any) -> None:
        names = self.names()
        outcome = self.running.outcome  # who won is the engine's to say
        winners = outcome.winners if outcome is not None else ()
        best_names = ", ".join(names[s] for s in winners)
        self.banner(main, best_names, self.tr("result.over", names=best_names))
        self._result(view, main)

    def _result(self, view: SpyView, main: Any) -> None:
        names = self.names()
        rec = view.history[-1] if view.history else None
        if rec is None:
            return
        title(main, self.tr("result.title", n=rec.number, ending=self.tr(f"ending.{rec.ending}")), LEAD)
        lines = []
        if rec.place:
            lines.append(self.tr("result.place", place=rec.place_en if self.ctx.lang == "en" else rec.place_ko))
        if rec.kind == "joker":
            lines.append(self.tr("result.all_jokers"))
        elif rec.kind == "multiverse":
            lines.append(self.tr("result.no_joker"))
        else:
            lines.append(self.tr("result.joker", name=names[rec.joker]))
        if rec.harley >= 0:
            lines.append(self.tr("result.harley", name=names[rec.harley]))
        if rec.convicted >= 0:
            lines.append(self.tr("result.convicted", name=names[rec.convicted]))
        if rec.guess:
            ok = self.now(view).guess_correct
            lines.append(self.tr("result.guess", place=self.place_name(rec.guess),
                                 ok=self.tr("result.right" if ok else "result.wrong")))
        note(main, "  ·  ".join(lines), BODY)
        shown = (tuple(names), rec.points, view.totals, self.ctx.lang)
        main.built("scores", shown, lambda: ScoreTable(names, rec.points, view.totals, self.ctx.tr))
        main.add(Widget)
