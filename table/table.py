"""The running table: the one owner of the game being played at this table, without Kivy.

Every frontend acts through `Table.act(action, channel, confirmed)` — the tablet's shared screen, a pass-the-tablet
hand-over, a seat's phone, voice, a tablet seat's bot, the game's deadlines — and everything that draws or reports
(screens, phones, voice's grammar, the café floor) follows it through `Table.subscribe`. The rules that hold for every
channel alike are enforced here, once, before the engine sees the action:

- a FINAL action is applied only when `confirmed` (the frontend asked its own yes/no first; nothing is asked here);
- a PRIVATE action comes only through its own seat's private channel (its legality is a secret: a refusal on a shared
  channel would tell the table), unless the engine offers it on the shared screen now (`table_offers`, public facts);
- a private channel acts only for its own seat;
- a tablet seat (table/seats.py) acts only through its bot's channel (or staff's);
- a pacing rule of the table's own (`pace`: e.g. Spyfall's clock waits until every card was seen) holds an action
  back on every guest's channel, with the reason the screen greys its button with (staff, behind their PIN, and
  the game's own deadlines go ahead).

A refusal is a `RuleError` (the engine's, or a `TableRefusal`): nothing changes, and the frontend shows its message.
The session (game + journal) is private to the table: nobody else starts, resumes, ends or dispatches."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from content.i18n_catalog import Translator
from engines.bots import Bot, find_bot
from engines.core import CHANCE, Action, Engine, Outcome, RuleError, Step, View
from table import seats as tablet
from table import tonight
from table.journal import Journal
from table.notices import Notice
from table.session import ResumeReport, Session, UndoLocked
from table.session import turnover as session_turnover

if TYPE_CHECKING:
    from content.loader import Game, Library

log = logging.getLogger(__name__)

Kind = Literal["touch", "voice", "clock", "staff", "handover", "phone", "bot"]
_PRIVATE_KINDS = ("handover", "phone", "bot")


@dataclass(frozen=True)
class Channel:
    """Where an action comes from. Shared channels (`seat` None) speak for the table; a private one for one seat."""

    kind: Kind
    seat: int | None = None

    @property
    def private(self) -> bool:
        return self.seat is not None

    def __post_init__(self) -> None:
        if (self.kind in _PRIVATE_KINDS) != (self.seat is not None):
            raise ValueError(f"channel {self.kind!r} with seat {self.seat!r}")


TOUCH = Channel("touch")  # the tablet's shared screen
VOICE = Channel("voice")
CLOCK = Channel("clock")  # a deadline passed
STAFF = Channel("staff")  # behind the staff PIN


def handover(seat: int) -> Channel:
    """The tablet passed to one player (held to reveal, or a private input)."""
    return Channel("handover", seat)


def phone(seat: int) -> Channel:
    return Channel("phone", seat)


def bot(seat: int) -> Channel:
    return Channel("bot", seat)


@cache
def _translator(lang: str) -> Translator:
    return Translator(lang)


class TableRefusal(RuleError):
    """The table, not the rules, refuses: confirm first, the owner's private channel only, held back, no game."""

    def __init__(self, code: str, **params: Any) -> None:
        key = f"table_refusal.{code}"
        super().__init__(code, _translator("ko")(key, **params), _translator("en")(key, **params))


@dataclass(frozen=True)
class Change:
    """What happened at the table, for subscribers. `kind`: started (a new game; `rematch` when the same players
    play again), resumed (after a restart), step (an accepted action: `step`, `channel`), undo, ended (finished or
    abandoned; the game is gone), closed (the session let go without ending: the app stops, a recovery)."""

    kind: Literal["started", "resumed", "step", "undo", "ended", "closed"]
    step: Step[Any] | None = None
    channel: Channel | None = None
    rematch: bool = False


Listener = Callable[["Table", Change], None]
Pacer = Callable[[Action], str]  # the reason an action is held back now, "" when it is not


class Table:
    """One table's running game: start / resume / rematch / end, `act`, `undo`, `tick`, and what to read of it."""

    def __init__(self, library: Library | Callable[[], Library], journal_dir: Path,
                 clock: Callable[[], float] = time.time, notices: list[Notice] | None = None) -> None:
        self._library = library
        self.journal_dir = journal_dir
        self._clock = clock
        self.notices: list[Notice] = notices if notices is not None else []
        self._session: Session | None = None
        self._listeners: list[Listener] = []
        self._pace: Pacer | None = None
        self.acts = 0  # calls of `act` (tests count them)
        self.find_bot: Callable[[str, str], Bot] = find_bot  # (game, level) -> the tablet seat's bot (tests wrap it)
        self.tablet_move: tuple[int, Action] | None = None  # the last tablet seat's move (seat, action)
        self.tablet_allows: Callable[[Action], bool] | None = None  # the screen narrows a bot's choice (a board)
        # the games started since the last turnover (game id, set-up), oldest first: what these guests played
        # tonight; kept beside the journal (table/tonight.py), so a restart in the evening still knows it
        self.played: tonight.Played = []
        self.load_played()

    @property
    def clock(self) -> Callable[[], float]:
        """The wall clock actions are stamped with (tests and benches move it)."""
        return self._clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        if self._session is not None:
            self._session.clock = clock

    # ------------------------------------------------------------ the library (loaded later at start-up)
    @property
    def library(self) -> Library:
        lib = self._library
        return lib if not callable(lib) else lib()

    # ------------------------------------------------------------ lifecycle
    @property
    def playing(self) -> bool:
        """A game is open at the table (finished or not)."""
        return self._session is not None

    def start(self, game_id: str, config: Mapping[str, Any], seed: int | None = None, rematch: bool = False) -> None:
        """A new game (an unfinished one is archived first). A set-up the game refuses raises (RuleError,
        ValueError, KeyError) and the game before it is left as it was. `config["tablet"]`: the seats the
        tablet plays and their levels (table/seats.py), journaled with the config."""
        tablet.check(game_id, config)
        old = self._session
        if old is not None:
            old.close()  # its journal is archived by Session.new; close the connection first
        try:
            session = Session.new(self.library, game_id, config, self.journal_dir, seed=seed, clock=self.clock,
                                  notices=self.notices)
        except BaseException:
            if old is not None:
                self._session = None
                self._publish(Change("closed"))
            raise
        self._session = session
        self._pace = None
        self._played(game_id, config)
        session.subscribe(self._on_session)
        self._publish(Change("started", rematch=rematch))

    def rematch(self, config: Mapping[str, Any] | None = None) -> None:
        """The same game again with the same players, freshly dealt (the finished game is archived): the same set-up,
        or `config`, the screen's for it (a Watson & Holmes case is not dealt twice: GameHost.rematch). A set-up the
        game refuses raises, and the finished game is left as it was."""
        session = self._need()
        game_id, before = session.game.id, dict(session.journal.header.get("config", {}))
        config = dict(config) if config is not None else before
        if config != before:
            tablet.check(game_id, config)
            session.engine.setup(config, session.game.pack, 0)  # refused here, before anything ends
        self.end(later=True, rematch=True)
        self.start(game_id, config, rematch=True)

    def resume(self) -> ResumeReport | None:
        """Back into the unfinished game in the journal after a restart or a power cut; None when there is none."""
        if self._session is not None:
            self.close()
        resumed = Session.resume(self.library, self.journal_dir, clock=self.clock, notices=self.notices)
        if resumed is None:
            return None
        session, report = resumed
        self._session = session
        self._pace = None
        if not self.played:  # a restart that kept no list: what is known of tonight is the game it resumes
            self._played(session.game.id, session.journal.header.get("config", {}))
        session.subscribe(self._on_session)
        log.info("resumed %s: %d actions replayed, %d dropped", session.game.id, report.replayed, report.dropped)
        self._publish(Change("resumed"))
        return report

    def end(self, later: bool = True, rematch: bool = False) -> None:
        """Close the game (finished or abandoned) and archive its journal (`later`: on the journal's worker);
        `rematch`: the same players play again at once (Change("ended", rematch=True): the phones stay)."""
        self._let_go(lambda session: session.end(later=later), Change("ended", rematch=rematch))

    def close(self) -> None:
        """Let the game go without ending it (the app stops, an error is recovered from): it resumes next time."""
        self._let_go(lambda session: session.close(), Change("closed"))

    def _let_go(self, finish: Callable[[Session], None], change: Change) -> None:
        """The open game leaves the table (`finish` ends or closes it); subscribers hear `change` even if it fails."""
        session = self._session
        if session is None:
            return
        session.unsubscribe(self._on_session)
        self._session = None
        self._pace = None
        try:
            finish(session)
        finally:
            self._publish(change)

    def load_played(self) -> None:
        """Tonight's games as kept in the journal's folder (at start-up, or when the table gets another folder)."""
        self.played = tonight.load(self.journal_dir, self.clock())

    def _played(self, game_id: str, config: Mapping[str, Any]) -> None:
        self.played.append((game_id, dict(config)))
        tonight.save(self.journal_dir, self.played, self.clock())

    def turnover(self) -> None:
        """The guests left: archive whatever is open (kept for statistics, never shown again). Never raises: what
        it could not do is logged (and staff told), and the journal is archived by the next game's start."""
        self.played.clear()
        tonight.save(self.journal_dir, self.played, self.clock())
        if self._session is not None:
            try:
                self.end(later=False)
            except Exception:
                log.exception("could not close the session cleanly")
        else:
            session_turnover(self.journal_dir, self.notices)

    # ------------------------------------------------------------ acting
    def pace(self, pacer: Pacer | None) -> None:
        """The game screen's pacing for this game (see the module's docstring); cleared with the game."""
        self._pace = pacer

    def held_back(self, action: Action) -> str:
        """Why `action` waits for a step of the table's own ("" when it does not); screens grey with it."""
        if self._pace is None:
            return ""
        try:
            return self._pace(action)
        except Exception:
            log.exception("the pacing check failed")
            return ""

    def needs_confirmation(self, action: Action) -> bool:
        return bool(type(action).FINAL)

    def act(self, action: Action, channel: Channel, confirmed: bool = False) -> Step[Any]:
        """Apply `action` from `channel`: the table's rules (module docstring), then the engine, the journal, and
        every subscriber. Raises a RuleError when refused; nothing changed then."""
        self.acts += 1
        session = self._session
        if session is None:
            raise TableRefusal("no_game")
        cls = type(action)
        seat = getattr(action, "seat", None)
        if channel.private and seat != channel.seat:
            raise TableRefusal("not_your_seat")
        if channel.kind not in ("bot", "staff", "clock") and seat is not None and seat in self.tablet:
            raise TableRefusal("tablet_seat")  # the tablet's seat moves by its bot only (staff may unstick it)
        if cls.PRIVATE and not channel.private and channel.kind != "clock" and not self._offered(session, action):
            raise TableRefusal("private_channel")
        if cls.FINAL and not confirmed and channel.kind not in ("clock", "bot"):
            raise TableRefusal("confirm_first")
        why = self.held_back(action) if channel.kind not in ("staff", "clock") else ""  # staff may go ahead
        if why:
            raise TableRefusal("held_back", why=why)
        return session.dispatch(action, channel)

    @staticmethod
    def _offered(session: Session, action: Action) -> bool:
        """The engine offers this PRIVATE action on the shared screen now (not as a claim): nothing secret decides
        it here (Clue's show and pass in physical mode for a seat without a recorded hand). Offers are made from
        public facts only (the engines' conformance test swaps every hidden fact), so asking tells nothing."""
        seat = getattr(action, "seat", None)
        return any(o.seat == seat and o.action == action.NAME and not o.private
                   for o in session.engine.table_offers(session.state))

    def tick(self) -> Step[Any] | None:
        """Fire the earliest due deadline (see Session.tick); the clock's channel."""
        session = self._session
        return session.tick(CLOCK) if session is not None else None

    def undo_needs_staff(self, count: int = 1) -> bool:
        return self._session is not None and self._session.undo_needs_staff(count)

    def undo(self, count: int = 1, staff: bool = False) -> bool:
        """Take back the last `count` player actions; raises UndoLocked when it needs staff (see Session.undo)."""
        session = self._session
        return session.undo(count, staff=staff) if session is not None else False

    # ------------------------------------------------------------ tablet seats (table/seats.py)
    @property
    def tablet(self) -> dict[int, str]:
        """The seats the tablet plays: seat -> level (from the journaled config; empty without a game)."""
        if self._session is None:
            return {}
        return tablet.tablet_seats(self._session.journal.header.get("config", {}))

    def tablet_due(self) -> int | None:
        """The tablet seat that must act now (the lowest when several may), else None. The kiosk asks after
        every change and plays it after a pause (`play_tablet`)."""
        session = self._session
        seats = self.tablet
        if session is None or not seats or session.outcome is not None:
            return None
        due = sorted(s for s in session.engine.to_move(session.state) if s in seats and session.legal(s))
        return due[0] if due else None

    def play_tablet(self, seat: int) -> Step[Any]:
        """The tablet seat's bot decides and acts through `act(action, bot(seat))`. The bot is handed that seat's
        view, its legal actions and a stream from the journal's seed, the seat and the action count: nothing
        else. Raises a RuleError when the seat is not the tablet's or has nothing to do."""
        session = self._need()
        level = self.tablet.get(seat)
        legal = session.legal(seat) if level is not None else []
        allows = self.tablet_allows
        if allows is not None:  # what the physical table allows (engines.bots.decide's `allowed`): never to none
            legal = [a for a in legal if allows(a)] or legal
        if level is None or not legal or session.outcome is not None:
            raise TableRefusal("not_your_seat")
        action = tablet.ask(self.find_bot(session.game.id, level), session.engine.observe(session.state, seat),
                            legal, int(session.journal.header["seed"]), seat, session.count)
        self.tablet_move = (seat, action)  # what subscribers of its step may tell the table (the kiosk's words)
        return self.act(action, bot(seat), confirmed=True)

    def view_before(self, seat: int, name: str) -> tuple[Any, bool]:
        """`seat`'s typed view just before its last action called `name` (e.g. a tablet seat's accusation: the
        result screen shows what it knew then), replayed from the journal, and True; its view now and False when
        it never did."""
        session = self._need()
        engine, header = session.engine, session.journal.header
        actions = session.journal.actions()
        last = max((i for i, a in enumerate(actions) if a.get("seat") == seat and a.get("name") == name),
                   default=None)
        if last is None:
            return engine.observe(session.state, seat), False
        state = engine.setup(header["config"], session.game.pack, int(header["seed"]))
        for data in actions[:last]:
            state = engine.apply(state, engine.action_from_dict(data)).state
        return engine.observe(state, seat), True

    def guest_undo_count(self) -> int:
        """How many player actions a guest's undo takes back: the last guest action and the tablet seats'
        moves that followed it (0: no guest action to take back)."""
        if self._session is None:
            return 0
        seats, count = self.tablet, 0
        for data in reversed(self._session.journal.actions()):
            seat = data.get("seat")
            if seat == CHANCE:
                continue
            count += 1
            if seat not in seats:
                return count
        return 0

    # ------------------------------------------------------------ reading
    @property
    def game(self) -> Game:
        return self._need().game

    @property
    def engine(self) -> Engine[Any]:
        return self._need().engine

    @property
    def state(self) -> Any:
        return self._need().state

    @property
    def count(self) -> int:
        """Effective actions applied (changes with every step and undo)."""
        return self._session.count if self._session is not None else 0

    @property
    def journal(self) -> Journal:
        """The game's journal, to read (staff statistics, tests); writing it is the session's."""
        return self._need().journal

    @property
    def header(self) -> Mapping[str, Any]:
        """The game's journal header (game, engine, config, started_at; its seed is not for frontends)."""
        return self._need().journal.header

    @property
    def outcome(self) -> Outcome | None:
        return self._session.outcome if self._session is not None else None

    def observe(self, seat: int | None) -> View:
        """What `seat` may see now, typed (a game's typed part: `observe(seat).part(ItsView)`)."""
        return self._need().observe(seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        """`observe`'s JSON."""
        return self._need().view(seat)

    def legal(self, seat: int) -> list[Action]:
        return self._need().legal(seat)

    def check(self) -> None:
        """Raise a failure of the journal's thread here (the UI thread checks as it ticks)."""
        if self._session is not None:
            self._session.journal.check()

    def _need(self) -> Session:
        if self._session is None:
            raise TableRefusal("no_game")
        return self._session

    # ------------------------------------------------------------ following
    def subscribe(self, fn: Listener) -> None:
        if fn not in self._listeners:
            self._listeners.append(fn)

    def unsubscribe(self, fn: Listener) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)

    def _on_session(self, _session: Session, step: Step[Any] | None, channel: Any = None) -> None:
        self._publish(Change("undo") if step is None else Change("step", step, channel))

    def _publish(self, change: Change) -> None:
        for fn in list(self._listeners):
            try:
                fn(self, change)
            except Exception:  # a broken listener must not lose the game
                log.exception("table listener failed")


__all__ = ["CLOCK", "STAFF", "TOUCH", "VOICE", "Change", "Channel", "Table", "TableRefusal", "UndoLocked", "bot",
           "handover", "phone"]
