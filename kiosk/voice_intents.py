"""What the recogniser listens for on the host screen, from the engine's declarations (no Kivy here: tests
and tools import it without creating a window).

Voice is a shared-screen input: a microphone cannot tell who spoke, and a refusal heard by the whole
table must tell nothing. So it listens for the game intents whose action the table may be offered now
(`View.table`, public by construction) plus `always` intents, and fills slots from the table view's
shared part: a slot takes its values from the action field it fills (audio.intents reads the FieldSpec
when it loads the templates): a seat field → the players' names, a `ref("locations")` field → the
view's catalog "locations"."""

from __future__ import annotations

from typing import Any

from engines.core import TABLE, View


def offered(session: Any) -> set[str]:
    """Action names the shared screen may offer now."""
    view: View = session.engine.observe(session.state, None)
    return {o.action for o in view.table}


def game_intents(catalog: Any, session: Any) -> list[str]:
    """The game intents the recogniser listens for now: those whose action the table is offered, plus
    `always` intents. A smaller grammar is a more accurate one (bench/voice.py measures per step), and a
    phrase that is not legal now is not forced onto anything."""
    names = offered(session)
    return [spec.name for spec in catalog.game_intents(session.game.id) if spec.always or spec.action in names]


def slot_values(view: View) -> dict[str, dict[str, object]]:
    """Spoken names → values by source: "player" → seat, and each catalog (by its name) Korean names and
    aliases → id."""
    out: dict[str, dict[str, object]] = {"player": {p.name: p.seat for p in view.players if p.name}}
    for key, entries in view.catalogs.items():
        values: dict[str, object] = {}
        for n in entries:
            for spoken in (n.ko, *n.aliases):
                if spoken:
                    values[spoken] = n.id
        out[key] = values
    return out


def acting_seat(view: View, action: str, by: str, private: bool = False) -> int | None:
    """Who a spoken action stands for when the template names no seat: the table for a table action, else
    the one player the table is offered it for — for a PRIVATE action (never offered on the table) the one
    player the game waits for (None: ambiguous, ask who)."""
    if by == "table":
        return TABLE
    if private:
        seats = {p.seat for p in view.prompts if p.seat >= 0}
    else:
        seats = {o.seat for o in view.table if o.action == action and o.seat >= 0}
    return next(iter(seats)) if len(seats) == 1 else None
