"""Per-seat passes for the phones: an unguessable token (in the QR code), a short code to type, and the
device bound to the seat.

- Tokens are `secrets.token_urlsafe` (256 bits; the seat's sealing key derives from it, seal.py); short codes are 8 characters from an alphabet without
  look-alikes (40 bits), grouped "ABCD-EFGH". Both are checked in constant time against every seat
  (`hmac.compare_digest`), so neither the answer nor its timing tells which seat, or whether one was close.
- One device per seat at a time: the device the tablet let in (admit.py) gets a device key (kept by its
  browser, part of the pass that seals its connections); the same device rejoins with the token and that
  key after a sleep or a reload; another device needs the tablet's OK, which gives it a new key.
- Passes belong to one game (`game_id`); `clear()` kills them all when the game ends.
- `save`/`load` keep the passes of the running game in the kiosk's data folder (owner-only file), so after a
  power cut the resumed game keeps them and every phone reconnects by itself — no rescanning. The file is
  written (fsync'd) by one background writer in call order, the last state winning: the fsync (36 ms seen
  in a game-start frame) stays off the UI thread and out of the hub's lock. A power cut in the few ms
  before a write lands loses only that change (a phone's new device key: it asks the tablet again; a
  reissue: the old code lives on until reissued again). `load` and `flush` (app stop) wait for the writes.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import os
import secrets
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

log = logging.getLogger(__name__)
_WRITER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="phone-passes")  # one thread: call order
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L
CODE_LEN = 8


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits: also the seat's sealing key (seal.seat_key)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LEN))


def format_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def normalize_code(text: str) -> str:
    """What a guest typed → the stored form (case, spaces and dashes ignored; O→0-free alphabet)."""
    cleaned = "".join(ch for ch in text.upper() if ch.isalnum())
    return cleaned


def same(a: str, b: str) -> bool:
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
            if same(p.token, token) and found is None:
                found = seat
        return found

    def seat_of_code(self, code: str) -> int | None:
        typed = normalize_code(code)
        found: int | None = None
        for seat, p in self.passes.items():
            if same(p.code, typed) and found is None:
                found = seat
        return found

    def new_device(self, seat: int) -> str:
        """The seat's phone is a new one (the tablet said so): its device key, the old phone's no longer."""
        p = self.passes[seat]
        p.device = secrets.token_urlsafe(24)
        return p.device

    # ---- persistence (the hub calls these under its lock) ---------------------------------------------
    def save(self, path: Path, key: str) -> None:
        """Write the passes for the game `key` (its journal) as they are now, atomically, readable by the
        kiosk user only: on the writer thread, after every earlier save and forget."""
        data = {"key": key, "game_id": self.game_id, "passes": [asdict(p) for p in self.passes.values()]}
        _WRITER.submit(_write, path, data)

    def load(self, path: Path, key: str, seats: tuple[int, ...]) -> bool:
        """The saved passes of game `key`, if that is the game saved (and its seats match); else False."""
        flush()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("key") != key:
                return False
            passes = {int(p["seat"]): SeatPass(int(p["seat"]), str(p["token"]), str(p["code"]), str(p["device"]),
                                               int(p["issued"])) for p in data["passes"]}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return False
        if not set(passes) <= set(seats):
            return False
        self.game_id = str(data.get("game_id", ""))
        self.passes = passes
        return True

    @staticmethod
    def forget(path: Path) -> None:
        _WRITER.submit(_unlink, path)


def flush() -> None:
    """Wait until every save and forget asked so far is on disk (app stop, load)."""
    _WRITER.submit(lambda: None).result()


def _write(path: Path, data: Mapping[str, object]) -> None:
    try:
        tmp = path.with_suffix(".tmp")
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        log.warning("phone passes not saved (they last until a restart)", exc_info=True)


def _unlink(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()
