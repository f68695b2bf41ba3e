"""Exact counting, the layered programme over cards (used past engines.clue.subsets' limit).

- state = remaining capacity of every owner (each player, and one envelope slot per category), plus one
  bit per open numbered mark ("player p showed one of these") recording whether p got one of its cards;
- numbered cards come first, one card per layer, in an order that closes marks early (a mark's bit is
  checked and dropped at its last card, so few bits are open at once);
- the other unknown cards are grouped by the owners they may have; a group of g interchangeable cards
  is handed out owner by owner (n of the remaining r cards in C(r, n) ways), not card by card: the
  envelope slot first, the last two owners in one step; groups go category by category, so each
  envelope slot stops varying early;
- a move depends only on a few bits of the state (its owners' capacities, r, the marks it touches): the
  moves are worked out once per distinct value of those bits and applied as plain deltas;
- a forward pass counts ways to reach each state, a backward pass the ways to finish from it; the
  product gives, for every card and owner, the number of consistent deals where that owner holds it.

If a layer would exceed `max_states`, BudgetExceeded is raised (the counter then approximates).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from math import comb

from engines.clue.knowledge import Knowledge
from engines.clue.notation import O

CAP_BITS = 4


class BudgetExceeded(Exception):
    pass


Move = tuple[int, int, int]  # (state delta, ways, kind: single → owner index; step → n, or n·(g+1) + m)
CAP = (1 << CAP_BITS) - 1


class _Stage:
    """One layer of the programme, of one of two kinds:

    - "single": one card (a numbered one, or the only card of its group) to one of its owners; sets that
      owner's bits of the marks naming the card and drops the marks it completes (all must be set);
    - "step": one owner's share of a group of interchangeable cards (n of the r cards left in C(r, n)
      ways; r is kept in the state between the group's steps); the group's last step serves two owners,
      the second taking the r - n cards left.

    A move depends only on the state's bits under `mask` (the capacities of the stage's owners, r, the
    marks' bits), so moves are worked out once per masked key (`compute`) and each is a plain delta added
    to the state. `avail[i]`: cards still to come that owner i may get; its capacity may not exceed that."""

    __slots__ = ("single", "owners", "cards", "mask", "moves", "compute")

    def __init__(self, single: bool, owners: tuple[int, ...], cards: tuple[str, ...], avail: tuple[int, ...],
                 rem_shift: int, setbits: tuple[int, ...] = (), close: int = 0, first: bool = False,
                 last: bool = False) -> None:
        self.single, self.owners, self.cards = single, owners, cards
        mask = 0
        for o in owners:
            mask |= CAP << (CAP_BITS * o)
        if single:
            marks = close
            for b in setbits:
                marks |= b
            mask |= marks << (rem_shift + 6)
            self.compute = _single_moves(owners, avail, rem_shift + 6, setbits, close) if marks else \
                _plain_moves(owners, avail)
        else:
            if not first:
                mask |= 63 << rem_shift
            self.compute = _step_moves(owners, len(cards), avail, rem_shift, first, last)
        self.mask = mask
        self.moves: dict[int, list[Move]] = {}


def _forced(key: int, info: tuple[tuple[int, int, int], ...]) -> int:
    """-1: any owner with room may take the card; i ≥ 0: owner i must (it needs every card still to come
    that it may get); -2: none can (two owners need it, or one needs more than all that is left)."""
    pick = -1
    for i, sh, av in info:
        c = key >> sh & CAP
        if c > av:
            if pick >= 0 or c > av + 1:
                return -2
            pick = i
    return pick


def _plain_moves(owners: tuple[int, ...], avail: tuple[int, ...]) -> Callable[[int], list[Move]]:
    info = tuple((i, CAP_BITS * o, av) for i, (o, av) in enumerate(zip(owners, avail, strict=True)))
    units = [-(1 << (CAP_BITS * o)) for o in owners]

    def compute(key: int) -> list[Move]:
        pick = _forced(key, info)
        if pick >= 0:
            return [(units[pick], 1, pick)]
        if pick == -2:
            return []
        return [(units[i], 1, i) for i, sh, _av in info if key >> sh & CAP]
    return compute


def _single_moves(owners: tuple[int, ...], avail: tuple[int, ...], bit_shift: int, setbits: tuple[int, ...],
                  close: int) -> Callable[[int], list[Move]]:
    info = tuple((i, CAP_BITS * o, av) for i, (o, av) in enumerate(zip(owners, avail, strict=True)))
    every = tuple((i, CAP_BITS * o, 1 << (CAP_BITS * o), b) for i, (o, b) in enumerate(zip(owners, setbits,
                                                                                         strict=True)))
    keep = ~close

    def compute(key: int) -> list[Move]:
        pick = _forced(key, info)
        if pick == -2:
            return []
        old = key >> bit_shift
        out = []
        for i, sh, unit, b in (every[pick],) if pick >= 0 else every:
            if key >> sh & CAP:
                new = old | b
                if new & close == close:
                    out.append(((((new & keep) - old) << bit_shift) - unit, 1, i))
        return out
    return compute


def _step_moves(owners: tuple[int, ...], g: int, avail: tuple[int, ...], rem_shift: int, first: bool,
                last: bool) -> Callable[[int], list[Move]]:
    sh = CAP_BITS * owners[0]
    av = avail[0]
    if len(owners) == 2:  # the group's last two owners: n cards to the first, the rest to the other
        sh2, av2 = CAP_BITS * owners[1], avail[1]

        def two(key: int) -> list[Move]:
            cap, cap2 = key >> sh & CAP, key >> sh2 & CAP
            rem = g if first else key >> rem_shift & 63
            before = 0 if first else rem << rem_shift
            return [(-before - (n << sh) - ((rem - n) << sh2), comb(rem, n), n * (g + 1) + rem - n)
                    for n in range(max(0, rem - cap2, cap - av), min(cap, rem, rem - cap2 + av2) + 1)]
        return two

    def one(key: int) -> list[Move]:
        cap = key >> sh & CAP
        rem = g if first else key >> rem_shift & 63
        before = 0 if first else rem << rem_shift
        if last:
            return [(-before - (rem << sh), 1, rem)] if cap - rem <= av and rem <= cap else []
        return [((((rem - n) << rem_shift) - before) - (n << sh), comb(rem, n), n)
                for n in range(max(0, cap - av), min(cap, rem) + 1)]
    return one


class LayeredModel:
    """The layered counting problem for fixed marks; forward/backward passes, marginals, sampling."""

    def __init__(self, kn: Knowledge, marks: dict[str, list[int | None]],
                 clauses: list[tuple[int, tuple[str, ...]]], max_states: int) -> None:
        self.kn = kn
        P = len(kn.hand_sizes)
        K = len(kn.categories)
        self.W = P + K
        self.rem_shift = CAP_BITS * self.W
        self.max_states = max_states
        self.fixed: dict[str, int] = {}
        caps = list(kn.hand_sizes) + [1] * K
        allowed: dict[str, tuple[int, ...]] = {}
        cat_of: dict[str, int] = {}
        ok = True
        players = range(P)
        for k, cat in enumerate(kn.categories):
            for c in cat:
                row = marks[c]
                if O in row:
                    o = row.index(O)
                    self.fixed[c] = o
                    caps[P + k if o == P else o] -= 1
                else:
                    a = [p for p in players if row[p] is None]
                    if row[P] is None:
                        a.append(P + k)
                    elif not a:
                        ok = False
                    allowed[c] = tuple(a)
                    cat_of[c] = k
        self.ok = ok and min(caps) >= 0
        if max(caps) > CAP:
            raise BudgetExceeded(0)  # a hand too big for the state encoding: approximate instead
        self.start = sum(cap << (CAP_BITS * o) for o, cap in enumerate(caps) if cap > 0)
        self.ok = self.ok and sum(caps) == len(allowed)
        # clauses over unknown cards (bit i: the i-th unknown card), minimal per player
        unknown = list(allowed)
        index = {c: 1 << i for i, c in enumerate(unknown)}
        cl: set[tuple[int, int]] = set()
        for p, cards in clauses:
            s = clause_mask(cards, p, index, marks)
            if not s:
                self.ok = False
            cl.add((p, s))
        minimal: list[tuple[int, int]] = []
        kept: dict[int, list[int]] = {}
        for p, s in sorted(cl, key=lambda t: t[1].bit_count()):
            mine = kept.setdefault(p, [])
            for t in mine:
                if not t & ~s:
                    break
            else:
                mine.append(s)
                minimal.append((p, s))
        self.stages = self._plan(allowed, cat_of, unknown, minimal)
        self.layers: list[dict[int, int]] = []
        self.back: list[dict[int, int]] = []

    @staticmethod
    def _order(unknown: list[str], of_card: dict[int, int], left: list[int]) -> list[int]:
        """Numbered cards (indices into `unknown`; `of_card`: index → bits of the clauses naming it) in an
        order that keeps few marks open: greedily the card after which the fewest marks are open (opened by
        a placed card, not yet complete); ties by card id. `left`: cards per clause (consumed)."""
        todo = sorted(of_card, key=unknown.__getitem__)
        ones = 0
        for j, n in enumerate(left):
            if n == 1:
                ones |= 1 << j
        open_ = 0
        order: list[int] = []
        while todo:
            # open after i: the open marks and i's, less those i completes (i is their last card)
            best, cost = -1, 1 << 30
            for i in todo:
                mine = of_card[i]
                n = (open_ | mine).bit_count() - (mine & ones).bit_count()
                if n < cost:
                    best, cost = i, n
            order.append(best)
            todo.remove(best)
            mine = of_card[best]
            open_ |= mine
            while mine:
                low = mine & -mine
                j = low.bit_length() - 1
                left[j] -= 1
                if left[j] == 1:
                    ones |= low
                elif left[j] == 0:
                    ones &= ~low
                    open_ &= ~low
                mine ^= low
        return order

    def _plan(self, allowed: dict[str, tuple[int, ...]], cat_of: dict[str, int], unknown: list[str],
              clauses: list[tuple[int, int]]) -> list[_Stage]:
        of_card: dict[int, int] = {}
        for j, (_p, s) in enumerate(clauses):
            while s:
                low = s & -s
                i = low.bit_length() - 1
                of_card[i] = of_card.get(i, 0) | 1 << j
                s ^= low
        order = self._order(unknown, of_card, [s.bit_count() for _, s in clauses])
        groups: dict[tuple[int, ...], list[str]] = {}
        for i, c in enumerate(unknown):
            if i not in of_card:
                groups.setdefault(allowed[c], []).append(c)
        # numbered cards first; then the groups category by category, so that each envelope slot's
        # capacity stops varying early (fewer states)
        items: list[tuple[str, ...]] = [(unknown[i],) for i in order] + [
            tuple(v) for _, v in sorted(groups.items(), key=lambda kv: (cat_of[kv[1][0]], kv[0]))]
        # cards still to come for each owner after item i
        after_avail: list[list[int]] = []
        running = [0] * self.W
        for it in reversed(items):
            after_avail.append(running[:])
            g = len(it)
            for o in allowed[it[0]]:
                running[o] += g
        after_avail.reverse()
        stages: list[_Stage] = []
        placed = 0
        rs = self.rem_shift
        for k, i in enumerate(order):  # numbered cards
            c = unknown[i]
            owners = allowed[c]
            aa = after_avail[k]
            placed |= 1 << i
            setbit = [0] * self.W
            close = 0
            mine = of_card[i]
            while mine:
                low = mine & -mine
                p, s = clauses[low.bit_length() - 1]
                setbit[p] |= low
                if not s & ~placed:
                    close |= low
                mine ^= low
            stages.append(_Stage(True, owners, (c,), tuple([aa[o] for o in owners]), rs,
                                 tuple([setbit[o] for o in owners]), close))
        for k in range(len(order), len(items)):
            it = items[k]
            owners = allowed[it[0]]
            aa = after_avail[k]
            avail = tuple([aa[o] for o in owners])
            if len(it) == 1:
                stages.append(_Stage(True, owners, it, avail, rs))
                continue
            if len(owners) == 1:  # possible in a wrong accusation's sub-count (no propagation there)
                stages.append(_Stage(False, owners, it, avail, rs, first=True, last=True))
                continue
            # the envelope slot (capacity 0 or 1, last in `owners`) first: fewer states between steps;
            # the last two owners in one step (the last one takes what is left)
            seq = [len(owners) - 1, *range(len(owners) - 1)]
            for n, j in enumerate(seq[:-2]):
                stages.append(_Stage(False, (owners[j],), it, (avail[j],), rs, first=n == 0))
            a, b = seq[-2:]
            stages.append(_Stage(False, (owners[a], owners[b]), it, (avail[a], avail[b]), rs,
                                 first=len(seq) == 2, last=True))
        return stages

    def forward(self) -> None:
        layer = {self.start: 1}
        self.layers = [layer]
        for st in self.stages:
            nxt: dict[int, int] = {}
            get = nxt.get
            moves, mask, compute = st.moves, st.mask, st.compute
            for s, w in layer.items():
                key = s & mask
                mv = moves.get(key)
                if mv is None:
                    mv = moves[key] = compute(key)
                for delta, ways, _v in mv:
                    t = s + delta
                    nxt[t] = get(t, 0) + w * ways
            if len(nxt) > self.max_states:
                raise BudgetExceeded(len(nxt))
            layer = nxt
            self.layers.append(layer)

    def backward(self, counts: dict[str, list[int]]) -> int:
        """Backward pass; adds per-card, per-owner deal counts into `counts`; returns the total."""
        P = self.kn.players
        nxt_b: dict[int, int] = {0: 1} if 0 in self.layers[-1] else {}
        self.back = [nxt_b]
        for k in range(len(self.stages) - 1, -1, -1):
            st = self.stages[k]
            cur_b: dict[int, int] = {}
            per = [0] * (len(st.owners) if st.single else (len(st.cards) + 1) ** len(st.owners))  # by move kind
            moves, mask, get = st.moves, st.mask, nxt_b.get
            for s, f in self.layers[k].items():
                acc = 0
                for delta, ways, v in moves[s & mask]:
                    b = get(s + delta)
                    if b:
                        x = ways * b
                        acc += x
                        per[v] += f * x
                if acc:
                    cur_b[s] = acc
            if st.single:
                for o, v in zip(st.owners, per, strict=True):
                    counts[st.cards[0]][P if o >= P else o] += v
            else:
                g = len(st.cards)
                for i, o in enumerate(st.owners):
                    # v = n (one owner) or n·(g+1) + m (two owners: n and m cards)
                    got = sum((v // (g + 1) if i == 0 else v % (g + 1)) * x if len(st.owners) == 2 else v * x
                              for v, x in enumerate(per) if x)
                    share = got // g
                    for c in st.cards:
                        counts[c][P if o >= P else o] += share
            nxt_b = cur_b
            self.back.append(cur_b)
        self.back.reverse()
        total = nxt_b.get(self.start, 0)
        for c, o in self.fixed.items():
            counts[c][o] += total
        return total

    def sample(self, rng: random.Random) -> dict[str, int]:
        """One consistent deal drawn uniformly (card → owner), after forward/backward."""
        P = self.kn.players
        deal = dict(self.fixed)
        s = self.start
        for k, st in enumerate(self.stages):
            nb = self.back[k + 1]
            moves = [(ways * nb.get(s + delta, 0), delta, v) for delta, ways, v in st.moves[s & st.mask]]
            r = rng.randrange(sum(m[0] for m in moves))
            pick = moves[-1]
            for mv in moves:
                if r < mv[0]:
                    pick = mv
                    break
                r -= mv[0]
            _w, delta, v = pick
            if st.single:
                o = st.owners[v]
                deal[st.cards[0]] = P if o >= P else o
            else:
                g = len(st.cards)
                shares = [v // (g + 1), v % (g + 1)] if len(st.owners) == 2 else [v]
                free = [c for c in st.cards if c not in deal]
                for o, n in zip(st.owners, shares, strict=True):
                    for c in rng.sample(free, n):
                        deal[c] = P if o >= P else o
                        free.remove(c)
            s += delta
        return deal


def clause_mask(cards: tuple[str, ...], p: int, index: dict[str, int],
                marks: dict[str, list[int | None]]) -> int:
    """A numbered mark's cards as a bitmask over the unknown cards still open for player p (0: none left)."""
    s = 0
    for c in cards:
        if c in index and marks[c][p] is None:
            s |= index[c]
    return s
