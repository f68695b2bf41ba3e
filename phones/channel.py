"""PhoneHub: the private channel per seat when the player has a phone.

The kiosk owns one hub. Hooks (see phones/README.md):
- `hub.follow(table)` once: the hub follows the running table (table.Table). A game's start or resume issues
  passes for every seat (a new game new ones; a resumed game its saved ones), each step pushes each seat's view,
  the game's end kills every pass and tells every phone. A phone's input acts through
  `table.act(action, phone(seat), confirmed)` like every other frontend.
- `hub.route(seat, mode, on_done)` from `HostContext.private`: True when the seat's phone took the
  hand-over (the tablet skips its screen; `on_done` runs when a reveal was pushed, or when the phone's
  input was accepted), False to fall back to pass-the-tablet.
- `hub.status()`, `hub.listen(fn)`, `hub.reissue(seat)`, `hub.revoke(seat)`: the tablet's seat list.

Threads: the web server calls `join`/`leave`/`act` from its own thread; `act` hands the dispatch to the
kiosk's main thread through `run_on_main` (Kivy: `Clock.schedule_once`; tests: a direct call) because the
table is not thread-safe. Views are computed from the immutable state snapshot.

Its parts: the door (admit.py: who takes a seat), the set-up seats (setup_seats.py), what a seat's phone is sent
and how its input becomes an action (seat_view.py).
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import itertools
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from engines.core import Action, Engine, RuleError
from phones.admit import Admission, Ask, Conn
from phones.labels import Catalogs, Labeller
from phones.lobby import Lobby
from phones.ratelimit import Limiter
from phones.seat_view import Sent, Snapshot, keep_sent, resolve
from phones.setup_seats import SetUpSeats
from phones.tokens import SeatPass, SeatTokens, format_code
from table.table import phone as phone_channel

log = logging.getLogger(__name__)


class TableLike(Protocol):
    """What the hub needs of the running table (table.Table)."""

    engine: Engine[Any]
    state: Any
    header: Mapping[str, Any]
    playing: bool

    def act(self, action: Action, channel: Any, confirmed: bool = False) -> Any: ...

    def subscribe(self, fn: Callable[..., None]) -> None: ...

    def unsubscribe(self, fn: Callable[..., None]) -> None: ...


def _guest_seats(table: TableLike) -> tuple[int, ...]:
    """The seats a phone may have: every seat but the tablet's own (table/seats.py: their moments are the bot's)."""
    tablet = getattr(table, "tablet", None) or {}
    return tuple(s for s in table.engine.seats(table.state) if s not in tablet)


@dataclass
class SeatStatus:
    seat: int
    name: str
    issued: bool
    connected: bool
    code: str  # "ABCD-EFGH" ("" when revoked)
    # the seat's phone as it is: "tablet" (no phone: pass-the-tablet), "none" (no phone yet), "asking"
    # (a phone waits for the tablet's OK), "connected", "away" (its phone is gone for now: asleep, reloading)
    phone: str = "none"


def _game_key(table: Any) -> str:
    """Identifies one game across restarts: a hash of its journal header (game, config, seed, start time)."""
    header = getattr(table, "header", None)
    if not isinstance(header, Mapping):
        return ""
    return hashlib.sha256(json.dumps(header, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def _direct(fn: Callable[[], None]) -> None:
    fn()


class PhoneHub(Admission, SetUpSeats):
    def __init__(self, run_on_main: Callable[[Callable[[], None]], None] = _direct,
                 catalogs: Catalogs | None = None, clock: Callable[[], float] = time.monotonic,
                 action_burst: float = 6, action_rate: float = 2.0,
                 join_burst: float = 8, join_rate: float = 0.2, store: Path | None = None) -> None:
        self.run_on_main = run_on_main
        # where the seats' messages are built after a step: the server's thread when one runs (set by
        # PhoneServer), so the tablet's main thread only takes a snapshot of the immutable state
        self.offload: Callable[[Callable[[], None]], None] = _direct
        self.cat = catalogs or Catalogs.load()
        self.clock = clock
        self.tokens = SeatTokens()
        self.store = store  # where the running game's passes are kept across a restart (None: memory only)
        self._key = ""
        self.table: TableLike | None = None  # while a game is open at the followed table
        self._held = False  # a game ended for a rematch: its passes and phones wait for the next deal
        self._following: TableLike | None = None
        self.seats: tuple[int, ...] = ()
        self.version = 0
        self._lock = threading.RLock()
        self._conns: dict[int, Conn] = {}
        self._sent: dict[int, Sent] = {}
        self._waiters: dict[int, list[Callable[[], None]]] = {}
        self._listeners: list[Callable[[], None]] = []
        self._labeller: Labeller | None = None
        self.actions = Limiter(action_burst, action_rate, clock)
        self.joins = Limiter(join_burst, join_rate, clock)  # per address only: no one can spend another's
        self.lobby = Lobby()  # phones joining at set-up, before the game starts (lobby.py)
        self._asks: dict[int, Ask] = {}  # phones waiting for the tablet's OK (admit.py)
        self._ask_ids = itertools.count(1)

    # ================================================================ kiosk side (main thread)
    def follow(self, table: TableLike) -> None:
        """Follow the tablet's running table for good: its games' starts, steps and ends reach the phones."""
        with self._lock:
            if self._following is table:
                return
            if self._following is not None:
                self._following.unsubscribe(self._on_table)
            self._following = table
            table.subscribe(self._on_table)
        if table.playing:
            self._attach(table)

    def unfollow(self) -> None:
        """Stop following the table (the hub is being replaced or stopped); its game's passes stay on disk."""
        with self._lock:
            table, self._following = self._following, None
        if table is not None:
            table.unsubscribe(self._on_table)
            self._detach()

    def _on_table(self, table: TableLike, change: Any) -> None:
        kind, again = change.kind, bool(getattr(change, "rematch", False))
        if kind == "started" and again and self._carry(table):
            return
        if kind in ("started", "resumed"):
            self._attach(table)
        elif kind == "ended" and again:
            self._hold()
        elif kind == "ended":
            self.end_game()
        elif kind == "closed":
            self._detach()
        else:
            self.publish()

    def _attach(self, table: TableLike) -> None:
        """A game started or resumed on the tablet. A different game gets new passes for every seat."""
        with self._lock:
            key = _game_key(table)
            if self.table is not None and key == self._key:
                return
            if self.table is not None or self._held:
                self._end_locked("ended")
            self.table = table
            self.seats = _guest_seats(table)
            self._key = key
            restored = bool(self.store and self._key and self.tokens.load(self.store, self._key, self.seats))
            if restored:
                self._close_setup_locked()
            elif self.lobby.open:
                self._seat_lobby_locked()  # the phones that joined at set-up stay with their players
                self._save_locked()
            else:
                self.tokens.start(secrets.token_hex(8), self.seats)
                self._save_locked()
            game = getattr(getattr(table, "game", None), "id", table.engine.name)
            self._labeller = Labeller(self.cat, str(table.engine.name))
            self.game_name = str(game)
            for seat, conn in self._conns.items():  # phones from set-up: their player's name, then the game
                conn.send(self._hello(seat, self.tokens.passes[seat].device))
                conn.send(self._state_message(seat))
        self._changed()

    def _hold(self) -> None:
        """The game ended for a rematch (the same players again, at once): the phones and their passes stay
        for the next deal (`_carry`); until then there is no game to push."""
        with self._lock:
            self._held = self.table is not None
            self.table = None
            self._sent.clear()
            fire = [fn for s in list(self._waiters) for fn in self._waiters.pop(s)]
        for fn in fire:
            self.run_on_main(fn)

    def _carry(self, table: TableLike) -> bool:
        """The rematch started: every seat keeps its pass and its phone, each phone gets the new deal.
        False when there is nothing to carry (no game held, other seats): new passes then."""
        with self._lock:
            held, self._held = self._held, False
            seats = _guest_seats(table)
            if not held or seats != self.seats or not self.tokens.passes:
                self._held = held  # `_attach` ends what is held
                return False
            self.table = table
            self._key = _game_key(table)
            self._labeller = Labeller(self.cat, str(table.engine.name))
            self.game_name = str(getattr(getattr(table, "game", None), "id", table.engine.name))
            self._save_locked()  # the passes now belong to the new game's journal (a restart keeps them)
            for seat, conn in self._conns.items():
                conn.send(self._state_message(seat))
        self._changed()
        return True

    def _detach(self) -> None:
        """The table let its game go without ending it (the kiosk stops, a recovery): the passes stay on disk
        for the resumed game; the phones are told the game paused."""
        with self._lock:
            self._turn_away(lambda a: True, "paused")
            for conn in list(self._conns.values()):
                conn.close(self.bye_message("paused"))
            self._conns.clear()
            self._sent.clear()
            self._waiters.clear()
            self.tokens.clear()
            self._key = ""
            self.table = None
            self._held = False
            self.seats = ()
        self._changed()

    def end_game(self) -> None:
        """The game ended or was abandoned: every pass dies and every phone is told."""
        with self._lock:
            self._end_locked("ended")
        self._changed()

    def _end_locked(self, why: str) -> None:
        self._turn_away(lambda a: True, why)
        for conn in list(self._conns.values()):
            conn.close(self.bye_message(why))
        self._conns.clear()
        self._sent.clear()
        self._waiters.clear()
        self.tokens.clear()
        if self.store is not None:
            self.tokens.forget(self.store)
        self._key = ""
        self.table = None
        self._held = False
        self.seats = ()
        self.lobby.close()

    def publish(self) -> None:
        """Push every connected seat its view and its buttons (after each step of the table)."""
        with self._lock:
            self.version += 1
            if self.table is not None and self._labeller is not None and self._conns:
                snap = Snapshot(self.version, self.table.engine, self.table.state, self._labeller)
                conns = dict(self._conns)
                self.offload(lambda: self._push(snap, conns))
            done = [s for s in self._waiters if self.table is None or not self._legal(s)]
            fire = [fn for s in done for fn in self._waiters.pop(s)]
        for fn in fire:
            self.run_on_main(fn)

    def route(self, seat: int, mode: str = "reveal", on_done: Callable[[], None] | None = None) -> bool:
        """Hand a private moment to the seat's phone if it has one. `reveal`: the phone already shows the
        view; it is nudged and `on_done` runs next. `input`: `on_done` runs once the phone's input is
        accepted (or the seat has nothing left to do, or the phone goes away)."""
        with self._lock:
            conn = self._conns.get(seat)
            if conn is None:
                return False
            conn.send({"t": "nudge", "mode": mode})
            if mode == "input" and self._legal(seat):
                if on_done is not None:
                    self._waiters.setdefault(seat, []).append(on_done)
                return True
        if on_done is not None:
            self.run_on_main(on_done)
        return True

    def connected(self, seat: int) -> bool:
        with self._lock:
            return seat in self._conns

    def everyone_connected(self) -> bool:
        with self._lock:
            return bool(self.seats) and all(s in self._conns for s in self.seats)

    def status(self) -> list[SeatStatus]:
        with self._lock:
            asking = {a.seat for a in self._asks.values()}
            names = self._names()  # the table's view once, not once a seat
            out = []
            for seat in self.seats:
                p = self.tokens.passes.get(seat)
                connected = seat in self._conns
                phone = ("tablet" if p is None else "connected" if connected else "asking" if seat in asking
                         else "away" if p.device else "none")
                out.append(SeatStatus(seat, self._name_of(names, seat), p is not None, connected,
                                      format_code(p.code) if p else "", phone))
            return out

    def seat_passes(self) -> list[tuple[str, str]]:
        """Every live seat's token and its phone's device key ("" before one): the server finds which
        seat's pass made the key that opens a join box (seal.py)."""
        with self._lock:
            return [(p.token, p.device) for p in self.tokens.passes.values()]

    def seat_pass(self, seat: int) -> SeatPass | None:
        with self._lock:
            return self.tokens.passes.get(seat)

    def reissue(self, seat: int) -> SeatPass:
        """A new code for the seat (lost phone, a photographed QR): the old one and its phone are cut off."""
        with self._lock:
            self._drop(seat, "reissued")
            p = self.tokens.reissue(seat)
            self._save_locked()
        self._changed()
        return p

    def revoke(self, seat: int) -> None:
        """The seat goes back to pass-the-tablet: its code dies and its phone is cut off."""
        with self._lock:
            self._drop(seat, "revoked")
            self.tokens.revoke(seat)
            self._save_locked()
        self._changed()

    def listen(self, fn: Callable[[], None]) -> None:
        """`fn` runs on the main thread whenever a phone joins or leaves, or a code changes."""
        self._listeners.append(fn)

    def unlisten(self, fn: Callable[[], None]) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)

    def _save_locked(self) -> None:
        if self.store is None or not self._key:
            return
        self.tokens.save(self.store, self._key)  # written off this thread, in order (tokens.py)

    def _changed(self) -> None:
        for fn in list(self._listeners):
            self.run_on_main(fn)

    def _drop(self, seat: int, why: str) -> None:
        self._turn_away(lambda a: a.seat == seat, why)
        conn = self._conns.pop(seat, None)
        if conn is not None:
            conn.seat = None
            conn.close(self.bye_message(why))
        self._sent.pop(seat, None)
        self._fire_waiters(seat)

    def _fire_waiters(self, seat: int) -> None:
        for fn in self._waiters.pop(seat, []):
            self.run_on_main(fn)

    # ================================================================ server side (web thread)
    def _seat_name(self, seat: int) -> str:
        return self._name_of(self._names(), seat)

    def _names(self) -> list[str]:
        return self._player_names() if self.table is not None else list(self.lobby.names)

    @staticmethod
    def _name_of(names: list[str], seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else str(seat + 1)

    def _hello(self, seat: int, device: str) -> dict[str, Any]:
        return {"t": "hello", "seat": seat, "name": self._seat_name(seat),
                "token": self.tokens.passes[seat].token, "device": device,
                "game": self.game_name if self.table is not None else self.lobby.game}

    def leave(self, conn: Conn) -> None:
        with self._lock:
            seat = conn.seat
            if seat is None or self._conns.get(seat) is not conn:
                if self._forget_ask(conn):
                    self._changed()
                return
            del self._conns[seat]
            self._sent.pop(seat, None)
            self._fire_waiters(seat)
        self._changed()

    def act(self, conn: Conn, message: Mapping[str, Any]) -> concurrent.futures.Future[dict[str, Any]]:
        """An input from a phone: the seat's legal action it picked (`id`, from the buttons of version `v`,
        with `free` text for typed fields) or an action dict (`action`). The dispatch runs on the main
        thread; the future holds the reply for the phone."""
        fut: concurrent.futures.Future[dict[str, Any]] = concurrent.futures.Future()
        with self._lock:
            seat = conn.seat
            table, key = self.table, self._key
            if seat is None or self._conns.get(seat) is not conn or table is None:
                fut.set_result(self.error_message("not_joined"))
                return fut
            if not self.actions.allow(seat):
                fut.set_result(self.error_message("rate_limited"))
                return fut
            try:
                action = resolve(table.engine, self._sent.get(seat, {}), message)
            except RuleError as exc:
                fut.set_result({"t": "error", **exc.to_dict()})
                return fut
            except (KeyError, TypeError, ValueError):
                fut.set_result(self.error_message("bad_input"))
                return fut
            if action.seat != seat:
                fut.set_result(self.error_message("not_your_seat"))
                return fut

        def run() -> None:
            try:
                if self.table is not table or self._key != key:
                    fut.set_result(self.error_message("game_changed"))
                    return
                table.act(action, phone_channel(seat), confirmed=message.get("confirmed") is True)
            except RuleError as exc:
                fut.set_result({"t": "error", **exc.to_dict()})
                return
            except Exception:
                log.exception("a phone's action failed")
                fut.set_result(self.error_message("internal"))
                return
            with self._lock:
                fire = self._waiters.pop(seat, [])
            for fn in fire:
                fn()
            fut.set_result({"t": "done", "action": action.NAME})

        self.run_on_main(run)
        return fut

    # ================================================================ messages
    def _legal(self, seat: int) -> list[Action]:
        if self.table is None:
            return []
        engine, state = self.table.engine, self.table.state
        if engine.outcome(state) is not None:
            return []
        return list(engine.legal_actions(state, seat))

    def _player_names(self) -> list[str]:
        if self.table is None:
            return []
        return [p.name for p in self.table.engine.observe(self.table.state, None).players]

    def state_message(self, seat: int) -> dict[str, Any]:
        with self._lock:
            return self._state_message(seat)

    def _state_message(self, seat: int) -> dict[str, Any]:
        assert self.table is not None and self._labeller is not None
        snap = Snapshot(self.version, self.table.engine, self.table.state, self._labeller)
        message, actions, entries = snap.build(seat)
        keep_sent(self._sent.setdefault(seat, {}), snap.version, actions, entries)
        return message

    def _push(self, snap: Snapshot, conns: dict[int, Conn]) -> None:
        """Build each seat's message from the snapshot (off the main thread when a server runs) and send it
        unless the phone has gone or a newer state was pushed meanwhile."""
        for seat, conn in conns.items():
            message, actions, entries = snap.build(seat)
            with self._lock:
                if self._conns.get(seat) is not conn or self._labeller is not snap.labeller:
                    continue
                keep_sent(self._sent.setdefault(seat, {}), snap.version, actions, entries)
                conn.send(message)

    def error_message(self, code: str) -> dict[str, Any]:
        text = self.cat.text(f"phones.error.{code}", default=code)
        return {"t": "error", "code": code, "ko": text["ko"], "en": text["en"]}

    def bye_message(self, code: str) -> dict[str, Any]:
        text = self.cat.text(f"phones.bye.{code}", default=code)
        return {"t": "bye", "code": code, "ko": text["ko"], "en": text["en"]}

