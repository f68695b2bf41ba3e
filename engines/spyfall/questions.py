"""The question chain (SPY-21..SPY-25): a helper the kiosk may use to show who asks next and to flag a
return question. The table keeps the chain itself; the engine's state does not depend on it."""

from __future__ import annotations

from collections.abc import Sequence

from engines.spyfall.messages import err


def check_question(chain: Sequence[tuple[int, int]], asker: int, target: int, players: int, dealer: int) -> None:
    """Raise a RuleError if `asker` may not ask `target` now, given the (asker, target) pairs so far."""
    if not (0 <= asker < players and 0 <= target < players):
        raise err("bad_seat")
    if target == asker:
        raise err("self_question")
    if not chain:
        if asker != dealer:
            raise err("dealer_asks_first")
        return
    last_asker, last_target = chain[-1]
    if asker != last_target:
        raise err("answerer_asks")
    if target == last_asker:
        raise err("no_ask_back")


def next_asker(chain: Sequence[tuple[int, int]], dealer: int) -> int:
    """Who asks the next question: the dealer first, then whoever answered last."""
    return chain[-1][1] if chain else dealer
