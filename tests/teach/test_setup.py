"""The set-up checklist computed for the table matches the rulebook for every player count and module."""

from __future__ import annotations

import pytest

from engines import find_engine
from kiosk.teach.setup import allowed_modules, checklist, params
from tests.packs import pack_for
from tests.teach.helpers import teaching


def ids(game: str, players: int, modules: tuple[str, ...] = ()) -> list[str]:
    return [c.id for c in checklist(teaching(game).teaching, players, modules)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_watson_holmes_up_to_five_everyone_gets_police(players: int) -> None:
    """Covers WH-37, WH-41: police for all; Wiggins back in the box below 4 players."""
    got = ids("watson_holmes", players)
    assert "police_all" in got and "police_five" not in got and "withdraw_late" not in got
    assert ("wiggins_out" in got) == (players < 4) and ("characters" in got) == (players >= 4)


@pytest.mark.parametrize("players,late", [(6, "6번째 플레이어"), (7, "6번째와 7번째 플레이어")])
def test_watson_holmes_six_or_seven_police_for_five_withdraw_for_the_rest(players: int, late: str) -> None:
    """Covers WH-38, WH-39."""
    items = {c.id: c.text for c in checklist(teaching("watson_holmes").teaching, players)}
    assert "police_all" not in items and "police_five" in items
    assert items["withdraw_late"].startswith(late) and "철수 토큰" in items["withdraw_late"]
    en = {c.id: c.text for c in checklist(teaching("watson_holmes").teaching, players, lang="en")}
    assert ("6th and 7th" in en["withdraw_late"]) == (players == 7)


def test_watson_holmes_expert_variant_swaps_the_watson_item() -> None:
    """Covers WH-90."""
    assert "watson" in ids("watson_holmes", 4) and "no_watson" not in ids("watson_holmes", 4)
    got = ids("watson_holmes", 4, ("expert",))
    assert "no_watson" in got and "watson" not in got


@pytest.mark.parametrize("players", range(3, 9))
def test_spyfall_deal_takes_one_card_per_player_and_harley_only_from_five(players: int) -> None:
    """Covers SPY-16, SPY-17, SPY-66, SPY-67."""
    t = teaching("spyfall").teaching
    deal = next(c.text for c in checklist(t, players, lang="en") if c.id == "deal")
    assert f"takes {players} cards" in deal and f"1 Joker and {players - 1} location cards" in deal
    assert ("harley" in allowed_modules(t, players)) == (players >= 5)
    got = ids("spyfall", players, ("harley",))
    assert ("harley_on" in got) == (players >= 5) and ("harley_off" in got) == (players < 5)


def test_spyfall_modules_add_their_items() -> None:
    """Covers SPY-59, SPY-84, SPY-85, SPY-91."""
    got = ids("spyfall", 6, ("power_up", "prank", "multiverse"))
    assert {"power_up", "prank", "multiverse"} <= set(got)
    assert not {"power_up", "prank", "multiverse"} & set(ids("spyfall", 6))


@pytest.mark.parametrize("players", range(3, 7))
def test_clue_uneven_hands_match_the_engines_deal(players: int) -> None:
    """Covers CLUE-12, CLUE-13, CLUE-08: the checklist's hand sizes are the engine's for every count."""
    t = teaching("clue").teaching
    p = params(t, players)
    state = find_engine("clue").setup({"players": [f"p{i}" for i in range(players)], "mode": "digital",
                                       "set": "classic"}, pack_for("clue"), 1)
    sizes = sorted(state.hand_sizes, reverse=True)
    assert sum(sizes) == 18
    assert sizes == [p["share_hi"]] * p["share_more"] + [p["share_lo"]] * (players - p["share_more"])
    words = {3: "모두 6장씩", 4: "두 명은 5장, 두 명은 4장", 5: "세 명은 4장, 두 명은 3장", 6: "모두 3장씩"}
    deal = next(c.text for c in checklist(t, players) if c.id == "deal")
    assert words[players] in deal
    assert ("unused_tokens" in ids("clue", players)) == (players < 6)


def test_mr_jack_is_for_two_and_the_checklist_follows_the_rulebook() -> None:
    """Covers JACK-01, JACK-06, JACK-07, JACK-08, JACK-09."""
    assert ids("mr_jack_ny", 2) == ["roles", "board", "spy", "decks", "witness", "culprit"]
    with pytest.raises(ValueError):
        checklist(teaching("mr_jack_ny").teaching, 3)


def test_modules_not_allowed_at_this_count_are_dropped() -> None:
    got = ids("spyfall", 4, ("harley", "power_up"))
    assert "power_up" in got and "harley_on" not in got and "harley_off" in got
