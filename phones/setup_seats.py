"""The hub's phones at set-up (lobby.py's `Lobby`), mixed into `PhoneHub` (phones/channel.py): each seat of the
tablet's set-up form gets a pass, a phone may join and type its player's name, and when the game starts each pass
and phone move to its player's seat in the game (`_seat_lobby_locked`, called by the hub's `_attach`)."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from phones.admit import Ask, Conn
from phones.lobby import Lobby, clean_name
from phones.tokens import SeatPass, SeatTokens


class SetUpSeats:
    """Set-up seats of `PhoneHub` (its lock, passes, connections and catalogs are the hub's)."""

    _lock: threading.RLock
    tokens: SeatTokens
    _conns: dict[int, Conn]
    lobby: Lobby
    table: Any
    seats: tuple[int, ...]

    if TYPE_CHECKING:  # the hub's (and its door's, admit.py), used here
        def error_message(self, code: str) -> dict[str, Any]: ...
        def bye_message(self, code: str) -> dict[str, Any]: ...
        def _changed(self) -> None: ...
        def _drop(self, seat: int, why: str) -> None: ...
        def _player_names(self) -> list[str]: ...
        def _turn_away(self, which: Callable[[Ask], bool], why: str) -> None: ...
        def _move_asks(self, where: Mapping[int, int | None]) -> None: ...

    def open_setup(self, game: str, names: list[str]) -> None:
        """The tablet shows a set-up form with `names` (seat by seat): each seat gets a pass now, and a
        phone may join and type its player's name. Called again as the form changes (seats come and go)."""
        with self._lock:
            if self.table is not None:
                return
            if not self.lobby.open or self.lobby.game != game:
                self._close_setup_locked()
                self.lobby.start(game, names)
                self.tokens.start(secrets.token_hex(8), tuple(range(len(names))))
            elif names != self.lobby.names:
                self.lobby.names = list(names)
                for seat in range(len(names)):
                    if seat not in self.tokens.passes:
                        self.tokens.reissue(seat)
                for seat in [s for s in self.tokens.passes if s >= len(names)]:
                    self._drop(seat, "revoked")
                    self.tokens.revoke(seat)
                for seat, conn in self._conns.items():
                    conn.send(self.lobby.message(seat))
            else:
                return
            self.seats = tuple(range(len(names)))
        self._changed()

    def close_setup(self) -> None:
        """The set-up form went away without a game: its passes die, its phones are told."""
        with self._lock:
            if self.table is not None or not self.lobby.open:
                return
            self._close_setup_locked()
        self._changed()

    def _close_setup_locked(self) -> None:
        if not self.lobby.open:
            return
        self._turn_away(lambda a: True, "ended")
        for conn in list(self._conns.values()):
            conn.close(self.bye_message("ended"))
        self._conns.clear()
        self.tokens.clear()
        self.lobby.close()
        self.seats = ()

    def _seat_lobby_locked(self) -> None:
        """The game starts: each set-up seat's pass and phone move to its player's seat in the game."""
        players = self._player_names()
        old_passes, old_conns = self.tokens.passes, self._conns
        self.tokens.start(self.tokens.game_id or secrets.token_hex(8), self.seats)
        self._conns = {}
        taken = set()
        where: dict[int, int | None] = {}
        for seat, p in sorted(old_passes.items()):
            target = self.lobby.seat_in_game(seat, players)
            conn = old_conns.get(seat)
            if target is None or target in taken or target not in self.tokens.passes:
                where[seat] = None
                if conn is not None:
                    conn.seat = None
                    conn.close(self.bye_message("revoked"))
                continue
            taken.add(target)
            where[seat] = target
            self.tokens.passes[target] = SeatPass(target, p.token, p.code, p.device, p.issued)
            if conn is not None:
                conn.seat = target
                self._conns[target] = conn
        self._move_asks(where)
        self.lobby.close()

    def setup_typed(self) -> dict[int, str]:
        """Names typed on phones since the tablet last asked (the tablet writes them into its form)."""
        with self._lock:
            typed, self.lobby.typed = self.lobby.typed, {}
            return typed

    def name_from_phone(self, conn: Conn, text: Any) -> dict[str, Any]:
        """A phone at set-up types its player's name: the tablet's form shows it."""
        with self._lock:
            seat = conn.seat
            if seat is None or self._conns.get(seat) is not conn:
                return self.error_message("not_joined")
            if self.table is not None or not self.lobby.open:
                return self.error_message("game_changed")
            name = clean_name(text)
            if not name:
                return self.error_message("bad_input")
            if 0 <= seat < len(self.lobby.names):
                self.lobby.names[seat] = name
            self.lobby.typed[seat] = name
            conn.send(self.lobby.message(seat))
        self._changed()
        return {"t": "done", "action": "name"}
