"""Tablet seats for Mr. Jack in New York: a Jack and a detective, two levels each, within what the engine
knows (engines.bots: one seat's view, its legal actions and a random stream; nothing kept between calls).

The engine keeps no board (JACK-03): pieces, tiles and sight lines stay on the table. So a tablet seat
decides what the engine records — which card to take, the spy visit, an arrest or an escape claim — and
leaves moves and abilities to the table (it ends its turn without claiming an ability). What the board
allows (which character the played one can reach, whether Jack's piece can get out) is the table's: it
narrows the legal actions it hands the bot (bench/bots.py narrows them by `Streets`, a coarse model).

- detective: from the public record (witness calls and the suspects they cleared) and the alibi cards
  it drew itself (`my_suspects`). Arrests when one suspect is left.
  쉬움 (easy): takes cards at random, visits the spy half the time.
  어려움 (hard): visits the spy whenever it talks; when the witness card is dark and Jack still picks this
  round, takes a card of a suspect (Jack cannot escape with a card he does not hold); with its last turn
  of the game, or with two suspects left when one of their cards is still there for Jack to take while
  the witness is dark, arrests one of them rather than wait.
- Jack: from his identity and the public record. Escapes whenever the table allows it.
  쉬움 (easy): takes his own card when the witness is dark half the time, else at random; visits half the
  time.
  어려움 (hard): takes his own card whenever the witness is dark; visits the spy whenever it talks (the
  alibi he draws is one the detective never sees).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engines.bots import Bot, Level, of, pick
from engines.core import Action, View
from engines.mr_jack_ny.actions import Arrest, Pick
from engines.mr_jack_ny.state import ACT, PICK, ROUNDS
from engines.mr_jack_ny.views import JackView, Role


@dataclass(frozen=True)
class Style:
    visit: float  # chance of visiting a talking spy
    own_card: float  # Jack: chance of taking his own card when the witness is dark
    deny: bool  # detective: take a suspect's card when an escape threatens
    gamble: bool  # detective: arrest short of certainty on its last chance


def make(style: Style) -> Bot:
    def bot(view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        d = view.part(JackView)
        if d.me == "jack":
            return _jack(style, d, legal, rng)
        return _detective(style, d, legal, rng)
    return bot


def _later(d: JackView, role: Role) -> bool:
    """Whether `role` still has a turn this round after the current one."""
    return role in d.track[d.round - 1].order[d.turn + 1:]


def _last_chance(d: JackView) -> bool:
    """The detective's last turn of the game."""
    return d.round >= ROUNDS and not _later(d, "detective")


def _finish(style: Style, legal: Sequence[Action], rng: random.Random) -> Action:
    visit = pick(legal, "visit_spy")
    if visit is not None and rng.random() < style.visit:
        return visit
    return pick(legal, "end_turn") or legal[0]


def _detective(style: Style, d: JackView, legal: Sequence[Action], rng: random.Random) -> Action:
    suspects = list(d.my_suspects or ())
    if d.phase == PICK:
        cards = of(legal, Pick)
        want = cards
        if len(suspects) == 1:
            want = [c for c in cards if c.character != suspects[0]] or cards  # a card to arrest with
        elif style.deny and d.witness == "dark" and _later(d, "jack"):
            want = [c for c in cards if c.character in suspects] or cards
        return rng.choice(want) if want else legal[0]
    if d.phase != ACT:
        return legal[0]
    arrests = {a.suspect: a for a in of(legal, Arrest)}
    if len(suspects) == 1 and suspects[0] in arrests:
        return arrests[suspects[0]]
    visit = pick(legal, "visit_spy")
    if visit is not None and rng.random() < style.visit:
        return visit  # the alibi may settle it; this turn can still arrest after
    if style.gamble and suspects:
        # an escape threatens: the witness is dark, Jack picks again this round and a suspect's card is left
        threat = (d.witness == "dark" and _later(d, "jack") and len(suspects) == 2
                  and any(c in suspects for c in d.remaining))
        if _last_chance(d) or threat:
            options = [s for s in suspects if s in arrests]
            if options:
                return arrests[rng.choice(options)]
    return pick(legal, "end_turn") or legal[0]


def _jack(style: Style, d: JackView, legal: Sequence[Action], rng: random.Random) -> Action:
    me = d.jack or ""
    if d.phase == PICK:
        cards = of(legal, Pick)
        own = [c for c in cards if c.character == me]
        if d.witness == "dark" and own and rng.random() < style.own_card:
            return own[0]
        return rng.choice(cards) if cards else legal[0]
    if d.phase != ACT:
        return legal[0]
    escape = pick(legal, "escape")
    if escape is not None:
        return escape
    return _finish(style, legal, rng)


EASY = Style(visit=0.5, own_card=0.5, deny=False, gamble=False)
HARD = Style(visit=1.0, own_card=1.0, deny=True, gamble=True)

LEVELS: dict[str, Level] = {
    "easy": Level("easy", "쉬움", "Easy", make(EASY)),
    "hard": Level("hard", "어려움", "Hard", make(HARD)),
}
