"""The counted problem, decoded from a notebook's marks in one pass over the cards.

Owners are the players 0..P-1 and one envelope slot per category (P + k). A card with an O is fixed to
its owner (its owner's room shrinks by one); every other card is "unknown" and gets a bit (in category
order); `allowed[o]` is the set of unknown cards owner o may hold, `caps[o]` its room left; an open
numbered mark becomes the set of its unknown cards still blank for its player (`mine[p]`).

The open numbered marks come either from the notebook's `numbers` (propagation already found which are
open; read while the unknown cards are decoded) or, for a marks grid made without propagation (a wrong
accusation's sub-count), from the marks' own clauses (player, cards).

`key` identifies the problem: equal keys, equal counts (the counter's memory, engines.clue.memory).
"""

from __future__ import annotations

from engines.clue.knowledge import Knowledge
from engines.clue.layers import clause_mask
from engines.clue.notation import O


class Problem:
    __slots__ = ("P", "fixed", "unknown", "allowed", "caps", "mine", "full", "ok", "key")

    def __init__(self, kn: Knowledge, marks: dict[str, list[int | None]],
                 clauses: list[tuple[int, tuple[str, ...]]] | None = None,
                 numbers: dict[str, list[tuple[int, ...]]] | None = None) -> None:
        P = self.P = len(kn.hand_sizes)
        caps = [*kn.hand_sizes, *([1] * len(kn.categories))]
        allowed = [0] * len(caps)
        fixed: dict[str, int] = {}
        unknown: list[str] = []
        marked: dict[int, tuple[int, int]] = {}  # numbered mark → (player, its unknown blank cards)
        bit = 1
        players = range(P)
        for k, cat in enumerate(kn.categories):
            ek = P + k
            for c in cat:
                row = marks[c]
                if O in row:
                    o = row.index(O)
                    fixed[c] = o
                    caps[ek if o == P else o] -= 1
                    continue
                if numbers is None:
                    for p in players:
                        if row[p] is None:
                            allowed[p] |= bit
                else:
                    refs = numbers[c]
                    for p in players:
                        if row[p] is None:
                            allowed[p] |= bit
                            if refs[p]:
                                for r in refs[p]:
                                    marked[r] = (p, marked[r][1] | bit) if r in marked else (p, bit)
                if row[P] is None:
                    allowed[ek] |= bit
                unknown.append(c)
                bit <<= 1
        ok = min(caps) >= 0 and sum(caps) == len(unknown)
        pairs = set(marked.values())
        if clauses is not None:
            index = {c: 1 << i for i, c in enumerate(unknown)}
            for p, cards in clauses:
                s = clause_mask(cards, p, index, marks)
                if not s:
                    ok = False  # a numbered mark none of whose cards p may still hold
                pairs.add((p, s))
        mine: dict[int, list[int]] = {}
        for p, s in pairs:
            if not caps[p]:
                ok = False  # a numbered mark on a full hand (no propagation in a sub-count)
            if p in mine:
                mine[p].append(s)
            else:
                mine[p] = [s]
        self.fixed, self.unknown, self.allowed, self.caps, self.mine = fixed, unknown, allowed, caps, mine
        self.full = bit - 1
        self.ok = ok
        self.key = (tuple(unknown), tuple(fixed.values()), tuple(allowed), frozenset(pairs))
