"""Spyfall DC's phase table: who moves in each phase of a round, and the only actions each phase takes.

The engine derives `to_move` from it and checks every action against it once (`Spyfall._apply`), so no
handler repeats a phase guard; `legal_actions` lists the values each phase's actions may take."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from engines.core import CHANCE, TABLE
from engines.spyfall.state import Phase, SpyState

# Who moves: "all": every player and the table; "ballots": the voters when votes are sealed, else the
# table (it enters the counts); "pride": the vote's voters and the table; "revealer": the revealed Joker.
Movers = Literal["table", "chance", "all", "ballots", "pride", "revealer"]
PHASES: Mapping[Phase, tuple[Movers, frozenset[str]]] = {
    "choose_dealer": ("table", frozenset({"choose_dealer"})),
    "deal": ("chance", frozenset({"deal", "pick_bag"})),
    "ready": ("table", frozenset({"start_clock"})),
    "play": ("all", frozenset({"pause_clock", "resume_clock", "time_up", "accuse", "reveal_joker",
                               "call_multiverse", "use_ability"})),
    "accusation": ("ballots", frozenset({"vote", "hands"})),
    "pride": ("pride", frozenset({"use_ability", "resume_clock"})),
    "multiverse_vote": ("ballots", frozenset({"vote", "hands"})),
    "guess": ("revealer", frozenset({"guess_location", "declare_prank"})),
    "confirm_guess": ("table", frozenset({"confirm_guess"})),
    "harley_talk": ("table", frozenset({"time_up", "start_pointing"})),
    "harley_vote": ("ballots", frozenset({"point", "points"})),
    "discussion": ("table", frozenset({"time_up", "start_pointing"})),
    "final_vote": ("ballots", frozenset({"point", "points"})),
    "reveal": ("table", frozenset({"enter_cards"})),
    "round_over": ("table", frozenset({"next_round", "end_session"})),
}


def to_move(state: SpyState) -> frozenset[int]:
    """The seats that may act now, from the phase's row."""
    if state.over or state.round is None:
        return frozenset()
    r = state.round
    movers = PHASES[r.phase][0]
    if movers == "chance":
        return frozenset({CHANCE})
    if movers == "all":
        return frozenset(range(len(state.players))) | {TABLE}
    if movers == "revealer":
        assert r.joker is not None
        return frozenset({r.joker.seat})
    if movers in ("ballots", "pride"):
        assert r.vote is not None  # sealed: every voter (one who voted is told a vote cannot change)
        if movers == "pride":
            return frozenset(r.vote.eligible) | {TABLE}
        return frozenset(r.vote.eligible) if state.settings.sealed else frozenset({TABLE})
    return frozenset({TABLE})
