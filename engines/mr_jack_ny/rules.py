"""The Mr. Jack in New York engine: set-up, the card draft, abilities, the spy, the witness call, endings."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engines.core import (
    CHANCE,
    TABLE,
    Action,
    Engine,
    Event,
    Named,
    Offer,
    Outcome,
    Secret,
    Step,
    View,
    seeded_rng,
)
from engines.mr_jack_ny import views
from engines.mr_jack_ny.actions import (
    ACTIONS,
    Arrest,
    CallWitness,
    EndTurn,
    Escape,
    Pick,
    Shuffle,
    UseAbility,
    VisitSpy,
)
from engines.mr_jack_ny.cards import DEFAULT_CHARACTERS, PLACES, TILE_KINDS, CharacterSet, TableGuide
from engines.mr_jack_ny.messages import TILE_NAMES, config_error, error, tile_error
from engines.mr_jack_ny.state import (
    ACT,
    DETECTIVE,
    JACK,
    OVER,
    PICK,
    ROUNDS,
    SHUFFLE,
    SPY,
    WITNESS,
    Alibi,
    JackState,
    Play,
    WitnessCall,
)

DEFAULT_PLAYERS = ("탐정", "잭")


def characters_of(pack: Mapping[str, Any]) -> CharacterSet:
    chars = pack.get("characters")
    return chars if isinstance(chars, CharacterSet) else DEFAULT_CHARACTERS


class MrJackNY(Engine[JackState]):
    name = "mr_jack_ny"
    version = "1"
    state_type = JackState
    actions = ACTIONS
    content_types = {"characters.yaml": CharacterSet, "table.yaml": TableGuide}

    # ------------------------------------------------------------ set-up
    def example_configs(self, pack: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [{"players": list(DEFAULT_PLAYERS)}, {"players": ["민호", "지수"], "blitz": 60}]

    def setup(self, config: Mapping[str, Any], pack: Mapping[str, Any], seed: int) -> JackState:
        players = tuple(str(p) for p in config.get("players", DEFAULT_PLAYERS))
        if len(players) != 2:  # JACK-01
            raise config_error("players")
        blitz = config.get("blitz", 0)
        if not isinstance(blitz, int) or isinstance(blitz, bool) or not 0 <= blitz <= 600:
            raise config_error("bad_blitz")
        cards = characters_of(pack).characters
        roster = tuple(c.id for c in cards)
        alibis = list(roster)  # JACK-07: the alibi deck, shuffled apart from the character cards
        seeded_rng(seed, "mr_jack_ny", "alibi").shuffle(alibis)
        return JackState(
            players=players, roster=roster, kinds=tuple(c.ability for c in cards),
            names_ko=tuple(c.name.ko for c in cards), names_en=tuple(c.name.en or c.name.ko for c in cards),
            jack=alibis[0], deck=tuple(alibis[1:]),  # JACK-09: Jack's card; the rest is the deck
            blitz=blitz,
        )

    def seats(self, state: JackState) -> tuple[int, ...]:
        return (DETECTIVE, JACK)

    # ------------------------------------------------------------ who moves, what is legal
    def to_move(self, state: JackState) -> frozenset[int]:
        if state.phase == SHUFFLE:
            return frozenset({CHANCE})
        if state.phase in (PICK, ACT):
            return frozenset({state.mover()})
        if state.phase == WITNESS:
            return frozenset({TABLE})
        return frozenset()

    def legal_actions(self, state: JackState, seat: int) -> Sequence[Action]:
        if self.outcome(state) is not None or seat not in self.to_move(state):
            return []
        if state.phase == SHUFFLE:
            return [Shuffle(CHANCE, state.roster)]
        if state.phase == WITNESS:
            return [CallWitness(TABLE, v) for v in witness_samples(state.roster)]
        if state.phase == PICK:
            return [Pick(seat, c) for c in state.remaining()]
        out: list[Action] = [EndTurn(seat)]
        out += [u for u in ability_options(state, seat) if _ok(lambda u=u: check_ability(state, u))]
        if state.spy_talking and state.deck:
            out.append(VisitSpy(seat))
        if seat == DETECTIVE and not _eastman_moved(state):
            assert state.current is not None
            out += [Arrest(seat, c) for c in state.roster if c != state.current.character]
        if seat == JACK and escape_possible(state):
            out.append(Escape(seat))
        return out

    def table_offers(self, state: JackState) -> tuple[Offer, ...]:
        """Besides the public moves: on each of Jack's turns the escape as a claim for Jack's private screen
        (whether the played card is Jack is Jack's secret)."""
        offers = super().table_offers(state)
        if self.outcome(state) is None and state.phase == ACT and JACK in self.to_move(state):
            offers += (Offer(JACK, Escape.NAME, Escape.FINAL, private=True),)
        return offers

    def sample_chance(self, state: JackState, rng: random.Random) -> Action:
        order = list(state.roster)
        rng.shuffle(order)
        return Shuffle(CHANCE, tuple(order))

    # ------------------------------------------------------------ apply
    def _apply(self, state: JackState, action: Action) -> Step[JackState]:
        if isinstance(action, Shuffle):
            return self._shuffle(state, action)
        if isinstance(action, CallWitness):
            return self._witness(state, action)
        if isinstance(action, Pick):
            return self._pick(state, action)
        if state.phase == WITNESS:
            raise error("witness_time")
        if state.phase != ACT or state.current is None:
            raise error("not_acting")
        if isinstance(action, UseAbility):
            return self._ability(state, action)
        if isinstance(action, VisitSpy):
            return self._visit(state, action)
        if isinstance(action, Arrest):
            return self._arrest(state, action)
        if isinstance(action, Escape):
            return self._escape(state, action)
        assert isinstance(action, EndTurn)
        return self._end_turn(state)

    def _shuffle(self, state: JackState, action: Shuffle) -> Step[JackState]:
        if sorted(action.order) != sorted(state.roster):  # JACK-13: all 8 cards
            raise error("bad_shuffle")
        nxt = dataclasses.replace(state, shuffled=tuple(action.order), phase=PICK)
        return Step(nxt, (Event("cards_revealed", {"round": state.round, "offer": list(nxt.offer())}),))

    def _pick(self, state: JackState, action: Pick) -> Step[JackState]:
        if state.phase == WITNESS:
            raise error("witness_time")
        if state.phase != PICK:
            raise error("not_pick_time")
        if action.character not in state.remaining():  # JACK-15
            raise error("not_offered", name_ko=state.name_ko(action.character),
                        name_en=state.name_en(action.character))
        play = Play(round=state.round, seat=action.seat, character=action.character)
        nxt = dataclasses.replace(state, current=play, phase=ACT)
        return Step(nxt, (Event("picked", {"seat": action.seat, "character": action.character}),))

    def _ability(self, state: JackState, action: UseAbility) -> Step[JackState]:
        play = check_ability(state, action)
        tiles = state.tiles
        kind = state.kind_of(play.character)
        if kind in PLACES:
            tiles = tiles.moved(PLACES[kind], "supply", "board")
        elif kind == "garden":
            tiles = tiles.moved(action.tile, "board", "gardens")
        nxt = dataclasses.replace(state, current=play, tiles=tiles)
        data = {"seat": action.seat, "character": play.character, "ability": kind,
                "target": play.target, "other": play.other, "tile": play.tile}
        return Step(nxt, (Event("ability_used", data),))

    def _visit(self, state: JackState, action: VisitSpy) -> Step[JackState]:
        assert state.current is not None
        if not state.spy_talking:  # JACK-29
            raise error("spy_silent")
        if not state.deck:
            raise error("deck_empty")
        card = state.deck[0]
        nxt = dataclasses.replace(
            state, deck=state.deck[1:], spy_talking=False,  # JACK-31 reading A: a visit silences the spy
            current=dataclasses.replace(state.current, spy_visit=True),
            alibis=(*state.alibis, Alibi(action.seat, state.round, card)),
        )
        return Step(nxt, (
            Event("spy_visited", {"seat": action.seat, "character": state.current.character}),
            Event("alibi_drawn", {"alibi": card}, to=frozenset({action.seat})),  # JACK-28: drawer only
        ))

    def _arrest(self, state: JackState, action: Arrest) -> Step[JackState]:
        assert state.current is not None
        if action.seat != DETECTIVE:  # JACK-47
            raise error("detective_only")
        if action.suspect == state.current.character:
            raise error("arrest_self")
        if _eastman_moved(state):  # JACK-42
            raise error("arrest_eastman")
        right = action.suspect == state.jack  # JACK-48
        nxt = dataclasses.replace(
            state, plays=(*state.plays, state.current), current=None, phase=OVER,
            winner=DETECTIVE if right else JACK, reason="arrest_right" if right else "arrest_wrong",
        )
        return Step(nxt, (Event("arrest", {"suspect": action.suspect, "right": right}),
                          Event("jack_revealed", {"jack": state.jack})))

    def _escape(self, state: JackState, action: Escape) -> Step[JackState]:
        if action.seat != JACK:
            raise error("jack_only")
        if not escape_possible(state):  # JACK-45/46: one answer, whatever the reason
            raise error("escape_refused")
        assert state.current is not None
        nxt = dataclasses.replace(state, plays=(*state.plays, state.current), current=None, phase=OVER,
                                  winner=JACK, reason="escape")
        return Step(nxt, (Event("escape", {"round": state.round}), Event("jack_revealed", {"jack": state.jack})))

    def _end_turn(self, state: JackState) -> Step[JackState]:
        assert state.current is not None
        plays = (*state.plays, state.current)
        events = [Event("turn_ended", {"seat": state.current.seat, "character": state.current.character,
                                       "ability_used": state.current.ability_used})]
        if state.turn < 3:
            return Step(dataclasses.replace(state, plays=plays, current=None, turn=state.turn + 1, phase=PICK),
                        tuple(events))
        if state.round >= ROUNDS:  # JACK-49
            nxt = dataclasses.replace(state, plays=plays, current=None, phase=OVER, winner=JACK,
                                      reason="rounds_over")
            events += [Event("rounds_over", {"round": state.round}), Event("jack_revealed", {"jack": state.jack})]
            return Step(nxt, tuple(events))
        return Step(dataclasses.replace(state, plays=plays, current=None, phase=WITNESS), tuple(events))

    def _witness(self, state: JackState, action: CallWitness) -> Step[JackState]:
        if state.phase != WITNESS:
            raise error("not_witness_time")
        visible = frozenset(action.visible)
        seen = state.jack in visible  # JACK-19/21: the kiosk sets the card itself
        # JACK-24: seen → every unseen character is innocent; unseen → every seen character is innocent.
        cleared = (frozenset(state.roster) - visible) if seen else visible
        new = cleared - state.innocent
        call = WitnessCall(round=state.round, visible=visible, seen=seen, cleared=new)
        nxt_round = state.round + 1  # JACK-18
        nxt = dataclasses.replace(
            state, calls=(*state.calls, call), witness_lit=seen, innocent=state.innocent | cleared,
            round=nxt_round, turn=0, spy_talking=True,  # JACK-30
            phase=SHUFFLE if nxt_round % 2 == 1 else PICK,  # JACK-13/14
        )
        events = [Event("witness", {"round": state.round, "seen": seen, "visible": sorted(visible),
                                    "cleared": sorted(new)}),
                  Event("round_started", {"round": nxt_round})]
        if nxt.phase == PICK:
            events.append(Event("cards_revealed", {"round": nxt_round, "offer": list(nxt.offer())}))
        return Step(nxt, tuple(events))

    def ref_ids(self, state: JackState, catalog: str) -> tuple[str, ...] | None:
        """The names a pick, an arrest, the witness call or an ability may use (the view's catalogs)."""
        return {"characters": state.roster, "pieces": (*state.roster, SPY), "tiles": TILE_KINDS}.get(catalog)

    # ------------------------------------------------------------ views, outcome, secrets
    def observe(self, state: JackState, seat: int | None) -> View:
        chars = tuple(Named(c, state.names_ko[i], state.names_en[i]) for i, c in enumerate(state.roster))
        tiles = tuple(Named(k, *TILE_NAMES[k]) for k in TILE_KINDS)
        spy = Named(SPY, "스파이", "the spy")
        game = views.view(state, seat)
        return self.make_view(state, seat, state.phase, game,
                              catalogs={"characters": chars, "pieces": (*chars, spy), "tiles": tiles},
                              mine=views.parts(game))

    def outcome(self, state: JackState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(winners=(state.winner,), reason=state.reason, detail={"jack": state.jack})

    def hidden_variants(self, state: JackState) -> list[tuple[JackState, frozenset[int]]]:
        return views.hidden_variants(state)

    def secrets(self, state: JackState) -> Iterable[Secret]:
        if state.winner is not None:
            return []
        out = [Secret("jack", state.jack, frozenset({JACK}))]
        out += [Secret("alibi", a.card, frozenset({a.seat})) for a in state.alibis]
        return out


# ---------------------------------------------------------------- helpers


def _ok(check: Any) -> bool:
    try:
        check()
    except Exception:
        return False
    return True


def _eastman_moved(state: JackState) -> bool:
    """Monk Eastman moved another character instead of himself this turn."""
    cur = state.current
    return cur is not None and cur.ability_used and state.kind_of(cur.character) == "move_other"


def escape_possible(state: JackState) -> bool:
    """JACK-45/46: on Jack's turn, the culprit is the character he played and moved himself, and the
    witness card is dark (the table confirms the unblocked harbour with a ferry, or the exit)."""
    cur = state.current
    return (state.phase == ACT and cur is not None and cur.seat == JACK and cur.character == state.jack
            and not state.witness_lit and not _eastman_moved(state))


def ability_options(state: JackState, seat: int) -> list[UseAbility]:
    """Candidate ability uses for the played character (a representative set for swaps)."""
    cur = state.current
    if cur is None or cur.ability_used:
        return []
    kind = state.kind_of(cur.character)
    pieces = (*state.roster, SPY)
    if kind == "swap":
        return [UseAbility(seat, target=t, other=o) for t in pieces if t != cur.character
                for o in pieces if o != t]
    if kind == "move_other":
        return [UseAbility(seat, target=t) for t in state.roster if t != cur.character]
    if kind == "garden":
        return [UseAbility(seat, tile=k) for k in TILE_KINDS]
    return [UseAbility(seat)]


def check_ability(state: JackState, action: UseAbility) -> Play:
    """The play with the ability recorded, or a RuleError saying what is wrong."""
    cur = state.current
    assert cur is not None
    if cur.ability_used:
        raise error("ability_twice")
    kind = state.kind_of(cur.character)
    if kind == "swap":  # JACK-33/34 reading A: a piece next to the swapper ↔ any other piece
        if not action.target or action.target == cur.character:
            raise error("swap_target")
        if not action.other or action.other == action.target:
            raise error("swap_same")
        if action.tile:
            raise error("extra_detail")
        return dataclasses.replace(cur, ability_used=True, target=action.target, other=action.other)
    if kind == "move_other":  # JACK-41/42
        if not action.target or action.target in (cur.character, SPY) or action.other or action.tile:
            raise error("eastman_target")
        return dataclasses.replace(cur, ability_used=True, target=action.target)
    if action.target or action.other:
        raise error("extra_detail")
    if kind == "garden":  # JACK-38
        if not action.tile:
            raise error("bad_tile")
        if state.tiles.count("board", action.tile) <= 0:
            raise tile_error("no_tile_on_board", action.tile)
        return dataclasses.replace(cur, ability_used=True, tile=action.tile)
    if action.tile:
        raise error("extra_detail")
    if kind in PLACES:  # JACK-35/36/37, JACK-02: the supply caps placements
        placed = PLACES[kind]
        if state.tiles.count("supply", placed) <= 0:
            raise tile_error("no_tile", placed)
        return dataclasses.replace(cur, ability_used=True, tile=placed)
    return dataclasses.replace(cur, ability_used=True)  # cordon, ferry: moved on the board


def witness_samples(roster: tuple[str, ...]) -> list[frozenset[str]]:
    """A representative set of witness calls (the table may tap any subset)."""
    everyone = frozenset(roster)
    out = [frozenset(), everyone]
    out += [frozenset({c}) for c in roster]
    out += [everyone - {c} for c in roster]
    out += [frozenset(roster[i:i + 3]) for i in range(0, len(roster), 3)]
    return out
