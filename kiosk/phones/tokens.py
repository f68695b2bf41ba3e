"""Per-seat passes for the phones: an unguessable token (in the QR code), a short code to type, and the
device bound to the seat.

- Tokens are `secrets.token_urlsafe` (144 bits); short codes are 8 characters from an alphabet without
  look-alikes (40 bits), grouped "ABCD-EFGH". Both are checked in constant time against every seat
  (`hmac.compare_digest`), so neither the answer nor its timing tells which seat, or whether one was close.
- One device per seat at a time: the first device to join gets a device key (kept by its browser); the
  same device rejoins with the same token after a sleep or a reload, another device is refused until the
  host reissues the seat's code.
- Passes belong to one game (`game_id`); `clear()` kills them all when the game ends.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L
CODE_LEN = 8


def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LEN))


def format_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def normalize_code(text: str) -> str:
    """What a guest typed → the stored form (case, spaces and dashes ignored; O→0-free alphabet)."""
    cleaned = "".join(ch for ch in text.upper() if ch.isalnum())
    return cleaned


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))


@dataclass
class SeatPass:
    seat: int
    token: str
    code: str
    device: str = ""  # the device key of the phone holding the seat ("" until one joins)
    issued: int = 1  # how many times this seat's code was issued in this game


class SeatTokens:
    """The passes of one game. Not thread-safe by itself: the hub holds its lock around every call."""

    def __init__(self) -> None:
        self.game_id = ""
        self.passes: dict[int, SeatPass] = {}

    def start(self, game_id: str, seats: tuple[int, ...]) -> None:
        self.game_id = game_id
        self.passes = {seat: SeatPass(seat, new_token(), new_code()) for seat in seats}

    def clear(self) -> None:
        self.game_id = ""
        self.passes = {}

    def reissue(self, seat: int) -> SeatPass:
        old = self.passes.get(seat)
        self.passes[seat] = SeatPass(seat, new_token(), new_code(), issued=(old.issued + 1 if old else 1))
        return self.passes[seat]

    def revoke(self, seat: int) -> None:
        self.passes.pop(seat, None)

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose token this is; every seat is compared, in constant time each."""
        found: int | None = None
        for seat, p in self.passes.items():
            if _same(p.token, token) and found is None:
                found = seat
        return found

    def seat_of_code(self, code: str) -> int | None:
        typed = normalize_code(code)
        found: int | None = None
        for seat, p in self.passes.items():
            if _same(p.code, typed) and found is None:
                found = seat
        return found

    def bind(self, seat: int, device: str) -> str | None:
        """Bind the seat to a device, or confirm the same device; None if another device holds it.
        Returns the device key to keep (a new one for a first join)."""
        p = self.passes[seat]
        if not p.device:
            p.device = secrets.token_urlsafe(18)
            return p.device
        if device and _same(p.device, device):
            return p.device
        return None
