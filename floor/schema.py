"""Strict schemas for every payload on the floor's topics. A tablet is trusted with its own topics only, so what
it sends is checked field by field before the floor keeps it: a payload that does not fit is dropped (the
board counts it), never half-used. Each check returns the payload itself when it fits, else None.

Kinds: `status`, `online`, `content` (retained, from a tablet), `event` (game_started, game_ended, call,
teach, voice, staff), `ack` (retained, from the floor)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

REASONS = ("rules", "new_game", "order", "problem")
CONTENT_STATES = ("waiting", "applied", "refused")
ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
GAME = re.compile(r"[a-z0-9_]{1,40}")
HASH = re.compile(r"[0-9a-f]{0,64}")
MAX_NAME = 64  # a player's name
MAX_TEXT = 4000  # a content refusal's message
MAX_CALLS = 20  # open calls in one status
MAX_SECONDS = 7 * 24 * 3600.0
# what a retained payload on a tablet's topics may weigh (bytes); anything heavier is cleared by the floor
MAX_BYTES = {"status": 8 * 1024, "online": 256, "content": 8 * 1024, "event": 8 * 1024}

Check = Callable[[Any], bool]


def _num(lo: float = 0.0, hi: float = MAX_SECONDS) -> Check:
    return lambda v: (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                      and lo <= v <= hi)


def _int(lo: int = 0, hi: int = 10_000) -> Check:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _str(pattern: re.Pattern[str] | None = None, most: int = MAX_NAME) -> Check:
    return lambda v: (isinstance(v, str) and len(v) <= most
                      and (pattern is None or pattern.fullmatch(v) is not None))


def _one_of(*values: str) -> Check:
    return lambda v: isinstance(v, str) and v in values


def _opt(check: Check) -> Check:
    return lambda v: v is None or check(v)


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _list(check: Check, most: int) -> Check:
    return lambda v: isinstance(v, list) and len(v) <= most and all(check(x) for x in v)


def _obj(fields: Mapping[str, Check]) -> Check:
    """A dict with exactly these keys, each passing its check."""
    return lambda v: isinstance(v, dict) and set(v) == set(fields) and all(c(v[k]) for k, c in fields.items())


AT = _num(0.0, 1e11)  # a Unix time
CALL = _obj({"id": _str(ID), "reason": _one_of(*REASONS), "at": AT})
SCORE = _obj({"name": _str(), "score": _num(-1e9, 1e9)})

STATUS = {"table": _str(ID), "at": AT, "game": _opt(_str(GAME)), "phase": _str(most=40),
          "players": _int(0, 100), "seated_s": _opt(_num()), "game_s": _opt(_num()),
          "calls": _list(CALL, MAX_CALLS), "needs_staff": _bool, "content": _str(HASH),
          "dropped": _int(0, 10**9)}
EVENT_BASE = {"id": _str(ID), "kind": _str(GAME), "table": _str(ID), "at": AT}
EVENTS: dict[str, dict[str, Check]] = {
    "game_started": {"game": _str(GAME), "players": _int(0, 100)},
    "game_ended": {"game": _str(GAME), "finished": _bool, "reason": _str(most=40), "minutes": _num(0, 24 * 60.0),
                   "winners": _list(_str(), 100), "scores": _list(SCORE, 100)},
    "call": {"call": CALL, "game": _opt(_str(GAME))},
    "teach": {"game": _str(GAME), "minutes": _num(0, 24 * 60.0)},
    "voice": {"game": _str(GAME), "commands": _int(1, 100_000)},
    "staff": {},  # staff entered their PIN on this tablet: the floor page's address locks are lifted
}
ONLINE = _obj({"online": _bool})
CONTENT = _obj({"hash": _str(HASH), "state": _one_of(*CONTENT_STATES), "message": _str(most=MAX_TEXT)})
ACK = _obj({"acked": _list(_str(ID), 1000), "at": AT})


def status(data: Any, table: str) -> dict[str, Any] | None:
    ok = _obj(STATUS)(data) and data["table"] == table and data["needs_staff"] == bool(data["calls"])
    return data if ok else None


def event(data: Any, table: str | None = None) -> dict[str, Any] | None:
    """An event of a known kind with exactly its fields; `table`, when given, must be the sender's."""
    if not isinstance(data, dict) or data.get("kind") not in EVENTS:
        return None
    ok = _obj({**EVENT_BASE, **EVENTS[data["kind"]]})(data) and (table is None or data["table"] == table)
    return data if ok else None


def online(data: Any) -> dict[str, Any] | None:
    return data if ONLINE(data) else None


def content(data: Any) -> dict[str, Any] | None:
    return data if CONTENT(data) else None


def ack(data: Any) -> dict[str, Any] | None:
    return data if ACK(data) else None
