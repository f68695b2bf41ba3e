"""The set-up checklist computed for the table: player count and modules choose and fill the items."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engines.korean import fmt
from kiosk.teach.model import SetupItem, Teaching


@dataclass(frozen=True)
class CheckItem:
    id: str
    text: str


def params(t: Teaching, players: int) -> dict[str, object]:
    """Text parameters for `players`: the count, the shares of `share_total`, per-count extras."""
    out: dict[str, object] = {"players": players, "players_minus_1": players - 1}
    if t.share_total and players:
        lo, extra = divmod(t.share_total, players)
        out.update(share_lo=lo, share_hi=lo + (1 if extra else 0), share_more=extra, share_less=players - extra)
    out.update(t.per_players.get(players, {}))
    return out


def applies(item: SetupItem, players: int, modules: Iterable[str]) -> bool:
    return item.when.matches(players, modules)


def allowed_modules(t: Teaching, players: int) -> list[str]:
    return [m.id for m in t.modules if m.players[0] <= players <= m.players[1]]


def checklist(t: Teaching, players: int, modules: Iterable[str] = (), lang: str = "ko") -> list[CheckItem]:
    """The items for this table, texts filled in. Modules not allowed at this player count are dropped."""
    if not t.players[0] <= players <= t.players[1]:
        raise ValueError(f"{players} players is outside {t.players}")
    mods = [m for m in modules if m in allowed_modules(t, players)]
    values = params(t, players)
    return [CheckItem(item.id, fmt(item.text.get(lang), **values))
            for item in t.setup if applies(item, players, mods)]
