"""Physical-deck mode: what the table enters when the real cards are turned over at the end of a round,
checked against everything the round already showed (a revealed Joker, a right guess)."""

from __future__ import annotations

from engines.core import TABLE
from engines.spyfall import actions as A
from engines.spyfall.state import SpyState

KINDS = ("standard", "joker", "multiverse")


def cards_problem(state: SpyState, a: A.EnterCards) -> str | None:
    """Why the entered cards contradict the round (None: they fit)."""
    r = state.round
    assert r is not None
    n = len(state.players)
    s = state.settings
    if a.kind not in KINDS:
        return "kind: standard | joker | multiverse"
    if (a.kind == "joker" and not s.prank) or (a.kind == "multiverse" and not s.multiverse):
        return "이번 세션에 없는 덱 / that deck is not in play"
    if a.kind == "standard":
        if not 0 <= a.joker < n:
            return "조커 카드를 낸 사람 / who showed the Joker card"
        if a.harley != -1 and (not s.harley or not 0 <= a.harley < n or a.harley == a.joker):
            return "할리 퀸 아이콘 / the Harley icon"
    elif a.joker != -1 or a.harley != -1:
        return "이 덱에는 한 명의 조커나 할리 퀸이 없어요 / no single Joker or Harley in this deck"
    for who in (r.revealer, r.prank_by):
        if who >= 0 and not (a.kind == "joker" or a.joker == who):
            return "조커 카드를 공개한 사람 / the player who revealed a Joker card"
    if r.guess_correct and a.kind != "standard":
        return "맞힌 장소 / the location guessed right"
    return None

def sample_entries(state: SpyState) -> list[A.EnterCards]:
    n = len(state.players)
    out = [A.EnterCards(TABLE, "standard", j, -1) for j in range(n)]
    if state.settings.harley:
        out += [A.EnterCards(TABLE, "standard", j, (j + 1) % n) for j in range(n)]
    out += [A.EnterCards(TABLE, "joker", -1, -1), A.EnterCards(TABLE, "multiverse", -1, -1)]
    return out
