"""Spyfall DC (스파이폴 DC): a session of rounds; in each, one Joker hunts the location the others share.

Rulebook: shared/rules/001_47ef9bbff714481d.txt; checklist SPY-01..SPY-100. Modules, each on for a
session: Power-up, Harley Quinn helper (5+), Joker's prank, Multiverse madness. Deal modes: digital (the
engine deals; each seat sees only its card) and physical (the kiosk names the bag to take; the real cards
decide the roles and the table enters the revealed cards when the round ends — see `EnterCards`).

Decisions on the AMBIGUOUS checklist items (each also pinned by a test in tests/engines/spyfall/):
- SPY-07: the 20 standard locations are content (decks.yaml): the rulebook's 16 plus Warworld (named in
  its examples), Apokolips, Oa and Ace Chemicals.
- SPY-10: the session winner is whoever has the most points after the rounds played; ties share the win.
- SPY-14: after a round without a single Joker (a multiverse or prank round) the same dealer deals again.
- SPY-33: no one may point at themselves in the final vote (nor in the Harley hunt).
- SPY-39: a failed accusation resumes the remaining time (the clock is not reset to 8:00).
- SPY-50: "survived an earlier vote" means an accusation earlier in the same round (scoring example 3).
- SPY-64: God's Pride may be flipped by any holder who voted with the majority, i.e. voted yes (not only
  the accuser), after the ballots are in, when yes outnumber no; the rulebook's "다수에 해당한다" means that
  those supporting *you* outnumber those against (SPY-62/65), so a holder who voted no, or the accused (who
  does not vote), cannot flip it. Open and sealed votes alike. The accuser still gets the accuser's bonus.
- SPY-82: Harley convicted as the Joker scores by the Harley line (heroes 1, Joker 1), not "hero
  convicted" (Joker 4, Harley 2). Harley never scores hero points (also after a wrong prank declaration
  or a failed multiverse call).
- SPY-83: "조커의 장난" and "조커의 농담" are one module, Joker's prank.
- SPY-96: a multiverse vote may be called only while the round clock runs and time is not up, once per
  player per round; the clock is paused during the vote and resumes if the vote fails.
- SPY-98: the multiverse caller gets 3 points in all (not 3 + 1 for their raised hand).
Also: the table may pause and resume the clock (an interruption). While it is paused nothing is played:
no accusation, no Joker's reveal, no multiverse call, and no one-shot ability either (the rulebook sets no
moment for one-shots; the engine's legal actions and `apply` agree, and the screens offer what they list).
Open pointing votes entered by hand must count one finger per player who points (SPY-29, SPY-72): in the final
vote every player, the Joker too; in the Harley hunt every player but the revealed Joker (see `tally`).
"""

from __future__ import annotations

from engines.spyfall.rules import Spyfall

ENGINE = Spyfall()

__all__ = ["ENGINE", "Spyfall"]
