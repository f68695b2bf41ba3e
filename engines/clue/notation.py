"""The rulebook's notation ("필승 표기법") and constraint propagation to a fixed point.

A grid of cards × owners (players, then the envelope). Each cell is O (holds), X (does not) or blank;
a blank cell may carry numbers: mark n is the n-th "showed someone an unseen card" clue, written on the
three named cards in the shower's column (CLUE-61, CLUE-69 reading A). Rules, each deduction with a
one-line reason (rule code + the facts it used):

- hand: a card in my hand is O (CLUE-60); shown: a card shown to me is O for the shower (CLUE-60);
- pass: a player who passed holds none of the three (CLUE-60);
- one_owner: an O makes every other owner of that card X; a card X everywhere but one owner is O there;
- full_hand: O count = hand size → every other card X for that player (CLUE-62); blank+O = hand size →
  every blank O; numbers: a player whose O's plus disjoint numbered sets fill the hand holds nothing else;
- number: a numbered set with all but one card X → the last one O (CLUE-61);
- envelope: one card per category; all others of a category elsewhere → it is in the envelope;
- accusation: a wrong accusation excludes that exact triple.

Contradictions (bad input recorded at the table) are reported, never raised.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.clue.knowledge import Knowledge

O, X = 1, 0  # noqa: E741  (the rulebook's own marks)


@dataclass(frozen=True)
class Deduction:
    card: str
    owner: int  # player index; the envelope is Knowledge.envelope
    value: int  # O (1) or X (0)
    rule: str  # hand | shown | pass | one_owner | full_hand | fill_hand | number | numbers_fill | envelope | accusation
    because: tuple[str, ...] = ()  # card ids the reason names
    ref: int = 0  # the numbered mark, for rule "number"


@dataclass(frozen=True)
class Contradiction:
    rule: str
    card: str = ""
    owner: int = -1
    ref: int = 0


@dataclass
class Notebook:
    """The filled grid. `marks[card][owner]` is O, X or None; `numbers[card][owner]` the open numbered marks
    (those blank cells carry); `triples` the wrong accusations."""

    knowledge: Knowledge
    marks: dict[str, list[int | None]]
    numbers: dict[str, list[tuple[int, ...]]] = field(default_factory=dict)
    deductions: list[Deduction] = field(default_factory=list)
    contradiction: Contradiction | None = None
    triples: list[tuple[str, ...]] = field(default_factory=list)  # wrong accusations (sorted, distinct)

    def envelope_known(self) -> dict[int, str]:
        """Category index → card known to be in the envelope."""
        env = self.knowledge.envelope
        out: dict[int, str] = {}
        for i, cat in enumerate(self.knowledge.categories):
            for c in cat:
                if self.marks[c][env] == O:
                    out[i] = c
        return out

    def solved(self) -> bool:
        return self.contradiction is None and len(self.envelope_known()) == len(self.knowledge.categories)

    def owner_of(self, card: str) -> int | None:
        for o, m in enumerate(self.marks[card]):
            if m == O:
                return o
        return None


class _Stop(Exception):
    pass


class _Grid:
    def __init__(self, kn: Knowledge) -> None:
        self.kn = kn
        self.owners = kn.players + 1
        self.marks: dict[str, list[int | None]] = {c: [None] * self.owners for c in kn.cards}
        self.cat_of = {c: i for i, cat in enumerate(kn.categories) for c in cat}
        self.deductions: list[Deduction] = []
        self.contradiction: Contradiction | None = None
        self.changed = False

    def fail(self, rule: str, card: str = "", owner: int = -1, ref: int = 0) -> None:
        self.contradiction = Contradiction(rule, card, owner, ref)
        raise _Stop

    def set(self, card: str, owner: int, value: int, rule: str, because: tuple[str, ...] = (),
            ref: int = 0) -> None:
        cur = self.marks[card][owner]
        if cur == value:
            return
        if cur is not None:
            self.fail(rule, card, owner, ref)
        self.marks[card][owner] = value
        self.deductions.append(Deduction(card, owner, value, rule, because, ref))
        self.changed = True
        if value == O:
            for o in range(self.owners):
                if o != owner:
                    self.set(card, o, X, "one_owner", (card,))
            if owner == self.kn.envelope:
                for c in self.kn.categories[self.cat_of[card]]:
                    if c != card:
                        self.set(c, owner, X, "envelope", (card,))


def propagate(kn: Knowledge, max_rounds: int = 100, local_only: bool = False) -> Notebook:
    """Apply every fact, then the notation rules until nothing changes (or a contradiction).

    `local_only` leaves out the cross-mark hand-size rule (numbers_fill): the per-card, per-player and
    per-mark rules only, as in effect-clue — the benchmark's "propagation only" baseline."""
    g = _Grid(kn)
    env = kn.envelope
    clauses: list[tuple[int, tuple[str, ...], int]] = []
    triples: list[tuple[str, ...]] = []
    try:
        for f in kn.facts:
            for c in f.cards:
                if c not in g.marks:
                    g.fail("unknown_card", c, f.player)
            if f.kind in ("has", "lacks", "one_of") and not 0 <= f.player < kn.players:
                g.fail("unknown_player", "", f.player)
            if f.kind == "has":
                g.set(f.cards[0], f.player, O, "hand" if f.player == kn.me else "shown", f.cards)
            elif f.kind == "lacks":
                for c in f.cards:
                    g.set(c, f.player, X, "pass", f.cards)
            elif f.kind == "one_of":
                clauses.append((f.player, f.cards, f.ref))
            elif f.kind == "envelope":
                g.set(f.cards[0], env, O, "envelope", f.cards)
            elif f.kind == "not_triple":
                triples.append(f.cards)
        for _ in range(max_rounds):
            g.changed = False
            _round(g, clauses, triples, local_only)
            if not g.changed:
                break
    except _Stop:
        pass
    nb = Notebook(kn, g.marks, deductions=g.deductions, contradiction=g.contradiction)
    nb.numbers = _numbers(g, clauses)
    nb.triples = sorted({tuple(sorted(t)) for t in triples})
    return nb


def _round(g: _Grid, clauses: list[tuple[int, tuple[str, ...], int]], triples: list[tuple[str, ...]],
           local_only: bool = False) -> None:
    kn = g.kn
    env = kn.envelope
    # one owner per card
    for c, row in g.marks.items():
        if O in row:
            continue
        open_ = [o for o, m in enumerate(row) if m is None]
        if not open_:
            g.fail("no_owner", c)
        if len(open_) == 1:
            g.set(c, open_[0], O, "one_owner", (c,))
    # one envelope card per category
    for cat in kn.categories:
        if any(g.marks[c][env] == O for c in cat):
            continue
        open_c = [c for c in cat if g.marks[c][env] is None]
        if not open_c:
            g.fail("envelope_empty", cat[0], env)
        if len(open_c) == 1:
            g.set(open_c[0], env, O, "envelope", cat)
    # numbered marks
    live: dict[int, list[tuple[tuple[str, ...], int]]] = {}
    for p, cards, ref in clauses:
        if any(g.marks[c][p] == O for c in cards):
            continue
        rest = tuple(c for c in cards if g.marks[c][p] != X)
        if not rest:
            g.fail("number_empty", cards[0], p, ref)
        if len(rest) == 1:
            g.set(rest[0], p, O, "number", cards, ref)
            continue
        live.setdefault(p, []).append((rest, ref))
    # hand sizes
    for p, size in enumerate(kn.hand_sizes):
        have = [c for c in kn.cards if g.marks[c][p] == O]
        blank = [c for c in kn.cards if g.marks[c][p] is None]
        if len(have) > size:
            g.fail("hand_overfull", have[-1], p)
        if len(have) + len(blank) < size:
            g.fail("hand_short", "", p)
        if len(have) == size:
            for c in blank:
                g.set(c, p, X, "full_hand", tuple(have))
            continue
        if len(have) + len(blank) == size:
            for c in blank:
                g.set(c, p, O, "fill_hand", tuple(blank))
            continue
        if local_only:
            continue
        chosen: list[tuple[str, ...]] = []
        used: set[str] = set()
        for rest, _ref in sorted(live.get(p, []), key=lambda r: len(r[0])):
            if any(g.marks[c][p] == O for c in rest):
                continue
            cur = tuple(c for c in rest if g.marks[c][p] is None)
            if cur and not used & set(cur):
                chosen.append(cur)
                used |= set(cur)
        if len(have) + len(chosen) > size:
            g.fail("numbers_overfull", "", p)
        if chosen and len(have) + len(chosen) == size:
            for c in blank:
                if c not in used:
                    g.set(c, p, X, "numbers_fill", tuple(sorted(used)))
    # wrong accusations
    for t in triples:
        inside = [c for c in t if g.marks[c][env] == O]
        if len(inside) == 3:
            g.fail("accusation", t[0], env)
        if len(inside) == 2:
            for c in t:
                if c not in inside:
                    g.set(c, env, X, "accusation", t)


def _numbers(g: _Grid, clauses: list[tuple[int, tuple[str, ...], int]]) -> dict[str, list[tuple[int, ...]]]:
    out: dict[str, list[list[int]]] = {c: [[] for _ in range(g.owners)] for c in g.kn.cards}
    for p, cards, ref in clauses:
        if any(g.marks[c][p] == O for c in cards):
            continue
        for c in cards:
            if g.marks[c][p] is None:
                out[c][p].append(ref)
    return {c: [tuple(v) for v in row] for c, row in out.items()}


def elimination(kn: Knowledge) -> dict[int, str]:
    """What most apps do: a card I hold or was shown is out; the envelope is known in a category when all
    but one of its cards are out. Category index → envelope card."""
    out_cards = {f.cards[0] for f in kn.facts if f.kind == "has"}
    known: dict[int, str] = {}
    for i, cat in enumerate(kn.categories):
        rest = [c for c in cat if c not in out_cards]
        if len(rest) == 1:
            known[i] = rest[0]
    known.update({kn.categories.index(cat): f.cards[0] for f in kn.facts if f.kind == "envelope"
                  for cat in kn.categories if f.cards[0] in cat})
    return known
