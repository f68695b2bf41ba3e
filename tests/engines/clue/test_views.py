"""The game's part of a view is typed (`ClueView`): a seat's private facts (its hand, the cards it showed and was
shown, what it may show, the envelope once it looked inside) are declared once, in its fields, and the private
screen's display parts are drawn from them (#36 item 3)."""

from __future__ import annotations

import dataclasses

import pytest

from engines.clue import ENGINE
from engines.clue.actions import Accuse, Show, Suggest
from engines.clue.views import ClueView, Detective, PrivateCard, SeenCard, knowledge_from_view
from engines.parts import Items
from tests.engines.clue.helpers import ENVELOPE, HANDS4, do, enter, game, seen


def fixed():  # type: ignore[no-untyped-def]
    return game(4, hands=HANDS4, envelope=ENVELOPE)


def test_each_hand_is_a_field_of_its_own_seats_part_only() -> None:
    """Covers CLUE-14: a seat's typed part holds its own hand; every other seat's and the table's hold None for it
    (and no "hand" key on the wire); the table's part has no seat part at all."""
    state = fixed()
    for seat in range(4):
        part = seen(state, seat)
        assert part.me == seat and part.hand == HANDS4[seat] and part.private_cards == ()
    table = seen(state, None)
    assert (table.me, table.hand, table.private_cards, table.can_show, table.envelope) == (None,) * 5
    assert "hand" not in ENGINE.view(state, None) and "me" not in ENGINE.view(state, None)
    assert table.players[1] == Detective(1, "민호", state.suspects[1], 5, True, False)


def test_a_shown_card_is_a_field_of_the_two_seats_it_passed_between() -> None:
    """Covers CLUE-41, CLUE-45: what seat 1 may show is in its part only while it is asked; the card it showed is a
    `PrivateCard` of the suggester's and the shower's parts, and `shown` finds it by the suggestion's number for
    the one it was shown to; the others' parts and the table's never hold it."""
    state = do(enter(fixed(), "lounge"), Suggest(0, "green", "wrench"))
    assert seen(state, 1).can_show == ("lounge",)
    assert all(seen(state, s).can_show is None for s in (0, 2, 3, None))
    state = do(state, Show(1, "lounge"))
    card = PrivateCard(SeenCard(1, "lounge"), by=1, to=0)
    assert seen(state, 0).private_cards == seen(state, 1).private_cards == (card,)
    assert seen(state, 0).shown(1, 0) == "lounge" and seen(state, 1).shown(1, 0) == "lounge"
    assert seen(state, 0).shown(1, 1) == "" and seen(state, 2).shown(1, 0) == ""
    assert seen(state, 2).private_cards == () and seen(state, None).private_cards is None
    last = seen(state, None).last
    assert last is not None and last.shown_by == 1 and last.named == ("green", "wrench", "lounge")


def test_the_private_screen_is_drawn_from_the_typed_fields() -> None:
    """Covers CLUE-45, CLUE-47: each seat's display parts list exactly its typed part's hand, the cards shown to it
    and by it, and the envelope once a wrong accusation let it look inside, by the cards' names."""
    state = do(enter(fixed(), "lounge"), Suggest(0, "green", "wrench"), Show(1, "lounge"))
    state = do(state, Accuse(0, "plum", "knife", "study"))
    cards = state.cards
    for seat in range(4):
        view = ENGINE.observe(state, seat)
        part = view.part(ClueView)
        shown = part.private_cards or ()
        items = [(p.label.key, [w.ko for w in p.items], [c.title.ko for c in p.cards])
                 for p in view.mine if isinstance(p, Items)]
        want = [("hand", [cards.card(c).ko for c in part.hand or ()], [])]
        want += [(key, [], [cards.card(p.shown_card.card).ko for p in shown if getattr(p, side) == seat])
                 for key, side in (("shown_to_me", "to"), ("shown_by_me", "by"))
                 if any(getattr(p, side) == seat for p in shown)]
        if part.envelope is not None:
            want.append(("envelope", [cards.card(c).ko for c in part.envelope], []))
        assert items == want
    assert seen(state, 0).envelope == ENVELOPE and all(seen(state, s).envelope is None for s in (1, 2, 3, None))


def test_the_wire_keys_are_the_declared_fields_and_the_notebook_needs_a_seat() -> None:
    """`view()` is the typed part's JSON as the phones and the journal had it: a None field defaulting to None has
    no key; a suggestion and a shown card keep their shapes."""
    state = do(enter(fixed(), "lounge"), Suggest(0, "green", "wrench"), Show(1, "lounge"))
    part = seen(state, 0)
    data = ENGINE.view(state, 0)
    fields = {f.name: f for f in dataclasses.fields(part)}
    assert set(data) - {"common"} == {n for n, f in fields.items()
                                       if not (f.default is None and getattr(part, n) is None)}
    assert data["suggestions"][0] == {"n": 1, "seat": 0, "suspect": "green", "weapon": "wrench", "room": "lounge",
                                      "passed": [], "shown_by": 1, "done": True}
    assert data["private_cards"] == [{"shown_card": {"n": 1, "card": "lounge"}, "by": 1, "to": 0}]
    assert data["cards"]["rooms"] == list(state.cards.ids(2)) and data["tokens"]["green"] == "lounge"
    with pytest.raises(ValueError):
        knowledge_from_view(seen(state, None))
