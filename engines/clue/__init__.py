"""Clue (클루): game master for one tablet, digital or physical cards, and a deduction tutor.

Modules: content (card sets), state, actions, rules (the engine), views (who sees what, solver input),
messages (all guest-facing text), knowledge / notation / counting / solver (the deduction tutor),
simulate (simulated games for tests and the benchmark).

Decisions where the rulebook (003_7072ccf76eed0510.txt) is silent or ambiguous — each has a test:
- CLUE-05 (errata 2, "swimming pool"): reading A — ignored; the classic rules have no pool.
- CLUE-06 (no board map): reading B — the engine models rooms only (tokens are in a room or in the
  corridors); squares, doors and blocking stay at the table. The player says which room they entered;
  the engine enforces the room rules (suggest only in your token's room, one suggestion per entry, no
  re-entering the room you started the turn in, secret passages between opposite corners).
- CLUE-17 (nobody plays Miss Scarlet): reading A — the player whose start space comes next clockwise
  from Scarlet's starts.
- CLUE-44 (several show?): reading A — disproval stops at the first player who shows a card.
- CLUE-57 (everyone accused wrongly): reading A — the game ends with no winner, envelope revealed.
- CLUE-68 (notation example uses poison and 19 dealt cards): reading A — a different card set; the
  content set "notation_example" (classic + poison, 22 cards) reproduces it.
- CLUE-69 ("B 부분에"): reading A — numbered marks go in the shower's (D's) column.
- Not stated, decided here: cards are dealt one at a time clockwise starting with the first player (so
  earlier seats get the extra cards); a wrong accuser left in the corridors gets a "clear the door"
  prompt (CLUE-56); in physical mode the accuser reports what the envelope showed.
- Physical mode, a recorded hand (CLUE-41/42): a player whose recorded hand holds a named card may not
  pass (`must_show_recorded`, a message that names no card). Show and pass are PRIVATE: the table offers
  them (`table_offers`) only for a seat that recorded no hand, where nothing secret decides them; the kiosk
  asks everyone else on their own channel, so no refusal is ever shown to the table.
"""

from engines.clue.rules import ENGINE, ClueEngine

__all__ = ["ENGINE", "ClueEngine"]
