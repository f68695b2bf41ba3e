"""What a game's host screen gets from the kiosk (see HOSTING.md).

`HostContext` is the one door from a game screen to the running table (table.Table): start a game, act on it
(a RuleError becomes a toast in the guest's language and changes nothing), the private channel per seat,
confirmations, the translator. `GameHost` is the base widget each game subclasses."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from content.loader import Game
from engines import find_engine
from engines.core import Action, RuleError, Step
from kiosk import gc_policy
from kiosk.widgets.dialogs import ConfirmDialog
from kiosk.widgets.dismantle import held_off_screen
from kiosk.widgets.handover import HandOver
from kiosk.widgets.keep import Keep
from table.session import UndoLocked
from table.table import TOUCH, Change, Channel, Table, handover

if TYPE_CHECKING:
    from kiosk.app_api import KioskApp

log = logging.getLogger(__name__)

TABLET_PAUSE = 1.2  # seconds before a tablet seat's move (table/seats.py): the guests follow it on the screen


class HostContext:
    """A game screen's door to the running table (`app.table`, table/table.py): it starts the game, acts through
    `Table.act` on the channel the tap came from, and follows the table's changes to redraw."""

    def __init__(self, app: KioskApp, game: Game) -> None:
        self.app = app
        self.game = game
        self.table: Table = app.table
        self.host: GameHost | None = None
        self.last_error: RuleError | None = None
        self.open_dialog: Any = None
        self.alive = True  # False once the screen is gone: late callbacks must not reach the next table
        self._celebrated = False  # the winner sound played for this game
        self._tablet_event: Any = None  # the tablet seat's move, scheduled after TABLET_PAUSE
        self.tablet_said = ""  # the tablet seats' moves since a guest's, in words (the tablet-seat status line)
        self.table.subscribe(self._on_change)

    # -- translation
    def tr(self, key: str, **params: Any) -> str:
        return self.app.tr(key, **params)

    @property
    def lang(self) -> str:
        return self.app.lang

    # -- the game
    @property
    def playing(self) -> bool:
        """This screen's game is open at the table."""
        return self.table.playing and self.table.game.id == self.game.id

    def start(self, config: Mapping[str, Any], seed: int | None = None, rematch: bool = False) -> bool:
        """Start a new game with this config (archiving any unfinished one). Bad config → toast, False. `rematch`: the
        same players again (their phones keep their seats: Change.rematch)."""
        return self._starting(lambda: self.table.start(self.game.id, config, seed=seed, rematch=rematch))

    def rematch(self, config: Mapping[str, Any] | None = None) -> bool:
        """한 판 더: the finished game archived, the same players again, on the same set-up or `config` (Table.rematch).
        A set-up the game refuses → toast, False, the finished game still on show."""
        return self._starting(lambda: self.table.rematch(config))

    def _starting(self, start: Callable[[], None]) -> bool:
        try:
            start()
        except (RuleError, ValueError, KeyError) as exc:
            if not isinstance(exc, RuleError):  # its text is for developers, and English
                log.warning("a game did not start: %r", exc)
            self.toast(exc.message(self.lang) if isinstance(exc, RuleError) else self.tr("errors.bad_setup"))
            return False
        return True

    def setup_limits(self, config: Mapping[str, Any]) -> Mapping[str, tuple[int, int]]:
        """The engine's ranges for a set-up's number options given the rest of `config` (rounds…)."""
        return find_engine(self.game.engine_name).setup_limits(config, self.game.pack)

    def setup_refusal(self, config: Mapping[str, Any]) -> str:
        """Why the engine would refuse this set-up ("" when it would not), in the guest's language: a form greys an
        option that cannot apply with its reason before the tap (Harley Quinn at 4 players), never after it."""
        try:
            find_engine(self.game.engine_name).setup(config, self.game.pack, 0)
        except RuleError as exc:  # the detail alone when the engine gives one ("할리 퀸 도우미는 5명 이상일 때만 써요."):
            detail = exc.params.get(f"what_{'en' if self.lang == 'en' else 'ko'}")  # a reason, not a scolding
            return str(detail) if detail else exc.message(self.lang)
        except (ValueError, KeyError):
            return self.tr("errors.bad_setup")
        return ""

    def attach(self) -> None:
        """The table's game (started here, or resumed) is this screen's: draw it."""
        table = self.table
        self._celebrated = table.outcome is not None  # a game resumed after its end is not won again
        if self.host is not None:
            host = self.host
            before = _on_show(host)
            host.keep.clear()  # other players, other board: nothing kept from the last game
            table.pace(host.holds_back)  # the screen's pacing holds for every channel (Table.act)
            table.tablet_allows = host.tablet_allows  # what a tablet seat's bot may choose at this table
            host.on_table(table)
            now = {id(w) for w in _on_show(host)}
            for w in before:  # the last game's table (a new game started on a screen that resumed one, after
                if id(w) not in now:  # voice's 이전): taken apart in a pause; frozen with the screen, it was cyclic
                    gc_policy.drop(w, host.keep)  # garbage until a thaw (17,000-20,000 objects in bench/frames.py)
            self.tablet_said = ""
            host.refresh(None)
        if self.app.voice is not None:
            self.app.voice.update_context()
        self._tablet_next()

    def detach(self) -> None:
        """This context's screen is going away: stop following the table (its game lives on), and refuse
        anything a late callback still asks for (a hand-over scheduled before a table turnover must never
        show the previous table's secrets)."""
        self.alive = False
        self.table.unsubscribe(self._on_change)
        if self.host is not None:
            self.table.tablet_allows = None  # like the pacing below, a bound method of this screen
            self.table.pace(None)  # the pacing was this screen's (a bound method: it kept the closed screen alive)
        if self._tablet_event is not None:
            self._tablet_event.cancel()
            self._tablet_event = None
        dialog = self.open_dialog
        while dialog is not None:  # a question may sit on a hand-over: close both
            under, dialog.under = getattr(dialog, "under", None), None  # a kept dialog keeps no old game
            try:
                dialog.dismiss(animation=False)
            except Exception:
                log.exception("could not close the game's dialog")
            dialog = under
        self.open_dialog = None
        self.host = None

    def _on_change(self, table: Table, change: Change) -> None:
        if not self.alive:
            return
        if change.kind in ("started", "resumed"):
            if self.playing:
                self.attach()
                if change.rematch and self.host is not None:
                    self.host.rematched()
            return
        if change.kind in ("ended", "closed") or not self.playing:
            return
        self._tablet_heard(change)
        if self.host is not None:
            self.host.refresh(change.step)
        if change.step is not None and table.outcome is not None:
            self.celebrate()
        if self.app.voice is not None:
            self.app.voice.update_context()  # names and legal moves may have changed
        self._tablet_next()

    # -- tablet seats (table/seats.py): the table's bot moves, paced here on the UI thread
    def _tablet_heard(self, change: Change) -> None:
        """Keep the status line: a tablet seat's move in words (a private one by its name only), cleared
        when a guest moves or takes back."""
        channel = change.channel
        move = self.table.tablet_move
        if channel is not None and channel.kind == "bot" and move is not None and move[0] == channel.seat:
            said = self.tablet_words(*move)
            self.tablet_said = f"{self.tablet_said}\n{said}".strip() if self.tablet_said else said
            self.tablet_said = "\n".join(self.tablet_said.split("\n")[-3:])
        elif change.kind == "undo" or (change.kind == "step" and channel is not None):
            self.tablet_said = ""

    def tablet_words(self, seat: int, action: Action) -> str:
        """What a tablet seat did, for everyone: its action's label, and its values unless it is PRIVATE."""
        from phones.labels import Catalogs, Labeller

        labeller = Labeller(Catalogs.load(), self.game.id)
        if type(action).PRIVATE:
            what = labeller.group_label(action.NAME).get(self.lang) or action.NAME
        else:
            (entry,) = labeller.entries([action], self.table.view(None))
            what = labeller.words(entry, self.lang)
        return self.tr("tablet.did", name=self.seat_name(seat), what=what)

    def seat_name(self, seat: int) -> str:
        players = self.table.view(None)["common"]["players"]
        return str(players[seat]["name"]) if 0 <= seat < len(players) else str(seat + 1)

    def _tablet_next(self) -> None:
        """A tablet seat must act: its move after TABLET_PAUSE (once; a pending one stays)."""
        if self._tablet_event is not None or not self.alive or not self.playing:
            return
        if self.table.tablet_due() is not None:
            self._tablet_event = Clock.schedule_once(self._tablet_move, TABLET_PAUSE)

    def _tablet_move(self, _dt: float = 0) -> None:
        self._tablet_event = None
        if not self.alive or not self.playing:
            return
        seat = self.table.tablet_due()
        if seat is None:
            return
        if self.open_dialog is not None:  # the tablet is in a guest's hands (a hand-over, a question): later
            self._tablet_event = Clock.schedule_once(self._tablet_move, TABLET_PAUSE)
            return
        try:
            self.table.play_tablet(seat)  # its step redraws and schedules the next (`_on_change`)
        except RuleError as exc:  # held back by the screen's pacing: try again after a pause
            log.info("the tablet seat %d waits: %s", seat, exc.code)
            self._tablet_event = Clock.schedule_once(self._tablet_move, TABLET_PAUSE * 2)
        except Exception:
            log.exception("the tablet seat %d could not move", seat)
            self.toast(self.tr("tablet.stuck", name=self.seat_name(seat)))

    def channel(self, action: Action) -> Channel:
        """Where a tap on this tablet comes from: the hand-over open for the action's seat (a private screen),
        else the shared screen."""
        seat = getattr(action, "seat", None)
        dialog = self.open_dialog
        while dialog is not None:
            if isinstance(dialog, HandOver) and dialog.seat is not None and dialog.seat == seat:
                return handover(seat)
            dialog = getattr(dialog, "under", None)
        return TOUCH

    def dispatch(self, action: Action, question: str = "", then: Callable[[Step[Any] | None], None] | None = None,
                 danger: bool = False, confirmed: bool = False, toast: bool = True,
                 channel: Channel | None = None) -> Step[Any] | None:
        """The one door from a screen to the table. An action its engine marks FINAL asks first — the
        screen's `question`, else words built from the action's declaration — and is sent only on yes;
        no screen decides what needs a confirmation. `confirmed`: a frontend that asked already (voice,
        after its 네). `then(step)` follows the send (step None after a refusal, kept in `last_error` and
        shown as a toast unless `toast` is False: a private channel shows it itself, the shared screen
        must not). Returns the step when sent at once; None when refused or asked."""
        if not self.playing or not self.alive:
            return None
        channel = channel or self.channel(action)
        if self.table.needs_confirmation(action) and not confirmed:
            self.confirm(question or self.question(action),
                         lambda: self._send(action, then, toast, channel), danger=danger)
            return None
        return self._send(action, then, toast, channel)

    def _send(self, action: Action, then: Callable[[Step[Any] | None], None] | None,
              toast: bool = True, channel: Channel = TOUCH) -> Step[Any] | None:
        if not self.playing or not self.alive:
            return None
        try:
            self.last_error = None
            step = self.table.act(action, channel, confirmed=True)  # FINAL ones were asked above
        except RuleError as exc:
            self.last_error = exc
            if toast:
                self.toast(exc.message(self.lang))
            step = None
        if then is not None:
            then(step)
        return step

    def question(self, action: Action) -> str:
        """A FINAL action's confirmation in words: its label and its values (phones/labels.py)."""
        from phones.labels import Catalogs, Labeller

        labeller = Labeller(Catalogs.load(), self.game.id)
        (entry,) = labeller.entries([action], self.table.view(None))
        return self.tr("host.generic.confirm", what=labeller.words(entry, self.lang))

    def undo(self, staff: bool = False) -> bool:
        """Undo the last action; `staff` once the staff PIN was given (see Session.undo)."""
        if not self.playing:
            return False
        try:  # a guest's last action, and the tablet seats' moves that followed it
            return self.table.undo(max(1, self.table.guest_undo_count()), staff=staff)
        except UndoLocked:
            self.toast(self.tr("host.undo_staff"))
            return True

    def end_game(self) -> None:
        """Close the game (journal archived) and go back to the game's page."""
        if getattr(self.app, "narration", None) is not None:
            self.app.narration.hush()  # silence first: archiving the journal takes a moment
        if self.playing:
            self.table.end(later=True)  # written and archived off the UI thread (fsyncs); the phones' passes die
        self.app.go("detail")

    # -- dialogs and the private channel
    def toast(self, text: str) -> None:
        if self.alive:
            self.app.toast(text)

    def confirm(self, text: str, on_yes: Callable[[], object], timeout: float = 0.0, danger: bool = False) -> None:
        """A yes/no question (not for game actions: `dispatch` asks for FINAL ones)."""
        if not self.alive:
            return
        # a hand-over the question sits on stays the open dialog afterwards; a question on show is not sat on
        # but replaced (ConfirmDialog.ask: its no puts back what it sat on)
        under = self.open_dialog

        def answered(fn: Callable[[], object] | None) -> None:
            self.open_dialog = under
            if fn is not None:
                fn()

        dlg = ConfirmDialog.ask(text, self.tr("common.yes"), self.tr("common.no"), lambda: answered(on_yes),
                                on_no=lambda: answered(None), timeout=timeout, danger=danger)
        if isinstance(under, ConfirmDialog):
            under = self.open_dialog if self.open_dialog is not under else None
        dlg.under = under
        self.open_dialog = dlg

    def private(self, name: str, content: Callable[[Callable[[], None]], Widget],
                on_done: Callable[[], None] | None = None, mode: str = "reveal",
                seat: int | None = None, ahead: bool = False) -> HandOver | None:
        """The seat's private channel. With the seat's phone connected the phone shows it (reveal) or takes
        the input (input) and `on_done` follows; otherwise pass the tablet to `name`: `content(done)` builds
        what only they may see (reveal: shown while they hold a button; input: shown until `done()`). `ahead`
        (input; a `content` with no effect until shown): made while the player reaches for the tablet, made
        again if the game or the language changed by "I am"."""
        if not self.alive:
            return None
        phones = self.app.phones
        if seat is None and self.playing:
            names = [p["name"] for p in self.table.view(None)["common"]["players"]]
            seat = names.index(name) if names.count(name) == 1 else None
        if seat is not None and self.playing and seat in self.table.tablet:  # its private moments are the bot's
            if on_done is not None and mode == "reveal":
                self.later(on_done)  # a chain goes on (each guest sees their hand)
            return None
        if phones is not None and self.playing and seat is not None and phones.route(seat, mode, on_done):
            key = "host.look_at_phone" if mode == "reveal" else "host.waiting_phone"
            self.toast(self.tr(key, name=name))
            return None
        made_from = (lambda: (self.table.state if self.playing else None, self.lang)) if ahead else None
        ho = HandOver(name, self.tr, content, on_done, mode, made_from)  # taken apart once closed (widgets.one_use)
        ho.seat = seat  # what is tapped on it comes from that seat's private channel (HostContext.channel)
        self.opened(ho)
        ho.open(animation=False)  # at once (Kivy's fade-in held it from a lambda of its own, frozen with it)
        return ho

    def opened(self, dialog: Any) -> None:
        """`dialog` (a hand-over, the staff PIN pad) is the game's dialog until dismissed, and closed with the
        screen (`detach`); then nothing here holds it (a one-use dialog is freed once taken apart)."""
        self.open_dialog = dialog
        dialog.bind(on_dismiss=lambda *_: self._closed(dialog))

    def _closed(self, dialog: Any) -> None:
        if self.open_dialog is dialog:
            self.open_dialog = None

    def celebrate(self) -> None:
        """The game is won: the winner sound, once per game (not again after an undo and a replay of the end)."""
        if self.alive and not self._celebrated:
            self._celebrated = True
            self.app.play_sound("winner")

    def later(self, fn: Callable[[], None], seconds: float = 0) -> None:
        Clock.schedule_once(lambda dt: fn() if self.alive else None, seconds)


class GameHost(BoxLayout):
    """Subclass per game (kiosk/games/<game>/__init__.py sets HOST = YourHost).

    Lifecycle: created with the context when the host screen opens. If no game is open yet, show
    your set-up form and call `ctx.start(config)`; `on_table` then `refresh(step)` follow, and
    `refresh` runs again after every accepted action (also undo, with step None). Redrawing, take the
    widgets that stay (a board's buttons, a player's row) from `self.keep` (kiosk/widgets/keep.py) instead
    of making them again: making widgets is most of a redraw's time."""

    def __init__(self, ctx: HostContext, **kw: Any) -> None:
        kw.setdefault("orientation", "vertical")
        super().__init__(**kw)
        self.ctx = ctx
        self.keep = Keep(on_drop=gc_policy.drop)  # cleared when a session starts

    def on_table(self, table: Table) -> None:
        """A game started or was resumed at the table (read it through `table`; act through `ctx.dispatch`)."""

    def rematch(self) -> None:
        """한 판 더 (the results' button): the same game with the same players (`Table.rematch`). A game whose set-up is
        spent once played says the next one here (Watson & Holmes: a case whose solution the guests know)."""
        if self.ctx.playing:
            self.ctx.rematch()

    def rematched(self) -> None:
        """The same players start again (한 판 더, `Table.rematch`), after `on_table`: the private steps a fresh deal
        needs that the set-up form's start would have begun (each sees their new hand, Jack his new identity)."""

    def closing(self) -> None:
        """This screen goes away for good (another game, a table turnover): stop what it started that
        outlives it — speech, listeners on the app's long-lived services."""

    def refresh(self, step: Step[Any] | None) -> None:
        """Redraw from `self.ctx.table.view(None)` and the legal actions."""
        raise NotImplementedError

    def holds_back(self, action: Action) -> str:
        """Why the screen does not offer `action` now although the rules would allow it (a step of the table's
        own, e.g. Spyfall's clock waits until every player has seen their card), else "". The screen's button
        and every other channel (voice) ask this, so they agree."""
        return ""

    def tablet_allows(self, action: Action) -> bool:
        """Whether a tablet seat's bot may choose `action` here: the screen knows what the physical table
        allows (e.g. no escape claim from a board the tablet cannot see). Default: every legal action."""
        return True

    def route_private(self, action: Action) -> bool:
        """A shared channel (voice) asks for `action`. If its legality depends on a secret (an escape, the
        Joker's reveal), open its owner's private channel instead and return True: a refusal on the shared
        screen would tell the table the secret."""
        return False


def _on_show(host: GameHost) -> list[Any]:
    """What a game's screen shows (its children) and holds off screen (a clock not shown now)."""
    return [*host.children, *held_off_screen(host)]
