"""The notebook's advice in words (engines.clue.solver.verdict): solved → accuse now; nothing to learn in this
room; otherwise how much the best suggestion can teach."""

from __future__ import annotations

from engines.clue.knowledge import Fact, Knowledge
from engines.clue.solver import analyse, verdict

CATS = (("s1", "s2", "s3"), ("w1", "w2", "w3"), ("r1", "r2", "r3", "r4"))


def _known_but_rooms() -> Knowledge:
    """I hold s1 w1 r1 r2; player 1 shows to hold s2 and w2; r3/r4: one with player 1, one in the envelope."""
    kn = Knowledge(CATS, (4, 3), me=0).with_hand(0, ("s1", "w1", "r1", "r2"))
    return kn.add(Fact("has", 1, ("s2",)), Fact("has", 1, ("w2",)))


def test_no_suggestion_in_a_room_of_known_cards_teaches_anything() -> None:
    """Covers CLUE-63: in r1 (my own room card) every reply is known in advance: said plainly, no advice."""
    assert verdict(analyse(_known_but_rooms()), room="r1") == ("nothing_here", None)


def test_a_suggestion_naming_an_open_room_teaches_something() -> None:
    """Covers CLUE-63: in r3 the reply tells whether player 1 holds r3 (one bit)."""
    said, best = verdict(analyse(_known_but_rooms()), room="r3", samples=120)
    assert said in ("much", "some") and best is not None and best.room == "r3"
    said, best = verdict(analyse(_known_but_rooms()))  # in the corridor: any room may be named
    assert said in ("much", "some") and best is not None


def test_a_known_envelope_says_accuse_now() -> None:
    """Covers CLUE-58, CLUE-63: once the three envelope cards are certain the advice is to accuse."""
    kn = _known_but_rooms().add(Fact("has", 1, ("r3",)))
    assert verdict(analyse(kn), room="r3") == ("solved", None)
