"""Secrets and what each screen shows: cards, the location, abilities, sealed ballots, the location list."""

from __future__ import annotations

import json

from engines.core import TABLE
from engines.spyfall import actions as A
from tests.engines.conformance import check_secrets, contains_pair
from tests.engines.spyfall.helpers import ANN, ISAAC, JUAN, MARIA, NAMES, E, Table


def test_location_never_in_the_jokers_view_before_the_reveal() -> None:
    """Covers SPY-02, SPY-19. The declared secrets hold at every step of a round: the location only in the
    heroes' views, each card only in its holder's view, the deck drawn in nobody's."""
    t = Table(NAMES[:5], modules=["harley", "power_up"], votes="sealed")
    t.start(deck="daily_planet", joker=2, harley=4)
    keys = {s.key for s in E.secrets(t.state)}
    assert {"card", "location", "deck", "ability"} <= keys
    loc = [s for s in E.secrets(t.state) if s.key == "location"][0]
    assert loc.value == "daily_planet" and loc.seen_by == {0, 1, 3, 4}
    check_secrets(E, t.state, t.events)
    t.accuse(0, 1)
    t.do(A.VoteYesNo(0, True, t.at()))
    assert any(s.key == "my_ballot" and s.seen_by == {0} for s in E.secrets(t.state))
    check_secrets(E, t.state, t.events)
    joker_view = json.loads(json.dumps(E.view(t.state, 2)))
    assert not contains_pair(joker_view, "location", "daily_planet")
    for v in (2, 3, 4):
        t.do(A.VoteYesNo(v, False, t.at()))
    check_secrets(E, t.state, t.events)
    t.do(A.RevealJoker(2, t.at()))
    check_secrets(E, t.state, t.events)
    t.do(A.GuessLocation(2, "daily_planet", t.at()))
    check_secrets(E, t.state, t.events)
    assert t.r.phase == "harley_talk" and any(s.key == "card" and s.seen_by == {4} for s in E.secrets(t.state))


def test_everything_is_shown_when_the_round_is_scored() -> None:
    """Covers SPY-61, SPY-31. After the round: every card, the Joker, Harley, the location and the ability
    cards are on the table screen, with the points and the running totals."""
    t = Table(NAMES[:5], modules=["harley", "power_up"])
    t.start(deck="daily_planet", joker=2, harley=4)
    t.time_up()
    t.discuss_then_point()
    t.point_counts([0, 0, 4, 1, 0])
    table = E.view(t.state, None)
    rev = table["round"]["revealed"]
    assert rev["joker"] == 2 and rev["harley"] == 4 and rev["place"] == "daily_planet"
    assert rev["place_ko"] == "데일리 플래닛" and len(rev["abilities"]) == 5 and rev["cards"][2] == "joker"
    assert table["totals"] == [1, 1, 0, 1, 0] and list(E.secrets(t.state)) == []


def test_location_list_is_on_every_screen() -> None:
    """Covers SPY-08, SPY-26. The 20-location list (Korean, English, search aliases) is in every view, the
    Joker's included, in every phase — keyed by id, so it never reads as someone's location."""
    t = Table()
    t.start(deck="watchtower", joker=ANN)
    for seat in (None, ANN, JUAN):
        lst = E.view(t.state, seat)["locations"]
        assert len(lst) == 20
        wt = [x for x in lst if x["id"] == "watchtower"][0]
        assert wt["ko"] == "저스티스 리그 감시탑" and "와치타워" in wt["aliases"]
    t.do(A.RevealJoker(ANN, t.at()))
    assert len(E.view(t.state, ANN)["locations"]) == 20


def test_session_start_shows_the_harley_icon_to_everyone() -> None:
    """Covers SPY-06. Whether or not the Harley module is on, the session starts by showing the icon."""
    for modules in ([], ["harley"]):
        t = Table(NAMES[:5], modules=modules)
        t.choose_dealer(ISAAC)
        start = [e for e in t.events if e.kind == "session_start"]
        assert len(start) == 1 and start[0].to is None and start[0].data["show_harley_icon"] is True


def test_accusation_vote_reminds_the_table_not_to_discuss() -> None:
    """Covers SPY-41. The accusation event carries the voters and a no-discussion reminder for narration."""
    t = Table()
    t.start()
    t.accuse(MARIA, JUAN)
    ev = [e for e in t.events if e.kind == "accused"][0]
    assert ev.data["reminder"] == "no_discussion" and ev.data["voters"] == [ANN, MARIA, ISAAC]
    assert E.view(t.state, None)["round"]["accused_now"] == JUAN


def test_open_vote_table_screen_and_seat_view() -> None:
    """The table screen shows the phase, the clock as a deadline and who already used the accusation."""
    t = Table()
    t.start()
    t.accuse(MARIA, JUAN)
    t.hands([])
    rv = E.view(t.state, None)["round"]
    assert rv["phase"] == "play" and rv["clock"]["running"] and rv["used_accusation"] == [MARIA]
    assert E.view(t.state, MARIA)["me"]["accused_already"] is True
    t.do(A.PauseClock(TABLE, t.at()))
    assert E.view(t.state, None)["round"]["clock"]["remaining_paused"] == 480


def test_each_card_and_ability_is_a_field_of_its_own_seats_part_only() -> None:
    """Covers SPY-02, SPY-19 (#36 item 3: the typed part). A seat's card and ability card are fields of its own
    `Me`; the table's part has no `me`, and no seat's part holds another's; the Joker's card names no place."""
    from engines.spyfall.views import SpyCard, SpyView

    t = Table(NAMES[:5], modules=["harley", "power_up"])
    t.start(deck="daily_planet", joker=2, harley=4)
    parts = {s: E.observe(t.state, s).part(SpyView) for s in (None, 0, 1, 2, 3, 4)}
    assert parts[None].me is None and "me" not in E.view(t.state, None)
    for seat in range(5):
        me = parts[seat].me
        assert me is not None and me.seat == seat and me.name == NAMES[seat] and me.ability is not None
    assert parts[2].me is not None and parts[2].me.card == SpyCard("joker", "조커", "Joker")
    harley = parts[4].me.card if parts[4].me is not None else None
    assert harley is not None and harley.location == "daily_planet" and harley.harley is True
    assert {parts[s].me.card.harley for s in (0, 1, 3) if parts[s].me and parts[s].me.card} == {False}
    abilities = [p.me.ability.id for s, p in parts.items() if s is not None and p.me and p.me.ability]
    assert len(set(abilities)) == 5
    rnd = parts[None].round
    assert rnd is not None and rnd.phase == "play" and rnd.vote is None and rnd.flipped == ()


def test_the_private_screen_is_drawn_from_the_typed_fields() -> None:
    """Covers SPY-19, SPY-41 (#36 item 3). Each seat's display parts show exactly its typed card, ability card and
    sealed ballot: the sealed ballot is `my_ballot` of the voter's part only."""
    from engines.parts import Card
    from engines.spyfall.views import SpyView

    t = Table(NAMES[:5], modules=["power_up"], votes="sealed")
    t.start(deck="daily_planet", joker=2)
    t.accuse(0, 1)
    t.do(A.VoteYesNo(0, True, t.at()))
    for seat in range(5):
        view = E.observe(t.state, seat)
        part = view.part(SpyView)
        assert part.me is not None and part.me.card is not None and part.me.ability is not None
        titles = [p.title for p in view.mine if isinstance(p, Card)]
        card = part.me.card
        assert titles[0].key == "joker" if card.kind == "joker" else titles[0].ko == card.ko
        assert titles[1].ko == part.me.ability.ko
        vote = part.round.vote if part.round is not None else None
        assert vote is not None and vote.sealed and vote.ballots is None
        assert vote.my_ballot == ("yes" if seat == 0 else None)
        assert len(titles) == (3 if seat == 0 else 2)
    table = E.observe(t.state, None).part(SpyView)
    assert table.round is not None and table.round.vote is not None and table.round.vote.my_ballot is None
    assert table.round.vote.voted == (0,) and table.round.accuser_now == 0 and table.round.accused_now == 1


def test_sub_parts_keep_their_wire_keys() -> None:
    """The JSON of a typed part with sub-parts: a None field defaulting to None has no key at any level (the
    round's tally, bag, revealed; the seat's card; a vote's ballots), a None field without a default keeps it."""
    import dataclasses

    from engines.spyfall.views import SpyView

    t = Table()
    t.start(deck="watchtower", joker=ANN)
    data, part = E.view(t.state, JUAN), E.observe(t.state, JUAN).part(SpyView)
    assert part.round is not None and part.me is not None and part.me.card is not None
    for obj, wire in ((part, data), (part.round, data["round"]), (part.me, data["me"]),
                      (part.me.card, data["me"]["card"])):
        fields = dataclasses.fields(obj)
        assert set(wire) - {"common"} == {f.name for f in fields if not (f.default is None
                                                                         and getattr(obj, f.name) is None)}
    assert data["round"]["talk"] is None and data["round"]["vote"] is None and "tally" not in data["round"]
    assert data["me"]["card"] == {"kind": "location", "location": "watchtower", "ko": part.me.card.ko,
                                  "en": part.me.card.en}
