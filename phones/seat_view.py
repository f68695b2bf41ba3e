"""What a seat's phone is sent and how its input becomes an action (for the hub, phones/channel.py).

- `Snapshot.build(seat)`: exactly the seat's view, its private part in words, its buttons (phones/labels.py);
  built from an immutable snapshot of the game, so off the tablet's main thread.
- `keep_sent`: the last KEEP_SENT versions of a seat's buttons, which an input may still refer to.
- `resolve`: a phone's input (a button of a version sent, with typed text, or an action dict) as the seat's
  action; the phone never sets an action's moment (`unstamped`: the session stamps it when dispatched).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.core import Action, Engine
from phones.labels import Labeller, ViewIndex, fill_free

KEEP_SENT = 4  # versions of a seat's buttons an input may still refer to
Sent = dict[int, tuple[list[Action], list[dict[str, Any]]]]  # a seat's buttons (actions, entries) by version


def unstamped(data: Mapping[str, Any]) -> dict[str, Any]:
    """As the tablet sends it: a time-bearing action gets its moment from the session when dispatched."""
    out = dict(data)
    if isinstance(out.get("at"), (int, float)):
        out["at"] = 0.0
    return out


def _strings(tree: Any, out: set[str]) -> set[str]:
    if isinstance(tree, Mapping):
        for v in tree.values():
            _strings(v, out)
    elif isinstance(tree, list):
        for v in tree:
            _strings(v, out)
    elif isinstance(tree, str):
        out.add(tree)
    return out


@dataclass(frozen=True)
class Snapshot:
    """A moment of the game: the engine is pure and the state immutable, so any thread may read it."""

    version: int
    engine: Engine[Any]
    state: Any
    labeller: Labeller

    def build(self, seat: int) -> tuple[dict[str, Any], list[Action], list[dict[str, Any]]]:
        """Exactly the seat's view, its private part (the view's display parts, in words), its buttons,
        and the names of the catalog ids it shows (from the view's typed catalogs)."""
        engine, state = self.engine, self.state
        view = json.loads(json.dumps(engine.view(state, seat)))
        over = engine.outcome(state) is not None
        actions = [] if over else list(engine.legal_actions(state, seat))
        entries = self.labeller.entries(actions, view)
        shown = _strings(view, set())
        names = ViewIndex(view).names()
        message = {"t": "state", "v": self.version, "seat": seat, "view": view,
                   "mine": self.labeller.parts(view), "actions": entries,
                   "names": {k: v for k, v in names.items() if k in shown}, "over": over}
        return message, actions, entries


def keep_sent(sent: Sent, version: int, actions: list[Action], entries: list[dict[str, Any]]) -> None:
    """The seat's buttons of `version` kept, those KEEP_SENT versions older dropped."""
    sent[version] = (actions, entries)
    for old in [v for v in sent if v <= version - KEEP_SENT]:
        del sent[old]


def resolve(engine: Engine[Any], sent: Mapping[int, tuple[list[Action], list[dict[str, Any]]]],
            message: Mapping[str, Any]) -> Action:
    """The action a phone's input names: an action dict (`action`), or the button `id` of the buttons of version
    `v` it was sent (`sent`), with `free` text for typed fields. Raises KeyError, TypeError, ValueError (a bad
    input) or RuleError (the engine's)."""
    if "action" in message:
        data = message["action"]
        if not isinstance(data, Mapping):
            raise ValueError("action")
        return engine.action_from_dict(unstamped(data))  # the phone never sets the moment
    version, ident = int(message["v"]), int(message["id"])
    actions, entries = sent[version]
    entry = next((e for e in entries if e["id"] == ident), None)
    if entry is None:
        raise KeyError(ident)
    action = actions[ident]
    if entry["free"]:
        free = message.get("free", {})
        if not isinstance(free, Mapping):
            raise ValueError("free")
        return fill_free(action, free, entry, lambda d: engine.action_from_dict(unstamped(d)))
    at = getattr(action, "at", None)  # the legal action itself, its moment left to the session (unstamped)
    return dataclasses.replace(action, at=0.0) if isinstance(at, (int, float)) else action  # type: ignore[call-arg]
