"""The Clue host's private channel: what one seat does or sees alone (its hand, the card to show or the
answer to give, a card shown to it, the envelope after a wrong accusation, its recorded hand)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from engines.clue.actions import (
    NoteShown,
    Pass,
    RecordHand,
    ReportAccusation,
    Show,
)
from engines.clue.content import CardSet, sets_in
from engines.clue.views import ClueView
from engines.core import Action
from kiosk.flows.screen import GameScreen, closing
from kiosk.games.clue.parts import ClueText, ClueTitle, button_grid, card_name
from kiosk.widgets.buttons import button
from kiosk.widgets.theme import ACCENT, BODY, DANGER_TEXT, HEADLINE, LEAD, MUTED, TITLE

if TYPE_CHECKING:
    from engines.clue.content import CardSet


class PrivateChannel(GameScreen[ClueView]):
    """The Clue screen's private moments (ClueHost): every method opens `ctx.private` for one seat, built from that
    seat's view only."""

    GAME, VIEW = "clue", ClueView
    recording: list[str]

    def cards(self, view: ClueView) -> CardSet:
        return sets_in(self.ctx.game.pack)[view.set]

    def cname(self, view: ClueView, cid: str) -> str:
        return card_name(self.cards(view), cid, self.ctx.lang)

    def private_box(self, seat: int, title: str) -> tuple[BoxLayout, ClueView]:
        mine = self.seen(seat)  # only this seat's view
        box = BoxLayout(orientation="vertical", spacing=dp(12))
        box.add_widget(ClueTitle(text=title))
        return box, mine

    def card_names(self, mine: ClueView, cards: tuple[str, ...] | None) -> str:
        return ", ".join(self.cname(mine, c) for c in cards or ())

    def hand_line(self, mine: ClueView) -> ClueText:
        return ClueText(text=f"{self.tr('private.hand')}: {self.card_names(mine, mine.hand)}", color=MUTED)

    def pick_card_to_show(self, seat: int) -> None:
        view = self.seen()
        suggester = view.suggestions[-1].seat

        def content(done: Callable[[], None]) -> Widget:
            box, mine = self.private_box(seat, self.tr("private.pick_show", name=view.name(suggester)))
            opts = [(c, self.cname(mine, c)) for c in mine.can_show or ()]

            def show(cid: str) -> None:
                if self.send(Show(seat, cid)) is not None:
                    done()

            button_grid(box, opts, show, 3, prefix="clue_show", height=96)
            box.add_widget(self.hand_line(mine))
            box.add_widget(Widget())
            return box

        self.ctx.private(view.name(seat), content, lambda: self.reveal_shown(suggester), mode="input")

    def answer_privately(self, seat: int) -> None:
        """Physical cards with a recorded hand: the refuter says shown or pass on their own channel; a pass
        the recorded hand contradicts is refused there, naming their own matching cards, and a mistaken
        record can be corrected there first (CLUE-15, CLUE-41, CLUE-42)."""
        view = self.seen()
        rec = view.suggestions[-1]
        size = view.players[seat].hand_size

        def content(done: Callable[[], None]) -> Widget:
            question = self.tr("private.answer", name=view.name(rec.seat))
            box, mine = self.private_box(seat, question)
            title = box.children[-1]
            holder = BoxLayout(orientation="vertical", spacing=dp(12))
            box.add_widget(holder)

            def answering() -> None:
                mine = self.seen(seat)
                title.text = question
                holder.clear_widgets()
                named = self.card_names(mine, rec.named)
                holder.add_widget(ClueText(text=named, font_size=LEAD))
                why = ClueText(text="", color=DANGER_TEXT, font_size=BODY)
                why.test_id = "clue_answer_why"

                def answer(action: Action) -> None:
                    if self.ctx.dispatch(action, toast=False) is not None:
                        done()
                        return
                    error = self.ctx.last_error
                    held = self.card_names(mine, mine.can_show)
                    lines = [error.message(self.ctx.lang)] if error is not None else []
                    why.text = "\n".join(lines + ([self.tr("private.can_show", cards=held)] if held else []))

                row = BoxLayout(size_hint_y=None, height=dp(80), spacing=dp(8))
                button(row, self.tr("act.showed"), "clue_answer_showed", lambda: answer(Show(seat)), "primary",
                       80)
                button(row, self.tr("act.pass"), "clue_answer_pass", lambda: answer(Pass(seat)), "normal", 80)
                holder.add_widget(row)
                holder.add_widget(why)
                holder.add_widget(self.hand_line(mine))
                button(holder, self.tr("private.record_fix"), "clue_answer_fix", correcting)
                holder.add_widget(Widget())

            def correcting() -> None:
                title.text = self.tr("private.record_hand", n=size)
                holder.clear_widgets()
                self.recording = list(self.seen(seat).hand or ())
                holder.add_widget(self.record_grid(size, finish))

            def finish(cards: tuple[str, ...]) -> None:
                if self.send(RecordHand(seat, cards)) is None:
                    return
                if cards:
                    answering()
                else:  # no record left: nothing secret decides the answer, the table takes it
                    done()

            answering()
            return box

        self.ctx.private(view.name(seat), content, None, mode="input", seat=seat)

    def reveal_shown(self, seat: int) -> None:
        view = self.seen()
        rec = view.suggestions[-1]

        def content(_done: Callable[[], None]) -> Widget:
            box, mine = self.private_box(seat, self.tr("private.shown_to_you", name=view.name(rec.shown_by)))
            text = self.cname(mine, mine.shown(rec.n, seat))
            box.add_widget(ClueTitle(text=text, font_size=HEADLINE, halign="center", height=dp(120)))
            return box

        self.ctx.private(view.name(seat), content, None, mode="reveal")

    def show_hand(self, seat: int, chain: bool = False) -> None:
        view = self.seen()
        if seat >= len(view.players):
            return

        def content(_done: Callable[[], None]) -> Widget:
            box, mine = self.private_box(seat, self.tr("private.hand"))
            box.add_widget(ClueText(text=self.card_names(mine, mine.hand), font_size=LEAD, color=ACCENT))
            return box

        nxt = (lambda: self.show_hand(seat + 1, chain=True)) if chain else None
        self.ctx.private(view.name(seat), content, nxt, mode="reveal")

    def show_envelope(self, seat: int) -> None:
        view = self.seen()

        def content(_done: Callable[[], None]) -> Widget:
            box, mine = self.private_box(seat, self.tr("private.envelope"))
            box.add_widget(ClueText(text=self.card_names(mine, mine.envelope), font_size=TITLE, color=ACCENT))
            return box

        self.ctx.private(view.name(seat), content, None, mode="reveal")

    def record_hand(self, seat: int) -> None:
        view = self.seen()
        size = view.players[seat].hand_size
        self.recording = []

        def content(done: Callable[[], None]) -> Widget:
            box, _mine = self.private_box(seat, self.tr("private.record_hand", n=size))

            def finish(cards: tuple[str, ...]) -> None:
                if self.send(RecordHand(seat, cards)) is not None:
                    done()

            box.add_widget(self.record_grid(size, finish))
            return box

        self.ctx.private(view.name(seat), content, None, mode="input")

    def record_grid(self, size: int, finish: Callable[[tuple[str, ...]], None]) -> BoxLayout:
        """Every card as a toggle (the ones in `self.recording` on), then skip / record (k of `size`)."""
        holder = BoxLayout(orientation="vertical", spacing=dp(8))
        cards = self.cards(self.seen())

        def redraw() -> None:
            holder.clear_widgets()
            button_grid(holder, [(c.id, c.name(self.ctx.lang)) for c in cards.cards], toggle, 7, self.recording,
                        prefix="clue_rec", height=60)
            row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(8))
            button(row, self.tr("private.record_skip"), "clue_rec_skip", lambda: finish(()))
            ok = button(row, self.tr("private.record_done", k=len(self.recording), n=size), "clue_rec_done",
                        lambda: finish(tuple(self.recording)), "primary", disabled=len(self.recording) != size)
            ok.why = self.tr("private.record_why", n=size)
            holder.add_widget(row)
            if ok.disabled:
                holder.add_widget(ClueText(text=ok.why, color=MUTED))

        def toggle(cid: str) -> None:
            if cid in self.recording:
                self.recording.remove(cid)
            elif len(self.recording) < size:
                self.recording.append(cid)
            redraw()

        redraw()
        return holder

    def note_shown(self, seat: int) -> None:
        view = self.seen()
        rec = view.suggestions[-1]

        def content(done: Callable[[], None]) -> Widget:
            box, mine = self.private_box(seat, self.tr("private.note_pick", name=view.name(rec.shown_by)))

            def note(cid: str) -> None:
                if self.send(NoteShown(seat, cid)) is not None:
                    done()

            named = [(c, self.cname(mine, c)) for c in rec.named]
            button_grid(box, named, note, 3, prefix="clue_note", height=96)
            button(box, self.tr("private.note_skip"), "clue_note_skip", lambda: note(""))
            box.add_widget(Widget())
            return box

        self.ctx.private(view.name(seat), content, None, mode="input")

    def check_accusation(self, seat: int) -> None:
        view = self.seen()

        def content(done: Callable[[], None]) -> Widget:
            box, _mine = self.private_box(seat, self.tr("status.check", name=view.name(seat)))
            row = BoxLayout(size_hint_y=None, height=dp(96), spacing=dp(12))

            def report(correct: bool) -> None:
                self.send(ReportAccusation(seat, correct), then=closing(done))

            button(row, self.tr("private.check_right"), "clue_check_right", lambda: report(True), "primary", 96)
            button(row, self.tr("private.check_wrong"), "clue_check_wrong", lambda: report(False), "danger", 96)
            box.add_widget(row)
            box.add_widget(Widget())
            return box

        self.ctx.private(view.name(seat), content, None, mode="input")
