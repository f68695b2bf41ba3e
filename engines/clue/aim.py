"""Suggestions scored for what they teach about the envelope (어려움, engines.clue.bots).

`solver.advise` ranks a suggestion by the expected information of its reply about the whole deal: much of
that is about who holds what, which wins nothing by itself. `envelope_advice` ranks by the expected fall
in the envelope's uncertainty (the sum of its three categories' entropies) once the reply is seen, plus a
little of the whole-deal information (`deal_weight`: it still narrows later replies). Both from the same
uniform draws of the consistent deals (the exact sampler) and the same reply model: the first player after
me holding a named card shows one, chosen uniformly among those they hold; I see which.
"""

from __future__ import annotations

import math
import random
from collections import Counter as Tally
from collections.abc import Sequence

from engines.clue.solver import Analysis

Triple = tuple[str, str, str]


def _entropy(weights: Sequence[float]) -> float:
    total = sum(weights)
    if total <= 0:
        return 0.0
    return math.log2(total) - sum(w * math.log2(w) for w in weights if w > 0) / total


def envelope_advice(a: Analysis, rooms: Sequence[str], samples: int, seed: int,
                    deal_weight: float = 0.25) -> dict[Triple, float]:
    """Suggestion (suspect, weapon, room) in `rooms` → its score in bits (higher teaches more); empty when
    the exact model is missing (the caller falls back on `solver.advise`)."""
    kn = a.knowledge
    me, n, cats = kn.me, kn.players, kn.categories
    if a.counter is None or a.contradiction or me < 0:
        return {}
    rng = random.Random(seed)
    deals = [d for d in (a.counter.sample(rng) for _ in range(samples)) if d is not None]
    if not deals:
        return {}
    place = {p: k for k, p in enumerate(((me + k) % n for k in range(1, n)), 1)}
    envs = [tuple(next(c for c in cat if d[c] == n) for cat in cats) for d in deals]
    total = len(deals)
    prior = sum(_entropy(list(Tally(e[i] for e in envs).values())) for i in range(len(cats)))
    cols = {c: [place.get(d[c], 0) for d in deals] for c in kn.cards}
    out: dict[Triple, float] = {}
    for r in rooms:
        for s in cats[0]:
            for w in cats[1]:
                # reply → [weight, envelope card weights per category]
                replies: dict[tuple[int, int], list[dict[str, float]]] = {}
                noise = 0.0
                for (ps, pw, pr, env), times in Tally(zip(cols[s], cols[w], cols[r], envs, strict=True)).items():
                    m = min(ps or n, pw or n, pr or n)
                    if m == n:
                        shown: list[tuple[tuple[int, int], float]] = [((0, -1), float(times))]
                    else:
                        held = (ps == m) + (pw == m) + (pr == m)
                        shown = [((m, k), times / held) for k, x in enumerate((ps, pw, pr)) if x == m]
                        noise += math.log2(held) * times
                    for key, wt in shown:
                        tallies = replies.setdefault(key, [{}, {}, {}, {}])
                        tallies[3][""] = tallies[3].get("", 0.0) + wt
                        for i, card in enumerate(env):
                            tallies[i][card] = tallies[i].get(card, 0.0) + wt
                weights = [t[3][""] for t in replies.values()]
                after = sum(t[3][""] / total * sum(_entropy(list(t[i].values())) for i in range(3))
                            for t in replies.values())
                deal_bits = max(_entropy(weights) - noise / total, 0.0)
                out[(s, w, r)] = max(prior - after, 0.0) + deal_weight * deal_bits
    return out
