"""A coarse stand-in for the physical board of Mr. Jack in New York, for simulated games only (tests,
bench/bots.py; engines.bots.Board). The engine keeps no board (JACK-03), so what the board would decide is
drawn at random here, the same way for every player:

- the witness call: each character is visible with probability `visible`, independently;
- an arrest: the played character reaches a given character's space with probability `reach`;
- an escape: Jack's piece reaches an open harbour or exit with probability `escape`.

Each draw is made once per (turn, action), so a bot asked twice in a turn meets the same board. No bot
reads this: the table narrows the legal actions a bot is handed, as a guest at the board would.
"""

from __future__ import annotations

import random

from engines.core import TABLE, Action, seeded_rng
from engines.mr_jack_ny.actions import CallWitness
from engines.mr_jack_ny.state import JackState


class Streets:
    def __init__(self, seed: int, visible: float = 0.5, reach: float = 0.4, escape: float = 0.4) -> None:
        self.seed, self.visible, self.reach, self.escape = seed, visible, reach, escape

    def _draw(self, state: JackState, action: Action) -> float:
        return seeded_rng(self.seed, "streets", state.round, state.turn, action.NAME,
                          getattr(action, "suspect", "")).random()

    def allowed(self, state: JackState, action: Action) -> bool:
        if action.NAME == "arrest":
            return self._draw(state, action) < self.reach
        if action.NAME == "escape":
            return self._draw(state, action) < self.escape
        return True

    def table_action(self, state: JackState, rng: random.Random) -> Action:
        return CallWitness(TABLE, frozenset(c for c in state.roster if rng.random() < self.visible))

    def after(self, state: JackState, action: Action, new: JackState) -> None:
        return None
