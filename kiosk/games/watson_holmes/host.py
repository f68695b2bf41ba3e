"""The Watson & Holmes host: set-up, the narrated case opening, then the referee's table screen.

Table screen: the location grid with pawns, bids, police tokens and locks; the carriage stop and 221B;
each player's carriages and tokens; whose turn; Watson and Holmes. Secrets go through `ctx.private`:
reading a card (digital: the text; physical box: "read your card now"), writing the 221B answers, a
consulted player's answers, checking an answer. No rules here: buttons come from the engine's legal
actions, and every choice is dispatched for the engine to accept or refuse."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from engines.core import TABLE, Action, Step
from engines.watson_holmes.actions import (
    CheckAnswer,
    CheckReply,
    ConsultAnswers,
    EndGame,
    RevealCharacter,
    TakeWatson,
    Verdict,
    Visit,
    WatsonPass,
    WatsonRead,
)
from engines.watson_holmes.content import Case, Text
from engines.watson_holmes.views import WhView
from kiosk import gc_policy
from kiosk.games.watson_holmes.board import BoardParts, WhTable
from kiosk.games.watson_holmes.opening import WhOpening
from kiosk.games.watson_holmes.private import PrivateFlows
from kiosk.games.watson_holmes.result import SOLUTION_TOAST_DELAY
from kiosk.games.watson_holmes.setup import KEPT, WhSetup, label
from kiosk.hosting import HostContext
from kiosk.widgets.fit_scroll import FitScroll
from kiosk.widgets.keep import Fill, Place
from kiosk.widgets.theme import LEAD, MUTED, SMALL, Panel, TButton
from table.table import Table

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TABLE_MIN_HEIGHT = 500  # dp: the table under the host bar of a 1024x600 window is ~508 high; shorter, it scrolls


class WatsonHolmesHost(BoardParts):
    def __init__(self, ctx: HostContext, **kw: Any) -> None:
        super().__init__(ctx, **kw)
        self.table: WhTable | None = None
        self.opening: WhOpening | None = None
        self.fresh = False
        self.again: list[str] | None = None  # 한 판 더 with every case played: the names the set-up form starts again
        self.end_toasts: list[str] = []  # the toasts said when the last game ended
        self.sel = ""  # the location chosen on the grid
        self.bid = 0
        self.withdraw = False
        self.watson_after = False
        self.reading_text = ""
        self.private = PrivateFlows(self)
        self.drawn: set[str] = set()  # the table's parts drawn so far: "_board", "_players", "_actions"
        self.rows_drawn = 0  # the board's rows with their tiles so far (the stops' row last)
        self.tiles_a_line = 0  # the most tiles a line of the board had at its last drawing
        self.players_drawn = 0  # the players' rows so far (a new table's: one per frame)
        self.spare: WhTable | None = None  # an empty table made while the set-up form is on show, for the start
        self.spare_opening: WhOpening | None = None  # and the opening's widgets
        if ctx.playing:  # a game resumed: its table at once (the form, taken and reset, was cleared in that frame)
            return
        # the form's texts are drawn once, in the language and for the cases (staff examples too) of its screen
        self.show_form(KEPT.take(self, (ctx.lang, ctx.game.info.players, self.cases()), lambda: WhSetup(self)))
        self.pieces.add(self._spare_table)
        self.pieces.add(self._spare_opening)

    @property
    def shows_captions(self) -> bool:
        """The case opening shows its own captions and playback controls."""
        return self.opening is not None

    # ------------------------------------------------------------ helpers
    def pick(self, text: Text | None) -> str:
        if text is None:
            return ""
        return text.en if self.ctx.lang == "en" and text.en else text.ko

    def cases(self) -> list[Case]:
        """The cases to offer: staff examples only in staff mode."""
        staff = bool(getattr(self.ctx.app, "staff_mode", False))
        return sorted((v for v in self.ctx.game.pack.values() if isinstance(v, Case) and (staff or not v.example)),
                      key=lambda c: (c.number, c.id))

    def all_cases(self) -> list[Case]:
        return [v for v in self.ctx.game.pack.values() if isinstance(v, Case)]

    def case(self) -> Case:
        case_id = self.seen().case.id
        return next(c for c in self.all_cases() if c.id == case_id)  # a resumed example case too

    def name(self, seat: int) -> str:
        return self.seen().players[seat].name

    def place(self, location: str) -> str:
        if location == "cab":
            return self.tr("loc.cab")
        if location == "221b":
            return self.tr("loc.baker")
        return f"{location}. {self.pick(self.case().location(int(location)).name)}"

    def played_cases(self) -> set[str]:
        """The cases started at this table tonight (since its last turnover: Table.played), the one on show too."""
        return {str(config.get("case", "")) for game, config in self.ctx.table.played if game == self.ctx.game.id}

    def next_case(self, after: str) -> Case | None:
        """The first case after `after` in the café's library (wrapping round) this table has not played tonight."""
        cases, played = self.cases(), self.played_cases()
        ids = [c.id for c in cases]
        i = ids.index(after) + 1 if after in ids else 0
        return next((c for c in cases[i:] + cases[:i] if c.id not in played), None)

    # ------------------------------------------------------------ set-up and opening
    def start_game(self, case_id: str, names: list[str], expert: bool, play_on: bool = False) -> None:
        self.fresh = True
        again = self.again is not None and names == self.again  # the same players: their phones keep their seats
        if not self.ctx.start({"players": names, "case": case_id, "expert": expert, "play_on": play_on},
                              rematch=again):
            self.fresh = False

    def rematch(self) -> None:
        """한 판 더: the same players on a case they have not played tonight (they know this one's solution): the next
        one in the library, its opening first; with every case played, the set-up form, the played ones marked."""
        if not self.ctx.playing:
            return
        config = dict(self.running.header.get("config", {}))
        case = self.next_case(str(config.get("case", "")))
        if case is None:
            self.choose_again(config)
            return
        self.fresh = True
        if not self.ctx.rematch({**config, "case": case.id}):
            self.fresh = False

    def choose_again(self, config: dict[str, Any]) -> None:
        """Every case of the library was played here tonight: the finished game archived (the phones stay for the
        next deal), the set-up form with the same players, the played cases marked; they choose."""
        names = [p.name for p in self.seen().players]
        narration = getattr(self.ctx.app, "narration", None)
        if narration is not None:
            narration.hush()  # the solution's reading ends with its game (its captions took the form's room)
        self._end_toast_gone()
        self.ctx.table.end(later=True, rematch=True)
        self.closing()
        self.clear_widgets()
        self.spare, self.table = self.spare or self._emptied(), None
        self.again = names
        self.show_form(KEPT.take(self, (self.ctx.lang, self.ctx.game.info.players, self.cases()),
                                 lambda: WhSetup(self))).again(names, config)

    def on_table(self, running: Table) -> None:
        self.again = None
        self._end_toast_gone()
        self.closing()
        self.clear_widgets()
        self.spare, self.table = self.spare or self._emptied(), None
        if self.fresh:
            self.fresh = False
            start = running.observe(None).part(WhView).start_player
            opening, self.spare_opening = self.spare_opening or WhOpening(), None
            self.opening = opening.play(self.case(), self.ctx.lang, self.ctx.tr, self.name(start), self.show_table)
            self.add_widget(self.opening)
            self.pieces.add(self._new_table)  # made off screen while the opening plays, a part per frame
        elif self.spare is None:  # a new screen resuming the game (made in this frame): the table in the next
            self.pieces.add(self.show_table)
        else:
            self.show_table(draw=False)  # drawn by the refresh that follows a new session

    def closing(self) -> None:
        """The opening's speech and caption listener end with it (another opening, the table, or the screen); the
        set-up form, done with once a game is on, is let go for the next screen; a table still being made stops."""
        super().closing()
        if self.opening is not None:
            self.opening.close()
            gc_policy.drop(self.opening, self.keep)  # made for one game's start: taken apart in a pause (frozen
            self.opening = None  # with the screen while it played, it was cyclic garbage until a thaw)

    def show_table(self, draw: bool = True) -> None:
        """The table screen: the one made while the opening played (what is left of it made now), else a new one,
        its status now and its parts in the frames after (a whole table made in one frame took 45-65 ms of UI-thread
        CPU here; its status, first row and action bar 20-37 ms with the screen's own making)."""
        self.pieces.finish()
        self.closing()
        self.clear_widgets()
        if self.table is None:
            self._new_table(shown=True)
        table = self.table
        if table is not None and table.parent is not None:  # (its last scroll, off the screen)
            table.parent.remove_widget(table)
        # shorter than it was designed for (the toast lane or the caption strip open under a 1024x600 screen), it
        # scrolls: squeezed, its location tiles went under the finger's size and its player rows over the status
        self.add_widget(FitScroll(table, min_height=dp(TABLE_MIN_HEIGHT)))
        if draw:
            self.refresh(None)

    def _spare_table(self) -> None:
        """An empty table made in a frame of the set-up form's, at this screen's size: a start's frame makes none."""
        if self.spare is None and self.table is None:
            self.spare = self._frame()

    def _spare_opening(self) -> None:
        if self.spare_opening is None and self.opening is None:
            self.spare_opening = WhOpening()

    def _frame(self) -> WhTable:
        table = WhTable(size=self.size)
        table.ids.board.bind(width=self._board_width)
        table.ids.case_file.bind(on_release=lambda *_: self.open_case_file())
        return table

    def _emptied(self) -> WhTable | None:
        """The last game's table for the next game on this screen: off its scroll, its lines blank, its parts (its
        Keep's, let go by `attach`: taken apart in a pause) off it."""
        table = self.table
        if table is None:
            return None
        if table.parent is not None:
            table.parent.remove_widget(table)
        ids = table.ids
        for box in (ids.board, ids.stops, ids.players, ids.actions):
            box.clear_widgets()
        for line in (ids.status, ids.cards, ids.prompt):
            line.text = ""
        return table

    def _new_table(self, shown: bool = False) -> None:
        """A new table (the spare one if made), laid out at this screen's size, its parts made one per frame from the
        view then: the board's rows (every row's box is there from the start: a row filling in moves no other), the
        players' rows, the action bar; `shown` (no opening to hide it): the first row, the action bar, the other
        rows, the players. Its status is drawn by the refresh that shows it."""
        self.table, self.spare = self.spare or self._frame(), None
        self.table.size = self.size
        self.rows_drawn = self.players_drawn = 0
        self.drawn = set()
        rows = [self._next_row] * (len(self._rows(self.case())) + 1)  # the locations' rows, then the stops
        players = [self._next_player] * len(self.seen().players)
        actions = partial(self._draw_part, "_actions")
        order: list[Callable[[], Any]] = [rows[0], actions, *rows[1:], *players] if shown else [*rows, *players, actions]
        for piece in order:
            self.pieces.add(piece)

    def open_case_file(self) -> None:
        """The opening's text and the case's questions, one tap away for the whole game (replayable)."""
        from kiosk.games.watson_holmes.case_file import CaseFile

        if self.ctx.playing:
            dialog = CaseFile(self)
            self.ctx.opened(dialog)
            dialog.open(animation=False)

    def _next_row(self) -> None:
        self.rows_drawn += 1
        self._draw_part("_board")

    def _next_player(self) -> None:
        self.players_drawn += 1
        self._draw_part("_players")

    def _draw_part(self, part: str) -> None:
        if self.table is not None and self.ctx.playing:
            self.drawn.add(part)
            getattr(self, part)(self.seen())

    # ------------------------------------------------------------ drawing
    def refresh(self, step: Step[Any] | None) -> None:
        if not self.ctx.playing or self.table is None or self.table.parent is None:
            return  # no table yet, or still being made while the opening plays (drawn when shown)
        if step is not None:
            self._announce(step)
        view = self.seen()
        if view.phase != "visit" or (self.sel and view.turn is not None and self._stale(view.turn)):
            self.sel, self.bid, self.withdraw, self.watson_after = "", 0, False, False
        self._status(view)
        for part in ("_board", "_players", "_actions"):
            if part in self.drawn:
                getattr(self, part)(view)

    def _stale(self, turn: int) -> bool:
        return not any(isinstance(a, Visit) and a.location == self.sel for a in self.running.legal(turn)) \
            and self.sel not in ("cab", "221b")

    def _announce(self, step: Step[Any]) -> None:
        toasts: list[str] = []
        for e in step.events:
            if e.to is not None:
                continue
            d = e.data
            if e.kind == "displaced":
                toasts.append(self.tr("event.displaced", name=self.name(d["seat"])))
            elif e.kind == "attempt_failed":
                toasts.append(self.tr("event.failed", name=self.name(d["seat"]), n=d["right"], of=d["of"]))
            elif e.kind == "solved":
                toasts.append(self.tr("event.solved", name=self.name(d["seat"])))
            elif e.kind in ("character_revealed", "character_rotated"):
                card = self.ctx.game.pack["components"]
                found = next((c for c in card.characters if c.id == d["character"]), None)
                toasts.append(self.tr("event.character", name=self.name(d["seat"]),
                                      card=self.pick(found.name) if found else d["character"]))
            elif e.kind == "answer_checked":
                key = "check.said_right" if d["right"] else "check.said_wrong"
                toasts.append(self.tr(key, name=self.name(d["seat"]), q=d["question"]))
            elif e.kind == "watson_reading":
                clue = d.get("clue")
                place = self.place(str(d["number"]))
                if clue:
                    text = self.pick(Text(**clue) if isinstance(clue, dict) else clue)
                    self.reading_text = self.tr("watson.reading", name=self.name(d["target"]), place=place, text=text)
                    self._narrate(f"loc{d['number']}", text)
                else:  # a physical box: the card itself is read aloud at the table
                    self.reading_text = self.tr("watson.reading_aloud", name=self.name(d["target"]), place=place)
            elif e.kind == "game_over":
                self._narrate_solution()
            elif e.kind == "round_started":
                self.reading_text = ""  # last round's Watson reading is over
        if any(e.kind == "game_over" for e in step.events):
            # the answers' hand-over and its question are still on show: a toast placed now kept off their
            # controls only and, once they closed, sat over the solution and the 게임 끝내기 bar. Placed once the
            # solution panel is laid out, it keeps off it (marked keep_clear) and off every control.
            self.ctx.later(lambda: self._toast_after_end(toasts), SOLUTION_TOAST_DELAY)
            return
        for text in toasts:
            self.ctx.toast(text)

    def _status(self, view: WhView) -> None:
        ids = self.table.ids  # type: ignore[union-attr]
        parts = [self.tr("status.round", n=view.round), self.tr(f"phase.{view.phase}")]
        if view.phase == "visit" and view.turn is not None:
            parts.append(self.tr("status.turn", name=self.name(view.turn)))
        ids.status.text = " · ".join(parts)
        if view.phase == "over":
            watson = ""
        elif view.expert:
            watson = self.tr("status.watson_none")
        elif view.watson is not None:
            watson = self.tr("status.watson_taken", name=self.name(view.watson))
        else:
            watson = self.tr("status.watson_free")
        holmes = self.tr("status.holmes_up" if view.holmes_up else "status.holmes_down")
        ids.cards.text = " · ".join(x for x in (watson, holmes) if x)

    def _players(self, view: WhView) -> None:
        with Fill(self.keep, self.table.ids.players, "wh_players") as box:  # type: ignore[union-attr]
            self._player_rows(box, view)

    def _player_rows(self, box: Fill, view: WhView) -> None:
        movers = {p.seat for p in self.running.observe(None).prompts}  # whom the game waits for (the engine says)
        tall = len(view.players) <= 5
        for p in view.players:
            if p.seat >= self.players_drawn:  # a new table's row not made yet (one per frame): its room kept
                box.add(Place, f"slot{p.seat}", size_hint_y=None, height=dp(80 if tall else 62))
                continue
            seat = p.seat
            status = ""
            if p.status == "failed":
                status = " · " + self.tr("player.failed", n=p.right_count)
            elif p.status == "solved":
                status = " · " + self.tr("player.solved")
            start = " · " + self.tr("player.start") if seat == view.start_player else ""
            head = f"{p.name}{start}{status}"
            line = self.tr("player.line", n=p.carriages, p=p.police, w=p.withdraw, l=p.lockpick)
            off = (view.phase in ("over", "judge") or view.pending_check is not None
                   or (p.status != "active" and seat not in movers))
            shown = (head, line, tall, off, self.tr("player.acts"))
            box.built(f"wh_player_{seat}", shown, partial(self._player_row, seat, *shown))
        if len(view.players) < 7:
            box.add(BoxLayout)

    def _player_row(self, seat: int, head: str, line: str, tall: bool, off: bool, acts_text: str) -> Panel:
        # seven rows must fit beside the board without reaching over the status line
        row = Panel(orientation="horizontal", size_hint_y=None, height=dp(80 if tall else 62),
                    padding=dp(6 if tall else 3), spacing=dp(6))
        info = BoxLayout(orientation="vertical")
        info.add_widget(label(head, SMALL, height=34 if tall else 28, bold=True))
        info.add_widget(label(line, SMALL, color=MUTED, height=30 if tall else 26))
        row.add_widget(info)
        acts = TButton(text=acts_text, test_id=f"wh_acts_{seat}", size_hint_x=None, width=dp(96), font_size=SMALL,
                       disabled=off)
        acts.bind(on_release=lambda _w: self.private.actions_menu(seat))
        row.add_widget(acts)
        return row

    # ------------------------------------------------------------ the action bar
    def _actions(self, view: WhView) -> None:
        with Fill(self.keep, self.table.ids.actions, "wh_actions") as bar:  # type: ignore[union-attr]
            self._action_bar(bar, view)

    def _action_bar(self, bar: Fill, view: WhView) -> None:
        prompt = self.table.ids.prompt  # type: ignore[union-attr]
        phase = view.phase
        prompt.text = self.reading_text
        if phase == "visit" and view.turn is not None:
            self._visit_bar(bar, prompt, view, view.turn)
        elif phase == "watson" and view.watson is not None:
            prompt.text = self.tr("watson.title", name=self.name(view.watson))
            for a in self.running.legal(view.watson):
                if isinstance(a, WatsonRead):
                    self._button(bar, self.tr("watson.read", name=self.name(a.target)), f"wh_watson_{a.target}", a)
                elif isinstance(a, WatsonPass):
                    self._button(bar, self.tr("watson.pass"), "wh_watson_pass", a)
        elif phase == "investigate" and view.pending:
            seat = view.pending[0]
            bar.add(TButton, "", lambda: self.private.read(seat), text=self.tr("read.next", name=self.name(seat)),
                    kind="primary", test_id=f"wh_read_{seat}")
        elif phase == "solve" and view.pending:
            seat = view.pending[0]
            bar.add(TButton, "", lambda: self.private.answers(seat), text=self.tr("solve.next", name=self.name(seat)),
                    kind="primary", test_id=f"wh_answer_{seat}")
        elif phase == "judge":
            verdicts = [a for a in self.running.legal(TABLE) if isinstance(a, Verdict)]
            if verdicts:
                player = verdicts[0].player
                prompt.text = self.tr("judge.title", name=self.name(player))
                for n in range(view.case.questions + 1):
                    self._button(bar, self.tr("judge.right", n=n), f"wh_judge_{n}", Verdict(TABLE, player, n))
        elif phase == "over":
            bar.add(TButton, "", lambda: self.ctx.confirm(self.tr("end.confirm"), self.ctx.end_game),
                    text=self.tr("end.close"), kind="primary", test_id="wh_end")
        if view.pending_check is not None:
            bar.items.clear()
            prompt.text = self.tr("check.title")
            self._button(bar, self.tr("check.right"), "wh_check_right", CheckReply(TABLE, True))
            self._button(bar, self.tr("check.wrong"), "wh_check_wrong", CheckReply(TABLE, False))
        if EndGame(TABLE) in (self.running.legal(TABLE) if phase != "over" else []):
            bar.add(TButton, "", lambda: self.send(EndGame(TABLE), self.tr("end.confirm"), danger=True),
                    text=self.tr("end.end_play_on"), test_id="wh_end_play_on", kind="danger", font_size=SMALL)

    def _button(self, bar: Fill, text: str, test_id: str, action: Action, kind: str = "normal") -> None:
        bar.add(TButton, "", lambda: self.send(action), text=text, test_id=test_id, kind=kind, font_size=SMALL)

    def _visit_bar(self, bar: Fill, prompt: Label, view: WhView, seat: int) -> None:
        legal = self.running.legal(seat)
        if view.must_solve:
            prompt.text = self.tr("status.must_solve", name=self.name(seat))
        elif self.sel:
            marks = self.marks(self.sel)
            place = f"{self.place(self.sel)} ({marks})" if marks else self.place(self.sel)
            prompt.text = self.tr("visit.selected", place=place, n=self.bid)
        elif not self.reading_text:
            prompt.text = self.tr("visit.pick", name=self.name(seat))
        if TakeWatson(seat) in legal:
            self._button(bar, self.tr("visit.take_watson"), "wh_take_watson", TakeWatson(seat))
        if not self.sel:
            return
        for text, tid, fn in ((self.tr("visit.less"), "wh_bid_less", lambda: self._bid(-1)),
                              (self.tr("visit.more"), "wh_bid_more", lambda: self._bid(1))):
            bar.add(TButton, "", fn, text=text, test_id=tid, size_hint_x=None, width=dp(72), font_size=LEAD,
                    disabled=self.sel in ("cab", "221b"))
        if any(isinstance(a, Visit) and a.location == self.sel and a.withdraw for a in legal):
            bar.add(TButton, "", lambda: self._toggle("withdraw"), text=self.tr("visit.withdraw"), test_id="wh_withdraw",
                    selected=self.withdraw)
        if not view.expert and view.watson is None:
            bar.add(TButton, "", lambda: self._toggle("watson_after"), text=self.tr("visit.watson"),
                    test_id="wh_watson_after", selected=self.watson_after)
        bar.add(TButton, "", lambda: self.visit(seat), text=self.tr("visit.go"), kind="primary", test_id="wh_visit")

    # ------------------------------------------------------------ visit choices
    def choose(self, location: str) -> None:
        view = self.seen()
        if view.phase != "visit" or view.turn is None:
            return
        self.sel, self.withdraw, self.watson_after = location, False, False
        options = [a for a in self.running.legal(view.turn) if isinstance(a, Visit) and a.location == location]
        self.bid = min((a.carriages for a in options), default=0)
        occupant = view.location(location)
        if occupant is not None and occupant.occupant is not None:
            self.bid = max(self.bid, occupant.bid + 1)
        self.refresh(None)

    def _bid(self, delta: int) -> None:
        self.bid = max(0, self.bid + delta)
        self.refresh(None)

    def _toggle(self, name: str) -> None:
        setattr(self, name, not getattr(self, name))
        self.refresh(None)

    def visit(self, seat: int) -> None:
        if not self.sel:
            return
        step = self.send(Visit(seat, self.sel, self.bid, self.withdraw, self.watson_after))
        if step is not None:
            self.sel, self.bid, self.withdraw, self.watson_after = "", 0, False, False
            self.reading_text = ""
            self.refresh(None)

    def route_private(self, action: Action) -> bool:
        """Voice asks for a character's ability or a Holmes action: the seat's private screen, where its own legal
        actions decide (whether its card is affordable, whom it consulted, are its secrets)."""
        seat = getattr(action, "seat", None)
        flows = {RevealCharacter: self.private.use_character, ConsultAnswers: self.private.consult,
                 CheckAnswer: self.private.check}
        show = flows.get(type(action))
        if show is None or seat is None or action.NAME not in self.private.offers(seat):
            return False
        show(seat)
        return True

    def close_menu(self, menu: ModalView) -> None:
        menu.dismiss()
        self.ctx.open_dialog = None

