"""Tests' ways into the running table (table.Table), as a frontend would act."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from table.table import STAFF, Table, handover


def act(table: Any, action: Any) -> Any:
    """Act at the table as a test does: from the seat's own private channel for a PRIVATE action (as its
    hand-over would), else from staff's; FINAL ones confirmed."""
    channel = handover(action.seat) if type(action).PRIVATE else STAFF
    return table.act(action, channel, confirmed=True)


def new_table(library: Any, journal_dir: Path, game: str, config: Mapping[str, Any], seed: int = 7,
              clock: Callable[[], float] | None = None) -> Table:
    """A table of its own (journal in `journal_dir`) with `game` started."""
    table = Table(library, journal_dir, **({"clock": clock} if clock is not None else {}))
    table.start(game, config, seed=seed)
    return table


def tap(ctx: Any, action: Any) -> Any:
    """A screen's `ctx.dispatch` as a guest's tap sends it: a PRIVATE action from its seat's hand-over, any other
    from the shared screen (a FINAL one asks first, as on the screen)."""
    return ctx.dispatch(action, channel=handover(action.seat) if type(action).PRIVATE else None)
