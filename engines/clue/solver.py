"""The deduction tutor: one player's notebook, exact probabilities, suggestion advice, mark grading.

    kn = knowledge_for(state, seat)          # engines.clue.views: facts that seat may use
    a = analyse(kn)                          # notation + propagation + exact counting
    a.notebook.marks / .numbers / .deductions / .contradiction
    a.probs.envelope(card), a.probs.owner(card, player), a.probs.exact
    advise(a, room="lounge")                 # suggestions ranked by expected information (bits)
    verdict(a, room="lounge")                # the same in words: solved / nothing(_here) / much / some
    grade(a, card, owner, "O")               # "right" | "wrong" | "not_yet" (tutor level)

Certainty combines both layers: a cell is known when propagation marks it or its exact probability is
0 or 1 (counting finds certainties that local rules miss, e.g. hand-size arguments across players).
"""

from __future__ import annotations

import math
import random
from collections import Counter as Tally
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from engines.clue import messages
from engines.clue.counting import MAX_STATES, BudgetExceeded, Counter, Probabilities, approximate
from engines.clue.knowledge import Knowledge
from engines.clue.notation import Deduction, Notebook, O, X, propagate

Grade = Literal["right", "wrong", "not_yet"]


@dataclass
class Analysis:
    knowledge: Knowledge
    notebook: Notebook
    probs: Probabilities
    counter: Counter | None = None

    @property
    def contradiction(self) -> bool:
        return self.notebook.contradiction is not None or (self.probs.exact and self.probs.total == 0)

    def cell(self, card: str, owner: int) -> int | None:
        """O, X, or None (not yet certain) by propagation or exact counting."""
        m = self.notebook.marks[card][owner]
        if m is not None or not self.probs.exact or not self.probs.total:
            return m
        n = self.probs.counts[card][owner]
        return O if n == self.probs.total else X if n == 0 else None

    def envelope(self) -> dict[int, str]:
        """Category → card certainly in the envelope."""
        out = dict(self.notebook.envelope_known())
        out.update(self.probs.certain_envelope())
        return out

    def solved(self) -> bool:
        return not self.contradiction and len(self.envelope()) == len(self.knowledge.categories)


def analyse(kn: Knowledge, max_states: int = MAX_STATES) -> Analysis:
    nb = propagate(kn)
    try:
        counter = Counter(nb, max_states)
    except BudgetExceeded:
        return Analysis(kn, nb, approximate(nb), None)
    return Analysis(kn, nb, counter.result, counter)


def propagation_only(kn: Knowledge) -> dict[int, str]:
    """Effect-clue style: envelope cards known by local propagation rules alone (no counting)."""
    nb = propagate(kn, local_only=True)
    return {} if nb.contradiction else nb.envelope_known()


def grade(a: Analysis, card: str, owner: int, mark: str) -> Grade:
    """Tutor level: a player's own mark (O or X) against what can be deduced from their information."""
    want = O if mark.upper() in ("O", "0") else X
    known = a.cell(card, owner)
    if known is None:
        return "not_yet"
    return "right" if known == want else "wrong"


@dataclass(frozen=True)
class Advice:
    suspect: str
    weapon: str
    room: str
    bits: float  # expected information of the answer (mutual information with the deal), in bits
    no_answer: float  # probability nobody can disprove it


def advise(a: Analysis, room: str | None = None, samples: int = 160, seed: int = 0,
           top: int = 5) -> list[Advice]:
    """Rank suggestions by the expected information of the reply (CLUE-63).

    Deals are drawn uniformly from the consistent ones (exact sampler); for each candidate the reply
    (who shows, and which card if it is shown to me) is worked out per deal, assuming a shower picks
    uniformly among the named cards they hold. Score = H(reply) − E[H(reply | deal)]. Without the exact
    model (budget exceeded) the rulebook's hint is used: count the open cells the suggestion can settle.
    """
    kn = a.knowledge
    me = kn.me
    cats = kn.categories
    rooms = (room,) if room else cats[2]
    cands = [(s, w, r) for s in cats[0] for w in cats[1] for r in rooms]
    if a.counter is None or a.contradiction or me < 0:
        return _hint_advice(a, cands, top)
    rng = random.Random(seed)
    deals = [d for d in (a.counter.sample(rng) for _ in range(samples)) if d is not None]
    if not deals:
        return _hint_advice(a, cands, top)
    n = kn.players
    # per card, per deal: the place in disproval order of the card's holder (1..n-1; 0: me or the envelope,
    # who never show it), so the first to show is the one with the lowest nonzero place
    place = {p: k for k, p in enumerate(((me + k) % n for k in range(1, n)), 1)}
    cols = {c: [place.get(d[c], 0) for d in deals] for c in {x for cand in cands for x in cand}}
    total = len(deals)
    out = []
    for s, w, r in cands:
        # counts in sixths (a shower picks uniformly among the 1-3 named cards it holds)
        dist: dict[tuple[int, int], int] = {}
        noise = 0.0
        none = 0
        for (ps, pw, pr), times in Tally(zip(cols[s], cols[w], cols[r], strict=True)).items():
            m = min(ps or n, pw or n, pr or n)
            if m == n:
                none += times
                continue
            held = (ps == m) + (pw == m) + (pr == m)
            share = 6 // held * times
            for k, x in ((0, ps), (1, pw), (2, pr)):
                if x == m:
                    dist[(m, k)] = dist.get((m, k), 0) + share
            if held > 1:
                noise += _LOG2[held] * times
        h = -sum(v / (6 * total) * math.log2(v / (6 * total)) for v in dist.values())
        if none:
            h -= none / total * math.log2(none / total)
        out.append(Advice(s, w, r, max(h - noise / total, 0.0), none / total))
    out.sort(key=lambda x: (-x.bits, x.suspect, x.weapon, x.room))
    return out[:top]


_LOG2 = (0.0, 0.0, 1.0, math.log2(3))

Verdict = Literal["solved", "nothing_here", "nothing", "much", "some"]
NOTHING = 0.01  # below this (expected bits, or open cells without the exact model) a suggestion teaches nothing
MUCH_BITS = 1.0  # a reply worth a bit or more (it halves what is possible) teaches a lot
MUCH_CELLS = 4  # the same without the exact model: open cells the suggestion can settle


def verdict(a: Analysis, room: str | None = None, samples: int = 60) -> tuple[Verdict, Advice | None]:
    """What to tell a player about suggesting now, in words rather than bits: the envelope is known (accuse
    now), no suggestion here (in `room`, or anywhere when None) can teach anything, or the best one teaches
    much or some."""
    if a.solved():
        return "solved", None
    best = advise(a, room=room, samples=samples, top=1)
    if not best or best[0].bits < NOTHING:
        return ("nothing_here" if room else "nothing"), None
    much = best[0].bits >= (MUCH_BITS if a.counter is not None else MUCH_CELLS)
    return ("much" if much else "some"), best[0]


def _hint_advice(a: Analysis, cands: Sequence[tuple[str, str, str]], top: int) -> list[Advice]:
    kn = a.knowledge
    out = []
    for s, w, r in cands:
        open_cells = sum(1 for c in (s, w, r) for o in range(kn.players + 1)
                         if a.notebook.marks[c][o] is None)
        out.append(Advice(s, w, r, float(open_cells), 0.0))
    out.sort(key=lambda x: (-x.bits, x.suspect, x.weapon, x.room))
    return out[:top]


def reason(d: Deduction, card_name: Callable[[str], str], player_name: Callable[[int], str],
           lang: str = "ko") -> str:
    """One line saying why a cell was marked (Korean first)."""
    return messages.reason(d, card_name, player_name, lang)


def notebook_rows(a: Analysis) -> list[dict[str, object]]:
    """The grid as the kiosk shows it: per card, per owner 'O' / 'X' / '' plus numbered marks."""
    kn = a.knowledge
    rows: list[dict[str, object]] = []
    for c in kn.cards:
        cells = []
        for o in range(kn.players + 1):
            m = a.cell(c, o)
            cells.append({"mark": "O" if m == O else "X" if m == X else "",
                          "numbers": list(a.notebook.numbers.get(c, [()] * (kn.players + 1))[o])})
        rows.append({"card": c, "cells": cells, "envelope": round(a.probs.envelope(c), 4)})
    return rows
