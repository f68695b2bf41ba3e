"""The Spyfall DC host: set-up form, then the table screen by phase (first dealer, pass-the-tablet deal or
the bag to take, the clock, accusations and votes, the Joker's guess, the Harley hunt, the physical
reveal, scores). No rules here: every button dispatches an engine action; the engine refuses what the
rules forbid (a toast in the guests' language)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from engines.core import TABLE, Action, Step, field_specs
from engines.spyfall import actions as A
from kiosk.games.spyfall.panels import (
    CountRow,
    HarleyIcon,
    LocationList,
    ScoreTable,
    button,
    note,
    player_grid,
    title,
)
from kiosk.games.spyfall.private import SpyPrivate
from kiosk.games.spyfall.setup import SpySetup
from kiosk.hosting import GameHost, HostContext
from kiosk.session import Session
from kiosk.widgets.clock import GameClock
from kiosk.widgets.theme import BODY, CLOCK, LEAD
from kiosk.widgets.winner import WinnerBanner

CLOCK_PHASES = ("play", "accusation", "pride", "multiverse_vote", "guess", "confirm_guess")
TALK_PHASES = ("discussion", "harley_talk")
LIST_PHASES = ("choose_dealer", "ready", "play", "accusation", "pride", "multiverse_vote", "discussion")


class SpyTable(BoxLayout):
    host = ObjectProperty(None)


class SpyfallHost(SpyPrivate, GameHost):
    def __init__(self, ctx: HostContext, **kw: Any) -> None:
        super().__init__(ctx, **kw)
        self.table: SpyTable | None = None
        self.clock: GameClock | None = None
        self.side_key: str = ""
        self.pick: dict[str, Any] = {}  # an open player choice: {"purpose": "accuse", "accuser": 2}
        self.yes: set[int] = set()  # open yes/no vote being entered
        self.counts: dict[int, int] = {}  # open pointing vote being entered
        self.cards: dict[str, Any] = {"kind": "standard", "joker": -1, "harley": -1}  # physical reveal
        self.phase_key: tuple[int, str, int, int] = (0, "", 0, 0)
        self.cues: list[int] = []  # 60 / 0 second sounds played (for tests and the audio issue)
        self.card_seen: tuple[int, set[int]] = (-1, set())  # (round index, seats that saw their card)
        self.add_widget(SpySetup(host=self, modules={m: False for m in self.ctx.game.info.modules}))

    # ------------------------------------------------------------ helpers
    def tr(self, key: str, **params: Any) -> str:
        return self.ctx.tr(f"spyfall.{key}", **params)

    @property
    def session(self) -> Session:
        assert self.ctx.session is not None
        return self.ctx.session

    def view(self) -> dict[str, Any]:
        return dict(self.session.view(None))

    @staticmethod
    def offered(view: dict[str, Any], action: str) -> set[int]:
        """Seats the table may be offered `action` for now (the view's public offers)."""
        return {o["seat"] for o in view["common"]["table"] if o["action"] == action}

    def names(self) -> list[str]:
        return [p["name"] for p in self.session.view(None)["common"]["players"]]

    def send(self, action: Action, question: str = "", then: Callable[[Step[Any] | None], None] | None = None,
             danger: bool = False) -> Step[Any] | None:
        """Send through the hosting layer (a FINAL action asks `question` first)."""
        self.pick = {}
        return self.ctx.dispatch(action, question, then, danger)

    def place_name(self, loc_id: str) -> str:
        for loc in self.view()["locations"]:
            if loc["id"] == loc_id:
                return str(loc["en"] if self.ctx.lang == "en" else loc["ko"])
        return loc_id

    # ------------------------------------------------------------ set-up and session
    def start_game(self, config: dict[str, Any]) -> None:
        self.ctx.start(config)

    def on_session(self, session: Session) -> None:
        self.clear_widgets()
        self.table = SpyTable(host=self)
        self.add_widget(self.table)
        self.clock = GameClock(now=self.ctx.app.now, size_hint_y=None, height=dp(130), font_size=CLOCK)
        self.clock.on_threshold = lambda mark: self.cue(mark) if mark == 60 else None  # 0:00 comes as time_up
        self.clock_key: tuple[int, str] = (0, "")
        self.side_key = ""
        self.pick, self.yes, self.counts = {}, set(), {}

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
        view = self.view()
        parts = [f"{n} {t}" for n, t in zip(self.names(), view["totals"], strict=True)]
        self.ctx.toast(self.tr("score.toast", n=len(view["history"]), scores=" · ".join(parts)))

    # ------------------------------------------------------------ drawing
    def refresh(self, step: Step[Any] | None) -> None:
        if self.ctx.session is None or self.table is None:
            return
        view = self.view()
        r = view["round"]
        self._toasts(step, r)
        ids = self.table.ids
        names = self.names()
        ids.round_label.text = self.tr("status.round", n=r["number"], total=view["settings"]["rounds"])
        ids.dealer_label.text = self.tr("status.dealer", name=names[r["dealer"]]) if r["dealer"] >= 0 else ""
        ids.phase_label.text = self.tr(f"phase.{r['phase']}")
        key = (r["number"], r["phase"], len(r["accusations"]), len(r["multiverse_callers"]))
        if key != self.phase_key:  # a new vote or phase: forget what was being entered
            self.phase_key = key
            self.yes, self.counts, self.pick = set(), {}, {}
        self._side(view)
        main = ids.main
        main.clear_widgets()
        phase = "over" if view["over"] else r["phase"]
        getattr(self, f"_main_{phase}")(view, main)

    def _toasts(self, step: Step[Any] | None, r: dict[str, Any]) -> None:
        if step is None:
            return
        for event in step.events:
            if event.to is not None:
                continue
            if event.kind == "time_up":
                self.cue(0)
            if event.kind == "vote_result" and not event.data["passed"] and r["phase"] == "play":
                self.ctx.toast(self.tr("event.mv_failed" if event.data["vote"] == "multiverse" else
                                       "event.vote_failed"))
            elif event.kind == "ability_used":
                ability = next((f for f in r.get("flipped", []) if f["seat"] == event.data["seat"]), None)
                label = (ability["en"] if self.ctx.lang == "en" else ability["ko"]) if ability else ""
                self.ctx.toast(self.tr("event.ability", name=self.names()[event.data["seat"]], ability=label))

    def _side(self, view: dict[str, Any]) -> None:
        assert self.table is not None and self.clock is not None
        r = view["round"]
        phase = "over" if view["over"] else r["phase"]
        key = ("clock" if phase in CLOCK_PHASES + TALK_PHASES else "") + ("+list" if phase in LIST_PHASES else "")
        side = self.table.ids.side
        if key != self.side_key:
            side.clear_widgets()
            if self.clock.parent is not None:
                self.clock.parent.remove_widget(self.clock)
            if "clock" in key:
                side.add_widget(self.clock)
            if "list" in key:
                side.add_widget(LocationList(view["locations"], self.ctx.lang, self.ctx.tr))
            else:
                side.add_widget(Widget())
            self.side_key = key
        which = "talk" if phase in TALK_PHASES else "round"
        if (r["number"], which) != self.clock_key:  # a new clock: its 1:00 warning may sound again
            self.clock_key = (r["number"], which)
            self.clock.new_clock()
        if phase in TALK_PHASES and r["talk"]:
            self.clock.show(r["talk"])
        elif phase in CLOCK_PHASES:
            self.clock.show(r["clock"])

    # ------------------------------------------------------------ phases
    def _main_choose_dealer(self, view: dict[str, Any], main: Any) -> None:
        main.add_widget(title(self.tr("dealer.ask"), LEAD))
        main.add_widget(player_grid(self.names(), lambda s: self.send(A.ChooseDealer(TABLE, s)), "spy_dealer"))
        icon_row = BoxLayout(size_hint_y=None, height=dp(80), spacing=dp(16))
        icon_row.add_widget(HarleyIcon(test_id="spy_harley_icon"))
        icon_row.add_widget(note(self.tr("dealer.icon"), BODY))
        main.add_widget(icon_row)
        mods = [self.tr(f"module.{m}") for m in self.ctx.game.info.modules if view["settings"][m]]
        main.add_widget(note(self.tr("dealer.modules", names=", ".join(mods)) if mods else self.tr("dealer.no_modules"),
                             BODY))
        main.add_widget(Widget())

    def _main_deal(self, view: dict[str, Any], main: Any) -> None:  # chance steps run at once; never shown long
        main.add_widget(title(self.tr("phase.deal")))

    def _main_ready(self, view: dict[str, Any], main: Any) -> None:
        r = view["round"]
        names = self.names()
        dealer = names[r["dealer"]]
        if view["settings"]["deal"] == "physical":
            main.add_widget(title(self.tr("ready.physical", name=dealer, bag=r["bag"], n=len(names)), LEAD))
        else:
            main.add_widget(title(self.tr("ready.digital", name=dealer), LEAD))
            main.add_widget(button(self.tr("ready.pass"), "spy_pass_cards", lambda: self.show_cards(0),
                                   kind="primary", height=80))
            main.add_widget(note(self.tr("ready.recheck")))
            main.add_widget(player_grid(names, lambda s: self.show_cards(s, chain=False), "spy_recheck"))
        main.add_widget(Widget())
        start = button(self.tr("ready.start"), "spy_start_clock", lambda: self.send(A.StartClock(TABLE)),
                       kind="primary", height=80)
        why = self.holds_back(A.StartClock(TABLE))
        if why:
            start.disabled, start.why = True, why
            main.add_widget(note(why, BODY))
        main.add_widget(start)

    def holds_back(self, action: Any) -> str:
        """The clock starts once every player has seen their card (digital deal); the button and voice ask here."""
        if isinstance(action, A.StartClock) and self.ctx.session is not None:
            view = self.session.view(None)
            if view["settings"]["deal"] != "physical" and not self._all_seen(view):
                return self.tr("ready.why_start")
        return ""

    def _all_seen(self, view: dict[str, Any]) -> bool:
        if self.card_seen[0] != len(view["history"]):  # a new round: nobody has seen this round's card yet
            self.card_seen = (len(view["history"]), set())
        return len(self.card_seen[1]) >= len(self.names())

    def _main_play(self, view: dict[str, Any], main: Any) -> None:
        r = view["round"]
        s = view["settings"]
        purpose = self.pick.get("purpose")
        if purpose:
            self._picker(view, main, purpose)
            return
        main.add_widget(note(self.tr("play.hint"), BODY))
        if not r["clock"]["running"]:
            main.add_widget(title(self.tr("play.paused"), BODY))
        row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(10))
        if self.offered(view, A.PauseClock.NAME):
            row.add_widget(button(self.tr("play.pause"), "spy_pause", lambda: self.send(A.PauseClock(TABLE)),
                                  height=72))
        else:
            row.add_widget(button(self.tr("play.resume"), "spy_resume", lambda: self.send(A.ResumeClock(TABLE)),
                                  kind="primary", height=72, disabled=not self.offered(view, A.ResumeClock.NAME)))
        main.add_widget(row)
        # every button as the engine's offers say: who may still accuse, call, claim (never while paused)
        main.add_widget(button(self.tr("play.accuse"), "spy_accuse", lambda: self.open_pick("accuse"),
                               kind="danger", height=80, disabled=not self.offered(view, A.Accuse.NAME)))
        main.add_widget(button(self.tr("play.reveal"), "spy_reveal", lambda: self.open_pick("reveal"),
                               height=72, disabled=not self.offered(view, A.RevealJoker.NAME)))
        if s["multiverse"]:
            main.add_widget(button(self.tr("play.multiverse"), "spy_multiverse", lambda: self.open_pick("multiverse"),
                                   height=72, disabled=not self.offered(view, A.CallMultiverse.NAME)))
        if s["power_up"] and s["deal"] == "digital":
            main.add_widget(button(self.tr("play.ability"), "spy_ability", lambda: self.open_pick("ability"),
                                   height=72, disabled=not self.offered(view, A.UseAbility.NAME)))
        main.add_widget(Widget())
        if s["deal"] == "digital":
            main.add_widget(button(self.tr("play.my_card"), "spy_my_card", lambda: self.open_pick("card"),
                                   kind="ghost", height=64))

    def open_pick(self, purpose: str) -> None:
        self.pick = {"purpose": purpose}
        self.refresh(None)

    PICKS = {"accuse": A.Accuse.NAME, "reveal": A.RevealJoker.NAME, "multiverse": A.CallMultiverse.NAME,
             "ability": A.UseAbility.NAME, "pride": A.UseAbility.NAME}

    def _picker(self, view: dict[str, Any], main: Any, purpose: str) -> None:
        names = self.names()
        seats: list[int] = list(range(len(names)))  # "card": anyone re-checks their own card
        if purpose == "accuse" and "accuser" in self.pick:
            prompt = "pick.accused"
            seats = [a.accused for a in self.session.legal(self.pick["accuser"]) if isinstance(a, A.Accuse)]
        else:
            prompt = {"accuse": "pick.accuser", "reveal": "pick.revealer", "multiverse": "pick.caller",
                      "ability": "pick.ability_user", "card": "pick.card_owner", "pride": "pick.pride_user"}[purpose]
            if purpose in self.PICKS:  # the seats the engine offers it for
                seats = sorted(self.offered(view, self.PICKS[purpose]))
        main.add_widget(title(self.tr(prompt), LEAD))
        main.add_widget(player_grid(names, lambda seat: self.picked(purpose, seat), "spy_pick", seats))
        main.add_widget(Widget())
        main.add_widget(button(self.tr("pick.cancel"), "spy_pick_cancel", self.cancel_pick, kind="ghost"))

    def cancel_pick(self) -> None:
        self.pick = {}
        self.refresh(None)

    def picked(self, purpose: str, seat: int) -> None:
        names = self.names()
        if purpose == "accuse" and "accuser" not in self.pick:
            self.pick["accuser"] = seat
            self.refresh(None)
            return
        if purpose == "accuse":
            accuser = self.pick["accuser"]
            self.send(A.Accuse(accuser, seat), self.tr("accuse.confirm", accuser=names[accuser], accused=names[seat]),
                      danger=True)
        elif purpose == "reveal" and self.view()["settings"]["deal"] == "physical":
            # the real card decides: the kiosk knows no secret to give away
            self.send(A.RevealJoker(seat), self.tr("ask.reveal", name=names[seat]), danger=True)
        elif purpose in ("reveal", "ability", "pride"):
            self.pick = {}
            self.refresh(None)
            self.claim(seat, purpose)
        elif purpose == "multiverse":
            self.send(A.CallMultiverse(seat), self.tr("ask.multiverse", name=names[seat]))
        elif purpose == "card":
            self.pick = {}
            self.refresh(None)
            self.show_cards(seat, chain=False)
        if self.pick:
            self.pick = {}
            self.refresh(None)

    # -- yes/no votes (accusation, multiverse)
    def _main_accusation(self, view: dict[str, Any], main: Any) -> None:
        names = self.names()
        r = view["round"]
        accuser, accused = names[r["accuser_now"]], names[r["accused_now"]]
        main.add_widget(title(self.tr("accuse.title", accuser=accuser, accused=accused), LEAD))
        main.add_widget(note(self.tr("accuse.rule", accused=accused), BODY))
        self._yes_no(view, main, self.tr("vote.accuse_question", accused=accused))

    def _main_multiverse_vote(self, view: dict[str, Any], main: Any) -> None:
        r = view["round"]
        caller = self.names()[r["multiverse_callers"][-1]]
        main.add_widget(title(self.tr("mv.title", caller=caller), LEAD))
        main.add_widget(note(self.tr("mv.rule"), BODY))
        self._yes_no(view, main, self.tr("vote.mv_question"))

    def _yes_no(self, view: dict[str, Any], main: Any, question: str) -> None:
        vote = view["round"]["vote"]
        names = self.names()
        if vote["sealed"]:
            left = [x for x in vote["eligible"] if x not in vote["voted"]]
            main.add_widget(note(self.tr("vote.left", n=len(left)), BODY))
            main.add_widget(button(self.tr("vote.sealed"), "spy_sealed_start",
                                   lambda: self.sealed_ballots(question), kind="primary", height=80))
            main.add_widget(Widget())
            return
        main.add_widget(note(self.tr("vote.who_yes"), BODY))
        main.add_widget(player_grid(names, self.toggle_yes, "spy_yes", vote["eligible"], self.yes))
        main.add_widget(Widget())
        yes = len(self.yes)
        no = len(vote["eligible"]) - yes
        main.add_widget(button(self.tr("vote.submit"), "spy_vote_submit", lambda: self.send(
            A.Hands(TABLE, tuple(sorted(self.yes))), self.tr("vote.confirm", yes=yes, no=no)),
            kind="primary", height=76))

    def toggle_yes(self, seat: int) -> None:
        self.yes ^= {seat}
        self.refresh(None)

    def _main_pride(self, view: dict[str, Any], main: Any) -> None:
        r = view["round"]
        main.add_widget(title(self.tr("pride.title", yes=r["counts"].get("yes", 0), no=r["counts"].get("no", 0)),
                              LEAD))
        if self.pick.get("purpose") == "pride":
            self._picker(view, main, "pride")
            return
        main.add_widget(note(self.tr("pride.private"), BODY))
        main.add_widget(button(self.tr("pride.claim"), "spy_pride_claim", lambda: self.open_pick("pride"),
                               kind="danger", height=80))
        main.add_widget(Widget())
        main.add_widget(button(self.tr("pride.skip"), "spy_pride_skip", lambda: self.send(A.ResumeClock(TABLE)),
                               kind="primary", height=76))

    # -- the Joker's guess
    def _main_guess(self, view: dict[str, Any], main: Any) -> None:
        r = view["round"]
        joker = r["revealer"]
        main.add_widget(title(self.tr("guess.title", name=self.names()[joker]), LEAD))
        if view["settings"]["prank"]:
            main.add_widget(button(self.tr("guess.prank"), "spy_prank", lambda: self.send(
                A.DeclarePrank(joker), self.tr("guess.prank_confirm")), kind="danger"))
        main.add_widget(LocationList(view["locations"], self.ctx.lang, self.ctx.tr,
                                     on_pick=lambda loc: self.send(A.GuessLocation(joker, loc), self.tr(
                                         "guess.confirm", place=self.place_name(loc)))))

    def _main_confirm_guess(self, view: dict[str, Any], main: Any) -> None:
        r = view["round"]
        main.add_widget(title(self.tr("confirm_guess.title", name=self.names()[r["revealer"]],
                                      place=self.place_name(r["guess"])), LEAD))
        row = BoxLayout(size_hint_y=None, height=dp(96), spacing=dp(20))
        row.add_widget(button(self.tr("confirm_guess.right"), "spy_guess_right",
                              lambda: self.send(A.ConfirmGuess(TABLE, True), self.tr("ask.guess_right")),
                              kind="primary", height=96))
        row.add_widget(button(self.tr("confirm_guess.wrong"), "spy_guess_wrong",
                              lambda: self.send(A.ConfirmGuess(TABLE, False), self.tr("ask.guess_wrong")),
                              height=96))
        main.add_widget(row)
        main.add_widget(Widget())

    # -- discussion and pointing
    def _main_discussion(self, view: dict[str, Any], main: Any) -> None:
        main.add_widget(title(self.tr("discussion.title"), LEAD))
        main.add_widget(note(self.tr("discussion.rule"), BODY))
        main.add_widget(Widget())
        main.add_widget(button(self.tr("discussion.point_now"), "spy_point_now",
                               lambda: self.send(A.StartPointing(TABLE), self.tr("ask.point_now")), kind="primary", height=80))

    def _main_harley_talk(self, view: dict[str, Any], main: Any) -> None:
        main.add_widget(title(self.tr("discussion.harley_title"), LEAD))
        main.add_widget(note(self.tr("discussion.harley_rule"), BODY))
        main.add_widget(Widget())
        main.add_widget(button(self.tr("discussion.point_now"), "spy_point_now",
                               lambda: self.send(A.StartPointing(TABLE), self.tr("ask.point_now")), kind="primary", height=80))

    def _main_final_vote(self, view: dict[str, Any], main: Any) -> None:
        self._pointing(view, main, self.tr("points.title"))

    def _main_harley_vote(self, view: dict[str, Any], main: Any) -> None:
        self._pointing(view, main, self.tr("discussion.harley_rule"))

    def _pointing(self, view: dict[str, Any], main: Any, heading: str) -> None:
        vote = view["round"]["vote"]
        names = self.names()
        main.add_widget(title(heading, LEAD))
        if vote["sealed"]:
            left = [x for x in vote["eligible"] if x not in vote["voted"]]
            main.add_widget(note(self.tr("vote.left", n=len(left)), BODY))
            main.add_widget(button(self.tr("points.sealed"), "spy_sealed_start", self.sealed_points,
                                   kind="primary", height=80))
            main.add_widget(Widget())
            return
        rows = GridLayout(cols=1 if len(vote["options"]) <= 4 else 2, size_hint_y=None, spacing=dp(8))
        rows.bind(minimum_height=rows.setter("height"))
        for seat in vote["options"]:
            row = CountRow(names[seat], seat, self.set_count)
            row.count = self.counts.get(seat, 0)
            row.value.text = str(row.count)
            rows.add_widget(row)
        main.add_widget(rows)
        main.add_widget(Widget())
        total = sum(self.counts.values())
        self.total_label = note(self.tr("points.total", n=total, max=len(vote["eligible"])), BODY)
        main.add_widget(self.total_label)
        summary = ", ".join(f"{names[s]} {c}" for s, c in sorted(self.counts.items()) if c) or "0"
        counts = tuple(self.counts.get(s, 0) for s in range(len(names)))
        main.add_widget(button(self.tr("points.submit"), "spy_points_submit", lambda: self.send(
            A.Points(TABLE, counts), self.tr("points.confirm", summary=summary)), kind="primary", height=72))

    def set_count(self, seat: int, count: int) -> None:
        self.counts[seat] = count
        self.refresh(None)

    # -- physical reveal
    def _main_reveal(self, view: dict[str, Any], main: Any) -> None:
        s = view["settings"]
        names = self.names()
        main.add_widget(title(self.tr("reveal.title"), LEAD))
        entries = {a.kind for a in self.session.legal(TABLE) if isinstance(a, A.EnterCards)}
        kinds = [k for k in field_specs(A.EnterCards)["kind"].values if k in entries]  # the engine's kinds
        if len(kinds) > 1:
            row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(10))
            for k in kinds:
                row.add_widget(button(self.tr(f"kind.{k}"), f"spy_kind_{k}", lambda k=k: self.set_card("kind", k),
                                      selected=self.cards["kind"] == k))
            main.add_widget(row)
        if self.cards["kind"] == "standard":
            main.add_widget(note(self.tr("reveal.joker"), BODY))
            main.add_widget(player_grid(names, lambda x: self.set_card("joker", x), "spy_joker",
                                        selected=[self.cards["joker"]]))
            if s["harley"]:
                main.add_widget(note(self.tr("reveal.harley"), BODY))
                main.add_widget(player_grid(names, lambda x: self.set_card("harley", x), "spy_harley",
                                            selected=[self.cards["harley"]]))
        main.add_widget(Widget())
        c = self.cards
        standard = c["kind"] == "standard"
        main.add_widget(button(self.tr("reveal.submit"), "spy_reveal_submit", lambda: self.send(A.EnterCards(
            TABLE, c["kind"], c["joker"] if standard else -1, c["harley"] if standard else -1), self.tr("ask.cards")),
            kind="primary", height=72))

    def set_card(self, key: str, value: Any) -> None:
        if key == "harley" and self.cards["harley"] == value:
            value = -1  # tap again: nobody had the icon
        self.cards[key] = value
        self.refresh(None)

    # -- results
    def _main_round_over(self, view: dict[str, Any], main: Any) -> None:
        self._result(view, main)
        row = BoxLayout(size_hint_y=None, height=dp(76), spacing=dp(16))
        row.add_widget(button(self.tr("result.end"), "spy_end_session", lambda: self.send(
            A.EndSession(TABLE), self.tr("result.end_confirm"), danger=True), height=76))
        row.add_widget(button(self.tr("result.next"), "spy_next", lambda: self.send(A.NextRound(TABLE)),
                              kind="primary", height=76))
        main.add_widget(row)
        self.cards = {"kind": "standard", "joker": -1, "harley": -1}

    def _main_over(self, view: dict[str, Any], main: Any) -> None:
        names = self.names()
        outcome = self.session.outcome  # who won is the engine's to say
        winners = outcome.winners if outcome is not None else ()
        best_names = ", ".join(names[s] for s in winners)
        main.add_widget(WinnerBanner(self.ctx.tr("results.winner", names=best_names),
                                     self.tr("result.over", names=best_names)))
        self._result(view, main)

    def _result(self, view: dict[str, Any], main: Any) -> None:
        names = self.names()
        rec = view["history"][-1] if view["history"] else None
        if rec is None:
            return
        main.add_widget(title(self.tr("result.title", n=rec["number"], ending=self.tr(f"ending.{rec['ending']}")),
                              LEAD))
        lines = []
        if rec["place"]:
            lines.append(self.tr("result.place", place=rec["place_en"] if self.ctx.lang == "en" else rec["place_ko"]))
        if rec["kind"] == "joker":
            lines.append(self.tr("result.all_jokers"))
        elif rec["kind"] == "multiverse":
            lines.append(self.tr("result.no_joker"))
        else:
            lines.append(self.tr("result.joker", name=names[rec["joker"]]))
        if rec["harley"] >= 0:
            lines.append(self.tr("result.harley", name=names[rec["harley"]]))
        if rec["convicted"] >= 0:
            lines.append(self.tr("result.convicted", name=names[rec["convicted"]]))
        if rec["guess"]:
            ok = view["round"]["guess_correct"]
            lines.append(self.tr("result.guess", place=self.place_name(rec["guess"]),
                                 ok=self.tr("result.right" if ok else "result.wrong")))
        main.add_widget(note("  ·  ".join(lines), BODY))
        main.add_widget(ScoreTable(names, rec["points"], view["totals"], self.ctx.tr))
        main.add_widget(Widget())


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
