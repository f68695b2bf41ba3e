"""The case file, one tap away on the board for the whole game: the opening's text (intro, questions, special rules)
to read again, and the opening read aloud again (다시 듣기) through the app's narrator (a café recording wins there).
No secret in it: it is what the opening read to everyone."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from engines.watson_holmes.content import Case
from kiosk.widgets.one_use import OneUse
from kiosk.widgets.pieces import Pieces
from kiosk.widgets.theme import ACCENT, BG, BODY, LEAD, TEXT, TButton


def case_parts(case: Case, pick: Any) -> list[tuple[str, str, str]]:
    """(key, text, recording) of the opening, in its order: the intro, the numbered questions, the special rules."""
    questions = "\n".join(f"{q.number}. {pick(q.text)}" for q in case.questions)
    parts = [("intro", pick(case.intro), case.intro_audio), ("questions", questions, case.questions_audio),
             ("rules", pick(case.special_rules), "")]
    return [p for p in parts if p[1].strip()]


class CaseFile(OneUse):
    """The case's opening text with its questions; 다시 듣기 reads it aloud again, 닫기 closes it."""

    def __init__(self, host: Any) -> None:  # the WatsonHolmesHost (not imported: its module imports this one)
        super().__init__(size_hint=(0.86, 0.9), auto_dismiss=False, background="", background_color=BG)
        self.test_id = "wh_case_file_dialog"
        self.host = host
        case = host.case()
        self.parts = case_parts(case, host.pick)
        self.case_id = case.id
        self.spoke = False
        box = BoxLayout(orientation="vertical", padding=dp(24), spacing=dp(14))
        title = Label(text=host.tr("case_file.title"), font_size=LEAD, bold=True, color=ACCENT, size_hint_y=None,
                      height=dp(48), halign="left", valign="middle")
        title.bind(size=lambda w, s: setattr(w, "text_size", s))
        box.add_widget(title)
        scroll = ScrollView(do_scroll_x=False)
        body = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(12))
        body.bind(minimum_height=body.setter("height"))
        # the texts a part per frame after the one that opens it, each under the last (the dialog with its buttons
        # and its texts in the tap's frame: 22-36 ms of UI-thread CPU here, most of it drawing the long texts)
        self.pieces = Pieces()
        for key, text, _audio in self.parts:
            self.pieces.add(partial(self._part, body, host.tr(f"opening.{key}"), text, f"wh_case_file_{key}"))
        scroll.add_widget(body)
        box.add_widget(scroll)
        row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(16))
        again = TButton(text=host.tr("case_file.replay"), test_id="wh_case_file_replay")
        again.bind(on_release=lambda *_: self.replay())
        close = TButton(text=host.tr("case_file.close"), kind="primary", test_id="wh_case_file_close")
        close.bind(on_release=lambda *_: self.dismiss())
        row.add_widget(again)
        row.add_widget(close)
        box.add_widget(row)
        self.add_widget(box)

    @staticmethod
    def _part(body: BoxLayout, title: str, text: str, test_id: str) -> None:
        head = Label(text=title, font_size=BODY, bold=True, color=ACCENT, size_hint_y=None, height=dp(36),
                     halign="left", valign="middle")
        head.bind(size=lambda w, s: setattr(w, "text_size", s))
        words = Label(text=text, font_size=BODY, color=TEXT, size_hint_y=None, halign="left", valign="top",
                      text_size=(body.width, None))
        words.bind(width=lambda w, v: setattr(w, "text_size", (v, None)),
                   texture_size=lambda w, s: setattr(w, "height", s[1]))
        words.test_id = test_id
        body.add_widget(head)
        body.add_widget(words)

    def replay(self) -> None:
        """The opening read aloud again (every part, from the start); the text stays on show meanwhile."""
        from audio.segments import Segment

        narrator = getattr(App.get_running_app(), "narrator", None)
        if narrator is None:
            return
        self.spoke = True
        for i, (key, text, audio) in enumerate(self.parts):
            narrator.speak(Segment(f"wh.{self.case_id}.{key}", self.host.ctx.lang, text, recording=audio or None),
                           interrupt=i == 0)

    def on_dismiss(self) -> None:
        self.pieces.cancel()
        narrator = getattr(App.get_running_app(), "narrator", None)
        if narrator is not None and self.spoke:
            narrator.stop()  # the reading ends with the file: the table goes on
