"""What a table tells the floor, built only from the table view (`view(state, None)`) and the outcome: never
from a seat's view or the state, so nothing secret can reach the broker.

`TableReporter` turns the kiosk's session (or none) into the retained status and the events (game started
and ended with the scores the table sees, staff calls, teaching sessions, voice use). It keeps its own small
state file (open calls, the game it reported, when the table was seated), so a kiosk restart neither loses a
call nor reports a resumed game twice."""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from floor import topics

log = logging.getLogger(__name__)
REASONS = ("rules", "new_game", "order", "problem")
Publish = Callable[..., None]  # (topic, payload, retain=False, key="")


def players_of(view: Mapping[str, Any]) -> list[str]:
    """Player names, from the view's shared part (engines/core.py View)."""
    return [str(p["name"]) for p in view["common"]["players"]]


def phase_of(view: Mapping[str, Any]) -> str:
    """The phase code, from the view's shared part."""
    return str(view["common"]["phase"])


def game_key(session: Any) -> str:
    header = session.journal.header
    return f"{header.get('game')}:{header.get('seed')}:{header.get('started_at')}"


class TableReporter:
    def __init__(self, table: str, publish: Publish, state_path: Path, clock: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.table = table
        self.publish = publish
        self.state_path = state_path
        self.clock = clock
        self.monotonic = monotonic
        self.calls: list[dict[str, Any]] = []  # open calls, oldest first
        self.acked: list[dict[str, Any]] = []  # acknowledged calls not yet shown on the tablet
        self.game: dict[str, Any] | None = None  # {key, id, started, ended}
        self.seated_since: float | None = None
        self.content = ""  # the floor content the tablet runs (manifest hash), "" for none
        self.dropped: Callable[[], int] = lambda: 0  # messages the outbox dropped, ever (TableFloor sets it)
        self._last_status: dict[str, Any] | None = None
        self._session: Any = None  # the session last observed (the status describes it)
        self._key: str | None = None
        self._load()

    # ------------------------------------------------------------ state file
    def _load(self) -> None:
        try:
            data = json.loads(self.state_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.error("floor state %s unreadable (%s); starting empty", self.state_path, exc)
            return
        self.calls = [c for c in data.get("calls", []) if isinstance(c, dict) and "id" in c]
        self.game = data.get("game") if isinstance(data.get("game"), dict) else None
        since = data.get("seated_since")
        self.seated_since = float(since) if isinstance(since, (int, float)) else None
        self.content = str(data.get("content", ""))

    def _save(self) -> None:
        data = {"calls": self.calls, "game": self.game, "seated_since": self.seated_since, "content": self.content}
        self.state_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.state_path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.state_path)

    # ------------------------------------------------------------ events
    def _event(self, kind: str, **data: Any) -> dict[str, Any]:
        payload = {"id": uuid.uuid4().hex, "kind": kind, "table": self.table, "at": round(self.clock(), 3), **data}
        self.publish(topics.event(self.table), payload)
        return payload

    def seated(self) -> None:
        """Guests left the attract screen (a new table starts counting)."""
        if self.seated_since is None:
            self.seated_since = self.clock()
            self._save()
            self.send_status()

    def left(self) -> None:
        """Table turnover: the game (if any) was closed; the table is free."""
        if self.seated_since is not None:
            self.seated_since = None
            self._save()
        self.send_status()

    def observe(self, session: Any) -> None:
        """Call after anything may have changed at the table (`session`: the running table with a game open, or
        None; the kiosk calls it when the table changed, headless tables per step). One table object plays game
        after game, so the game is told apart by its journal's header, not by the object."""
        if session is not self._session or self._key is None or session is not None:
            self._key = game_key(session) if session is not None else None
        self._session = session
        key = self._key
        current = self.game
        if current is not None and current.get("key") != key:
            if not current.get("ended"):
                self._event("game_ended", game=current["id"], finished=False, reason="abandoned",
                            minutes=self._minutes(current), winners=[], scores=[])
            self.game = current = None
            self._save()
        if session is not None and current is None:
            if self.seated_since is None:
                self.seated_since = self.clock()
            header = session.journal.header
            self.game = current = {"key": key, "id": str(header.get("game")),
                                   "started": float(header.get("started_at") or self.clock()), "ended": False}
            self._event("game_started", game=current["id"], players=len(players_of(session.view(None))))
            self._save()
        if session is not None and current is not None and not current.get("ended"):
            outcome = session.outcome
            if outcome is not None:
                current["ended"] = True
                view = session.view(None)
                names = players_of(view)
                self._event("game_ended", game=current["id"], finished=True, reason=str(outcome.reason),
                            minutes=self._minutes(current), winners=[_name(names, s) for s in outcome.winners],
                            scores=[{"name": _name(names, int(s)), "score": v} for s, v in outcome.scores.items()])
                self._save()
        self.send_status()

    def _minutes(self, game: Mapping[str, Any]) -> float:
        return round(max(0.0, self.clock() - float(game.get("started", self.clock()))) / 60.0, 1)

    def set_content(self, digest: str) -> None:
        """The floor content this tablet now runs (its manifest hash), kept and shown in the status."""
        self.content = digest
        self._save()
        self.send_status()

    def note_teach(self, game: str, minutes: float) -> None:
        self._event("teach", game=game, minutes=round(minutes, 1))

    def note_staff(self) -> None:
        """Staff entered their PIN on this tablet (it lifts the floor page's PIN locks)."""
        self._event("staff")

    def note_voice(self, game: str, commands: int) -> None:
        if commands > 0:
            self._event("voice", game=game, commands=commands)

    # ------------------------------------------------------------ staff calls
    def call(self, reason: str) -> dict[str, Any]:
        """A guest calls staff. Kept (state file) until the floor acknowledges it."""
        if reason not in REASONS:
            raise ValueError(f"unknown call reason {reason!r}")
        call = {"id": uuid.uuid4().hex[:12], "reason": reason, "at": round(self.clock(), 3)}
        self.calls.append(call)
        self._save()
        self._event("call", call=call, game=self.game["id"] if self.game else None)
        self.send_status()
        return call

    def handle_ack(self, payload: Any) -> list[dict[str, Any]]:
        """The floor's retained ack ({"acked": [ids]}): the calls it names are closed; returns those."""
        ids = payload.get("acked") if isinstance(payload, Mapping) else None
        if not isinstance(ids, list):
            return []
        closed = [c for c in self.calls if c["id"] in ids]
        if closed:
            self.calls = [c for c in self.calls if c["id"] not in ids]
            self._save()
            self.send_status()
        return closed

    # ------------------------------------------------------------ status
    def status(self) -> dict[str, Any]:
        session, now = self._session, self.clock()
        out: dict[str, Any] = {"table": self.table, "at": round(now, 3), "game": None, "phase": "", "players": 0,
                               "seated_s": round(now - self.seated_since) if self.seated_since else None,
                               "game_s": None, "calls": list(self.calls), "needs_staff": bool(self.calls),
                               "content": self.content, "dropped": self.dropped()}
        if session is not None and self.game is not None:
            view = session.view(None)
            out.update(game=self.game["id"], players=len(players_of(view)),
                       phase="over" if session.outcome is not None else phase_of(view),
                       game_s=round(now - float(self.game["started"])))
        return out

    def send_status(self, force: bool = False) -> None:
        """Publish the retained status when it changed (durations aside), or always with `force`."""
        status = self.status()
        same = self._last_status is not None and _comparable(self._last_status) == _comparable(status)
        if same and not force:
            return
        self._last_status = status
        self.publish(topics.status(self.table), status, retain=True, key="status")


def _comparable(status: Mapping[str, Any]) -> dict[str, Any]:
    """What makes a status worth sending: all but the moving clocks (yet a table seated or freed counts)."""
    out = {k: v for k, v in status.items() if k not in ("at", "seated_s", "game_s")}
    out["seated"] = status.get("seated_s") is not None
    return out


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"
