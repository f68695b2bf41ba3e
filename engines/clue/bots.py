"""Tablet detectives for Clue (digital mode): three levels that differ in how well they think, not in what
they see. Each plays from its own notebook, rebuilt on every call from its seat's view alone
(`knowledge_from_view`: its hand, the cards shown to it, the public log of suggestions, passes, shows and
accusations). The rules of `engines.bots` hold: view, legal actions and a random stream in, one legal
action out, nothing kept between calls.

- 쉬움 (easy): a beginner with a paper notebook: the notation's local rules (propagation only); suggests and
  picks rooms at random; accuses when the notebook names all three; shows any card.
- 보통 (normal): exact counting (engines.clue.solver): the suggestion of most expected information in the
  room it is in; the room of most information among those its die reaches; accuses when the envelope is
  certain; shows the card that tells the suggester least.
- 어려움 (hard): as 보통, and gambles: accuses the likeliest envelope once its exact probability passes the
  chance of winning by waiting, which falls as the game goes on and with more players (`Gamble`; calibrated
  in bench/bots.py on seeds apart from the ones its figures are measured on); scores suggestions and rooms
  by what the reply teaches about the envelope, not about who holds what (engines.clue.aim: with the suspect
  known it names one whose place it knows, so the reply is about the rest); chooses where to go by what the
  next turns reach, not this turn's die alone (engines.clue.reach: a room is worth its suggestion now plus,
  discounted, the rooms and passages within reach of it; suggest where moved, take the passage or roll, by
  the same); names a rival's token only when that teaches clearly more (it would move them into its room: a
  free suggestion on their next turn).

Rooms are chosen by reachability on the classic board (engines.clue.board): from a room, the rooms within
the die's squares (어려움: and within the next turns' rolls). A token in the corridors has no position in any
view (the engine models rooms only), so there the table's legal actions decide what is reachable
(bench/bots.py narrows them by its own board).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from engines.bots import Bot, Level, named, pick
from engines.clue.aim import envelope_advice
from engines.clue.board import has_map, passage, room_distance
from engines.clue.knowledge import Fact, Knowledge
from engines.clue.notation import propagate
from engines.clue.reach import Plan, Planner, Spot
from engines.clue.solver import Analysis, advise, analyse
from engines.clue.state import ACCUSE_CHECK, AFTER, DIGITAL, HANDS, IN_ROOM, MOVE, NOTE, REFUTE, START
from engines.clue.views import ClueView, knowledge_from_view
from engines.core import Action, View

SAMPLES = 120  # deals drawn for the expected information of suggestions
SUGGEST_HERE = 0.7  # suggest where one was moved (or take the passage) if worth this share of the best room


@dataclass(frozen=True)
class Gamble:
    """어려움's late accusation: accuse the likeliest envelope once its exact probability p reaches
    `max(floor, share / players - per_round * rounds)` (rounds: suggestions so far per player still in).

    Calibrated on games of 보통 (bench/bots.py --calibrate, tuning seeds): at each turn's start, the chance
    that a seat not yet certain goes on to win by waiting, by rounds and by p. Gambling pays where p
    exceeds it: from about 0.45 early and 0.3 after three rounds at 4 players, from about 0.3 early and
    0.2 after three rounds at 6 players. Head to head against 보통 on the tuning seeds (alone, without
    `Style.here`/`passage_bonus`): share 1.8 / floor 0.2 won 62.5% at 6 players (80 games), 50% at 4
    (150, held-out seeds); 2.2 / 0.25 won 65% and 52.5% (80 and 120 games); 2.8 / 0.3 won 51.7% at 4."""

    share: float = 2.2
    per_round: float = 0.03
    floor: float = 0.25

    def threshold(self, rounds: float, players: int) -> float:
        return max(self.floor, self.share / max(players, 1) - self.per_round * rounds)


Choice = Literal["info", "open", "random"]


@dataclass(frozen=True)
class Style:
    """How a bot thinks. `counting`: exact counting (else the notation's local rules only); `choice`: rooms
    and suggestions by expected information ("info", needs counting), among cards the notebook has not
    placed ("open"), or at random ("random": bench/bots.py's random-suggestion player); `leak_least`: choose
    the card to show (else any); `gamble`: a late accusation short of certainty."""

    counting: bool
    choice: Choice
    leak_least: bool
    gamble: Gamble | None = None
    here: float = SUGGEST_HERE  # suggest where moved / take the passage if worth this share of the best room
    passage_bonus: float = 0.0  # a room with a secret passage counts this share of the passage room's value
    aim: float | None = None  # score suggestions by envelope information (engines.clue.aim), plus this share
    #                           of the whole-deal information; None: the whole-deal information alone
    samples: int = SAMPLES
    plan: Plan | None = None  # rooms by what the next turns reach from them (engines.clue.reach), on a known map
    gift: float = 0.0  # bits a suggestion loses for naming a rival's token (it moves them into my room: a free
    #                    suggestion on their next turn)


@dataclass
class Notes:
    """What a bot knows on one call: its view's facts and what they imply."""

    game: ClueView
    knowledge: Knowledge
    analysis: Analysis | None  # counting levels
    marks: dict[str, list[int | None]]
    envelope: dict[int, str]  # category → card known to be in the envelope

    @property
    def me(self) -> int:
        assert self.game.me is not None  # a seat's own view (knowledge_from_view refuses the table's)
        return self.game.me

    @property
    def room(self) -> str:
        """The room my token is in ("" in the corridors)."""
        return self.game.room_of(self.me)

    def solved(self) -> tuple[str, str, str] | None:
        if len(self.envelope) < 3:
            return None
        return (self.envelope[0], self.envelope[1], self.envelope[2])


def notes(view: View, counting: bool) -> Notes:
    game = view.part(ClueView)
    kn = knowledge_from_view(game)
    if counting:
        a = analyse(kn)
        env = {} if a.contradiction else a.envelope()
        return Notes(game, kn, a, a.notebook.marks, env)
    nb = propagate(kn, local_only=True)
    return Notes(game, kn, None, nb.marks, {} if nb.contradiction else nb.envelope_known())


# ---------------------------------------------------------------- the bot


def make(style: Style) -> Bot:
    def bot(view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        return _decide(style, view, legal, rng)
    return bot


def _decide(style: Style, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
    phase = view.phase
    if phase == REFUTE:
        return _show(style, view.part(ClueView), legal, rng)
    if phase in (HANDS, NOTE, ACCUSE_CHECK) or view.part(ClueView).mode != DIGITAL:
        return legal[0]  # physical mode: the guests' own cards; tablet seats play digital games only
    n = notes(view, style.counting)
    accuse = _accusation(style, n, legal)
    if accuse is not None:
        return accuse
    if phase == START:
        return _start(style, n, legal, rng)
    if phase == MOVE:
        return _move(style, n, legal, rng)
    if phase == IN_ROOM:
        suggest = named(legal, "suggest")
        if suggest:
            return _suggest(style, n, n.room, legal, rng)
    end = pick(legal, "end_turn")
    if end is not None and phase in (IN_ROOM, AFTER):
        return end
    return legal[0]


# ---------------------------------------------------------------- accusing


def _accusation(style: Style, n: Notes, legal: Sequence[Action]) -> Action | None:
    if not named(legal, "accuse"):
        return None
    triple = n.solved()
    if triple is None and style.gamble is not None and n.analysis is not None:
        triple = _gamble(style.gamble, n)
    if triple is None:
        return None
    return pick(legal, "accuse", suspect=triple[0], weapon=triple[1], room=triple[2])


def _gamble(g: Gamble, n: Notes) -> tuple[str, str, str] | None:
    need = g.threshold(rounds(n.game), len(n.game.players))
    found = likeliest(n, need)
    return found[0] if found is not None and found[1] >= need else None


def rounds(game: ClueView) -> float:
    """How far the game has gone: suggestions made so far per player still in."""
    active = max(1, sum(1 for p in game.players if not p.out))
    return len(game.suggestions) / active


def likeliest(n: Notes, at_least: float = 0.0) -> tuple[tuple[str, str, str], float] | None:
    """The likeliest envelope and its exact probability (counting levels), or None when it cannot reach
    `at_least` (its probability is at most its least likely card's)."""
    a = n.analysis
    if a is None or a.contradiction or not a.probs.exact or not a.probs.total:
        return None
    env = a.probs.envelope
    tops = [sorted(cat, key=lambda c: -env(c))[:2] for cat in n.knowledge.categories]
    best = max(((s, w, r) for s in tops[0] for w in tops[1] for r in tops[2]),
               key=lambda t: env(t[0]) * env(t[1]) * env(t[2]))
    if min(env(c) for c in best) < at_least:
        return None
    return best, triple_probability(a, best)


@dataclass(frozen=True)
class Knew:
    """What a seat's notebook held at one moment (the end-of-game screen shows it for each tablet seat at its
    accusation): the envelope cards it was certain of (category → card) and the likeliest envelope with its
    exact probability (1.0 when certain; 0.0 and () without counting)."""

    certain: Mapping[int, str]
    likeliest: tuple[str, ...]
    p: float


def knew(view: View) -> Knew:
    """What this seat's view lets one be sure of now, by exact counting (pure; any seat's own view)."""
    n = notes(view, True)
    found = likeliest(n)
    if found is None:
        return Knew(dict(n.envelope), (), 0.0)
    return Knew(dict(n.envelope), found[0], 1.0 if n.solved() else found[1])


def triple_probability(a: Analysis, triple: tuple[str, str, str]) -> float:
    """Exact probability that the envelope holds exactly `triple`, given what `a` knows."""
    if not a.probs.exact or not a.probs.total:
        return 0.0
    sub = analyse(a.knowledge.add(*(Fact("envelope", -1, (c,)) for c in triple)))
    if not sub.probs.exact or sub.contradiction:
        return 0.0
    return sub.probs.total / a.probs.total


# ---------------------------------------------------------------- where to go


def room_values(style: Style, n: Notes, rng: random.Random) -> dict[str, float]:
    """How much a suggestion in each room would teach: the best expected bits there (counting levels),
    or 1 for a room the notebook has not placed (+ a little for each unplaced suspect and weapon)."""
    rooms = n.knowledge.categories[2]
    if style.choice == "random":
        return {r: rng.random() for r in rooms}
    if style.choice == "info" and n.analysis is not None:
        best: dict[str, float] = {r: 0.0 for r in rooms}
        for (_, _, r), bits in _scores(style, n, rooms, rng):
            best[r] = max(best[r], bits)
        return best
    env = n.knowledge.envelope
    return {r: 1.0 if n.marks[r][env] is None else 0.0 for r in rooms}


def _reaches(n: Notes, room: str, die: int) -> bool:
    """Whether my token can reach `room` with `die` squares, as far as my map knows."""
    here = n.room
    if not here or not has_map(n.game.set):
        return True  # no position in the view (corridors) or no map: the table's legal actions decide
    return room_distance(here, room) <= die


def _best(values: Mapping[str, float], rooms: Sequence[str], rng: random.Random) -> str:
    top = max(values[r] for r in rooms)
    return rng.choice([r for r in rooms if values[r] >= top - 1e-9])


def _start(style: Style, n: Notes, legal: Sequence[Action], rng: random.Random) -> Action:
    roll = pick(legal, "roll_die")
    here_ok = bool(named(legal, "suggest"))
    through = pick(legal, "use_passage")
    if not here_ok and through is None:
        return roll or legal[0]
    values = room_values(style, n, rng)
    planner = _planner(style, n, values)
    if planner is not None:
        # in a room (a suggestion or a passage is offered): suggest here, take the passage or roll, by what
        # each is worth this turn and the next ones
        options: dict[str, float] = {"roll": planner.roll(Spot(n.room))} if roll is not None else {}
        if here_ok:
            options["here"] = planner.entered(n.room)
        if through is not None:
            options["passage"] = planner.through(n.room)
        top = max(options.values())
        choice = rng.choice([k for k, v in options.items() if v >= top - 1e-9])
        if choice == "here":
            return _suggest(style, n, n.room, legal, rng)
        return through if choice == "passage" and through is not None else roll or legal[0]
    best = max(values.values())
    if here_ok and values.get(n.room, 0.0) >= style.here * best:
        return _suggest(style, n, n.room, legal, rng)
    if through is not None:
        to = passage(n.room) if has_map(n.game.set) else ""
        if to and values[to] >= style.here * best:
            return through
    return roll or legal[0]


def _planner(style: Style, n: Notes, values: Mapping[str, float]) -> Planner | None:
    """The look past this turn's die (`Style.plan`), on a known map."""
    if style.plan is None or not has_map(n.game.set):
        return None
    return Planner(values, style.plan)


def _move(style: Style, n: Notes, legal: Sequence[Action], rng: random.Random) -> Action:
    die = n.game.die
    rooms = [r for r in (str(getattr(a, "room", "")) for a in named(legal, "enter_room")) if _reaches(n, r, die)]
    stay = pick(legal, "stay_out")
    if not rooms:
        return stay or legal[0]
    values = room_values(style, n, rng)
    planner = _planner(style, n, values)
    if planner is not None:
        # from the room it is leaving: each room it reaches by what it teaches now and reaches next, or
        # walking on, nearer to the rooms it does not reach today
        scored = {r: planner.entered(r) for r in rooms}
        top = max(scored.values())
        if stay is not None and n.room and planner.stayed(Spot(n.room, die)) > top + 1e-9:
            return stay
        return pick(legal, "enter_room", room=_best(scored, rooms, rng)) or legal[0]
    if style.passage_bonus and has_map(n.game.set):
        # from a passage room the next turn's suggestion is certain (no walk)
        values = {r: v + style.passage_bonus * values.get(passage(r), 0.0) for r, v in values.items()}
    room = _best(values, rooms, rng)
    return pick(legal, "enter_room", room=room) or legal[0]


# ---------------------------------------------------------------- suggesting and showing


def _suggest(style: Style, n: Notes, room: str, legal: Sequence[Action], rng: random.Random) -> Action:
    if style.choice == "random":
        return rng.choice(named(legal, "suggest"))
    if style.choice == "info" and n.analysis is not None:
        ranked = _scores(style, n, (room,), rng)
        if style.gift:
            # naming a rival moves its token here (a free suggestion next turn), unless it is here already
            rivals = {p.suspect for p in n.game.players
                      if p.seat != n.me and not p.out and n.game.tokens.get(p.suspect, "") != room}
            ranked = [(t, bits - style.gift * (t[0] in rivals)) for t, bits in ranked]
        if ranked:
            top = max(bits for _, bits in ranked)
            s, w, _ = rng.choice([t for t, bits in ranked if bits >= top - 1e-9])
            found = pick(legal, "suggest", suspect=s, weapon=w)
            if found is not None:
                return found
    env = n.knowledge.envelope
    cats = n.knowledge.categories
    # the paper notebook: a suspect and a weapon not yet placed (else any)
    open_s = [c for c in cats[0] if n.marks[c][env] is None] or list(cats[0])
    open_w = [c for c in cats[1] if n.marks[c][env] is None] or list(cats[1])
    found = pick(legal, "suggest", suspect=rng.choice(open_s), weapon=rng.choice(open_w))
    return found or rng.choice(named(legal, "suggest"))


def _scores(style: Style, n: Notes, rooms: Sequence[str], rng: random.Random
            ) -> list[tuple[tuple[str, str, str], float]]:
    """Suggestions in `rooms` with their expected information (counting levels), in a fixed order."""
    assert n.analysis is not None
    seed = rng.randrange(1 << 30)
    samples = style.samples
    if style.aim is not None:
        scored = envelope_advice(n.analysis, rooms, samples, seed, style.aim)
        if scored:
            return list(scored.items())
    room = rooms[0] if len(rooms) == 1 else None
    ranked = advise(n.analysis, room, samples=samples, seed=seed, top=1 << 30)
    return [((x.suspect, x.weapon, x.room), x.bits) for x in ranked]


def _show(style: Style, game: ClueView, legal: Sequence[Action], rng: random.Random) -> Action:
    """Which card to show. Leaking least: a card the suggester has already seen from me (they learn
    nothing); else one I have already shown someone (fewer of my cards known in all); else a room (one of
    nine, less telling than a suspect or weapon of six), then a weapon; ties at random."""
    shows = named(legal, "show")
    if not style.leak_least or len(shows) < 2:
        return rng.choice(shows) if shows else legal[0]
    to = game.last.seat if game.last is not None else -1
    mine = [p for p in game.private_cards or () if p.by == game.me]
    to_them = {p.shown_card.card for p in mine if p.to == to}
    to_anyone = {p.shown_card.card for p in mine}
    rooms = set(game.cards.rooms)
    weapons = set(game.cards.weapons)

    def cost(a: Action) -> int:
        card = getattr(a, "card", "")
        if card in to_them:
            return 0
        if card in to_anyone:
            return 1
        return 2 if card in rooms else 3 if card in weapons else 4

    low = min(map(cost, shows))
    return rng.choice([a for a in shows if cost(a) == low])


EASY = Style(counting=False, choice="random", leak_least=False)
NORMAL = Style(counting=True, choice="info", leak_least=True)
# 어려움 scores by the envelope (aim), goes where the next turns reach (plan: each room by what a suggestion
# there teaches now and, by 0.6 a turn, what the two turns after reach from it: passages, rooms a roll away;
# suggest where moved, take the passage or roll, by the same), and names a rival's token only for 0.15 bits
# more (gift). Chosen on the tuning seeds (bench/bots.py VARIANTS, 3 players against 보통, a crowded machine
# allowed few games): the previous 어려움 ("before": the die-only room choice with a passage bonus) 15 of the
# first 30 wins, plan 82/150 (54.7%; 15 of the first 20 where "before" won 9), plan + gift 34/50 (68.0%; 17 of
# the first 20). Held-out seeds (bench/bots.py --h2h eval, 2026-12-05, nice 10, load 6-23 on 2 cores), its
# share of the wins head to head against 보통: 3 players 63.0% ± 1.6% (573 of 910: games 0-469 and 600-1039),
# 6 players 68.4% ± 2.1% (335/490); on games 0-199, where the previous 어려움 won 54.0% and 65.0%: 57.5% and
# 69.5%. CPU per decision at 6 players: p95 113 ms, worst 186 ms (547 decisions).
HARD = Style(counting=True, choice="info", leak_least=True, gamble=Gamble(), here=0.2, aim=0.25, plan=Plan(),
             gift=0.15)
# Not levels: bench/bots.py's baselines. The random-suggestion player (exact notes and certain accusations,
# suggestions and rooms at random) and the usual notebook strategy (propagation only, suggests cards its
# notebook has not placed; as strong as 보통 at 6 players on bench/bots.py's board model, so 쉬움 is weaker).
RANDOM = Style(counting=True, choice="random", leak_least=False)
NOTEBOOK = Style(counting=False, choice="open", leak_least=False)

LEVELS: dict[str, Level] = {
    "easy": Level("easy", "쉬움", "Easy", make(EASY)),
    "normal": Level("normal", "보통", "Normal", make(NORMAL)),
    "hard": Level("hard", "어려움", "Hard", make(HARD)),
}

