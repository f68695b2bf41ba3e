"""The game's part of a view is typed (`WhView`): a seat's private facts (its hidden character card, its notes,
its own sealed answers, the sheets it consulted) are declared once, in `me`, and the private screen's display
parts are drawn from them (#36 item 3)."""

from __future__ import annotations

import dataclasses

from engines.parts import Card, Items
from engines.watson_holmes import ENGINE
from engines.watson_holmes.actions import ConsultAnswers, DoneReading, SubmitAnswers, Visit
from engines.watson_holmes.views import Answers, LocationRow, PlayerRow, Sheet, WhView
from tests.engines.watson_holmes.helpers import CHARACTERS, new_game, play

ONE_RIGHT = ("존 스미스", "다이아몬드")


def test_a_hidden_character_is_in_its_holders_me_only() -> None:
    """Covers WH-94: the card is the holder's `me.character_card`; other views' player rows have no character
    (None, and no key on the wire); the table view has no `me`."""
    state = new_game(3, characters=True)
    ids = [p.character for p in state.players]
    for seat in range(3):
        part = ENGINE.observe(state, seat).part(WhView)
        assert part.me is not None and part.me.character == ids[seat]
        assert part.me.character_card == next(c for c in CHARACTERS if c.id == ids[seat])
        assert all(row.character is None for row in part.players)
        assert all("character" not in p for p in ENGINE.view(state, seat)["players"])
    table = ENGINE.observe(state, None).part(WhView)
    assert table.me is None and table.solution is None and "me" not in ENGINE.view(state, None)


def test_notes_reading_and_consulted_sheets_are_the_seats_own_and_its_screen_shows_them() -> None:
    """Covers WH-40, WH-69, WH-89: the card read is in the reader's `me.notes` and `me.reading`; a consulted
    sheet is a `Sheet` of the consulter's `me` only; the display parts list exactly those fields."""
    state, _ = play(new_game(4), Visit(0, "1"), Visit(1, "2"), Visit(2, "3"), Visit(3, "221b"))
    reader = ENGINE.observe(state, 0)
    me = reader.part(WhView).me
    assert me is not None and me.reading == 1 and [n.number for n in me.notes] == [1]
    assert me.note(1) is not None and me.note(1).clue is not None and me.note(1).clue.ko == "은행 단서"
    assert ENGINE.observe(state, 1).part(WhView).me.note(1) is None  # type: ignore[union-attr]
    reading = [p for p in reader.mine if isinstance(p, Card) and p.title.ko == "은행"]
    assert reading and [w.ko for w in reading[0].lines] == ["은행 단서"]
    for s in (0, 1, 2):
        state, _ = play(state, DoneReading(s))
    state, _ = play(state, SubmitAnswers(3, ONE_RIGHT))
    state, _ = play(state, ConsultAnswers(1, 3))
    consulter = ENGINE.observe(state, 1)
    me = consulter.part(WhView).me
    assert me is not None and me.consulted == (Sheet(Answers(3, ONE_RIGHT)),)
    assert me.consulted_answers(3) == ONE_RIGHT and me.consulted_answers(0) == ()
    assert ENGINE.observe(state, 0).part(WhView).me.consulted == ()  # type: ignore[union-attr]
    sheets = [c for p in consulter.mine if isinstance(p, Items) for c in p.cards if c.label.ko == "민호"]
    assert [c.title.ko for c in sheets] == [" / ".join(ONE_RIGHT)]


def test_the_wire_keys_are_the_typed_fields() -> None:
    """`view()` is the typed part's JSON: `me` and `solution` only where set; a row's character or clue only
    where shown."""
    state = new_game(2)
    part = ENGINE.observe(state, 0).part(WhView)
    data = ENGINE.view(state, 0)
    fields = {f.name for f in dataclasses.fields(part)}
    assert set(data) - {"common"} == fields - {"solution"}
    assert isinstance(part.players[0], PlayerRow) and isinstance(part.locations[0], LocationRow)
    assert data["locations"][0] == {"number": 1, "police": False, "occupant": None, "bid": 0}
    assert part.location("1") is part.locations[0] and part.location(99) is None
