"""The Mr. Jack in New York host: set-up form, then the board-side conductor (round track, whose pick,
cards on offer, the played card's buttons, the witness call, the suspect board, the winner screen).

No rules here: every button dispatches an engine action or asks the engine's legal actions. The escape
button is shown on every Jack turn, and it only hands the tablet (or Jack's phone) to Jack: the claim
itself is offered on Jack's private screen, from Jack's own legal actions, so nothing on the table screen
ever depends on whether the card Jack played is really Jack (no refusal to read, and Undo past an escape
or an arrest needs the staff PIN)."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar
from weakref import WeakSet

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from engines.core import TABLE, Action, Step
from engines.mr_jack_ny.actions import Arrest, CallWitness, Escape, Pick, UseAbility, VisitSpy
from engines.mr_jack_ny.cards import CharacterCard, CharacterSet
from engines.mr_jack_ny.views import JackView
from kiosk import gc_policy
from kiosk.flows.screen import Choice, GameScreen, closing
from kiosk.flows.seats import weigh_by_text
from kiosk.games.mr_jack_ny import act, panels
from kiosk.games.mr_jack_ny.panels import GREY, MARKER_COLOURS, MjSuspect, MjTitle, MjTrackRow, private_card, track_row
from kiosk.hosting import HostContext
from kiosk.markup import esc, keep_together
from kiosk.widgets.fit_scroll import FitScroll
from kiosk.widgets.keep import Fill, Place, put
from kiosk.widgets.kept_form import Kept, KeptForm, clear_fields
from kiosk.widgets.theme import BODY, LEAD, MUTED, SMALL, TButton, TLabel
from table.seats import config_with
from table.table import Table

ROLES = ("detective", "jack")
W = TypeVar("W", bound=Widget)
SUSPECTS_PER_FRAME = 4  # a new table's suspect tiles made per frame
TABLE_MIN_HEIGHT = 672  # dp: the table under the host bar of a 1280x800 window is 672 high; shorter, it scrolls


class MrJackSetup(KeptForm, BoxLayout):
    """Both names and the blitz clock (texts bound to the language in kv); kept for the next Mr. Jack screen
    (kiosk/widgets/kept_form.py)."""

    blitz = NumericProperty(0)
    tablet = StringProperty("")  # the side the tablet plays ("" none, "detective", "jack")
    level = StringProperty("easy")  # its level (engines/mr_jack_ny/bots.py)
    host = ObjectProperty(None, allownone=True)  # None once its screen closed

    def on_kv_post(self, base_widget: Any) -> None:
        """The tablet row's five buttons shared out by their words, again when the language changes them (shared
        alike, 맡기지 않음 and Detective broke in the middle at 1024 px)."""
        super().on_kv_post(base_widget)
        buttons = [w for w in self.ids.tablet_row.children if isinstance(w, TButton)]
        for b in buttons:
            b.bind(text=lambda *_: weigh_by_text(buttons))
        weigh_by_text(buttons)

    def reset(self, host: Any) -> None:
        """Ready for a new Mr. Jack screen: no clock, no typed name."""
        self.host = host
        self.blitz = 0
        self.tablet, self.level = "", "easy"
        clear_fields((self.ids.detective, self.ids.jack))

    def on_start_pressed(self) -> None:
        self.host.start_game(self.ids.detective.text.strip(), self.ids.jack.text.strip(), int(self.blitz),
                             self.tablet, self.level)


KEPT: Kept[MrJackSetup] = Kept()


class MrJackTable(BoxLayout):
    host = ObjectProperty(None)


class MrJackHost(GameScreen[JackView]):
    GAME, VIEW = "mr_jack_ny", JackView

    def __init__(self, ctx: HostContext, **kw: Any) -> None:
        super().__init__(ctx, **kw)
        self.table: MrJackTable | None = None
        self.table_scroll: FitScroll | None = None
        self.offer_grid: GridLayout | None = None  # the offered cards on show (their text heights followed)
        self._followed: WeakSet[Widget] = WeakSet()  # widgets whose size triggers _room_for_cards
        self._cards_check = Clock.create_trigger(self._room_for_cards, 0)
        self.track_rows: list[MjTrackRow] = []
        self.track_view: JackView | None = None  # the last view the track was drawn from (its rows: a frame each)
        self.suspect_tiles: list[MjSuspect] = []
        self.suspects_view: JackView | None = None  # the last view the suspects were drawn from (their tiles: pieces)
        self.track_title: MjTitle | None = None
        self.suspects_title: MjTitle | None = None
        self.blitz = 0
        self.deadline: float | None = None
        self.turn_key: tuple[int, int, int] | None = None
        self.timer_warned = False
        self.choice: Choice | None = None  # a sub-choice open on the played card's panel (swap, eastman, tile...)
        self.visible: set[str] = set()  # witness call toggles
        self._timer_ev: Any = None
        self.drawn: set[str] = set()  # the panels of this table drawn so far
        self.cards_made = 0  # the offered cards made so far on a new table (a new table's first pick: two a frame)
        self.spare: FitScroll | None = None  # an empty table made while the set-up form is on show, for the start
        if ctx.playing:  # a game resumed: its table at once (the form, taken and reset, was cleared in that frame)
            return
        self.show_form(KEPT.take(self, ctx.game.info.players, lambda: MrJackSetup(host=self)))
        self.pieces.add(self._spare_table)

    # ------------------------------------------------------------ helpers
    def card_name(self, cid: str) -> str:
        if cid == "spy":
            return self.tr("act.spy_piece")
        card = self._card(cid)
        if card is None:
            return cid
        return card.name.en if self.ctx.lang == "en" and card.name.en else card.name.ko

    def card_summary(self, cid: str) -> str:
        card = self._card(cid)
        if card is None:
            return ""
        return card.summary.en if self.ctx.lang == "en" and card.summary.en else card.summary.ko

    def _card(self, cid: str) -> CharacterCard | None:
        chars: CharacterSet | None = self.ctx.game.pack.get("characters")
        return chars.get(cid) if chars is not None else None

    # ------------------------------------------------------------ set-up
    def start_game(self, detective: str, jack: str, blitz: int, tablet: str = "", level: str = "easy") -> None:
        names = [detective or self.tr("setup.detective_default"), jack or self.tr("setup.jack_default")]
        seats = {ROLES.index(tablet): level} if tablet in ROLES else {}
        for seat in seats:
            names[seat] = self.tr("setup.tablet_name", role=self.tr(f"role.{ROLES[seat]}"))
        if self.ctx.start(config_with({"players": names, "blitz": blitz}, seats)):
            self.ctx.later(lambda: self.show_private(1))  # Jack alone sees who he is (not when the tablet is Jack:
            # ctx.private), in the next frame: the start's makes the table's status (nothing secret on it)

    def tablet_allows(self, action: Action) -> bool:
        """The board is on the table, not in the tablet: its Jack never claims an escape it cannot see."""
        return not isinstance(action, (Escape, UseAbility))

    def on_table(self, running: Table) -> None:
        if self.setup_form is not None:
            self.setup_form.let_go()  # done with once a game is on: free for the next screen
        self.clear_widgets()
        self.pieces.cancel()
        self.offer_grid = None
        self.choice, self.visible = None, set()
        self.blitz = running.observe(None).part(JackView).blitz  # kept in the journal's config: survives a restart
        if self._timer_ev is None:
            self._timer_ev = Clock.schedule_interval(self._tick_timer, 0.5)
        # the table's frame (status line, empty panels, buttons: 12-40 ms of UI-thread CPU) made while the set-up form
        # showed, else the last game's emptied (a new game here), else (a new screen resuming the game) the next frame
        scroll = self.spare or self._emptied()
        if scroll is None:
            self.pieces.add(self._first_frame)
        else:
            self._show_frame(scroll)

    def _show_frame(self, scroll: FitScroll) -> None:
        self.spare, self.table_scroll, self.table = None, scroll, scroll.children[0]
        self.track_rows, self.suspect_tiles, self.track_title, self.suspects_title = [], [], None, None
        self.drawn, self.cards_made = set(), 0 if self.seen().phase == "pick" else len(self.seen().offer)
        self.add_widget(scroll)

    def _first_frame(self) -> None:
        if self.ctx.alive and self.ctx.playing:
            self._show_frame(self._new_frame())
            self.refresh(None)

    def _new_frame(self) -> FitScroll:  # an empty table in its scroll (which scrolls on a short window only)
        return FitScroll(MrJackTable(host=self), min_height=dp(TABLE_MIN_HEIGHT))

    def _spare_table(self) -> None:
        if self.spare is None and self.table is None:
            self.spare = self._new_frame()

    def _emptied(self) -> FitScroll | None:
        """The last game's table, its panels emptied (what they held taken apart in a pause; the centre's widgets are
        its Keep's, which `attach` let go) and its lines blank, scrolled back to the top."""
        scroll, table = self.table_scroll, self.table
        if scroll is None or table is None:
            return None
        ids = table.ids
        for box in (ids.track, ids.center, ids.suspects):
            for w in list(box.children):
                box.remove_widget(w)
                if box is not ids.center:
                    gc_policy.drop(w, self.keep)
        for label in (ids.round_label, ids.turn_label, ids.timer_label, ids.witness_label, ids.spy_label):
            label.text = ""
        scroll.set_min_height(dp(TABLE_MIN_HEIGHT))
        scroll.scroll_y = 1
        return scroll

    def rematched(self) -> None:
        self.show_private(1)  # a new deal: Jack alone sees who he is now

    def on_parent(self, _w: Any, parent: Any) -> None:
        if parent is None and self._timer_ev is not None:
            self._timer_ev.cancel()
            self._timer_ev = None

    # ------------------------------------------------------------ the private channel
    def show_private(self, seat: int, alibi: bool = False) -> None:
        if not self.ctx.playing:
            return
        name = self.seen(seat).players[seat]

        def content(_done: Callable[[], None]) -> Widget:
            mine = self.seen(seat)  # only this seat's view
            alibis = [self.card_name(a.alibi) for a in mine.my_alibis or ()]
            listed = self.tr("private.my_alibis", names=", ".join(alibis) if alibis else self.tr("private.none"))
            if alibi and alibis:
                note = self.tr("private.alibi_detective" if seat == 0 else "private.alibi_jack")
                return private_card(self.tr("private.alibi_title"), alibis[-1], [note])
            if seat == 1 and mine.jack is not None:
                return private_card(self.tr("private.identity_title"), self.card_name(mine.jack), [listed])
            return private_card(self.tr(f"role.{ROLES[seat]}"), name, [listed])

        self.ctx.private(name, content, None, "reveal")

    # ------------------------------------------------------------ drawing
    def refresh(self, step: Step[Any] | None) -> None:
        if not self.ctx.playing or self.table is None:
            return
        if step is not None:
            for event in step.events:
                if event.kind == "witness" and event.to is None:
                    self.ctx.toast(self.tr("witness.seen" if event.data["seen"] else "witness.unseen"))
        view = self.seen()
        if view.phase != "witness":
            self.visible = set()
        over = self.running.outcome is not None  # the frame's results bar takes the bottom row's place (#37)
        row = self.table.ids.bottom_row
        row.height, row.opacity, row.disabled = (0, 0, True) if over else (dp(64), 1, False)
        self._status(view)
        self._timer_reset(view)
        for part in ("_center", "_track", "_suspects"):
            if part in self.drawn:
                getattr(self, part)(view)
            elif not self.pieces:
                self._build_later()

    def _build_later(self) -> None:
        """A new table's panels (the cards on offer, the round track, the suspects: ~40 widgets, the offer's in markup)
        are built one per frame after the first, from the view then: the whole table in the frame of the tap that
        started the game took 60-80 ms of UI-thread CPU here, its status line and empty panels 20-30 (Jack's
        hand-over covers the table meanwhile; resumed, the panels fill in their places, which do not move)."""
        for part in ("_center", "_track", "_suspects"):
            if part not in self.drawn:
                self.pieces.add(partial(self._draw_part, part))
            if part == "_center" and self.seen().phase == "pick":  # its cards two a frame after it, in their places
                self.pieces.add(partial(self._more_cards, 2))
                self.pieces.add(partial(self._more_cards, len(self.seen().offer)))

    def _more_cards(self, made: int) -> None:
        self.cards_made = max(self.cards_made, made)
        if self.table is not None and self.ctx.alive and self.ctx.playing:
            self._center(self.seen())

    def _draw_part(self, part: str) -> None:
        if self.table is not None and self.ctx.alive and self.ctx.playing:
            self.drawn.add(part)
            getattr(self, part)(self.seen())

    def _status(self, view: JackView) -> None:
        ids = self.table.ids  # type: ignore[union-attr]
        ids.round_label.text = self.tr("status.round", n=view.round)
        phase = view.phase
        name = view.players[0 if view.to_move == "detective" else 1]
        role = self.tr(f"role.{view.to_move}") if view.to_move else ""
        if phase == "pick":
            ids.turn_label.text = self.tr("status.pick", role=role, name=name)
        elif phase == "act" and view.current:
            ids.turn_label.text = self.tr("status.act", role=role, name=name,
                                          card=self.card_name(view.current.character))
        elif phase == "witness":
            ids.turn_label.text = self.tr("status.witness")
        else:
            ids.turn_label.text = ""
        ids.witness_label.text = self.tr("status.witness_lit" if view.witness == "lit" else "status.witness_dark")
        spy = self.tr("status.spy_talking" if view.spy == "talking" else "status.spy_silent")
        ids.spy_label.text = f"{spy} · {self.tr('status.deck', n=view.alibi_deck)}"

    def _track(self, view: JackView) -> None:
        """The round track's title now, its rows a piece each (all 8 in one frame: 25-48 ms of UI-thread CPU in the
        bench); each row marked from the last view seen, added above the filler, so nothing shown moves."""
        self.track_view = view
        if self.track_title is None:
            box = self.table.ids.track  # type: ignore[union-attr]
            self.track_title = MjTitle()
            box.add_widget(self.track_title)
            box.add_widget(Widget())
            for _row in view.track:
                self.pieces.add(self._track_row)
        self.track_title.text = self.tr("track.title")
        for widget, row in zip(self.track_rows, view.track, strict=False):
            widget.current = row.round == view.round and view.phase != "over"
            widget.done = row.done

    def _track_row(self) -> None:
        view = self.track_view
        if self.table is None or not self.ctx.alive or view is None:
            return
        row = view.track[len(self.track_rows)]
        current = row.round == view.round and view.phase != "over"
        self.track_rows.append(track_row(row.round, row.colours, current, row.done))
        self.table.ids.track.add_widget(self.track_rows[-1], index=1)  # above the filler

    def _suspects(self, view: JackView) -> None:
        """The suspects' title now, their tiles a few per piece (all 8 in one frame: 9-16 ms of UI-thread CPU), added
        above the filler in their order, so nothing shown moves."""
        self.suspects_view = view
        if self.suspects_title is None:
            box = self.table.ids.suspects  # type: ignore[union-attr]
            self.suspects_title = MjTitle()
            box.add_widget(self.suspects_title)
            box.add_widget(Widget())
            for _ in range(0, len(view.characters), SUSPECTS_PER_FRAME):
                self.pieces.add(self._suspect_tiles)
        self.suspects_title.text = self.tr("suspects.title")
        self._mark_suspects(view)

    def _suspect_tiles(self) -> None:
        view = self.suspects_view
        if self.table is None or not self.ctx.alive or view is None:
            return
        box = self.table.ids.suspects
        for ch in view.characters[len(self.suspect_tiles):len(self.suspect_tiles) + SUSPECTS_PER_FRAME]:
            self.suspect_tiles.append(MjSuspect(test_id=f"mj_suspect_{ch.id}"))
            box.add_widget(self.suspect_tiles[-1], index=1)  # above the filler
        self._mark_suspects(view)

    def _mark_suspects(self, view: JackView) -> None:
        for i, (tile, ch) in enumerate(zip(self.suspect_tiles, view.characters, strict=False)):
            innocent = ch.innocent
            mark = self.tr("suspects.innocent") if innocent else ""
            if view.jack == ch.id:  # only once the game is over
                mark = self.tr("suspects.is_jack")
            tag = keep_together(f"· {esc(mark)}")  # the tag whole on the name's line or the next, never split
            tile.text = esc(self.card_name(ch.id)) + (f"  [size={SMALL}]{tag}[/size]" if mark else "")
            tile.innocent = innocent
            tile.bg = GREY if innocent else MARKER_COLOURS[i % len(MARKER_COLOURS)]

    def _center(self, view: JackView) -> None:
        phase = view.phase
        key = f"mj_{phase}_{self.choice.mode if self.choice else ''}"
        due = self.running.tablet_due() if phase in ("pick", "act") else None
        key = f"mj_tablet_{phase}" if due is not None else key
        with Fill(self.keep, self.table.ids.center, key) as box:  # type: ignore[union-attr]  # kept widgets
            if self.ctx.tablet_said:
                box.add(TLabel, "tablet_said", text=self.ctx.tablet_said, font_size=BODY)
            if due is not None:  # the tablet's side thinks: nothing to tap for it
                box.add(MjTitle, text=self.ctx.tr("tablet.thinking", name=view.players[due]))
                box.add(TLabel, text=self.tr("setup.tablet_moves"), font_size=BODY, color=MUTED)
                box.add(Widget)
            elif phase == "pick":
                self._pick_panel(box, view)
                act.ahead_later(self)  # the act panel's widgets, made in a frame after this one
            elif phase == "act":
                self._act_panel(box, view)
            elif phase == "witness":
                self._witness_panel(box, view)
            elif phase == "over":
                self._over_panel(box, view)

    def _button(self, into: Any, text: str, test_id: str, on: Callable[[], Any], kind: str = "normal",
                enabled: bool = True, height: float = 72, font: str = BODY, key: str = "", **props: Any) -> TButton:
        props = {"size_hint_y": None, "height": dp(height), **props}
        return put(into, TButton, key, on, text=text, test_id=test_id, kind=kind, font_size=font,
                   disabled=not enabled, **props)

    def _pick_panel(self, box: Fill, view: JackView) -> None:
        """The cards on offer, in markup (a few ms each to draw): a button per place in the grid, kept from round to
        round (a new round changes their texts: drawn once each), made at the width the panel gives them, and so their
        grid (made at Kivy's default width, each new one was drawn 2-3 times in its first frame)."""
        box.add(MjTitle, text=self.tr("pick.title"))
        seat = 0 if view.to_move == "detective" else 1
        center = self.table.ids.center  # type: ignore[union-attr]
        inner = center.width - center.padding[0] - center.padding[2]
        with box.box_of(GridLayout, "offer", cols=2, spacing=dp(12), width=inner) as grid:
            for i, cid in enumerate(view.offer):
                if i >= self.cards_made:  # a new table's card not made yet: its place kept
                    grid.add(Place, f"slot{i}")
                    continue
                text = f"[b]{esc(self.card_name(cid))}[/b]\n[size={SMALL}]{esc(self.card_summary(cid))}[/size]"
                self._follow(self._button(grid, text, f"mj_pick_{cid}", partial(self.send, Pick(seat, cid)),
                                          key=f"offer{i}", enabled=cid in view.remaining, font=BODY, markup=True,
                                          size_hint_y=1, width=(inner - dp(12)) / 2), "texture_size")
        self.offer_grid = self._follow(grid.box, "height")

    def _follow(self, widget: W, prop: str) -> W:
        """Check the cards' room again (next frame) when `prop` of `widget` changes."""
        if widget not in self._followed:
            self._followed.add(widget)
            widget.fbind(prop, self._cards_check)
        self._cards_check()
        return widget

    def _room_for_cards(self, *_: Any) -> None:
        panels.room_for_cards(self.table_scroll, self.offer_grid, dp(TABLE_MIN_HEIGHT))

    def _act_panel(self, box: Fill, view: JackView) -> None:
        act.panel(self, box, view)

    def _ability(self, view: JackView, seat: int, cid: str, legal: list[Action]) -> None:
        ch = view.character(cid)
        kind = ch.ability if ch is not None else ""
        if kind == "swap":
            self.choice = Choice("swap_target")
        elif kind == "move_other":
            self.choice = Choice("eastman")
        elif kind == "garden":
            self.choice = Choice("tile")
        else:
            self.send(UseAbility(seat))
            return
        self._center(view)

    def _visit(self, seat: int) -> None:
        if self.send(VisitSpy(seat)) is not None:
            self.show_private(seat, alibi=True)

    def _open_arrest(self) -> None:
        self.choice = Choice("arrest")
        self._center(self.seen())

    def _ask_escape(self) -> None:
        """Jack's private channel: the claim if the engine lists it for Jack, else a line only Jack reads."""
        if not self.ctx.playing:
            return
        name = self.seen().players[1]

        def content(done: Callable[[], None]) -> Widget:
            mine = self.seen(1)  # Jack's own view only
            box = BoxLayout(orientation="vertical", spacing=dp(14))
            box.add_widget(MjTitle(text=self.tr("escape.title"), font_size=LEAD))
            box.add_widget(TLabel(text=self.tr("confirm.escape"), font_size=BODY))
            if mine.jack is not None:
                box.add_widget(TLabel(text=self.tr("escape.you_are", name=self.card_name(mine.jack)),
                                      font_size=BODY, color=MUTED))
            if Escape(1) in self.running.legal(1):
                self._button(box, self.tr("escape.go"), "mj_escape_go",
                             lambda: self.send(Escape(1), then=closing(done)), kind="danger",
                             height=80)
            else:
                box.add_widget(TLabel(text=self.tr("escape.not_now"), font_size=BODY))
            box.add_widget(Widget())
            self._button(box, self.tr("escape.back"), "mj_escape_back", done, kind="ghost", height=64)
            return box

        self.ctx.private(name, content, None, "input", seat=1)

    def route_private(self, action: Action) -> bool:
        if isinstance(action, Escape):  # voice "잭 사라졌다": Jack answers on his own screen
            self._ask_escape()
            return True
        return False

    def _choice_panel(self, box: Fill, view: JackView, choice: Choice, legal: list[Action], seat: int,
                      cid: str) -> None:
        mode = choice.mode
        options: list[tuple[str, str, Callable[..., Any]]] = []  # (id, label, on tap)
        disabled: set[str] = set()
        if mode == "swap_target":
            title = self.tr("act.choose_target")
            targets = sorted({a.target for a in legal if isinstance(a, UseAbility) and a.target},
                             key=self._order(view))
            options = [(t, self.card_name(t), lambda t=t: self._set_choice(Choice("swap_other", t)))
                       for t in targets]
        elif mode == "swap_other":
            target = choice.target
            title = self.tr("act.choose_other", target=self.card_name(target))
            others = sorted({a.other for a in legal if isinstance(a, UseAbility) and a.target == target},
                            key=self._order(view))
            options = [(o, self.card_name(o), lambda o=o: self.send(UseAbility(seat, target=target, other=o)))
                       for o in others]
        elif mode == "eastman":
            title = self.tr("act.choose_eastman")
            options = [(a.target, self.card_name(a.target), lambda a=a: self.send(a))
                       for a in legal if isinstance(a, UseAbility)]
        elif mode == "tile":
            title = self.tr("act.choose_tile")
            allowed = {a.tile for a in legal if isinstance(a, UseAbility)}
            options = [(k, self.tr(f"act.tile_{k}"), lambda k=k: self.send(UseAbility(seat, tile=k)))
                       for k in ("lamp", "subway", "building")]
            disabled = {k for k in ("lamp", "subway", "building") if k not in allowed}
        else:  # arrest
            title = self.tr("act.choose_suspect", card=self.card_name(cid))
            options = [(a.suspect, self.card_name(a.suspect), lambda a=a: self._ask_arrest(a))
                       for a in legal if isinstance(a, Arrest)]
        box.add(MjTitle, "question", text=title, font_size=BODY)
        with box.box_of(GridLayout, "options", cols=3, spacing=dp(10)) as grid:
            for oid, label, fn in options:
                self._button(grid, label, f"mj_choose_{oid}", fn, height=64, font=SMALL, enabled=oid not in disabled)
        self._button(box, self.tr("act.cancel"), "mj_cancel", self._cancel_choice, kind="ghost", height=64)

    def _order(self, view: JackView) -> Callable[[str], int]:
        ids = [c.id for c in view.characters] + ["spy"]
        return lambda x: ids.index(x) if x in ids else len(ids)

    def _set_choice(self, choice: Choice | None) -> None:
        self.choice = choice
        self._center(self.seen())

    def _cancel_choice(self) -> None:
        self._set_choice(None)

    def _ask_arrest(self, action: Arrest) -> None:
        self.send(action, self.tr("confirm.arrest", name=self.card_name(action.suspect)), danger=True)

    def _witness_panel(self, box: Fill, view: JackView) -> None:
        box.add(MjTitle, text=self.tr("witness.title"))
        guide = self.ctx.game.pack.get("table")
        if guide is not None:
            rule = guide.witness_rule.en if self.ctx.lang == "en" and guide.witness_rule.en else guide.witness_rule.ko
            box.add(TLabel, text=rule, font_size=BODY, color=MUTED)
        with box.box_of(GridLayout, "seen", cols=2, spacing=dp(10)) as grid:
            for ch in view.characters:
                self._button(grid, self.card_name(ch.id), f"mj_seen_{ch.id}", partial(self._toggle, ch.id),
                             height=60, font=SMALL, selected=ch.id in self.visible)
        self._button(box, self.tr("witness.confirm"), "mj_witness_confirm", self._ask_witness, kind="primary",
                     height=68)

    def _toggle(self, cid: str) -> None:
        self.visible ^= {cid}
        self._center(self.seen())

    def _ask_witness(self) -> None:
        order = self._order(self.seen())
        names = ", ".join(self.card_name(c) for c in sorted(self.visible, key=order)) or self.tr("confirm.nobody")
        chosen = frozenset(self.visible)
        self.send(CallWitness(TABLE, chosen), self.tr("confirm.witness", names=names), then=self._called)

    def _called(self, step: Step[Any] | None) -> None:
        if step is not None:
            self.visible = set()

    def _over_panel(self, box: Fill, view: JackView) -> None:
        box.add(Widget)
        side = "detective" if view.winner == "detective" else "jack"
        name = view.players[0 if side == "detective" else 1]
        role = self.tr("over.detective_wins" if side == "detective" else "over.jack_wins")
        reason = self.tr(f"over.{view.reason or ''}")
        self.banner(box, name, f"{role} {reason}")
        box.add(TLabel, text=self.tr("over.jack_was", name=self.card_name(view.jack or "")), font_size=LEAD,
                halign="center")
        box.add(Widget)

    # ------------------------------------------------------------ the optional turn timer (blitz)
    def _timer_reset(self, view: JackView) -> None:
        key = (view.round, view.turn, 1 if view.phase in ("pick", "act") else 0)
        if not self.blitz or key[2] == 0:
            self.deadline = None
        elif key != self.turn_key:
            self.deadline = time.monotonic() + self.blitz
            self.timer_warned = False
        self.turn_key = key
        self._tick_timer(0)

    def _tick_timer(self, _dt: float) -> None:
        if self.table is None:
            return
        label = self.table.ids.timer_label
        if self.deadline is None:
            label.text = ""
            return
        left = max(0, int(self.deadline - time.monotonic() + 0.999))
        label.text = self.tr("status.timer", n=left)
        if left == 0 and not self.timer_warned:
            self.timer_warned = True
            self.ctx.toast(self.tr("status.timer_up"))


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
