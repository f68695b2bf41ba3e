"""What only one player may see or enter, through `ctx.private` (pass-the-tablet, later their phone):
reading their card, writing their 221B answers, a failed player's answers they paid to consult, an answer
to check. Each widget is built from the seat's own typed part (`host.seen(seat).me`) only; the menu of a player's "any time"
actions (character card, Holmes) lists the engine's legal actions for that seat."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from engines.watson_holmes.actions import (
    CheckAnswer,
    ConsultAnswers,
    DoneReading,
    RevealCharacter,
    RotateCharacter,
    SubmitAnswers,
)
from engines.watson_holmes.views import Me
from kiosk.flows.screen import closing
from kiosk.flows.seats import options, row, select
from kiosk.games.watson_holmes.protocol import WhScreen
from kiosk.widgets.buttons import button
from kiosk.widgets.one_use import OneUse
from kiosk.widgets.theme import ACCENT, BODY, LEAD, PANEL, SMALL, TEXT, Panel
from table.table import handover

ANYTIME_NAMES = {a.NAME for a in (RevealCharacter, RotateCharacter, ConsultAnswers, CheckAnswer)}


def text_label(text: str, size: str = BODY, color: Any = TEXT, bold: bool = False) -> Label:
    lbl = Label(text=text, font_size=size, color=color, bold=bold, halign="left", valign="top", size_hint_y=None)
    lbl.bind(width=lambda w, v: setattr(w, "text_size", (v, None)),
             texture_size=lambda w, s: setattr(w, "height", max(s[1], dp(32))))
    return lbl


class PrivateFlows:
    def __init__(self, host: WhScreen) -> None:
        self.host: WhScreen = weakref.proxy(host)  # held by its host: strong, the two kept a closed screen cyclic

    @property
    def ctx(self) -> Any:
        return self.host.ctx

    def tr(self, key: str, **params: Any) -> str:
        return self.host.tr(key, **params)

    def me(self, seat: int) -> Me:
        """The seat's own part of its view: its card, notes and answers (its secrets)."""
        me = self.host.seen(seat).me
        assert me is not None  # a seat's view always holds it
        return me

    # ------------------------------------------------------------ reading a card
    def read(self, seat: int) -> None:
        def content(done: Callable[[], None]) -> Widget:
            me = self.me(seat)
            number = me.reading
            assert number is not None  # offered to a seat reading a card only
            box = BoxLayout(orientation="vertical", spacing=dp(12))
            card = self.host.case().location(number)
            note = me.note(number)
            place = self.host.pick(card.name)
            if note is not None and note.clue is not None:
                box.add_widget(text_label(self.tr("read.title", n=number, place=place), LEAD, ACCENT, True))
                box.add_widget(text_label(self.host.pick(note.clue), BODY))
                gains = None
            else:
                box.add_widget(text_label(self.tr("read.physical", n=number, place=place), LEAD, ACCENT, True))
                box.add_widget(text_label(self.tr("read.gains"), SMALL))
                gains = self._gains_row(box)
            box.add_widget(Widget())
            row = BoxLayout(size_hint_y=None, height=dp(80), spacing=dp(12))
            legal = self.host.running.legal(seat)
            for police, key, tid in ((False, "read.done", "wh_read_done"), (True, "read.done_police", "wh_read_police")):
                if police and not (DoneReading(seat, police=True) in legal or gains is not None):
                    continue
                button(row, self.tr(key), tid, partial(self._done_reading, seat, police, gains, done),
                       "primary" if not police else "normal", size_hint_y=1)
            box.add_widget(row)
            return box

        self.ctx.private(self.host.name(seat), content, None, "input")

    def _gains_row(self, box: BoxLayout) -> dict[str, Any]:
        gains: dict[str, Any] = {"carriages": 0, "police": False, "withdraw": False, "lockpick": False}
        line = row(box, height=72)

        def carriages(n: int) -> None:
            gains["carriages"] = n
            select(counts, n)

        def toggle(kind: str) -> None:
            gains[kind] = not gains[kind]
            toggles[kind].selected = gains[kind]

        counts = options(line, [(n, self.tr("read.gain_carriages", n=n), f"wh_gain_carriages_{n}") for n in range(4)],
                         carriages)
        select(counts, 0)
        toggles = options(line, [(k, self.tr(f"read.gain_{k}"), f"wh_gain_{k}") for k in ("police", "withdraw",
                                                                                          "lockpick")], toggle)
        return gains

    def _done_reading(self, seat: int, police: bool, gains: dict[str, Any] | None, done: Callable[[], None]) -> None:
        g = gains or {}
        action = DoneReading(seat, police, g.get("carriages", 0), g.get("police", False), g.get("withdraw", False),
                             g.get("lockpick", False))
        if self.host.send(action) is not None:
            done()

    # ------------------------------------------------------------ 221B answers
    def answers(self, seat: int) -> None:
        def content(done: Callable[[], None]) -> Widget:
            case = self.host.case()
            box = BoxLayout(orientation="vertical", spacing=dp(8))
            inputs: list[TextInput] = []
            if case.digital:
                box.add_widget(text_label(self.tr("solve.title"), BODY, ACCENT, True))
                for q in case.questions:
                    box.add_widget(text_label(f"{q.number}. {self.host.pick(q.text)}", SMALL))
                    ti = TextInput(multiline=False, font_size=BODY, size_hint_y=None, height=dp(56),
                                   padding=(dp(12), dp(14)))
                    ti.test_id = f"wh_answer_q{q.number}"
                    inputs.append(ti)
                    box.add_widget(ti)
                key = "solve.submit"
            else:
                box.add_widget(text_label(self.tr("solve.physical"), BODY, ACCENT, True))
                key = "solve.physical_submit"
            box.add_widget(Widget())
            button(box, self.tr(key), "wh_answer_submit", lambda: self._submit(seat, tuple(i.text for i in inputs), done),
                   "primary", 72)
            return box

        self.ctx.private(self.host.name(seat), content, None, "input")

    def _submit(self, seat: int, answers: tuple[str, ...], done: Callable[[], None]) -> None:
        self.host.send(SubmitAnswers(seat, answers), then=closing(done))

    # ------------------------------------------------------------ any-time actions
    def offers(self, seat: int) -> list[str]:
        """What the shared screen may offer this seat now, by action name: the engine's table offers, computed
        from public facts only (a claim, e.g. the character's ability, opens the seat's private screen where its
        own legal actions decide). Never the seat's legal actions: the menu is on the shared screen, and whether
        its card's ability was offered told the table the card's cost."""
        offers = self.host.running.observe(None).table
        return [o.action for o in offers if o.seat == seat and o.action in ANYTIME_NAMES]

    def actions_menu(self, seat: int) -> None:
        offered = self.offers(seat)
        entries: list[tuple[str, str, Callable[[], None]]] = [
            (self.tr("acts.my_card"), "wh_act_mycard", lambda: self.my_card(seat)),
            (self.tr("acts.my_notes"), "wh_act_notes", lambda: self.my_notes(seat))]
        for name, key, tid, show in ((RevealCharacter.NAME, "acts.reveal", "wh_act_reveal", self.use_character),
                                     (RotateCharacter.NAME, "acts.rotate", "wh_act_rotate", self.rotate),
                                     (ConsultAnswers.NAME, "acts.consult_any", "wh_act_consult", self.consult),
                                     (CheckAnswer.NAME, "acts.check", "wh_act_check", self.check)):
            if name in offered:
                entries.append((self.tr(key), tid, partial(show, seat)))
        menu = OneUse(size_hint=(0.6, None), height=dp(190) + dp(76) * len(entries), auto_dismiss=False,
                      background="", background_color=(0, 0, 0, 0.6))
        box = Panel(orientation="vertical", bg=PANEL)
        box.add_widget(text_label(self.tr("acts.title", name=self.host.name(seat)), LEAD, ACCENT, True))
        for text, tid, fn in entries:
            button(box, text, tid, partial(self._menu_pick, menu, fn))
        box.add_widget(Widget())
        button(box, self.tr("acts.close"), "wh_act_close", lambda: self.host.close_menu(menu))
        menu.add_widget(box)
        self.ctx.open_dialog = menu
        menu.open()

    def _menu_pick(self, menu: ModalView, show: Callable[[], None]) -> None:
        self.host.close_menu(menu)
        show()

    def rotate(self, seat: int) -> None:
        """Turning the card sideways for 3 carriages: nothing secret decides it (a public offer); asked first."""
        self.ctx.dispatch(RotateCharacter(seat), channel=handover(seat))

    def use_character(self, seat: int) -> None:
        """The card's ability, on the seat's private screen: offered there when the seat's own legal actions
        have it (the card's cost is its secret), else why not."""
        def content(done: Callable[[], None]) -> Widget:
            card = self.me(seat).character_card
            box = BoxLayout(orientation="vertical", spacing=dp(10))
            if card is not None:
                box.add_widget(text_label(self.host.pick(card.name), LEAD, ACCENT, True))
                box.add_widget(text_label(self.host.pick(card.summary), BODY))
            box.add_widget(Widget())
            if RevealCharacter(seat) in self.host.running.legal(seat):
                button(box, self.tr("acts.reveal_go"), "wh_card_reveal",
                       lambda: self.host.send(RevealCharacter(seat), then=closing(done)), "primary", 72)
            else:
                box.add_widget(text_label(self.tr("acts.reveal_not_now"), BODY))
            return box

        self.ctx.private(self.host.name(seat), content, None, "input", seat=seat)

    def consult(self, seat: int) -> None:
        """Holmes's answers of a failed player, on the seat's private screen: the failed players it may still
        consult (its own legal actions: whom it consulted is its secret); the answers then, on the same screen."""
        def content(done: Callable[[], None]) -> Widget:
            box = BoxLayout(orientation="vertical", spacing=dp(10))
            box.add_widget(text_label(self.tr("acts.consult_title"), BODY, ACCENT, True))
            choices = [a for a in self.host.running.legal(seat) if isinstance(a, ConsultAnswers)]

            def pick(act: ConsultAnswers) -> None:
                self.host.send(act, then=lambda step: self._answers_of(box, seat, act.failed, done) if step else None)

            for a in choices:
                button(box, self.tr("acts.consult", name=self.host.name(a.failed)), f"wh_consult_{a.failed}",
                       partial(pick, a), height=72)
            if not choices:
                box.add_widget(text_label(self.tr("acts.consult_none"), BODY))
            box.add_widget(Widget())
            return box

        self.ctx.private(self.host.name(seat), content, None, "input", seat=seat)

    def _answers_of(self, box: BoxLayout, seat: int, failed: int, done: Callable[[], None]) -> None:
        """The consulted answers, on the private screen they were asked for."""
        box.clear_widgets()
        answers = self.me(seat).consulted_answers(failed)
        box.add_widget(text_label(self.tr("acts.answers_of", name=self.host.name(failed)), LEAD, ACCENT, True))
        for i, answer in enumerate(answers, 1):
            box.add_widget(text_label(f"{i}. {answer}", BODY))
        box.add_widget(Widget())
        button(box, self.tr("acts.seen"), "wh_consult_done", done, "primary", 72)

    def my_card(self, seat: int) -> None:
        """The player's own character card (secret until used, WH-40)."""
        def content(_done: Callable[[], None]) -> Widget:
            card = self.me(seat).character_card
            box = BoxLayout(orientation="vertical", spacing=dp(8))
            if card is None:
                box.add_widget(text_label(self.tr("acts.no_card"), LEAD, ACCENT, True))
            else:
                box.add_widget(text_label(self.host.pick(card.name), LEAD, ACCENT, True))
                box.add_widget(text_label(self.host.pick(card.summary), BODY))
            box.add_widget(Widget())
            return box

        self.ctx.private(self.host.name(seat), content, None, "reveal")

    def my_notes(self, seat: int) -> None:
        """The clues this player has read so far (their private notes, WH-69)."""
        def content(_done: Callable[[], None]) -> Widget:
            notes = self.me(seat).notes
            box = BoxLayout(orientation="vertical", spacing=dp(6))
            box.add_widget(text_label(self.tr("acts.notes_title"), LEAD, ACCENT, True))
            lines = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_y=None)
            lines.bind(minimum_height=lines.setter("height"))
            for note in notes:
                clue = self.host.pick(note.clue) if note.clue is not None else self.tr("acts.paper")
                lines.add_widget(text_label(f"{note.number}. {self.host.pick(note.name)}: {clue}", SMALL))
            scroll = ScrollView(do_scroll_x=False)
            scroll.add_widget(lines)
            box.add_widget(scroll)
            return box

        self.ctx.private(self.host.name(seat), content, None, "reveal")

    def check(self, seat: int) -> None:
        chosen = {"q": 1}

        def content(done: Callable[[], None]) -> Widget:
            case = self.host.case()
            box = BoxLayout(orientation="vertical", spacing=dp(10))
            box.add_widget(text_label(self.tr("acts.check_title"), BODY, ACCENT, True))
            def pick(n: int) -> None:
                chosen["q"] = n
                select(questions, n)

            questions = options(row(box), [(q.number, self.tr("acts.check_q", n=q.number), f"wh_check_q{q.number}")
                                           for q in case.questions], pick)
            select(questions, 1)
            ti = TextInput(multiline=False, font_size=BODY, size_hint_y=None, height=dp(56), padding=(dp(12), dp(14)))
            ti.test_id = "wh_check_text"
            box.add_widget(ti)
            box.add_widget(Widget())
            button(box, self.tr("acts.check_submit"), "wh_check_submit",
                   lambda: self._check(seat, chosen["q"], ti.text, done), "primary", 72)
            return box

        self.ctx.private(self.host.name(seat), content, None, "input")

    def _check(self, seat: int, question: int, answer: str, done: Callable[[], None]) -> None:
        self.host.send(CheckAnswer(seat, question, answer), then=closing(done))
