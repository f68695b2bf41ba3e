"""The end of a Watson & Holmes game on its screen: the solution panel (Holmes's solution and the reasoning, read aloud:
WH-98) and the toasts of the step that ended the game, placed once the answers' dialogs are gone so that they keep off
the solution text and its controls. Mixed into WatsonHolmesHost (host.py)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from engines.watson_holmes.content import Case, Text
from engines.watson_holmes.views import WhView
from kiosk.flows.screen import GameScreen
from kiosk.games.watson_holmes.setup import label
from kiosk.widgets.keep import Fill
from kiosk.widgets.theme import BODY, PANEL, Panel
from kiosk.widgets.winner import WinnerBanner

if TYPE_CHECKING:
    pass

SOLUTION_TOAST_DELAY = 0.4  # seconds before the end's toast looks whether the answers' dialogs are gone
SOLUTION_TOAST_TRIES = 40  # looks, SOLUTION_TOAST_DELAY / 4 apart, before it shows whatever is on show


class ResultParts(GameScreen[WhView]):
    """The game's end on the W&H screen (WatsonHolmesHost's base)."""

    GAME, VIEW = "watson_holmes", WhView
    end_toasts: list[str]  # the toasts said when the last game ended

    if TYPE_CHECKING:  # WatsonHolmesHost's, declared for the type checker only (a stub here would come first at run time)
        def pick(self, text: Text | None) -> str: ...

        def case(self) -> Case: ...

        def name(self, seat: int) -> str: ...

    def _end_toast_gone(self) -> None:
        """The last game's end toast goes with it (한 판 더 tapped within its seconds: it sat over the next opening),
        shown or still to show (a toast appears a frame after it is asked for: kiosk/widgets/toast.py)."""
        toast = getattr(self.ctx.app, "toast_widget", None)
        if toast is not None and toast.last_text in self.end_toasts:
            toast.hide()
        self.end_toasts = []

    def _toast_after_end(self, toasts: list[str], tries: int = 0, calm: int = 0) -> None:
        """The end's toasts once no dialog is on show and the screen has been so for two looks (its layout done),
        or after SOLUTION_TOAST_TRIES looks whatever is on show (a guest's dialog opened meanwhile)."""
        if not toasts or not self.ctx.playing or self.ctx.table.outcome is None:
            return
        from kivy.core.window import Window

        calm = calm + 1 if not any(isinstance(w, ModalView) for w in Window.children) else 0
        if calm < 2 and tries < SOLUTION_TOAST_TRIES:
            self.ctx.later(lambda: self._toast_after_end(toasts, tries + 1, calm), SOLUTION_TOAST_DELAY / 4)
            return
        self.end_toasts = toasts
        for text in toasts:
            self.ctx.toast(text)

    def _narrate_solution(self) -> None:
        """The solution is read aloud when the game ends (WH-98)."""
        case = self.case()
        if case.solution is not None:
            self._narrate("solution", self.pick(case.solution), case.solution_audio)

    def _narrate(self, part: str, text: str, recording: str = "") -> None:
        """Reveal a secret text aloud (a card Watson has read to the table, the solution) when the narrator
        runs; the screen shows the text anyway."""
        narrator = getattr(self.ctx.app, "narrator", None)
        if narrator is None or not text:
            return
        try:
            from audio.segments import Segment

            narrator.reveal(Segment(f"wh.{self.case().id}.{part}", self.ctx.lang, text, secret=True,
                                    recording=recording or None))
        except Exception:  # the narrator reports its own failures
            pass

    def _solution(self, box: Fill, view: WhView) -> None:
        shown = (view.winners, repr(view.solution), self.ctx.lang)
        box.built("solution", shown, partial(self._solution_panel, view))

    def _solution_panel(self, view: WhView) -> Panel:
        sol = view.solution
        panel = Panel(orientation="vertical", bg=PANEL)
        panel.keep_clear = True  # read aloud and on screen: a toast never covers it (kiosk.widgets.marks)
        panel.test_id = "wh_solution"
        winners = [self.name(s) for s in view.winners]
        panel.add_widget(WinnerBanner(self.ctx.tr("results.winner", names=", ".join(winners)) if winners
                                      else self.tr("end.nobody"), compact=True))
        texts = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(8))
        texts.bind(minimum_height=texts.setter("height"))
        shown_texts = () if sol is None else (("solution", sol.solution), ("reasoning", sol.reasoning))
        for key, text in shown_texts:
            if text is not None:
                texts.add_widget(label(self.tr(f"end.{key}"), BODY, height=36, bold=True))
                body = Label(text=self.pick(text), font_size=BODY, halign="left", valign="top")
                body.test_id = f"wh_{key}_text"
                body.bind(width=lambda w, v: setattr(w, "text_size", (v, None)),
                          texture_size=lambda w, s: setattr(w, "height", s[1]))
                body.size_hint_y = None
                texts.add_widget(body)
        scroll = ScrollView(do_scroll_x=False)  # Holmes's solution and the reasoning can be long
        scroll.add_widget(texts)
        panel.add_widget(scroll)
        return panel
