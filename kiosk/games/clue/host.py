"""The Clue host: set-up form (kiosk/games/clue/setup.py), then the game master's table screen.

The table screen shows only the table view: whose turn, the players' rows, the actions and under them the board
(kiosk/games/clue/board.py: rooms, tokens, weapons where the suggestions put them). Secrets go through
`ctx.private`: the disproving player picks a card to show, the suggester then sees it alone; a player
records their real hand (physical mode) or notes the card shown to them; a wrong accuser sees the
envelope; each player's notebook. No rules here: buttons come from the engine's legal actions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from engines.clue.actions import (
    Accuse,
    EndTurn,
    EnterRoom,
    Pass,
    RollDie,
    Show,
    StayOut,
    Suggest,
    Trapped,
    UsePassage,
)
from engines.clue.bots import knew
from engines.clue.views import ClueView
from engines.core import Action, Step
from kiosk.games.clue.board import ClueBoard
from kiosk.games.clue.notebook import NotebookPanel
from kiosk.games.clue.parts import (
    SUSPECT_RGBA,
    ClueText,
    ClueTitle,
    FitBox,
    PlayerRow,
    button_grid,
)
from kiosk.games.clue.private import PrivateChannel
from kiosk.games.clue.setup import KEPT, ClueSetup
from kiosk.hosting import HostContext
from kiosk.widgets.buttons import button
from kiosk.widgets.fit_scroll import CapScroll, FitScroll
from kiosk.widgets.keep import Fill, Shelf
from kiosk.widgets.theme import ACCENT, BODY, MUTED, SMALL, Panel
from table.table import Table

ACT = "clue/body/right/act"  # the action panel's keys (on top of the right column, the board under it)
SHELF = Shelf()  # a turn's buttons made ahead, lent from one Clue screen to the next
SUGGEST_GRIDS = (("suspect", 0, 3, "clue_sus"), ("weapon", 1, 4, "clue_wpn"))  # (pick, category, columns, ids)
ACCUSE_GRIDS = (("suspect", 0, 3, "clue_acc_suspect"), ("weapon", 1, 4, "clue_acc_weapon"), ("room", 2, 5, "clue_acc_room"))


@dataclass(frozen=True)
class Named:
    """The cards picked for the suggestion or accusation being built: a card's id per category ("" none yet)."""

    suspect: str = ""
    weapon: str = ""
    room: str = ""

    def has(self, *keys: str) -> bool:
        return all(getattr(self, k) for k in keys)


class ClueHost(PrivateChannel):
    def __init__(self, ctx: HostContext, **kw: Any) -> None:
        super().__init__(ctx, **kw)
        self.aids = False  # probabilities and advice: a teaching aid, off by default
        self.pick = Named()  # the suggestion / accusation being built
        self.accusing = False
        self.tutor_marks: dict[int, dict[tuple[str, int], str]] = {}
        self.levels: dict[int, str] = {}
        self.knew_lines: tuple[int, list[str]] | None = None  # (action count, the tablet detectives' notebooks)
        self.recording: list[str] = []
        self.rows_drawn = 0  # the player rows made so far
        self.actions_drawn = True  # the action panel is made (not yet in a new table's first frame)
        self.board_drawn = True  # the board is made (not before the rows and the grids made ahead: see on_table)
        # the form's texts are drawn once, in the language of its screen
        self.show_form(KEPT.take(self, (ctx.lang, ctx.game.info.players), lambda: ClueSetup(self)))

    # ------------------------------------------------------------ helpers
    def legal(self, seat: int) -> list[Action]:
        return list(self.running.legal(seat)) if seat >= 0 else []

    # ------------------------------------------------------------ lifecycle
    def on_table(self, running: Table) -> None:
        self.setup_form.let_go()  # done with once a game is on: free for the next screen
        self.pick, self.accusing = Named(), False
        # a new table, a part per frame: the start tap's frame shows the title and the places kept for the player
        # rows and the actions (it made the first row and the actions too: 21-56 ms of UI-thread CPU here); the
        # actions come in the next frame, then the rows, one per frame; nothing moves as they come
        self.pieces.cancel()
        self.rows_drawn, self.actions_drawn, self.board_drawn = 0, False, False
        self.pieces.add(self._actions_now)
        for _ in range(len(self.seen().players)):
            self.pieces.add(self._next_row)
        self.pieces.add(self._board_now)  # then the board (its names drawn: 21 textures the first time)
        # then, a grid per frame, the buttons a turn shows later (the rooms to enter, a suggestion's, the
        # accusation's): made in the frame of the tap that shows them, a grid of 6-9 buttons cost 10-40 ms of
        # UI-thread CPU here. Kept (self.keep), not shown; the tap takes them as they are.
        for key, part in self.ahead_parts():
            self.pieces.add(partial(self._ahead, key, part))

    def rematched(self) -> None:
        if self.seen().mode == "digital":
            self.show_hand(0, chain=True)  # a new deal: the tablet goes round again

    def ahead_parts(self) -> list[tuple[str, Callable[[ClueView, Fill], Any]]]:
        """(key of the action panel's part, what makes it into that panel's Fill) for the parts made ahead."""
        parts: list[tuple[str, Callable[[ClueView, Fill], Any]]] = [
            ("act_turn/clue_room", lambda view, box: self.room_grid(view, box, self.cards(view).ids(2), -1)),
            ("act_turn/clue_sus", lambda view, box: self.card_grid(view, box, *SUGGEST_GRIDS[0])),
            ("act_turn/clue_wpn", lambda view, box: self.card_grid(view, box, *SUGGEST_GRIDS[1]))]
        parts += [(f"act_accuse/clue_acc_{g[0]}", partial(self._grid_ahead, g)) for g in ACCUSE_GRIDS]
        parts.append(("act_accuse", self._accuse_ahead))  # the panel itself, the grids in it
        return parts

    def _grid_ahead(self, grid: tuple[str, int, int, str], view: ClueView, box: Fill) -> None:
        self.card_grid(view, box, *grid)

    def _ahead(self, key: str, part: Callable[[ClueView, Fill], Any]) -> None:
        """Make an action panel's part (see on_table) unless it is made already (it may be on show)."""
        prefix = f"{ACT}/{key}"
        if not self.ctx.playing or prefix in self.keep:
            return
        panel, _, _ = key.partition("/")
        if not SHELF.lend(self.keep, prefix, self.ctx.lang):  # the last screen's, else made now and shelved
            # a Fill for that panel's children, never done: what it makes is kept (self.keep), not put anywhere
            part(self.seen(), Fill(self.keep, None, f"{ACT}/{panel}"))
            SHELF.store(self.keep, prefix, self.ctx.lang)
        # at the size it will be shown at: its texts are drawn to their widths now (laid out in this frame's
        # clock), not in the tap's frame
        made, column = self.keep.kept(prefix), self.keep.kept(ACT)
        if made is not None and made.parent is None and column is not None and column.children:
            made.width = column.children[-1].width  # the action panel on show's (as tall as its children)

    def _accuse_ahead(self, view: ClueView, _: Fill) -> None:
        """The accusation's panel as `actions` fills it, nothing picked."""
        pick, self.pick = self.pick, Named()
        with self.panel_box(Fill(self.keep, None, ACT), "accuse") as box:
            self.accuse_panel(view, box)
            box.add(Widget)
        self.pick = pick

    def _actions_now(self) -> None:
        self.actions_drawn = True
        self.refresh(None)

    def _next_row(self) -> None:
        self.rows_drawn += 1
        self.refresh(None)

    def _board_now(self) -> None:
        self.board_drawn = True
        self.refresh(None)

    def closing(self) -> None:
        super().closing()
        SHELF.let_go(self.keep)

    def refresh(self, step: Step[Any] | None) -> None:
        if not self.ctx.playing:
            return
        view = self.seen()
        if step is not None and any(ev.kind == "accused" for ev in step.events):
            self.accusing, self.pick = False, Named()  # the accusation is made: its panel goes, in this one redraw
        with Fill(self.keep, self, "clue") as top:  # kept widgets: only what changed is drawn again
            top.add(ClueTitle, text=self.status(view), font_size=BODY)
            with top.box_of(BoxLayout, "body", spacing=dp(16)) as body:
                self.players_panel(view, body)
                with body.box_of(BoxLayout, "right", orientation="vertical", spacing=dp(10)) as column:
                    self.action_panel(view, column)  # as tall as it needs
                    self.board_part(view, column)  # the rest of the column
        if step is not None:
            self.after_step(view, step)

    def tablet_knew(self, view: ClueView) -> list[str]:
        """The finished game's lines for each tablet detective: what its own notebook held when it accused
        (else at the end), from its own view only (engines/clue/bots.py's `knew`)."""
        if self.knew_lines is not None and self.knew_lines[0] == self.running.count:
            return self.knew_lines[1]
        lines = []
        for seat in sorted(self.running.tablet):
            seen, accused = self.running.view_before(seat, "accuse")
            k = knew(seen)
            certain = ", ".join(self.cname(view, c) for _, c in sorted(k.certain.items())) or "-"
            likely = ", ".join(self.cname(view, c) for c in k.likeliest) or "-"
            lines.append(self.tr("end.tablet_knew_accused" if accused else "end.tablet_knew_end",
                                 name=view.name(seat), certain=certain, likely=likely, p=round(100 * k.p)))
        self.knew_lines = (self.running.count, lines)
        return lines

    def status(self, view: ClueView) -> str:
        ph = view.phase
        if view.over:
            return self.end_text(view)
        if ph == "hands":
            return self.tr("status.hands", name=view.name(view.asking))
        if ph == "refute":
            return self.tr("status.asking", name=view.name(view.asking))
        if ph == "note":
            return self.tr("status.note", name=view.name(view.turn))
        if ph == "accuse_check":
            return self.tr("status.check", name=view.name(view.turn))
        t = view.turn
        text = self.tr("status.turn", name=view.name(t), suspect=self.cname(view, view.players[t].suspect))
        if ph == "move":
            text += " · " + self.tr("status.die", n=view.die)
        return text

    def end_text(self, view: ClueView) -> str:
        env = view.envelope or ("", "", "")
        names = {k: self.cname(view, c) for k, c in zip(("suspect", "weapon", "room"), env, strict=True)}
        if view.winner >= 0:
            return self.tr("end.winner", name=view.name(view.winner), **names)
        return self.tr("end.nobody", **names)

    # ------------------------------------------------------------ the table screen
    def players_panel(self, view: ClueView, body: Fill) -> None:
        # scrolls when six rows need more than the window leaves (1024x600), never laid out over the status line
        with body.box_of(FitScroll, "players_scroll", size_hint_x=None, width=dp(420)) as scroll, \
                scroll.box_of(Panel, "players", orientation="vertical", spacing=dp(6), padding=dp(10)) as panel:
            self.player_rows(view, panel)

    def player_rows(self, view: ClueView, panel: Fill) -> None:
        cards = self.cards(view)
        for p in view.players:
            if p.seat >= self.rows_drawn:  # still to come (on_table): its place kept
                panel.add(Widget, f"clue_player_{p.seat}_place", size_hint_y=None, height=dp(64))
                continue
            colour = SUSPECT_RGBA.get(cards.card(p.suspect).color_en, MUTED)
            room = view.room_of(p.seat)
            where = self.tr("status.room", room=self.cname(view, room)) if room else self.tr("status.corridor")
            extra = self.tr("status.out") if p.out else self.tr("status.hand_size", n=p.hand_size)
            panel.add(PlayerRow, f"clue_player_{p.seat}", seat=p.seat, colour=tuple(colour),
                      text=f"{p.name} · {where}\n{extra}", out=p.out, nb_text=self.tr("act.notebook", name=""),
                      notebook=self.open_notebook)
        panel.add(Widget)

    def board_part(self, view: ClueView, column: Fill) -> None:
        """The board under the actions (kiosk/games/clue/board.py): made once, then moved."""
        if not self.board_drawn:  # a new table: after its rows (on_table); its place kept (the actions stay on top)
            column.add(Widget, "board_place")
            return
        cards, lang = self.cards(view), self.ctx.lang
        column.add(ClueBoard, "board").show(view, cards, lambda c: self.cname(view, c),
                                            lambda s: cards.card(s).short_name(lang), self.tr("board.corridor"),
                                            lambda to: self.tr("board.passage", room=self.cname(view, to)))

    def action_panel(self, view: ClueView, body: Fill) -> None:
        ph = view.phase
        # keyed by the panel shown, not by the phase: the accusation's 21 buttons, the turn's buttons stay kept
        # from one phase (roll, move, after) to the next
        panel = ("over" if view.over else ph if ph in ("hands", "refute", "note", "accuse_check")
                 else "accuse" if self.accusing else "turn")
        if not self.actions_drawn:  # a new table's first frame: its place kept (on_table)
            body.add(Widget, "act_place", size_hint_y=None, height=0)
            return
        # in a scroll as tall as the panel, at most the column (three lines of tablet moves over a suggestion's
        # choices): the board under it shrinks first, the panel never spills over the status line above
        with body.box_of(CapScroll, "act") as scroll, self.panel_box(scroll, panel) as box:
            self.actions(view, box)

    @staticmethod
    def panel_box(body: Fill, panel: str) -> Fill:
        return body.box_of(FitBox, f"act_{panel}", orientation="vertical", spacing=dp(10), size_hint_y=None)

    def actions(self, view: ClueView, box: Fill) -> None:
        if view.over:
            self.banner(box, view.name(view.winner) if view.winner >= 0 else "", self.end_text(view),
                        self.ctx.tr("results.nobody"))
            for n, text in enumerate(self.tablet_knew(view)):
                box.add(ClueText, f"tablet_knew_{n}", text=text, font_size=SMALL)
            box.add(Widget)
            return
        ph, turn = view.phase, view.turn
        said = self.ctx.tablet_said  # the tablet detectives' moves since a guest's, in words
        if said:
            box.add(ClueText, "tablet_said", text=said, font_size=BODY, color=ACCENT)
        due = self.running.tablet_due()
        if due is not None:  # a tablet detective thinks: nothing to tap for it (its moments are its own)
            box.add(ClueText, "tablet_thinking", text=self.ctx.tr("tablet.thinking", name=view.name(due)),
                    font_size=BODY, color=MUTED)
            box.add(Widget)
            return
        if ph == "hands":
            seat = view.asking
            button(box, self.tr("act.hand_me", name=view.name(seat)), "clue_handover",
                   lambda: self.record_hand(seat), "primary", 80)
        elif ph == "refute":
            self.refute_panel(view, box)
        elif ph == "note":
            button(box, self.tr("act.hand_me", name=view.name(turn)), "clue_handover",
                   lambda: self.note_shown(turn), "primary", 80)
        elif ph == "accuse_check":
            button(box, self.tr("act.hand_me", name=view.name(turn)), "clue_handover",
                   lambda: self.check_accusation(turn), "primary", 80)
        elif self.accusing:
            self.accuse_panel(view, box)
        else:
            self.turn_panel(view, box)
        box.add(Widget)

    def turn_panel(self, view: ClueView, box: Fill) -> None:
        turn = view.turn
        legal = self.legal(turn)
        last = view.last
        if view.phase == "after" and last is not None and last.seat == turn and last.done:
            named = ", ".join(self.cname(view, c) for c in last.named)
            passed = ", ".join(view.name(p) for p in last.passed) or "-"
            result = (self.tr("status.showed_by", name=view.name(last.shown_by), passed=passed)
                      if last.shown_by >= 0 else self.tr("status.nobody_showed", passed=passed))
            box.add(ClueText, text=f"{named}\n{result}", font_size=BODY)
        names = {a.NAME for a in legal}
        moves: list[tuple[str, str, Callable[[], Any], str]] = []  # (label, test id, on tap, kind)
        if "roll_die" in names:
            moves.append((self.tr("act.roll"), "clue_roll", lambda: self.send(RollDie(turn)), "primary"))
        if any(isinstance(a, UsePassage) for a in legal):
            room = self.cards(view).passage_from(view.room_of(turn)) or ""
            moves.append((self.tr("act.passage", room=self.cname(view, room)), "clue_passage",
                          lambda: self.send(UsePassage(turn)), "normal"))
        if "trapped" in names:
            moves.append((self.tr("act.trapped"), "clue_trapped", lambda: self.send(Trapped(turn)), "normal"))
        self.button_row(box, "moves", moves)
        rooms = [a.room for a in legal if isinstance(a, EnterRoom)]
        if rooms:
            box.add(ClueText, text=self.tr("act.enter"))
            self.room_grid(view, box, rooms, turn)
            button(box, self.tr("act.stay_out"), "clue_stay_out", lambda: self.send(StayOut(turn)))
        if "suggest" in names:
            self.suggest_panel(view, box, turn)
        ends: list[tuple[str, str, Callable[[], Any], str]] = []
        if "end_turn" in names:
            ends.append((self.tr("act.end_turn"), "clue_end_turn", lambda: self.send(EndTurn(turn)), "normal"))
        if "accuse" in names:
            ends.append((self.tr("act.accuse"), "clue_accuse", self.start_accuse, "danger"))
        self.button_row(box, "ends", ends)

    @staticmethod
    def button_row(box: Fill, key: str, buttons: list[tuple[str, str, Callable[[], Any], str]],
                   height: float = 64, disabled: tuple[str, ...] = ()) -> None:
        if buttons:
            with box.box_of(BoxLayout, key, size_hint_y=None, height=dp(height), spacing=dp(8)) as row:
                for text, test_id, fn, kind in buttons:
                    button(row, text, test_id, fn, kind, height, disabled=test_id in disabled)

    def suggest_panel(self, view: ClueView, box: Fill, turn: int) -> None:
        room = view.room_of(turn)
        box.add(ClueText, text=self.tr("act.suggest_title", room=self.cname(view, room)))
        for grid in SUGGEST_GRIDS:
            self.card_grid(view, box, *grid)
        ready = self.pick.has("suspect", "weapon")
        button(box, self.tr("act.suggest"), "clue_suggest", lambda: self.suggest(turn), "primary",
               disabled=not ready)

    def room_grid(self, view: ClueView, box: Fill, rooms: Sequence[str], turn: int) -> None:
        button_grid(box, [(r, self.cname(view, r)) for r in rooms], lambda r: self.send(EnterRoom(turn, r)), 3,
                    prefix="clue_room", height=60)

    def card_grid(self, view: ClueView, box: Fill, key: str, cat: int, cols: int, prefix: str) -> None:
        """A category's cards to pick for the suggestion or accusation being built (`key`: what is picked)."""
        button_grid(box, [(c, self.cname(view, c)) for c in self.cards(view).ids(cat)],
                    lambda c: self.choose(key, c), cols, getattr(self.pick, key), prefix, 56)

    def choose(self, key: str, cid: str) -> None:
        self.pick = replace(self.pick, **{key: cid})
        self.refresh(None)

    def suggest(self, turn: int) -> None:
        step = self.send(Suggest(turn, self.pick.suspect, self.pick.weapon))
        if step is not None:
            self.pick = Named()

    def refute_panel(self, view: ClueView, box: Fill) -> None:
        rec = view.suggestions[-1]
        named = ", ".join(self.cname(view, c) for c in rec.named)
        box.add(ClueText, text=f"{view.name(rec.seat)}: {named}", font_size=BODY)
        seat = view.asking
        if seat in self.offered("pass"):  # physical cards, no recorded hand: nothing secret decides the answer
            self.button_row(box, "answer", [
                (self.tr("act.showed"), "clue_showed", lambda: self.send(Show(seat)), "primary"),
                (self.tr("act.pass"), "clue_pass", lambda: self.send(Pass(seat)), "normal")], 72)
            return
        # the seat's hand decides show or pass: they answer on their own channel, where a refusal tells no one
        private = self.pick_card_to_show if view.mode == "digital" else self.answer_privately
        button(box, self.tr("act.hand_me", name=view.name(seat)), "clue_handover",
               lambda: private(seat), "primary", 80)

    def start_accuse(self) -> None:
        self.accusing, self.pick = True, Named()
        self.refresh(None)

    def accuse_panel(self, view: ClueView, box: Fill) -> None:
        turn = view.turn
        box.add(ClueText, text=self.tr("act.accuse_title"))
        for grid in ACCUSE_GRIDS:
            self.card_grid(view, box, *grid)
        ready = self.pick.has("suspect", "weapon", "room")
        self.button_row(box, "go", [
            (self.tr("act.cancel"), "clue_acc_cancel", self.cancel_accuse, "normal"),
            (self.tr("act.accuse_go"), "clue_acc_go", lambda: self.confirm_accuse(view, turn), "danger")],
            disabled=() if ready else ("clue_acc_go",))

    def cancel_accuse(self) -> None:
        self.accusing, self.pick = False, Named()
        self.refresh(None)

    def confirm_accuse(self, view: ClueView, turn: int) -> None:
        p = self.pick
        text = self.tr("act.accuse_confirm", name=view.name(turn), suspect=self.cname(view, p.suspect),
                       weapon=self.cname(view, p.weapon), room=self.cname(view, p.room))

        def sent(step: Step[Any] | None) -> None:
            if step is None:  # refused; a step was drawn already (refresh)
                self.accusing, self.pick = False, Named()
                self.refresh(None)

        self.send(Accuse(turn, p.suspect, p.weapon, p.room), text, then=sent, danger=True)

    # ------------------------------------------------------------ after a step: private follow-ups
    def after_step(self, view: ClueView, step: Step[Any]) -> None:
        for ev in step.events:
            if ev.kind == "accusation_wrong":
                seat = int(ev.data["seat"])
                self.ctx.toast(self.tr("end.wrong", name=view.name(seat)))
            shower, to = ev.data.get("seat"), ev.data.get("to")
            tablet = self.running.tablet
            if ev.kind == "showed" and shower in tablet and isinstance(to, int) and to not in tablet:
                self.pieces.add(partial(self.reveal_shown, to))  # a tablet detective showed a guest a card
            if ev.kind == "envelope_seen":
                seat = int(ev.data["seat"])
                # in the next frame: the tap's frame draws the table's change (the hand-over made in it too: 3-5 ms
                # more of UI-thread CPU here)
                self.pieces.add(partial(self.show_envelope, seat))

    def open_notebook(self, seat: int) -> None:
        view = self.seen()
        if seat in self.running.tablet:  # a tablet detective's notebook is its own (the end shows what it knew)
            self.ctx.toast(self.ctx.tr("tablet.notebook", name=view.name(seat)))
            return
        marks = self.tutor_marks.setdefault(seat, {})

        def content(done: Callable[[], None]) -> Widget:
            mine = self.seen(seat)  # only this seat's view
            return NotebookPanel(self.ctx.tr, self.ctx.lang, mine, self.cards(mine), self.aids, marks,
                                 self.levels.get(seat, "notebook"), done,
                                 lambda level: self.levels.__setitem__(seat, level))

        self.ctx.private(view.name(seat), content, None, mode="input", ahead=True)

