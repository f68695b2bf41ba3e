"""Where the pieces stand (engines.clue.views.places): the public board every seat and the table see."""

from __future__ import annotations

from engines.clue import ENGINE
from engines.clue.actions import DieRoll, EndTurn, RollDie, StayOut, Suggest
from engines.clue.content import CLASSIC
from engines.clue.state import ClueState
from engines.clue.views import Places, places
from engines.core import CHANCE
from tests.engines.clue.helpers import ENVELOPE, HANDS4, PACK, do, enter, game, seen


def _boards(state: ClueState) -> list[Places]:
    """The board as the table and every seat see it."""
    return [places(seen(state, seat)) for seat in (None, 0, 1, 2, 3)]


def test_all_tokens_start_outside_the_rooms_and_each_weapon_in_its_own_room() -> None:
    """Covers CLUE-08, CLUE-09: at set-up every suspect's token, the unused ones too, is on its start space (none in
    a room) and the six weapons stand in six different rooms, one each, the same on every seat's board."""
    state = game(4, hands=HANDS4, envelope=ENVELOPE)
    boards = _boards(state)
    assert all(b == boards[0] for b in boards)
    board = places(seen(state, None))
    assert board.out == CLASSIC.ids(0) and board.loose == ()
    assert [r for r, _, _ in board.rooms] == list(CLASSIC.ids(2))
    held = [w for _, suspects, weapons in board.rooms for w in weapons if not suspects]
    assert sorted(held) == sorted(CLASSIC.ids(1))
    assert all(len(weapons) <= 1 for _, _, weapons in board.rooms)


def test_a_suggestion_moves_the_named_token_and_weapon_into_the_suggesters_room() -> None:
    """Covers CLUE-31, CLUE-34, CLUE-32: Scarlet enters the Lounge and suggests Mr. Green with the wrench: on every
    seat's board Green's token and the wrench are in the Lounge, beside Scarlet, and the wrench has left the room
    it stood in; Mustard and the rest stay on their start spaces."""
    state = game(4, hands=HANDS4, envelope=ENVELOPE)
    before = places(seen(state, None))
    came_from = next(r for r, _, weapons in before.rooms if "wrench" in weapons)
    state = do(enter(state, "lounge"), Suggest(0, "green", "wrench"))
    for board in _boards(state):
        suspects, weapons = board.room("lounge")
        assert suspects == ("scarlet", "green") and "wrench" in weapons
        if came_from != "lounge":
            assert "wrench" not in board.room(came_from)[1]
        assert board.out == ("mustard", "white", "peacock", "plum")
        every = [w for _, _, ws in board.rooms for w in ws]
        assert sorted(every) == sorted(CLASSIC.ids(1))


def test_a_later_suggestion_pulls_a_weapon_on_to_the_next_room() -> None:
    """Covers CLUE-31, CLUE-38, CLUE-55: the wrench Scarlet moved to the Lounge is pulled on to the Hall by Mustard's
    suggestion, with Scarlet's own token; the Lounge is left empty."""
    state = game(4, hands=HANDS4, envelope=ENVELOPE)
    state = do(enter(state, "lounge"), Suggest(0, "green", "wrench"))
    while state.phase == "refute":
        state = do(state, ENGINE.legal_actions(state, state.asking)[0])
    state = do(enter(do(state, EndTurn(0)), "hall"), Suggest(1, "scarlet", "wrench"))
    board = places(seen(state, 2))
    suspects, weapons = board.room("hall")
    assert suspects == ("scarlet", "mustard") and "wrench" in weapons
    assert board.room("lounge")[0] == ("green",) and "wrench" not in board.room("lounge")[1]


def test_a_token_left_in_the_corridors_is_out_of_every_room() -> None:
    """Covers CLUE-06 (reading B): a token that did not reach a room is on the board's corridor strip."""
    state = game(4, hands=HANDS4, envelope=ENVELOPE)
    state = do(enter(state, "hall"), EndTurn(0), RollDie(1), DieRoll(CHANCE, 1), StayOut(1))
    board = places(seen(state, None))
    assert board.room("hall")[0] == ("scarlet",) and "mustard" in board.out and "scarlet" not in board.out


def test_tokens_carry_a_short_name_from_the_content() -> None:
    """Covers CLUE-03: each suspect's token has a short name in the shipped set (the board's discs), Korean and
    English; a card without one falls back to its full name."""
    from engines.clue.content import sets_in

    s = sets_in(PACK)["classic"]
    assert [c.short_name("ko") for c in s.suspects] == ["스칼렛", "머스타드", "화이트", "그린", "피콕", "플럼"]
    assert s.card("plum").short_name("en") == "Plum"
    assert s.card("rope").short_name("ko") == "끈"
