"""Who may take a seat from a phone (issues 37, 42): the hub's door, mixed into `PhoneHub`.

- A phone the seat already knows (its pass: the seat's token and the device key the seat gave it) comes
  straight back: a reload, a locked screen, a dropped Wi-Fi, a kiosk restart.
- Any other phone — the first to scan a seat's QR code, one that typed the short code, a new phone for
  the seat — waits for the tablet's OK. The tablet asks on the shared screen "is this your phone?" with
  the four digits the phone shows (`seal.number_of`: from the connection's key, so a relay in between
  shows other digits); only the seat's name is on it, never anything of its secret. A QR code is thus good
  for one phone: a photo of it gets the photographer a question on the tablet that the seat's owner
  answers "no". An OK gives the phone a new device key (the seat's old phone, if any, is cut off) and
  turns away the seat's other askers.
- A connection holds one seat, once: a join on a joined (or asking) connection is refused.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from phones.tokens import SeatTokens, same

if TYPE_CHECKING:
    from phones.lobby import Lobby
    from phones.ratelimit import Limiter

MAX_ASKS_PER_SEAT = 2  # a photographed code cannot bury the owner's question under its own


class Conn(Protocol):
    """One phone's connection, as the server gives it to the hub. Both methods are thread-safe."""

    seat: int | None
    remote: str

    def send(self, message: Mapping[str, Any]) -> None: ...

    def close(self, message: Mapping[str, Any]) -> None: ...


@dataclass
class Ask:
    """A phone waiting for the tablet's OK."""

    ident: int
    seat: int
    conn: Conn
    number: str  # the four digits on the phone (and on the tablet)


@dataclass(frozen=True)
class Asking:
    """What the tablet shows of an ask: the seat's (public) name and the phone's digits."""

    ident: int
    seat: int
    name: str
    number: str


class Admission:
    """The door of `PhoneHub` (its lock, passes, connections and catalogs are the hub's)."""

    _lock: threading.RLock
    tokens: SeatTokens
    _conns: dict[int, Conn]
    lobby: Lobby
    joins: Limiter
    table: Any
    _asks: dict[int, Ask]
    _ask_ids: itertools.count[int]

    if TYPE_CHECKING:  # the hub's, used here
        def error_message(self, code: str) -> dict[str, Any]: ...
        def bye_message(self, code: str) -> dict[str, Any]: ...
        def _changed(self) -> None: ...
        def _save_locked(self) -> None: ...
        def _hello(self, seat: int, device: str) -> dict[str, Any]: ...
        def _state_message(self, seat: int) -> dict[str, Any]: ...
        def _seat_name(self, seat: int) -> str: ...

    def join(self, conn: Conn, token: str = "", code: str = "", device: str = "",
             number: str = "") -> dict[str, Any]:
        """A phone presents its seat's token (QR code) with the device key the seat gave it, if any, or a
        typed code; `number` is the four digits of its connection. The reply is sent by the caller: joined
        (the seat's state follows), asking (the tablet is asked), or an error."""
        with self._lock:
            if conn.seat is not None or any(a.conn is conn for a in self._asks.values()):
                return self.error_message("already_joined")
            if not self.joins.ready(conn.remote):
                return self.error_message("rate_limited")
            seat = None
            if isinstance(token, str) and token:
                seat = self.tokens.seat_of_token(token[:64])
            elif isinstance(code, str) and code:
                seat = self.tokens.seat_of_code(code[:32])
            if seat is None:
                self.joins.allow(conn.remote)  # only failures spend the budget
                return self.error_message("bad_token")
            known = self.tokens.passes[seat].device
            if token and device and known and same(known, device):
                self._seat_locked(seat, conn, known)
                reply = {"t": "joined", "seat": seat}
            elif sum(a.seat == seat for a in self._asks.values()) >= MAX_ASKS_PER_SEAT:
                return self.error_message("busy")
            else:
                ask = Ask(next(self._ask_ids), seat, conn, str(number))
                self._asks[ask.ident] = ask
                conn.send({"t": "asking", "seat": seat, "name": self._seat_name(seat)})
                reply = {"t": "asking", "seat": seat}
        self._changed()
        return reply

    def asking(self) -> list[Asking]:
        """The phones waiting for the tablet's OK, oldest first."""
        with self._lock:
            return [Asking(a.ident, a.seat, self._seat_name(a.seat), a.number) for a in self._asks.values()]

    def answer(self, ident: int, ok: bool) -> None:
        """The tablet's answer to "is this your phone?" (an answer to an ask gone meanwhile does nothing)."""
        with self._lock:
            ask = self._asks.pop(ident, None)
            if ask is None:
                return
            if not ok or ask.seat not in self.tokens.passes:
                self.joins.allow(ask.conn.remote)  # a refused phone spends the join budget of its address
                ask.conn.close(self.bye_message("declined"))
            else:
                self._turn_away(lambda a: a.seat == ask.seat, "declined")
                device = self.tokens.new_device(ask.seat)
                self._seat_locked(ask.seat, ask.conn, device)
                self._save_locked()
        self._changed()

    def _seat_locked(self, seat: int, conn: Conn, device: str) -> None:
        """`conn` holds the seat now (the seat's previous connection is told and let go)."""
        old = self._conns.get(seat)
        if old is not None and old is not conn:
            old.seat = None
            old.close(self.bye_message("replaced"))
        conn.seat = seat
        self._conns[seat] = conn
        conn.send(self._hello(seat, device))
        if self.table is not None:
            conn.send(self._state_message(seat))
        elif self.lobby.open:
            conn.send(self.lobby.message(seat))  # (between a game's end and its rematch: the deal follows)

    def _turn_away(self, which: Callable[[Ask], bool], why: str) -> None:
        for ident in [i for i, a in self._asks.items() if which(a)]:
            self._asks.pop(ident).conn.close(self.bye_message(why))

    def _forget_ask(self, conn: Conn) -> bool:
        """The connection went: its question leaves the tablet."""
        idents = [i for i, a in self._asks.items() if a.conn is conn]
        for ident in idents:
            del self._asks[ident]
        return bool(idents)

    def _move_asks(self, where: Mapping[int, int | None]) -> None:
        """Set-up seats became game seats: each ask follows its seat, or is turned away."""
        self._turn_away(lambda a: where.get(a.seat) is None, "declined")
        for a in self._asks.values():
            target = where.get(a.seat)
            if target is not None:
                a.seat = target
