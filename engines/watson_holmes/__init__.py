"""Watson & Holmes (왓슨&홈즈): a referee for the whole rulebook, for our own digital cases and a café's boxes.

Modules: content (case and component model, answer checking), state, actions, messages (the Korean/English
catalog), rules (setup, rounds, visit and investigation phases), solve (221B, the Holmes card, character
cards, the end), views (views and secrets), engine (the Engine class).

Decisions for the AMBIGUOUS checklist items (each is also a test in tests/engines/watson_holmes/):
- WH-02 competitive race (reading B): the first correct solver(s) win; tied solvers share the win;
  everyone loses only when the last player standing fails.
- WH-09 one "withdraw" token (철수/취소/호출 취소) and one "lockpick" token (만능 열쇠/자물쇠 따개).
- WH-13 a location's carriage symbol gives the number in its content field `rewards.carriages`
  (our cases use 2 or 3; the café enters the printed number).
- WH-16 Scotland Yard is content: a card whose rewards are police + withdraw; a visit grants both,
  each subject to the one-per-kind limit and the supply.
- WH-22 symbol grants (reading A) come when the card is read, before the police step, so a police token
  gained can be placed at once. Grants are made in seat order from the start player (finite supply).
- WH-35 the kiosk's narration replaces the reader (reading A): the start player is random (seeded), unless
  the config names one.
- WH-89 "once per game" limits only checking an answer (reading A); consulting is limited by carriages,
  and a player consults each failed player at most once (a second read would show nothing new).
- WH-96 character cards are used at any time by an active player (reading A), except while the table is
  judging or answering a check, and not by a 221B visitor whose answers are locked.
- WH-101 the last player's extra rounds are counted once, when they become the last player (reading A):
  min(carriages, 4) rounds, then a round where 221B is the only card they may visit.
- WH-104 play on after a win (config `play_on`): the first solver(s) are the winners; later correct
  solvers are listed in `also_solved`; the game ends when nobody active is left or whenever the table
  ends it (reading B, action `end_game`).
Other readings:
- Watson "before or after placing": the action `take_watson` before the visit, or `visit(watson=True)` after.
- A lockpick is discarded automatically when its holder reads a policed or locked card (WH-70, WH-57).
- In a physical box the engine cannot read cards: the reader reports their card's token symbols with
  `done_reading(gain_*)`, the table enters verdicts (`verdict`) and replies to answer checks (`check_reply`).
- Several 221B visitors attempt in groups by carriages held when the last one locks their answers (after
  any Holmes action paid at 221B, WH-83); with play-on, later groups still attempt after a win.
"""

from engines.watson_holmes.engine import ENGINE, WatsonHolmes

__all__ = ["ENGINE", "WatsonHolmes"]
