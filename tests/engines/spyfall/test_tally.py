"""Open pointing votes entered by hand (the final vote, the Harley hunt): the counts must account for every
player who points, or the table's entry is refused and nothing changes."""

from __future__ import annotations

from engines.core import TABLE
from engines.spyfall import actions as A
from tests.engines.spyfall.helpers import ANN, ISAAC, JUAN, MARIA, NAMES, E, Table


def _final_vote(votes: str = "open") -> Table:
    t = Table(votes=votes)  # the rulebook's four: Ann holds the Joker card
    t.start()
    t.time_up()
    t.discuss_then_point()
    return t


def _hunt() -> Table:
    t = Table(NAMES[:5], modules=["harley"])
    t.start(deck="batcave", joker=0, harley=3)
    t.do(A.RevealJoker(0, t.at()))
    t.do(A.GuessLocation(0, "batcave", t.at()))
    t.discuss_then_point()
    return t


def test_final_vote_tally_short_of_a_finger_is_refused() -> None:
    """Covers SPY-29, SPY-31, SPY-32, SPY-53. Every player, the Joker too, points at once: 4 players, 4
    fingers. Ann 2 and Juan 1 (3 of 4) convicted Ann before; the missing finger could have made a 2-2 tie that
    convicts nobody, so the entry is refused, saying how many point and how many are missing."""
    t = _final_vote()
    short = t.fails(A.Points(TABLE, (2, 1, 0, 0), t.at()), "bad_counts")
    assert "조커를 포함해 모두 4명" in short.ko and "1표가 모자라요" in short.ko
    assert "all 4 players" in short.en and "1 missing" in short.en
    none = t.fails(A.Points(TABLE, (0, 0, 0, 0), t.at()), "bad_counts")
    assert "4표가 모자라요" in none.ko
    extra = t.fails(A.Points(TABLE, (2, 2, 1, 0), t.at()), "bad_counts")
    assert "1표가 많아요" in extra.ko and "1 too many" in extra.en
    assert t.r.phase == "final_vote" and t.r.verdict is None
    u = _final_vote()
    u.point_counts([2, 2, 0, 0])  # the fourth finger made the tie
    assert u.r.verdict.ending == "no_conviction"
    t.point_counts([2, 0, 1, 1])  # scoring example 2: Ann 2, Maria 1, Isaac 1
    assert t.r.verdict.convicted == ANN and t.points_of_round() == (0, 1, 1, 1)


def test_final_vote_tally_gives_no_seat_its_own_finger() -> None:
    """Covers SPY-33 (decided: no one points at themselves). 4 fingers, all on Ann: Ann would point at herself;
    the refusal says at most 3 for Ann."""
    t = _final_vote()
    own = t.fails(A.Points(TABLE, (4, 0, 0, 0), t.at()), "self_point")
    assert "앤에게는 3표까지" in own.ko and "At most 3 for 앤" in own.en


def test_harley_hunt_tally_counts_everyone_but_the_joker() -> None:
    """Covers SPY-71, SPY-72, SPY-73. After the Joker's right guess everyone but the Joker points, Harley
    included: 5 players, 4 fingers. 2 of 4 on one seat decided the hunt before; now refused, naming the Joker
    who sits out. The Joker's own finger does not count (5 fingers are too many)."""
    t = _hunt()
    assert t.r.phase == "harley_vote"
    short = t.fails(A.Points(TABLE, (0, 2, 0, 0, 0), t.at()), "bad_counts")
    assert "조커 지수를 뺀 4명" in short.ko and "2표가 모자라요" in short.ko
    assert "other than the Joker, 지수" in short.en and "2 missing" in short.en
    t.fails(A.Points(TABLE, (0, 2, 1, 2, 0), t.at()), "bad_counts")
    t.fails(A.Points(TABLE, (1, 1, 1, 1, 0), t.at()), "not_candidate")  # the Joker is not pointed at
    t.point_counts([0, 1, 0, 3, 0])
    assert t.r.joker.hunt_suspect == 3 and t.points_of_round() == (0, 1, 1, 0, 1)  # Harley found


def test_sealed_pointing_waits_for_every_voter() -> None:
    """Covers SPY-29. Sealed: the vote is decided only when every voter has pointed (3 of 4 is not enough)."""
    t = _final_vote("sealed")
    for voter, target in ((JUAN, ANN), (MARIA, ANN), (ISAAC, JUAN)):
        t.do(A.PointAt(voter, target, t.at()))
    assert t.r.phase == "final_vote" and t.r.vote.waiting == {ANN}
    t.do(A.PointAt(ANN, JUAN, t.at()))
    assert t.r.verdict.ending == "no_conviction"  # Ann's own finger made the 2-2 tie


def test_offered_tallies_account_for_every_voter() -> None:
    """Covers SPY-29, SPY-72. The tallies the engine offers the table (random play, the generic host) each have
    one finger per voter and apply."""
    for t in (_final_vote(), _hunt()):
        offered = [a for a in E.legal_actions(t.state, TABLE) if isinstance(a, A.Points)]
        assert offered and all(sum(a.counts) == len(t.r.vote.eligible) for a in offered)
        for a in offered:
            E.apply(t.state, A.Points(TABLE, a.counts, t.at()))


def test_the_table_view_gives_the_tally_to_enter() -> None:
    """Covers SPY-29, SPY-33, SPY-72. The table's screen reads how many fingers a tally holds and the most
    each seat may get (never the Joker in the hunt), to grey its button before the tap; not when sealed."""
    final = E.view(_final_vote().state, None)["round"]
    assert final["tally"] == {"fingers": 4, "most": [3, 3, 3, 3]}
    hunt = E.view(_hunt().state, None)["round"]
    assert hunt["tally"] == {"fingers": 4, "most": [0, 3, 3, 3, 3]}
    assert "tally" not in E.view(_final_vote("sealed").state, None)["round"]
