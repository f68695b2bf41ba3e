"""Generic votes for the games: who may vote, on what, open or sealed, and how it is decided.

Kinds
- UNANIMOUS: a yes/no vote that passes only if every eligible voter says yes (Spyfall's accusation:
  everyone but the accused votes).
- PLURALITY: each voter names a candidate; the one with strictly the most votes wins; a tie for the
  most decides nobody (Spyfall's final pointing).
- MAJORITY: a yes/no vote that passes when yes votes outnumber no votes (a tie fails).
"""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.core import IllegalActionError

Choice = int | str
YES, NO = "yes", "no"


class VoteKind(enum.StrEnum):
    UNANIMOUS = "unanimous"
    PLURALITY = "plurality"
    MAJORITY = "majority"


@dataclass(frozen=True)
class VoteResult:
    decided: bool  # the vote has a decision (passed, or a single winner)
    winner: Choice | None  # PLURALITY: the winning candidate; yes/no kinds: YES when passed
    counts: Mapping[str, int]


@dataclass(frozen=True)
class Vote:
    kind: VoteKind
    eligible: tuple[int, ...]
    options: tuple[Choice, ...] = (YES, NO)
    sealed: bool = False
    ballots: tuple[tuple[int, Choice], ...] = ()

    @staticmethod
    def yes_no(kind: VoteKind, eligible: tuple[int, ...], sealed: bool = False) -> Vote:
        return Vote(kind=kind, eligible=eligible, options=(YES, NO), sealed=sealed)

    @staticmethod
    def pointing(eligible: tuple[int, ...], candidates: tuple[int, ...], sealed: bool = False) -> Vote:
        return Vote(kind=VoteKind.PLURALITY, eligible=eligible, options=candidates, sealed=sealed)

    @property
    def voted(self) -> frozenset[int]:
        return frozenset(v for v, _ in self.ballots)

    @property
    def waiting(self) -> frozenset[int]:
        return frozenset(self.eligible) - self.voted

    @property
    def complete(self) -> bool:
        return not self.waiting

    def check(self, voter: int, choice: Choice) -> None:
        if voter not in self.eligible:
            raise IllegalActionError("not_a_voter", "이 투표에는 참여할 수 없어요.",
                                     "You may not vote in this vote.")
        if voter in self.voted:
            raise IllegalActionError("already_voted", "이미 투표했어요. 투표는 바꿀 수 없어요.",
                                     "You have already voted; a vote cannot be changed.")
        if choice not in self.options:
            raise IllegalActionError("bad_choice", "고를 수 없는 선택이에요.", "That is not a choice in this vote.")

    def cast(self, voter: int, choice: Choice) -> Vote:
        self.check(voter, choice)
        return dataclasses.replace(self, ballots=self.ballots + ((voter, choice),))

    def counts(self) -> dict[str, int]:
        c = Counter(str(choice) for _, choice in self.ballots)
        return {str(o): c.get(str(o), 0) for o in self.options}

    def result(self) -> VoteResult:
        """Decide from the ballots cast (call when complete)."""
        return decide(self.kind, {o: n for o, n in zip(self.options, self.counts().values(), strict=True)},
                      len(self.eligible))

    def ballot_of(self, seat: int) -> Choice | None:
        """The seat's own ballot, if cast."""
        return next((c for v, c in self.ballots if v == seat), None)

    def to_view(self, seat: int | None) -> dict[str, Any]:
        """Open votes show every ballot; sealed ones only who has voted (and the seat its own ballot)."""
        out: dict[str, Any] = {"kind": self.kind.value, "eligible": list(self.eligible),
                               "options": list(self.options), "sealed": self.sealed,
                               "voted": sorted(self.voted), "complete": self.complete}
        if not self.sealed:
            out["ballots"] = {str(v): c for v, c in self.ballots}
        elif seat is not None and (mine := self.ballot_of(seat)) is not None:
            out["my_ballot"] = mine
        return out


def decide(kind: VoteKind, counts: Mapping[Choice, int], electorate: int) -> VoteResult:
    """Decide a vote from counts per option (also used when the table enters counts by hand)."""
    if any(n < 0 for n in counts.values()) or sum(counts.values()) > electorate:
        raise IllegalActionError("bad_counts", "표의 수가 투표할 수 있는 사람 수보다 많아요.",
                                 "More votes than voters.")
    shown = {str(k): v for k, v in counts.items()}
    if kind is VoteKind.PLURALITY:
        if not counts or max(counts.values()) == 0:
            return VoteResult(False, None, shown)
        top = max(counts.values())
        leaders = [o for o, n in counts.items() if n == top]
        return VoteResult(len(leaders) == 1, leaders[0] if len(leaders) == 1 else None, shown)
    yes, no = counts.get(YES, 0), counts.get(NO, 0)
    if kind is VoteKind.UNANIMOUS:
        passed = electorate > 0 and yes == electorate
    else:
        passed = yes > no
    return VoteResult(passed, YES if passed else None, shown)
