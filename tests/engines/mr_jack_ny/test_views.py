"""The game's part of a view is typed (`JackView`): the seat's private facts are declared once, in its fields,
and the private screen's display parts are drawn from them (#36 item 3)."""

from __future__ import annotations

import dataclasses

import pytest

from engines.core import GamePart, View
from engines.mr_jack_ny.actions import Pick, VisitSpy
from engines.mr_jack_ny.views import Character, JackView, MyAlibi
from engines.parts import Items, Reveal
from tests.engines.mr_jack_ny.helpers import ENGINE, D, J, act, new_game, turn


def test_jack_is_a_field_of_jacks_view_only() -> None:
    """Covers JACK-09: Jack's identity is in Jack's typed part, None (and no key on the wire) in the detective's
    and the table's; the table's part has no seat part at all."""
    state = new_game(3)
    jack, detective, table = (ENGINE.observe(state, s).part(JackView) for s in (J, D, None))
    assert jack.jack == state.jack and jack.me == "jack" and jack.my_suspects is None
    assert detective.jack is None and detective.me == "detective" and detective.my_suspects == state.roster
    assert (table.jack, table.me, table.my_alibis, table.my_suspects) == (None, None, None, None)
    for seat in (D, None):
        assert "jack" not in ENGINE.view(state, seat)
    assert ENGINE.view(state, J)["jack"] == state.jack


def test_the_private_screen_is_drawn_from_the_typed_fields() -> None:
    """Covers JACK-28: an alibi drawn at the spy is a `MyAlibi` of its drawer's part only; the drawer's display
    parts list exactly the typed part's alibis and (detective) suspects, by the characters' names."""
    state = act(new_game(5), Pick(D, "swapper"), VisitSpy(D))
    top = ENGINE.observe(state, D).part(JackView).my_alibis
    assert top == (MyAlibi(state.alibis[0].card, 1),)
    assert ENGINE.observe(state, J).part(JackView).my_alibis == ()
    view = ENGINE.observe(state, D)
    part = view.part(JackView)
    items = [[w.ko for w in p.items] for p in view.mine if isinstance(p, Items)]
    names = {c.id: c.name_ko for c in part.characters}
    assert items == [[names[a.alibi] for a in part.my_alibis or ()],
                                    [names[c] for c in part.my_suspects or ()]]
    assert state.alibis[0].card not in (part.my_suspects or ())


def test_jacks_reveal_part_comes_from_the_jack_field_until_the_end() -> None:
    state = new_game(8)
    jack = ENGINE.observe(state, J)
    reveal = [p for p in jack.mine if isinstance(p, Reveal)]
    who = jack.part(JackView).character(state.jack)
    assert who is not None and [r.title.ko for r in reveal] == [who.name_ko]
    assert not [p for p in ENGINE.observe(state, D).mine if isinstance(p, Reveal)]


def test_a_typed_part_has_the_same_wire_keys_and_screens_read_attributes() -> None:
    """`view()` is the typed part's JSON: a None field defaulting to None has no key, every other field does."""
    state = turn(new_game(2))
    view = ENGINE.observe(state, None)
    part = view.part(JackView)
    data = ENGINE.view(state, None)
    fields = {f.name: f for f in dataclasses.fields(part)}
    assert set(data) - {"common"} == {n for n, f in fields.items()
                                       if not (f.default is None and getattr(part, n) is None)}
    assert data["characters"][0] == dataclasses.asdict(part.characters[0])
    assert isinstance(part.characters[0], Character) and part.round == data["round"] == 1


def test_part_refuses_another_games_class() -> None:
    @dataclasses.dataclass(frozen=True)
    class Other(GamePart):
        n: int

    view = ENGINE.observe(new_game(1), None)
    with pytest.raises(TypeError):
        view.part(Other)
    untyped = View(seat=None, players=(), phase="x", detail={"a": 1})
    with pytest.raises(TypeError):
        untyped.part(JackView)
    assert untyped.own() == {"a": 1} and Other(3).to_dict() == {"n": 3}
