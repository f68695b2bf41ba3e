"""An open pointing vote entered by hand (the final vote, the Harley hunt): the table enters the fingers
pointing at each seat, and the tally must account for every finger.

Who points (shared/rules/001_…):
- Final vote (SPY-29, L43 "각 플레이어는 동시에 선택한 의심 대상을 가리킵니다"): every player, the Joker too. Nobody
  is accused then (an accusation is a thumbs vote, `Hands`, where every voter not entered as yes is counted no);
  no one points at themselves (SPY-33, decided).
- Harley hunt (SPY-71, SPY-72, L79 "조커가 아닌 플레이어들은 … 각각 다른 플레이어를 가리켜야"): every player but the
  revealed Joker, Harley included, each at another player; the Joker is not pointed at.
So the counts add up to exactly the number of voters, and a seat holds at most the fingers of the voters other
than itself. A tally short of fingers is refused: the missing finger could have made the tie that convicts
nobody (SPY-32, SPY-72). The view gives the table's screen `tally_limits`, to grey its button before the tap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engines.core import IllegalActionError
from engines.spyfall.messages import detail, err, self_fingers, short_fingers


def tally_limits(n: int, voters: Sequence[int], candidates: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """(the fingers a tally holds: one per voter, the most fingers each seat may hold: none on a non-candidate,
    at most the other voters' on a candidate). The table screen reads them in the view."""
    return len(voters), tuple(len(voters) - (s in voters) if s in candidates else 0 for s in range(n))


def tally_refusal(counts: Sequence[int], voters: Sequence[int], candidates: Sequence[int],
                  names: Sequence[str], joker: int | None = None) -> IllegalActionError | None:
    """Why the table may not enter `counts` (fingers per seat), or None. `joker`: the revealed Joker, who
    does not point (the Harley hunt); None in the final vote, where everyone points."""
    n = len(names)
    if len(counts) != n:
        return detail("bad_counts", "counts", n=n)
    fingers, most = tally_limits(n, voters, candidates)
    for seat, c in enumerate(counts):
        if c > most[seat]:
            return self_fingers(names[seat], most[seat]) if seat in candidates else err("not_candidate")
    if sum(counts) != fingers:
        return short_fingers(fingers, sum(counts), None if joker is None else names[joker])
    return None


def sample_tallies(n: int, voters: Sequence[int], candidates: Sequence[int]) -> list[tuple[int, ...]]:
    """A representative set of tallies the table may enter: everyone on one candidate (whose own finger goes
    to the next candidate), and everyone pointing at the next candidate round the table (a tie)."""
    def after(v: int) -> int:
        i = candidates.index(v) if v in candidates else -1
        return candidates[(i + 1) % len(candidates)]

    def tally(targets: Sequence[int]) -> tuple[int, ...]:
        c = Counter(targets)
        return tuple(c[s] for s in range(n))

    if len(candidates) < 2:
        return []
    out = [tally([after(v) if v == c else c for v in voters]) for c in candidates]
    out.append(tally([after(v) for v in voters]))
    return out
