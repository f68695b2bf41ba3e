"""Round scoring: exactly the rulebook's tables (standard, Harley Quinn helper, Joker's prank, Multiverse
madness), with the decisions recorded in engines/spyfall/__init__.py (SPY-50, SPY-70, SPY-82, SPY-98)."""

from __future__ import annotations

from engines.spyfall.state import Facts, RoundState, Settings


def first_accuser_of(r: RoundState, suspect: int) -> int:
    """The first player who stopped the clock to accuse `suspect` this round (-1: nobody)."""
    for accuser, accused in r.accusations:
        if accused == suspect:
            return accuser
    return -1


def score_round(n: int, settings: Settings, r: RoundState, facts: Facts) -> tuple[int, ...]:
    """Points of every seat for a finished round."""
    pts = [0] * n
    if facts.kind == "joker":  # Joker's prank round: only a right prank declaration scores (SPY-87, SPY-89)
        if r.ending == "prank" and r.prank_by >= 0:
            pts[r.prank_by] = 3
        return tuple(pts)
    if facts.kind == "multiverse":  # SPY-97, SPY-98, SPY-100
        if r.ending == "multiverse":
            for seat in r.mv_yes:
                pts[seat] = 1
            pts[r.mv_caller] = 3  # the caller gets 3 in all, not 3 + 1 (SPY-98)
        return tuple(pts)
    joker = facts.joker
    harley = facts.harley if settings.harley else -1
    heroes = [s for s in range(n) if s not in (joker, harley)]  # Harley never scores hero points (SPY-70)

    def heroes_win(bonus: int = -1) -> None:
        for s in heroes:
            pts[s] = 1
        if bonus in heroes:
            pts[bonus] += 1

    def hero_convicted() -> None:
        if harley >= 0 and r.convicted == harley:  # SPY-81 (the specific Harley line wins: SPY-82)
            heroes_win()
            pts[joker] = 1
        else:  # SPY-45, SPY-77
            pts[joker] = 4
            if harley >= 0:
                pts[harley] = 2

    if r.ending == "multiverse":  # not a multiverse round (SPY-99)
        pts[joker] = 3
        for s in heroes:
            pts[s] = 0 if s in r.mv_yes else 1
    elif r.ending == "prank":  # a wrong prank declaration in a normal round: the heroes win (SPY-88)
        heroes_win()
    elif r.ending == "guess":
        if not r.guess_correct:  # SPY-43, SPY-47
            heroes_win()
        elif harley >= 0 and r.hunt_suspect == harley:  # SPY-73, SPY-78
            heroes_win()
        else:  # SPY-46, SPY-75
            pts[joker] = 4
            if harley >= 0:
                pts[harley] = 3
    elif r.ending == "accusation":
        if r.convicted == joker:  # SPY-47, SPY-48, SPY-79
            heroes_win(bonus=r.accuser)
        else:
            hero_convicted()
    elif r.ending == "final_vote":
        if r.convicted == joker:  # SPY-49, SPY-80: the first accuser of the Joker this round (SPY-50)
            heroes_win(bonus=first_accuser_of(r, joker))
        else:
            hero_convicted()
    else:  # nobody convicted (SPY-44, SPY-76)
        pts[joker] = 2
        if harley >= 0:
            pts[harley] = 2
    return tuple(pts)
