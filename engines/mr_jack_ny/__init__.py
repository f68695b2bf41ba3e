"""Mr. Jack in New York (미스터 잭 인 뉴욕): the kiosk referees the physical two-player game.

The board stays on the table (JACK-03): the kiosk keeps Jack's identity, runs the eight rounds and the
card draft, records each character played and whether its ability was used, keeps the spy (informant)
talking/silent, the alibi deck, the tile supply (JACK-02), makes the witness call honest and checks
arrests and escape claims. Seat 0 is the detective, seat 1 Jack (fixed; the config names the players).

Flow of a round: (odd rounds) CHANCE shuffles the 8 character cards, the first 4 are on offer, the even
round uses the other 4 → four turns, pick order odd D→J→J→D, even J→D→D→J: `pick` a card, then
`use_ability` / `visit_spy` / `arrest` (detective) / `escape` (Jack), then `end_turn` → TABLE makes the
witness call (`call_witness` with the characters visible now) → the next round. The last turn of
round 8 ends the game: Jack wins.

The witness call (JACK-19) is made honest: instead of Jack announcing it, the table taps the characters
visible now and the kiosk, knowing Jack, sets the witness card and clears suspects itself (Jack seen →
every unseen character is cleared; unseen → every seen character is cleared).

Decisions for the AMBIGUOUS checklist items (each is also a test):
- JACK-12: "홀수턴/짝수턴" means odd/even ROUNDS (reading A): odd rounds D→J→J→D, even rounds J→D→D→J.
- JACK-23: only the culprit's own space matters (reading A): a character standing in a garden is not
  seen; a neighbour in a garden still makes a character seen. The table applies this when it taps the
  visible characters; the rule is shown next to the buttons (content table.yaml).
- JACK-31: a visit turns the spy silent (reading A): one visit per round; the spy talks again at the
  start of every round.
- JACK-34: the swapper swaps a piece next to him (a character or the spy) with any other piece
  (reading A); the swapper himself may be that other piece.
- JACK-44: a mandatory ability that cannot be carried out is skipped (reading A): `end_turn` is always
  allowed; the kiosk refuses a placement when the supply of that tile is empty (6 lamp / 7 subway /
  7 building tiles; 2 lamps and 3 subways start on the board) and a garden when no tile of that kind is
  on the board.
- JACK-46: an escape is claimed by Jack on his own turn, for the character he played and moved himself
  (not one moved by Monk Eastman), while the witness card is dark; the table confirms the harbour (unblocked,
  with a ferry) or the exit. The kiosk checks identity and witness card and answers a false claim only
  "not possible" (one code, one message, state unchanged), so the refusal does not say why.
- JACK-42: Monk Eastman's "same witness status" depends on positions now, so the table judges it; the
  kiosk refuses an arrest on a turn where Monk moved another character.
- Alibi draws: the kiosk holds the alibi deck (shuffled at set-up with the seed; Jack's card is its first
  card). A drawn card appears only in the drawer's view; the detective's own suspect list
  (`my_suspects`) also greys it out, the shared table view does not.
"""

from __future__ import annotations

from engines.mr_jack_ny.rules import MrJackNY

ENGINE = MrJackNY()

__all__ = ["ENGINE", "MrJackNY"]
