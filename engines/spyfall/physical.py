"""Physical-deck mode: what the table enters when the real cards are turned over at the end of a round,
checked against everything the round already showed (a revealed Joker, a right guess)."""

from __future__ import annotations

from engines.core import TABLE
from engines.spyfall import actions as A
from engines.spyfall.state import SpyState


def cards_problem(state: SpyState, a: A.EnterCards) -> str | None:
    """Why the entered cards contradict the round, as a key of messages.DETAILS (None: they fit)."""
    r = state.round
    assert r is not None
    s = state.settings
    if (a.kind == "joker" and not s.prank) or (a.kind == "multiverse" and not s.multiverse):
        return "deck_off"
    if a.kind == "standard":
        if a.joker == -1:
            return "joker_owner"
        if a.harley != -1 and (not s.harley or a.harley == a.joker):
            return "harley_icon"
    elif a.joker != -1 or a.harley != -1:
        return "no_single"
    if r.joker is not None and not (a.kind == "joker" or a.joker == r.joker.seat):
        return "revealer"
    if r.joker is not None and r.joker.correct and a.kind != "standard":
        return "guessed"
    return None

def sample_entries(state: SpyState) -> list[A.EnterCards]:
    n = len(state.players)
    out = [A.EnterCards(TABLE, "standard", j, -1) for j in range(n)]
    if state.settings.harley:
        out += [A.EnterCards(TABLE, "standard", j, (j + 1) % n) for j in range(n)]
    out += [A.EnterCards(TABLE, "joker", -1, -1), A.EnterCards(TABLE, "multiverse", -1, -1)]
    return out
