"""The tablet's question for a phone new to its seat (issues 37, 42; the door: phones/admit.py).

On whatever screen is showing, the tablet asks "a phone wants to join 민호's seat — does it show this
number?" with the four digits the phone shows. Only the seat's public name and the digits are on the
shared screen, never anything of the seat's secret; the seat's owner answers. One question at a time,
oldest first; a question whose phone went away leaves by itself. `AskWatcher` follows the hub for as long
as the kiosk runs (the app starts one when its phones are ready).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk.widgets.one_use import OneUse
from kiosk.widgets.theme import ACCENT, BODY, LEAD, MUTED, PANEL, SMALL, TEXT, Panel, TButton
from phones.admit import Asking

Translate = Callable[..., str]


def _label(text: str, size: str, color: Any, height: float, bold: bool = False) -> Label:
    lbl = Label(text=text, font_size=size, color=color, bold=bold, halign="center", valign="middle",
                size_hint_y=None, height=dp(height))
    lbl.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - dp(20), None)))
    return lbl


class PhoneAsk(OneUse):
    """Is this your phone? Yes lets the phone take the seat; no turns it away."""

    for_one = "private"  # the seat's owner answers it: no shared channel asks over it

    def __init__(self, ask: Asking, tr: Translate, on_answer: Callable[[bool], None]) -> None:
        super().__init__(size_hint=(0.62, None), height=dp(430), auto_dismiss=False,
                         background_color=(0, 0, 0, 0.6), background="")
        self.ask = ask
        self._on_answer = on_answer
        box = Panel(orientation="vertical", bg=PANEL, padding=dp(20), spacing=dp(8))
        box.add_widget(_label(tr("phones.tablet.ask_title", name=ask.name), LEAD, ACCENT, 64, True))
        box.add_widget(_label(tr("phones.tablet.ask_number"), BODY, TEXT, 44))
        number = _label(" ".join(ask.number), "64sp", ACCENT, 110, True)
        number.test_id = "phones_ask_number"
        box.add_widget(number)
        box.add_widget(_label(tr("phones.tablet.ask_hint"), SMALL, MUTED, 48))
        row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(16))
        no = TButton(text=tr("phones.tablet.ask_no"), kind="normal", test_id="phones_ask_no")
        yes = TButton(text=tr("phones.tablet.ask_yes"), kind="primary", test_id="phones_ask_yes")
        no.bind(on_release=lambda *_: self._answer(False))
        yes.bind(on_release=lambda *_: self._answer(True))
        row.add_widget(no)
        row.add_widget(yes)
        box.add_widget(row)
        self.add_widget(box)

    def _answer(self, ok: bool) -> None:
        self.dismiss()
        self._on_answer(ok)


class AskWatcher:
    """Shows the hub's oldest question until it is answered or its phone goes, then the next."""

    def __init__(self, hub: Any, tr: Translate) -> None:
        self.hub, self.tr = hub, tr
        self.dialog: PhoneAsk | None = None
        hub.listen(self.check)
        self.check()

    def check(self) -> None:
        asks: list[Asking] = self.hub.asking()
        shown = self.dialog
        if shown is not None and shown._is_open and not shown.closing and any(a.ident == shown.ask.ident for a in asks):
            return  # still asked (a dialog closed by someone else, e.g. a turnover, is asked again)
        if shown is not None and not shown.closing:
            shown.dismiss(animation=False)
        self.dialog = None
        if asks:
            self.dialog = PhoneAsk(asks[0], self.tr, self._answer)
            self.dialog.open()

    def _answer(self, ok: bool) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is not None:
            self.hub.answer(dialog.ask.ident, ok)  # the hub tells its listeners: the next question follows

    def stop(self) -> None:
        self.hub.unlisten(self.check)
        if self.dialog is not None:
            self.dialog.dismiss(animation=False)
            self.dialog = None
