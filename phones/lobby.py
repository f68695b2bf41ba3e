"""Phones at set-up (issue 15): before a game starts, each seat of the set-up form can get its pass (the
same QR code or short code as in a game), and the player types their own name on their phone's keyboard;
the tablet's form shows it. When the game starts, the passes and the phones stay with their players.

The hub holds one `Lobby`; it is open only while the tablet shows a set-up form with the phones' list
open on it (`PhoneHub.open_setup`) and closes when the game starts or the form goes away.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

MAX_NAME = 12  # characters: fits a seat button on the tablet


def clean_name(text: Any) -> str:
    """A name typed on a phone: printable characters only, spaces folded, at most MAX_NAME."""
    if not isinstance(text, str):
        return ""
    kept = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in unicodedata.normalize("NFC", text))
    return " ".join(kept.split())[:MAX_NAME]


@dataclass
class Lobby:
    open: bool = False
    game: str = ""
    names: list[str] = field(default_factory=list)  # the form's names, seat by seat (as the tablet shows them)
    typed: dict[int, str] = field(default_factory=dict)  # names typed on phones, not yet shown on the tablet

    def start(self, game: str, names: list[str]) -> None:
        self.open, self.game, self.names, self.typed = True, game, list(names), {}

    def close(self) -> None:
        self.open, self.game, self.names, self.typed = False, "", [], {}

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else str(seat + 1)

    def message(self, seat: int) -> dict[str, Any]:
        """What a seat's phone shows at set-up: its name, to change with the phone's own keyboard."""
        return {"t": "setup", "seat": seat, "name": self.name(seat), "max": MAX_NAME, "game": self.game}

    def seat_in_game(self, seat: int, players: list[str]) -> int | None:
        """Where a set-up seat sits once the game starts: the player of the same (distinct) name, else the
        same place when no other set-up seat's name claims it (a name the form changed at start)."""
        name = self.name(seat)
        if name and players.count(name) == 1:
            return players.index(name)
        if seat >= len(players):
            return None
        others = {n for i, n in enumerate(self.names) if i != seat}
        return seat if players[seat] not in others else None
