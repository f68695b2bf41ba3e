"""The current game: dispatch(action) → engine → journal → listeners (screens, narrator, voice grammar).

Chance steps are drawn with a session RNG derived from the journal seed and journaled like any action,
so a restart replays the journal without an RNG or a clock. Undo is a journal record too.

The seed comes from the operating system (`secrets`, SEED_BITS bits) and is kept only in the journal's
header: no view, event or phone message carries it. Engines draw the public layout and each secret deal
from separate streams (`engines.core.seeded_rng(seed, purpose)`, the whole seed hashed with the purpose),
so knowing one never narrows the other without searching 2^SEED_BITS seeds.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import sqlite3
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from content.loader import Game, Library
from engines import find_engine
from engines.core import CHANCE, Action, Engine, Outcome, Step, View, stamp
from table.journal import DAMAGED, Journal, archive, close_into, move_aside, open_journal, replace
from table.notices import Notice, add
from table.storage import journal_problem, renew_journal_folder

log = logging.getLogger(__name__)
CURRENT = "current.sqlite"
SEED_BITS = 128


# Ended games' journals are closed and archived here, off the UI thread (Session.end(later=True)): the "end" record,
# the checkpoint and the move wait for the disk (50-700 ms of wall time here, more on an SD card). One worker, so
# they run in order; whatever touches the journal folder next waits for them first (settle_endings).
_CLOSER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="journal-close")


def settle_endings() -> None:
    """Wait until every game handed to `Session.end(later=True)` is written and archived."""
    _CLOSER.submit(lambda: None).result()


def _archive(journal: Journal, end: dict[str, Any] | None, label: str) -> None:
    """Append the `end` record (if any), close the journal and move it into the archive; on the worker, nobody to
    raise to: a failure is logged, and the journal resumes or is archived at the next start."""
    try:
        if end is not None:
            journal.append("end", end)
        close_into(journal, journal.path.parent / "archive", label)
    except Exception:
        log.exception("the ended game's journal was not closed cleanly")


def _folder_retry(journal_dir: Path, notices: list[Notice] | None, fn: Callable[[], Any]) -> Any:
    """`fn()`; when it fails because the journal folder takes no write while the data folder does (issue #42: a
    game's start, a resume and a turnover raised every time), the folder is renewed (storage.renew_journal_folder:
    renamed aside, a fresh one with the current game) and `fn` runs once more. Anything else is raised as it is (a
    read-only data folder: the kiosk's storage fallback)."""
    try:
        return fn()
    except (OSError, sqlite3.OperationalError) as exc:
        if not journal_problem(journal_dir) or renew_journal_folder(journal_dir, notices):
            raise
        log.error("journal folder %s renewed after %r", journal_dir, exc)
    return fn()


def turnover(journal_dir: Path, notices: list[Notice] | None = None) -> None:
    """Staff "new table" (or an idle table) with no game open: archive the journal left at the table. Never raises
    (issue #42: it raised on a damaged journal or a journal folder that takes no write, and the kiosk ended in
    systemd's restart loop); what it could not do is logged, and the journal is archived by the next game's start."""
    try:
        settle_endings()  # a game ended a moment ago may still be archiving
        _folder_retry(journal_dir, notices,
                      lambda: archive(journal_dir / CURRENT, journal_dir / "archive", "turnover", notices))
    except Exception:
        log.exception("the journal at %s was not archived at the turnover", journal_dir)


def new_seed() -> int:
    """A game's seed: SEED_BITS bits from the operating system's random source."""
    return secrets.randbits(SEED_BITS)

Listener = Callable[["Session", Step[Any] | None, Any], None]  # (session, step or None after an undo, channel)


class UndoLocked(Exception):
    """The undo would cross a step that revealed a secret: only staff may take it back."""

    def __init__(self, drop: int) -> None:
        super().__init__(f"undo of {drop} records crosses a revealed secret")
        self.drop = drop


def _secret_set(engine: Engine[Any], state: Any) -> set[tuple[str, str, frozenset[int]]]:
    return {(x.key, json.dumps(x.value, sort_keys=True, default=str), frozenset(x.seen_by))
            for x in engine.secrets(state)}


def reveals(engine: Engine[Any], before: Any, step: Step[Any]) -> bool:
    """Did this step reveal or probe a secret? It ended the game (everything is shown), it delivered a
    private event (a card shown, an envelope seen, an alibi drawn), or a secret of `before` ended or
    changed hands (a card flipped, the Joker revealed, a round scored)."""
    if engine.outcome(before) is None and engine.outcome(step.state) is not None:
        return True
    if any(e.to is not None for e in step.events):
        return True
    return not _secret_set(engine, before) <= _secret_set(engine, step.state)


@dataclass
class ResumeReport:
    replayed: int
    dropped: int  # journal actions that no longer apply (engine or content changed)


class Session:
    def __init__(self, engine: Engine[Any], game: Game, journal: Journal, state: Any,
                 clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.game = game
        self.journal = journal
        self.state = state
        self.clock = clock
        self.count = 0  # effective actions applied
        self._listeners: list[Listener] = []
        self._views_of: Any = None  # the state `_views` were made from
        self._views: dict[int | None, dict[str, Any]] = {}
        self._observed: dict[int | None, View] = {}
        self._legal: dict[int, tuple[Action, ...]] = {}  # per seat, from the same state as `_views`

    # ------------------------------------------------------------ creation
    @classmethod
    def new(cls, library: Library, game_id: str, config: Mapping[str, Any], journal_dir: Path,
            seed: int | None = None, clock: Callable[[], float] = time.time,
            notices: list[Notice] | None = None) -> Session:
        """Start a game; an unfinished previous journal is archived first (a damaged one moved aside, a journal
        folder that takes no write renewed: `notices`)."""
        game = library.games[game_id]
        engine = find_engine(game.engine_name)
        if seed is None:
            seed = new_seed()
        state = engine.setup(config, game.pack, seed)  # raises on a bad config before anything is written
        settle_endings()
        header = {"game": game_id, "engine": engine.name, "version": engine.version,
                  "content_hash": game.content_hash, "config": dict(config), "seed": seed,
                  "started_at": clock()}
        journal = _folder_retry(journal_dir, notices, lambda: replace(journal_dir / CURRENT, journal_dir / "archive",
                                                                      "replaced", header, notices))  # no fsync here
        session = cls(engine, game, journal, state, clock)
        session._run_chance()
        return session

    @classmethod
    def resume(cls, library: Library, journal_dir: Path, clock: Callable[[], float] = time.time,
               notices: list[Notice] | None = None) -> tuple[Session, ResumeReport] | None:
        """Resume the unfinished game in the journal, or None if there is none (or none that can resume:
        what was found and done is added to `notices` for the staff screen)."""
        settle_endings()
        # a damaged journal is repaired or moved aside; a journal folder that takes no write renewed
        journal = _folder_retry(journal_dir, notices, lambda: open_journal(journal_dir / CURRENT, notices))
        if journal is None:
            return None
        header = journal.header
        game = library.games.get(str(header.get("game")))
        if game is None or journal.ended:  # archived on the worker (its fsyncs), as a game's end is
            _CLOSER.submit(_archive, journal, None, "closed")
            if game is None:
                add(notices, "journal_game_missing", game=str(header.get("game")))
            return None
        try:
            engine = find_engine(game.engine_name)
            state = engine.setup(header["config"], game.pack, int(header["seed"]))
        except Exception as exc:  # a header that no longer sets up: keep it for staff, start fresh
            journal.abandon()
            moved = move_aside(journal.path, journal_dir / DAMAGED, "unplayable")
            add(notices, "journal_unplayable", file=f"{DAMAGED}/{moved.name}" if moved else "",
                problem=f"{type(exc).__name__}: {exc}")
            return None
        session = cls(engine, game, journal, state, clock)
        actions = journal.actions()
        replayed = session._replay(actions)
        if replayed < len(actions):
            add(notices, "journal_dropped", kept=replayed, dropped=len(actions) - replayed)
        if header.get("content_hash") != game.content_hash:
            log.warning("content changed since the game started (%s → %s)", header.get("content_hash"),
                        game.content_hash)
        session._run_chance()
        return session, ResumeReport(replayed, len(actions) - replayed)

    def _replay(self, actions: list[dict[str, Any]]) -> int:
        for n, data in enumerate(actions):
            try:
                self.state = self.engine.apply(self.state, self.engine.action_from_dict(data)).state
            except Exception as exc:  # a RuleError (engine or content changed) or a record that is not an action
                log.error("journal action %d no longer applies (%r); resuming before it", n, exc)
                if n < len(actions):
                    self.journal.append("undo", {"count": len(actions) - n,
                                                 "reason": str(getattr(exc, "code", type(exc).__name__))})
                return n
            self.count += 1
        return len(actions)

    # ------------------------------------------------------------ use
    def subscribe(self, fn: Listener) -> None:
        self._listeners.append(fn)

    def unsubscribe(self, fn: Listener) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)

    def dispatch(self, action: Action, channel: Any = None) -> Step[Any]:
        """Apply, journal (in the OS when this returns; on disk a checkpoint later, off this thread: journal.py),
        publish (with the `channel` it came from: table.Table). A RuleError leaves everything unchanged and
        propagates, as does a journal failure (the kiosk's storage fallback takes it)."""
        action = stamp(action, self.clock())
        step = self.engine.apply(self.state, action)
        self.journal.append("action", action.to_dict())
        self.state = step.state
        self.count += 1
        self._publish(step, channel)
        self._run_chance()
        return step

    def _run_chance(self) -> None:
        guard = 0
        while self.outcome is None and CHANCE in self.engine.to_move(self.state):
            rng = random.Random(f"{self.journal.header['seed']}:{self.count}")
            self.dispatch_chance(self.engine.sample_chance(self.state, rng))
            guard += 1
            if guard > 1000:
                raise RuntimeError("chance steps do not end")

    def dispatch_chance(self, action: Action) -> None:
        step = self.engine.apply(self.state, action)
        self.journal.append("action", action.to_dict())
        self.state = step.state
        self.count += 1
        self._publish(step)

    def tick(self, channel: Any = None) -> Step[Any] | None:
        """Fire the earliest of the engine's deadlines once its moment has passed (stamped with now). Raises a
        failure of the journal's thread here, on the UI thread (a game screen ticks every 0.5 s)."""
        self.journal.check()
        if self.outcome is not None:
            return None
        now = self.clock()
        due = [d for d in self.engine.deadlines(self.state) if d.at <= now]
        if not due:
            return None
        return self.dispatch(min(due, key=lambda d: d.at).action, channel)

    def _undo_plan(self, count: int) -> tuple[Any, int, bool, int] | None:
        """The state after taking back the last `count` player actions (and the chance steps that followed
        them), how many records that drops, and whether a dropped step revealed a secret."""
        actions = self.journal.actions()
        drop, seen = 0, 0
        for data in reversed(actions):
            drop += 1
            if data.get("seat") != CHANCE:
                seen += 1
                if seen == count:
                    break
        if not actions or seen < count:
            return None
        keep = len(actions) - drop
        header = self.journal.header
        state = self.engine.setup(header["config"], self.game.pack, int(header["seed"]))
        kept, crossed = state, False
        for n, data in enumerate(actions):
            step = self.engine.apply(state, self.engine.action_from_dict(data))
            if n >= keep and not crossed:
                crossed = reveals(self.engine, state, step)
            state = step.state
            if n + 1 == keep:
                kept = state
        return kept, drop, crossed, keep

    def undo_needs_staff(self, count: int = 1) -> bool:
        """True when the undo would take back a step that revealed or probed a secret (staff PIN needed)."""
        plan = self._undo_plan(count)
        return plan is not None and plan[2]

    def undo(self, count: int = 1, staff: bool = False) -> bool:
        """Take back the last `count` player actions (and the chance steps that followed them). A step that
        revealed a secret is taken back only with `staff` (the kiosk asks for the staff PIN): otherwise
        Undo would turn every reveal into a free probe. Raises UndoLocked then, nothing changed."""
        plan = self._undo_plan(count)
        if plan is None:
            return False
        state, drop, crossed, keep = plan
        if crossed and not staff:
            raise UndoLocked(drop)
        self.journal.append("undo", {"count": drop, **({"staff": True} if crossed else {})})
        self.state = state
        self.count = keep
        self._publish(None)
        return True

    def end(self, later: bool = False) -> None:
        """Close the game (finished or abandoned) and archive its journal; `later`: on the journal worker, the
        session no longer used (a power cut meanwhile: the game resumes as it was, nothing lost)."""
        outcome = self.outcome.to_dict() if self.outcome else None
        if later:
            _CLOSER.submit(self._close, outcome)
        else:
            self._close(outcome)

    def _close(self, outcome: dict[str, Any] | None) -> None:
        _archive(self.journal, {"outcome": outcome}, self.game.id)

    def close(self) -> None:
        self.journal.close()

    # ------------------------------------------------------------ reading
    @property
    def outcome(self) -> Outcome | None:
        return self.engine.outcome(self.state)

    def observe(self, seat: int | None) -> View:
        """The engine's typed view of the current state for `seat` (the same object until the state changes:
        screens ask several times per redraw; states are immutable)."""
        state = self.state
        self._same_state(state)
        view = self._observed.get(seat)
        if view is None:
            view = self._observed[seat] = self.engine.observe(state, seat)
        return view

    def view(self, seat: int | None) -> dict[str, Any]:
        """`observe`'s JSON (`Engine.view`); read-only: the same dict is handed to every caller until the state
        changes."""
        typed = self.observe(seat)  # first: a new state empties both
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = typed.to_dict()
        return view

    def legal(self, seat: int) -> list[Action]:
        """The seat's legal actions now (asked once per state: a screen asks at every redraw, and Clue's are ~360
        actions made anew each time)."""
        state = self.state
        self._same_state(state)
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = tuple(self.engine.legal_actions(state, seat))
        return list(legal)

    def _same_state(self, state: Any) -> None:
        if self._views_of is not state:
            self._views_of, self._views, self._observed, self._legal = state, {}, {}, {}

    def _publish(self, step: Step[Any] | None, channel: Any = None) -> None:
        for fn in list(self._listeners):
            try:
                fn(self, step, channel)
            except Exception:  # a broken listener must not lose the game
                log.exception("session listener failed")
