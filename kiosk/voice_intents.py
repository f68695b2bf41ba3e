"""Which game intents the recogniser listens for on the host screen (no Kivy here: tests and tools import
it without creating a window)."""

from __future__ import annotations

from typing import Any

from engines.core import TABLE


def game_intents(catalog: Any, session: Any) -> list[str]:
    """The game intents the recogniser listens for now: those whose action is legal for a seat that may
    act (or the table), plus `always` intents. A smaller grammar is a more accurate one (bench/voice.py
    measures per step), and a phrase that is not legal now is not forced onto anything."""
    engine, state = session.engine, session.state
    legal: set[str] = set()
    for seat in engine.to_move(state):
        if seat >= TABLE:
            legal.update(type(a).NAME for a in engine.legal_actions(state, seat))
    return [spec.name for spec in catalog.game_intents(session.game.id) if spec.always or spec.action in legal]
