"""The end-of-round witness call: the table reports who is visible, the kiosk sets the card and clears."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core import TABLE, RuleError
from engines.mr_jack_ny import __doc__ as package_doc
from engines.mr_jack_ny.actions import CallWitness
from tests.engines.conformance import HANGUL
from tests.engines.mr_jack_ny.helpers import ENGINE, PACK, act, finish_round, new_game, others, step, turn


def at_witness(seed: int = 7):  # type: ignore[no-untyped-def]
    state = new_game(seed)
    for _ in range(4):
        state = turn(state)
    assert state.phase == "witness"
    return state


def test_jack_seen_lights_the_card_and_clears_every_unseen_character() -> None:
    """Covers JACK-19, JACK-21, JACK-24: Jack visible → the kiosk lights the witness card itself, and every
    character not visible is innocent."""
    state = at_witness()
    visible = frozenset({state.jack, *others(state)[:2]})
    out = step(state, CallWitness(TABLE, visible))
    nxt = out.state
    assert nxt.witness_lit and ENGINE.view(nxt, None)["witness"] == "lit"
    assert nxt.innocent == frozenset(state.roster) - visible
    table = ENGINE.view(nxt, None)
    assert sorted(table["suspects"]) == sorted(visible)
    assert [c["id"] for c in table["characters"] if not c["innocent"]] == [c for c in state.roster if c in visible]
    event = next(e for e in out.events if e.kind == "witness")
    assert event.data["seen"] is True and event.to is None


def test_jack_unseen_darkens_the_card_and_clears_every_seen_character() -> None:
    """Covers JACK-19, JACK-21, JACK-24."""
    state = at_witness()
    visible = frozenset(others(state)[:3])
    nxt = act(state, CallWitness(TABLE, visible))
    assert not nxt.witness_lit and ENGINE.view(nxt, None)["witness"] == "dark"
    assert nxt.innocent == visible
    assert nxt.calls[-1].seen is False and nxt.calls[-1].cleared == visible


def test_clears_accumulate_and_jack_is_never_cleared_across_rounds() -> None:
    """Covers JACK-24."""
    state = new_game(3)
    o = others(state)
    state = finish_round(state, visible={state.jack, *o[:5]})  # clears o[5:] (2)
    assert state.innocent == frozenset(o[5:])
    state = finish_round(state, visible=o[:2])  # Jack unseen: clears o[:2]
    assert state.innocent == frozenset(o[5:] + o[:2])
    assert state.calls[-1].cleared == frozenset(o[:2])
    state = finish_round(state, visible=o[:3])  # o[:2] already innocent: only o[2] is new
    assert state.calls[-1].cleared == frozenset({o[2]})
    assert state.jack not in state.innocent
    assert ENGINE.view(state, None)["suspects"] == [c for c in state.roster if c in (state.jack, o[3], o[4])]


def test_the_table_taps_who_is_visible_by_lamp_or_neighbour_never_in_a_garden() -> None:
    """Covers JACK-20, JACK-22, JACK-23 (decision A: only the character's own garden space hides it;
    the rule text is shown next to the witness buttons)."""
    rule = PACK["table"].witness_rule
    assert "가로등" in rule.ko and "이웃" in rule.ko and "정원" in rule.ko
    assert "garden" in rule.en and "lamp" in rule.en
    reminders = {r.id for r in PACK["table"].reminders}
    assert {"JACK-20", "JACK-22"} <= reminders
    assert "JACK-23" in (package_doc or "") and "reading A" in (package_doc or "")
    # A culprit in a garden is simply not tapped: the kiosk records him unseen.
    state = at_witness()
    nxt = act(state, CallWitness(TABLE, frozenset(others(state))))
    assert not nxt.witness_lit and nxt.innocent == frozenset(others(state))


def test_witness_call_only_at_round_end_and_only_real_characters() -> None:
    """Covers JACK-19."""
    state = new_game()
    with pytest.raises(RuleError) as info:
        step(state, CallWitness(TABLE, frozenset()))
    assert info.value.code == "not_your_turn"
    state = at_witness()
    with pytest.raises(RuleError) as info:
        step(state, CallWitness(TABLE, frozenset({"moriarty"})))
    assert info.value.code == "bad_value" and HANGUL.search(info.value.ko)  # not a character: its declaration
    with pytest.raises(RuleError):
        step(state, CallWitness(0, frozenset()))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), mask=st.integers(0, 255))
def test_witness_logic_clears_exactly_the_right_characters(seed: int, mask: int) -> None:
    """Covers JACK-21, JACK-24: for any culprit and any visible set, exactly the right characters clear."""
    state = at_witness(seed)
    visible = frozenset(c for i, c in enumerate(state.roster) if mask >> i & 1)
    nxt = act(state, CallWitness(TABLE, visible))
    seen = state.jack in visible
    expected = (frozenset(state.roster) - visible) if seen else visible
    assert nxt.witness_lit == seen
    assert nxt.innocent == expected
    assert state.jack not in nxt.innocent
    assert set(ENGINE.view(nxt, None)["suspects"]) == set(state.roster) - expected
