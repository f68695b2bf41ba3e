"""The Spyfall DC host: set-up form, then the table screen by phase (first dealer, pass-the-tablet deal or
the bag to take, the clock, accusations and votes, the Joker's guess, the Harley hunt, the physical
reveal, scores). No rules here: every button dispatches an engine action; the engine refuses what the
rules forbid (a toast in the guests' language). A tally of fingers is held against the view's `tally` as it
is entered, so its button is greyed with the reason, never refused after the tap."""

from __future__ import annotations

from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from engines.core import TABLE, Step, field_specs
from engines.spyfall import actions as A
from engines.spyfall.views import RoundView, SpyView
from kiosk import gc_policy
from kiosk.flows.screen import Choice
from kiosk.games.spyfall.panels import (
    CountRow,
    HarleyIcon,
    LocationList,
    note,
    player_grid,
    title,
)
from kiosk.games.spyfall.results import SpyResults
from kiosk.games.spyfall.setup import form_for
from kiosk.hosting import HostContext
from kiosk.widgets.buttons import button
from kiosk.widgets.clock import GameClock
from kiosk.widgets.keep import Fill, box_in
from kiosk.widgets.theme import BODY, CLOCK, LEAD, FitGrid
from table.table import Table

CLOCK_PHASES = ("play", "accusation", "pride", "multiverse_vote", "guess", "confirm_guess")
TALK_PHASES = ("discussion", "harley_talk")
# the panels a tap in this phase opens (the dealer chosen: the deal's, shown for the chance step, then the ready one's
# with a button per player), made ahead and kept
NEXT = {"choose_dealer": ("deal", "ready")}
LIST_PHASES = ("choose_dealer", "ready", "play", "accusation", "pride", "multiverse_vote", "discussion")


class SpyTable(BoxLayout):
    host = ObjectProperty(None)


class SpyfallHost(SpyResults):
    def __init__(self, ctx: HostContext, **kw: Any) -> None:
        super().__init__(ctx, **kw)
        self.table: SpyTable | None = None
        self.clock: GameClock | None = None
        self.side_key: str = ""
        self.yes: set[int] = set()  # open yes/no vote being entered
        self.counts: dict[int, int] = {}  # open pointing vote being entered
        self.cards: dict[str, Any] = {"kind": "standard", "joker": -1, "harley": -1}  # physical reveal
        self.phase_key: tuple[int, str, int, int] = (0, "", 0, 0)
        self.cues: list[int] = []  # 60 / 0 second sounds played (for tests and the audio issue)
        self.card_seen: tuple[int, set[int]] = (-1, set())  # (round index, seats that saw their card)
        self.list_now = False
        self.ahead: tuple[int, str] = (0, "")  # the round and phase whose next panel was made ahead (`_next_ahead`)
        self.main_later = False  # a new table: its main panel comes in the frame after the first (`_main_now`)
        # made while the set-up form shows, a piece a frame, for the game's start: the table's frame, its clock and
        # the location list's frame (in the start's frame they were ~6 ms of its 20-36 ms of UI-thread CPU here)
        self.ready: dict[str, Any] = {}
        if not ctx.playing:  # with a game on, the table is drawn at once (kiosk/screens/host.py): no form
            self.show_form(form_for(self))
            for part in ("table", "clock", "list"):
                self.pieces.add(partial(self._make_ahead, part))

    # ------------------------------------------------------------ helpers

    # ------------------------------------------------------------ set-up and session
    def start_game(self, config: dict[str, Any]) -> None:
        self.ctx.start(config)

    def _make_ahead(self, part: str) -> None:
        if self.ctx.playing or not self.ctx.alive:
            return
        if part == "table":
            self.ready[part] = SpyTable(host=self, size=self.size)  # laid out at the size it is shown at
        elif part == "clock":
            self.ready[part] = self._new_clock()
        else:
            table = self.ready.get("table")  # the side it goes in, laid out by now (the first phase shows it alone)
            size = tuple(table.ids.side.size) if table is not None else (100, 100)
            self.ready[part] = LocationList((), self.ctx.lang, self.ctx.tr, size=size)

    def _new_clock(self) -> GameClock:
        return GameClock(now=self.ctx.app.now, size_hint_y=None, height=dp(130), font_size=CLOCK)

    def on_table(self, running: Table) -> None:
        self.clear_widgets()
        self.pieces.cancel()
        made = self.ready.pop("table", None)
        self.table = made if made is not None else SpyTable(host=self)
        self.add_widget(self.table)
        made = self.ready.pop("clock", None)
        self.clock = made if made is not None else self._new_clock()
        self.clock.on_threshold = lambda mark: self.cue(mark) if mark == 60 else None  # 0:00 comes as time_up
        self.clock_key: tuple[int, str] = (0, "")
        self.side_key = ""
        self.choice, self.yes, self.counts = None, set(), {}
        self.ahead = (0, "")  # the Keep was cleared (kiosk/hosting.py attach): nothing made ahead for this table
        # a new table: its main panel in the frame after the first, the location list in the frame after that (_side)
        self.main_later, self.list_now = True, False
        self.pieces.add(self._main_now)

    def closing(self) -> None:
        super().closing()
        if self.clock is not None:  # its threshold callback holds this screen
            self.clock.on_threshold = None

    def on_parent(self, _w: Any, parent: Any) -> None:
        if parent is None and self.clock is not None:
            self.clock.stop()

    def cue(self, mark: int) -> None:
        """The 1:00 and 0:00 sounds (any short sound; the audio issue refines them)."""
        if self.cues and self.cues[-1] == mark:
            return
        self.cues.append(mark)
        try:
            from audio.sounds import sound
            from kiosk.games.spyfall.sound import play_clip
            play_clip(sound("timer_warning" if mark else "alarm"), f"spyfall_{mark}")
        except Exception:  # noqa: BLE001  (no audio device or mixer: the clock still turns red)
            pass

    def show_scores(self) -> None:
        """The running totals, on demand (touch, or the voice intent "점수 보여줘")."""
        view = self.seen()
        parts = [f"{n} {t}" for n, t in zip(self.names(), view.totals, strict=True)]
        self.ctx.toast(self.tr("score.toast", n=len(view.history), scores=" · ".join(parts)))

    # ------------------------------------------------------------ drawing
    def refresh(self, step: Step[Any] | None) -> None:
        if not self.ctx.playing or self.table is None:
            return
        view = self.seen()
        r = self.now(view)
        self._toasts(step, r)
        ids = self.table.ids
        names = self.names()
        ids.round_label.text = self.tr("status.round", n=r.number, total=view.settings.rounds)
        ids.dealer_label.text = self.tr("status.dealer", name=names[r.dealer]) if r.dealer >= 0 else ""
        ids.phase_label.text = self.tr(f"phase.{r.phase}")
        key = (r.number, r.phase, len(r.accusations), len(r.multiverse_callers))
        if key != self.phase_key:  # a new vote or phase: forget what was being entered
            self.phase_key = key
            self.yes, self.counts, self.choice = set(), {}, None
        self._side(view)
        if self.main_later:
            return
        phase = "over" if view.over else r.phase
        with Fill(self.keep, ids.main, f"spy_{phase}_{self.choice.mode if self.choice else ''}") as main:  # kept widgets
            getattr(self, f"_main_{phase}")(view, main)
        if phase in NEXT and self.ahead != (r.number, phase):
            self.ahead = (r.number, phase)
            self.pieces.add(self._next_ahead)

    def _next_ahead(self) -> None:
        """The next phase's panel made and kept (not shown) in a frame of its own once the list's rows are all there:
        the tap that moves on finds its widgets made, their texts changed in place (the dealer's tap made the deal's
        panel in its frame: 26 ms of UI-thread CPU in bench/frames.py)."""
        if self.table is None or not self.ctx.playing or not self.ctx.alive:
            return
        if any(len(w.pieces) for w in self.table.ids.side.children if isinstance(w, LocationList)):
            self.pieces.add(self._next_ahead)  # the list's rows first, a piece a frame
            return
        view = self.seen()
        for nxt in NEXT.get(self.now(view).phase, ()) if not view.over else ():
            getattr(self, f"_main_{nxt}")(view, Fill(self.keep, None, f"spy_{nxt}_"))  # kept, never done(): not shown

    def _toasts(self, step: Step[Any] | None, r: RoundView) -> None:
        if step is None:
            return
        for event in step.events:
            if event.to is not None:
                continue
            if event.kind == "time_up":
                self.cue(0)
            if event.kind == "vote_result" and not event.data["passed"] and r.phase == "play":
                self.ctx.toast(self.tr("event.mv_failed" if event.data["vote"] == "multiverse" else
                                       "event.vote_failed"))
            elif event.kind == "ability_used":
                ability = next((f for f in r.flipped or () if f.seat == event.data["seat"]), None)
                label = (ability.en if self.ctx.lang == "en" else ability.ko) if ability else ""
                self.ctx.toast(self.tr("event.ability", name=self.names()[event.data["seat"]], ability=label))

    def _side(self, view: SpyView) -> None:
        assert self.table is not None and self.clock is not None
        r = self.now(view)
        phase = "over" if view.over else r.phase
        key = ("clock" if phase in CLOCK_PHASES + TALK_PHASES else "") + ("+list" if phase in LIST_PHASES else "")
        if key.endswith("+list") and not self.list_now:
            # a new table: its list (the search field, a screenful of rows: ~15 ms of UI-thread CPU here) in the
            # frame after the one that started the game, in its place (the side's width does not change)
            key += "+later"
        side = self.table.ids.side
        if key != self.side_key:
            side.clear_widgets()
            if self.clock.parent is not None:
                self.clock.parent.remove_widget(self.clock)
            if "clock" in key:
                side.add_widget(self.clock)
            if key.endswith("+list"):
                shown = (self.ctx.lang, tuple(loc.id for loc in view.locations))  # kept: 30+ rows to draw
                side.add_widget(self.keep.built("spy_locations", shown, lambda: self._location_list(view)))
            else:
                side.add_widget(Widget())
            if key.endswith("+later"):
                self.pieces.add(self._list_now)
            self.side_key = key
        which = "talk" if phase in TALK_PHASES else "round"
        if (r.number, which) != self.clock_key:  # a new clock: its 1:00 warning may sound again
            self.clock_key = (r.number, which)
            self.clock.new_clock()
        if phase in TALK_PHASES and r.talk:
            self.clock.show(asdict(r.talk))
        elif phase in CLOCK_PHASES:
            self.clock.show(asdict(r.clock))

    def _location_list(self, view: SpyView) -> LocationList:
        """The list's frame made ahead (`_make_ahead`) if it is in the guests' language, given the locations."""
        made = self.ready.pop("list", None)
        if made is not None and made.lang == self.ctx.lang:
            return made.show(view.locations)  # type: ignore[no-any-return]
        if made is not None:
            gc_policy.drop(made, None)
        return LocationList(view.locations, self.ctx.lang, self.ctx.tr)

    def _main_now(self) -> None:
        self.main_later = False
        if self.table is not None and self.ctx.playing and self.ctx.alive:
            self.refresh(None)

    def _list_now(self) -> None:
        self.list_now = True
        if self.table is not None and self.ctx.playing and self.ctx.alive:
            self._side(self.seen())

    # ------------------------------------------------------------ phases
    def _main_choose_dealer(self, view: SpyView, main: Any) -> None:
        title(main, self.tr("dealer.ask"), LEAD)
        player_grid(main, self.names(), lambda s: self.send(A.ChooseDealer(TABLE, s)), "spy_dealer")
        with box_in(main, BoxLayout, "icon", size_hint_y=None, height=dp(80), spacing=dp(16)) as icon_row:
            icon_row.add(HarleyIcon, test_id="spy_harley_icon")  # SPY-06: with or without the Harley module, and
            note(icon_row, self.tr("dealer.icon" if view.settings.harley else "dealer.icon_basic"), BODY)  # says so
        mods = [self.tr(f"module.{m}") for m in self.ctx.game.info.modules if getattr(view.settings, m)]
        note(main, self.tr("dealer.modules", names=", ".join(mods)) if mods else self.tr("dealer.no_modules"), BODY)
        main.add(Widget)

    def _main_deal(self, view: SpyView, main: Any) -> None:  # chance steps run at once; never shown long
        title(main, self.tr("phase.deal"))

    def _main_ready(self, view: SpyView, main: Any) -> None:
        r = self.now(view)
        names = self.names()
        dealer = names[r.dealer]
        if view.settings.deal == "physical":
            title(main, self.tr("ready.physical", name=dealer, bag=r.bag, n=len(names)), LEAD)
        else:
            title(main, self.tr("ready.digital", name=dealer), LEAD)
            button(main, self.tr("ready.pass"), "spy_pass_cards", lambda: self.show_cards(0), kind="primary",
                   height=80)
            note(main, self.tr("ready.recheck"))
            player_grid(main, names, lambda s: self.show_cards(s, chain=False), "spy_recheck")
        main.add(Widget)
        why = self.holds_back(A.StartClock(TABLE))
        if why:
            note(main, why, BODY)
        button(main, self.tr("ready.start"), "spy_start_clock", lambda: self.send(A.StartClock(TABLE)),
               kind="primary", height=80, disabled=bool(why), why=why)

    def holds_back(self, action: Any) -> str:
        """The clock starts once every player has seen their card (digital deal); the button and voice ask here."""
        if isinstance(action, A.StartClock) and self.ctx.playing:
            view = self.seen()
            if view.settings.deal != "physical" and not self._all_seen(view):
                return self.tr("ready.why_start")
        return ""

    def _all_seen(self, view: SpyView) -> bool:
        if self.card_seen[0] != len(view.history):  # a new round: nobody has seen this round's card yet
            self.card_seen = (len(view.history), set())
        return len(self.card_seen[1]) >= len(self.names())

    def _main_play(self, view: SpyView, main: Any) -> None:
        r = self.now(view)
        s = view.settings
        purpose = self.choice.mode if self.choice else ""
        if purpose:
            self._picker(view, main, purpose)
            return
        note(main, self.tr("play.hint"), BODY)
        if not r.clock.running:
            title(main, self.tr("play.paused"), BODY)
        with box_in(main, BoxLayout, "clock", size_hint_y=None, height=dp(72), spacing=dp(10)) as row:
            if self.offered(A.PauseClock.NAME):
                button(row, self.tr("play.pause"), "spy_pause", lambda: self.send(A.PauseClock(TABLE)), height=72)
            else:
                button(row, self.tr("play.resume"), "spy_resume", lambda: self.send(A.ResumeClock(TABLE)),
                       kind="primary", height=72, disabled=not self.offered(A.ResumeClock.NAME))
        # every button as the engine's offers say: who may still accuse, call, claim (never while paused)
        button(main, self.tr("play.accuse"), "spy_accuse", lambda: self.open_pick("accuse"), kind="danger",
               height=80, disabled=not self.offered(A.Accuse.NAME))
        button(main, self.tr("play.reveal"), "spy_reveal", lambda: self.open_pick("reveal"), height=72,
               disabled=not self.offered(A.RevealJoker.NAME))
        if s.multiverse:
            button(main, self.tr("play.multiverse"), "spy_multiverse", lambda: self.open_pick("multiverse"),
                   height=72, disabled=not self.offered(A.CallMultiverse.NAME))
        if s.power_up and s.deal == "digital":
            button(main, self.tr("play.ability"), "spy_ability", lambda: self.open_pick("ability"), height=72,
                   disabled=not self.offered(A.UseAbility.NAME))
        main.add(Widget)
        if s.deal == "digital":
            button(main, self.tr("play.my_card"), "spy_my_card", lambda: self.open_pick("card"), kind="ghost",
                   height=64)

    def open_pick(self, purpose: str) -> None:
        self.choice = Choice(purpose)
        self.refresh(None)

    PICKS = {"accuse": A.Accuse.NAME, "reveal": A.RevealJoker.NAME, "multiverse": A.CallMultiverse.NAME,
             "ability": A.UseAbility.NAME, "pride": A.UseAbility.NAME}

    def _picker(self, view: SpyView, main: Any, purpose: str) -> None:
        names = self.names()
        seats: list[int] = list(range(len(names)))  # "card": anyone re-checks their own card
        accuser = self.choice.seat if self.choice else -1
        if purpose == "accuse" and accuser >= 0:
            prompt = "pick.accused"
            seats = [a.accused for a in self.running.legal(accuser) if isinstance(a, A.Accuse)]
        else:
            prompt = {"accuse": "pick.accuser", "reveal": "pick.revealer", "multiverse": "pick.caller",
                      "ability": "pick.ability_user", "card": "pick.card_owner", "pride": "pick.pride_user"}[purpose]
            if purpose in self.PICKS:  # the seats the engine offers it for
                seats = sorted(self.offered(self.PICKS[purpose]))
        title(main, self.tr(prompt), LEAD)
        player_grid(main, names, lambda seat: self.picked(purpose, seat), "spy_pick", seats)
        main.add(Widget)
        button(main, self.tr("pick.cancel"), "spy_pick_cancel", self.cancel_pick, kind="ghost")

    def cancel_pick(self) -> None:
        self.choice = None
        self.refresh(None)

    def picked(self, purpose: str, seat: int) -> None:
        names = self.names()
        accuser = self.choice.seat if self.choice else -1
        if purpose == "accuse" and accuser < 0:
            self.choice = Choice(purpose, seat=seat)
            self.refresh(None)
            return
        if purpose == "accuse":
            self.send(A.Accuse(accuser, seat), self.tr("accuse.confirm", accuser=names[accuser], accused=names[seat]),
                      danger=True)
        elif purpose == "reveal" and self.seen().settings.deal == "physical":
            # the real card decides: the kiosk knows no secret to give away
            self.send(A.RevealJoker(seat), self.tr("ask.reveal", name=names[seat]), danger=True)
        elif purpose in ("reveal", "ability", "pride"):
            self.choice = None
            self.refresh(None)
            self.claim(seat, purpose)
        elif purpose == "multiverse":
            self.send(A.CallMultiverse(seat), self.tr("ask.multiverse", name=names[seat]))
        elif purpose == "card":
            self.choice = None
            self.refresh(None)
            self.show_cards(seat, chain=False)
        if self.choice:
            self.choice = None
            self.refresh(None)

    # -- yes/no votes (accusation, multiverse)
    def _main_accusation(self, view: SpyView, main: Any) -> None:
        names = self.names()
        r = self.now(view)
        assert r.accuser_now is not None and r.accused_now is not None  # the accusation phase's
        accuser, accused = names[r.accuser_now], names[r.accused_now]
        title(main, self.tr("accuse.title", accuser=accuser, accused=accused), LEAD)
        note(main, self.tr("accuse.rule", accused=accused), BODY)
        self._yes_no(view, main, self.tr("vote.accuse_question", accused=accused))

    def _main_multiverse_vote(self, view: SpyView, main: Any) -> None:
        caller = self.names()[self.now(view).multiverse_callers[-1]]
        title(main, self.tr("mv.title", caller=caller), LEAD)
        note(main, self.tr("mv.rule"), BODY)
        self._yes_no(view, main, self.tr("vote.mv_question"))

    def _yes_no(self, view: SpyView, main: Any, question: str) -> None:
        vote = self.now(view).vote
        assert vote is not None  # a vote's phase
        names = self.names()
        if vote.sealed:
            left = [x for x in vote.eligible if x not in vote.voted]
            note(main, self.tr("vote.left", n=len(left)), BODY)
            button(main, self.tr("vote.sealed"), "spy_sealed_start", lambda: self.sealed_ballots(question),
                   kind="primary", height=80)
            main.add(Widget)
            return
        note(main, self.tr("vote.who_yes"), BODY)
        player_grid(main, names, self.toggle_yes, "spy_yes", vote.eligible, self.yes)
        main.add(Widget)
        yes = len(self.yes)
        no = len(vote.eligible) - yes
        button(main, self.tr("vote.submit"), "spy_vote_submit", lambda: self.send(
            A.Hands(TABLE, tuple(sorted(self.yes))), self.tr("vote.confirm", yes=yes, no=no)),
            kind="primary", height=76)

    def toggle_yes(self, seat: int) -> None:
        self.yes ^= {seat}
        self.refresh(None)

    def _main_pride(self, view: SpyView, main: Any) -> None:
        counts = self.now(view).counts
        title(main, self.tr("pride.title", yes=counts.get("yes", 0), no=counts.get("no", 0)), LEAD)
        if self.choice is not None and self.choice.mode == "pride":
            self._picker(view, main, "pride")
            return
        note(main, self.tr("pride.private"), BODY)
        button(main, self.tr("pride.claim"), "spy_pride_claim", lambda: self.open_pick("pride"), kind="danger",
               height=80)
        main.add(Widget)
        button(main, self.tr("pride.skip"), "spy_pride_skip", lambda: self.send(A.ResumeClock(TABLE)),
               kind="primary", height=76)

    # -- the Joker's guess
    def _main_guess(self, view: SpyView, main: Any) -> None:
        joker = self.now(view).revealer
        title(main, self.tr("guess.title", name=self.names()[joker]), LEAD)
        if view.settings.prank:
            button(main, self.tr("guess.prank"), "spy_prank", lambda: self.send(
                A.DeclarePrank(joker), self.tr("guess.prank_confirm")), kind="danger")
        main.built("locations", (joker, self.ctx.lang), lambda: LocationList(
            view.locations, self.ctx.lang, self.ctx.tr, on_pick=lambda loc: self.send(
                A.GuessLocation(joker, loc), self.tr("guess.confirm", place=self.place_name(loc)))))

    def _main_confirm_guess(self, view: SpyView, main: Any) -> None:
        r = self.now(view)
        title(main, self.tr("confirm_guess.title", name=self.names()[r.revealer], place=self.place_name(r.guess)),
              LEAD)
        with box_in(main, BoxLayout, "row", size_hint_y=None, height=dp(96), spacing=dp(20)) as row:
            button(row, self.tr("confirm_guess.right"), "spy_guess_right",
                   lambda: self.send(A.ConfirmGuess(TABLE, True), self.tr("ask.guess_right")), kind="primary",
                   height=96)
            button(row, self.tr("confirm_guess.wrong"), "spy_guess_wrong",
                   lambda: self.send(A.ConfirmGuess(TABLE, False), self.tr("ask.guess_wrong")), height=96)
        main.add(Widget)

    # -- discussion and pointing
    def _main_discussion(self, view: SpyView, main: Any, harley: str = "") -> None:
        title(main, self.tr(f"discussion.{harley}title"), LEAD)
        note(main, self.tr(f"discussion.{harley}rule"), BODY)
        main.add(Widget)
        button(main, self.tr("discussion.point_now"), "spy_point_now",
               lambda: self.send(A.StartPointing(TABLE), self.tr("ask.point_now")), kind="primary", height=80)

    def _main_harley_talk(self, view: SpyView, main: Any) -> None:
        self._main_discussion(view, main, "harley_")
    def _main_final_vote(self, view: SpyView, main: Any) -> None:
        self._pointing(view, main, self.tr("points.title"))

    def _main_harley_vote(self, view: SpyView, main: Any) -> None:
        self._pointing(view, main, self.tr("discussion.harley_rule"))

    def _pointing(self, view: SpyView, main: Any, heading: str) -> None:
        r = self.now(view)
        vote = r.vote
        assert vote is not None  # a vote's phase
        names = self.names()
        title(main, heading, LEAD)
        if vote.sealed:
            left = [x for x in vote.eligible if x not in vote.voted]
            note(main, self.tr("vote.left", n=len(left)), BODY)
            button(main, self.tr("points.sealed"), "spy_sealed_start", self.sealed_points, kind="primary", height=80)
            main.add(Widget)
            return
        with box_in(main, FitGrid, "counts", cols=1 if len(vote.options) <= 4 else 2, spacing=dp(8)) as rows:
            for seat in map(int, vote.options):  # a pointing vote's options are seats
                row = rows.built(f"count_{seat}", names[seat], partial(CountRow, names[seat], seat, self.set_count))
                row.count = self.counts.get(seat, 0)
                row.value.text = str(row.count)
        main.add(Widget)
        total = sum(self.counts.values())
        assert r.tally is not None  # an open pointing vote's
        fingers, most = r.tally.fingers, r.tally.most
        note(main, self.tr("points.total", n=total, max=fingers), BODY)
        summary = ", ".join(f"{names[s]} {c}" for s, c in sorted(self.counts.items()) if c) or "0"
        counts = tuple(self.counts.get(s, 0) for s in range(len(names)))
        why = self._tally_why(view, counts, fingers, most)
        if why:
            note(main, why, BODY)
        button(main, self.tr("points.submit"), "spy_points_submit", lambda: self.send(
            A.Points(TABLE, counts), self.tr("points.confirm", summary=summary)), kind="primary", height=72,
            disabled=bool(why), why=why)

    def _tally_why(self, view: SpyView, counts: tuple[int, ...], fingers: int, most: tuple[int, ...]) -> str:
        """Why the fingers entered cannot be confirmed yet, against the view's tally (one finger per player who
        points, none on oneself), else "": the button is greyed before the tap, never refused after it."""
        names = self.names()
        over = next((s for s, c in enumerate(counts) if c > most[s]), None)
        if over is not None:
            return self.tr("points.most", name=names[over], most=most[over])
        total = sum(counts)
        if total == fingers:
            return ""
        r = self.now(view)
        who = (self.tr("points.who_hunt", n=fingers, joker=names[r.revealer]) if r.phase == "harley_vote"
               else self.tr("points.who_all", n=fingers))
        return self.tr("points.missing" if total < fingers else "points.extra", who=who, k=abs(fingers - total))

    def set_count(self, seat: int, count: int) -> None:
        self.counts[seat] = count
        self.refresh(None)

    # -- physical reveal
    def _main_reveal(self, view: SpyView, main: Any) -> None:
        s = view.settings
        names = self.names()
        title(main, self.tr("reveal.title"), LEAD)
        entries = {a.kind for a in self.running.legal(TABLE) if isinstance(a, A.EnterCards)}
        kinds = [k for k in field_specs(A.EnterCards)["kind"].values if k in entries]  # the engine's kinds
        if len(kinds) > 1:
            with box_in(main, BoxLayout, "kinds", size_hint_y=None, height=dp(64), spacing=dp(10)) as row:
                for k in kinds:
                    button(row, self.tr(f"kind.{k}"), f"spy_kind_{k}", partial(self.set_card, "kind", k),
                           selected=self.cards["kind"] == k)
        if self.cards["kind"] == "standard":
            note(main, self.tr("reveal.joker"), BODY)
            player_grid(main, names, lambda x: self.set_card("joker", x), "spy_joker", selected=[self.cards["joker"]])
            if s.harley:
                note(main, self.tr("reveal.harley"), BODY)
                player_grid(main, names, lambda x: self.set_card("harley", x), "spy_harley",
                            selected=[self.cards["harley"]])
        main.add(Widget)
        c = self.cards
        standard = c["kind"] == "standard"
        button(main, self.tr("reveal.submit"), "spy_reveal_submit", lambda: self.send(A.EnterCards(
            TABLE, c["kind"], c["joker"] if standard else -1, c["harley"] if standard else -1), self.tr("ask.cards")),
            kind="primary", height=72)

    def set_card(self, key: str, value: Any) -> None:
        if key == "harley" and self.cards["harley"] == value:
            value = -1  # tap again: nobody had the icon
        self.cards[key] = value
        self.refresh(None)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
