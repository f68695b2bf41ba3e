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
    assert r.verdict is not None
    ending, convicted = r.verdict.ending, r.verdict.convicted
    joker_play, call = r.joker, r.multiverse
    if facts.kind == "joker":  # Joker's prank round: only a right prank declaration scores (SPY-87, SPY-89)
        if ending == "prank" and joker_play is not None:
            pts[joker_play.seat] = 3
        return tuple(pts)
    if facts.kind == "multiverse":  # SPY-97, SPY-98, SPY-100
        if ending == "multiverse" and call is not None:
            for seat in call.yes:
                pts[seat] = 1
            pts[call.caller] = 3  # the caller gets 3 in all, not 3 + 1 (SPY-98)
        return tuple(pts)
    joker = facts.joker
    assert joker is not None  # a standard round has its one Joker
    harley = facts.harley if settings.harley else None
    heroes = [s for s in range(n) if s not in (joker, harley)]  # Harley never scores hero points (SPY-70)

    def heroes_win(bonus: int = -1) -> None:
        for s in heroes:
            pts[s] = 1
        if bonus in heroes:
            pts[bonus] += 1

    def hero_convicted() -> None:
        if harley is not None and convicted == harley:  # SPY-81 (the specific Harley line wins: SPY-82)
            heroes_win()
            pts[joker] = 1
        else:  # SPY-45, SPY-77
            pts[joker] = 4
            if harley is not None:
                pts[harley] = 2

    if ending == "multiverse":  # not a multiverse round (SPY-99)
        assert call is not None
        pts[joker] = 3
        for s in heroes:
            pts[s] = 0 if s in call.yes else 1
    elif ending == "prank":  # a wrong prank declaration in a normal round: the heroes win (SPY-88)
        heroes_win()
    elif ending == "guess":
        assert joker_play is not None
        if not joker_play.correct:  # SPY-43, SPY-47
            heroes_win()
        elif harley is not None and joker_play.hunt_suspect == harley:  # SPY-73, SPY-78
            heroes_win()
        else:  # SPY-46, SPY-75
            pts[joker] = 4
            if harley is not None:
                pts[harley] = 3
    elif ending == "accusation":
        if convicted == joker:  # SPY-47, SPY-48, SPY-79
            heroes_win(bonus=-1 if r.verdict.accuser is None else r.verdict.accuser)
        else:
            hero_convicted()
    elif ending == "final_vote":
        if convicted == joker:  # SPY-49, SPY-80: the first accuser of the Joker this round (SPY-50)
            heroes_win(bonus=first_accuser_of(r, joker))
        else:
            hero_convicted()
    else:  # nobody convicted (SPY-44, SPY-76)
        pts[joker] = 2
        if harley is not None:
            pts[harley] = 2
    return tuple(pts)
