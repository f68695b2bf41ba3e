"""The kiosk listens only for game intents the table is offered now (a smaller grammar is a more accurate
one, and voice is a shared-screen input), every game intent is reachable in real play, an intent whose
legality hides a secret (Mr. Jack's escape) is listened for whether or not it is legal, and every template
agrees with the engine's declarations (slots with the fields' FieldSpecs, confirmation with FINAL)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

import engines
from audio.grammar import Slot, parse
from audio.intents import VoiceContentError, load_catalog
from engines.core import CHANCE, TABLE, field_specs, stamp
from kiosk.voice_intents import game_intents
from tests.engines.conformance import random_playthrough
from tests.packs import pack_for

CATALOG = load_catalog()
GAMES = ["spyfall", "watson_holmes", "clue", "mr_jack_ny"]


def legal_names(engine, state) -> set[str]:  # type: ignore[no-untyped-def]
    return {type(a).NAME for s in engine.to_move(state) if s >= TABLE for a in engine.legal_actions(state, s)}


def offered_names(engine, state) -> set[str]:  # type: ignore[no-untyped-def]
    return {o.action for o in engine.table_offers(state)} if engine.outcome(state) is None else set()


ENDING = {"accuse", "end_session", "end_game", "reveal_joker", "time_up", "escape", "arrest"}


def wide_play(engine, config, pack, seed: int, steps: int = 400) -> list:  # type: ignore[no-untyped-def]
    """Random play that picks an action *type* first (so rare ones come up) and rarely ends the game."""
    rng = random.Random(seed)
    state = engine.setup(config, pack, seed)
    states = [state]
    for _ in range(steps):
        if engine.outcome(state) is not None:
            break
        movers = list(engine.to_move(state))
        deadlines = engine.deadlines(state)
        legal = [a for s in movers if s != CHANCE for a in engine.legal_actions(state, s)]
        if CHANCE in movers:
            action = engine.sample_chance(state, rng)
        elif deadlines and (not legal or rng.random() < 0.1):  # time passes: a timeout fires
            action = stamp(deadlines[0].action, deadlines[0].at)
        else:
            legal = [a for s in movers for a in engine.legal_actions(state, s)]
            by_type: dict[str, list] = {}
            for a in legal:
                by_type.setdefault(type(a).NAME, []).append(a)
            types = [t for t in by_type if t not in ENDING] or list(by_type)
            if rng.random() < 0.03:
                types = list(by_type)
            action = rng.choice(by_type[rng.choice(sorted(types))])
        state = engine.apply(state, action).state
        states.append(state)
    return states


@pytest.mark.parametrize("name", GAMES)
def test_grammar_holds_exactly_the_legal_game_intents(name: str) -> None:
    engine = engines.find_engine(name)
    pack = pack_for(name)
    seen: set[str] = set()
    for i, config in enumerate(engine.example_configs(pack)[:3]):
        for seed in range(3):
            for state in wide_play(engine, config, pack, seed * 7 + i):
                session = SimpleNamespace(engine=engine, state=state, game=SimpleNamespace(id=name))
                listened = game_intents(CATALOG, session)
                legal = offered_names(engine, state)
                for intent in listened:
                    spec = CATALOG.intents[intent]
                    assert spec.always or spec.action in legal, f"{intent} listened for but not offered"
                for spec in CATALOG.game_intents(name):
                    if spec.action in legal:
                        assert spec.name in listened, f"{spec.name} offered but not listened for"
                seen.update(listened)
    never = {s.name for s in CATALOG.game_intents(name)} - seen
    assert not never, f"voice intents never reachable in play: {sorted(never)}"


def test_escape_is_listened_for_even_when_it_is_not_possible() -> None:
    engine = engines.find_engine("mr_jack_ny")
    pack = pack_for("mr_jack_ny")
    config = engine.example_configs(pack)[0]
    play = random_playthrough(engine, config, pack, 3, max_steps=800, check_first=0, check_every=10_000)
    not_legal = [st for st in play.states if "escape" not in legal_names(engine, st)]
    assert not_legal
    for state in not_legal:
        session = SimpleNamespace(engine=engine, state=state, game=SimpleNamespace(id="mr_jack_ny"))
        assert "mr_jack_ny.escape" in game_intents(CATALOG, session)
        assert CATALOG.intents["mr_jack_ny.escape"].always


@pytest.mark.parametrize("name", GAMES)
def test_templates_agree_with_the_engine_declarations(name: str) -> None:
    """`$player:f` fills a seat field; any other slot a ref field, whose catalog (named by the field, in
    the table view) gives the slot's values; every FINAL action is confirmed (and only a `say_back` one
    besides)."""
    engine = engines.find_engine(name)
    pack = pack_for(name)
    view = engine.observe(engine.setup(engine.example_configs(pack)[0], pack, 1), None)
    for spec in CATALOG.game_intents(name):
        cls = engine.actions[spec.action]
        assert spec.final == (cls.FINAL or spec.say_back), spec.name
        specs = field_specs(cls)
        sources = dict(spec.slot_sources)
        for template in spec.templates:
            for kind, field in _slots(parse(template)):
                fs = specs[field]
                assert sources[kind] == ("player" if fs.kind == "seat" else fs.of), spec.name
                assert sources[kind] == "player" or sources[kind] in view.catalogs, f"{spec.name}: {fs.of}"


def test_a_slot_takes_its_values_from_the_catalog_its_field_names(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """No naming convention pairs a slot with a catalog: `$place:location` fills Spyfall's location field,
    a ref("locations"), so it gets the locations' names; a slot on a field that is no seat or ref is refused."""
    from audio.intents import build_phrasebook

    good = tmp_path / "ko.yaml"
    good.write_text("wake: [테이블]\nconfirm: {accept: [네], reject: [아니요]}\ngames:\n  spyfall:\n"
                    "    guess: {action: guess_location, templates: ['$place:location 입니다']}\n", encoding="utf-8")
    spec = load_catalog(good).intents["spyfall.guess"]
    assert spec.slot_sources == (("place", "locations"),)
    book = build_phrasebook([spec], {"locations": {"아틀란티스": "atlantis"}, "place": {"엉뚱한 곳": "x"}})
    assert book.match("아틀란티스 입니다").action_fields() == {"location": "atlantis"}
    assert book.match("엉뚱한 곳 입니다") is None
    bad = tmp_path / "bad.yaml"
    bad.write_text(good.read_text(encoding="utf-8").replace("$place:location", "$player:location"), encoding="utf-8")
    with pytest.raises(VoiceContentError, match="fills a ref field"):
        load_catalog(bad)


def test_a_template_cannot_declare_final_for_an_engine_action(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "ko.yaml"
    bad.write_text("wake: [테이블]\nconfirm: {accept: [네], reject: [아니요]}\ngames:\n  spyfall:\n"
                   "    accuse: {action: accuse, final: false, templates: [고발]}\n", encoding="utf-8")
    with pytest.raises(VoiceContentError, match="FINAL"):
        load_catalog(bad)


def test_say_back_adds_a_confirmation_and_never_removes_final(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "ko.yaml"
    path.write_text("wake: [테이블]\nconfirm: {accept: [네], reject: [아니요]}\ngames:\n  clue:\n"
                    "    roll: {action: roll_die, say_back: true, templates: [주사위]}\n"
                    "    end: {action: end_turn, templates: [턴 종료]}\n"
                    "  spyfall:\n    accuse: {action: accuse, say_back: false, templates: [고발]}\n",
                    encoding="utf-8")
    intents = load_catalog(path).intents
    assert intents["clue.roll"].final and intents["clue.roll"].say_back and not intents["clue.end"].final
    assert intents["spyfall.accuse"].final  # the engine's FINAL stands


def _slots(node):  # type: ignore[no-untyped-def]
    if isinstance(node, Slot):
        yield node.name, node.field
    for child in getattr(node, "items", ()) or getattr(node, "options", ()):
        yield from _slots(child)


def test_a_spoken_private_move_stands_for_the_player_the_game_waits_for() -> None:
    """Voice never dispatches a PRIVATE move (the host routes it to its owner's private channel); its seat
    is the one player the game waits for, from the public prompts, never from who could legally make it."""
    from kiosk.voice_intents import acting_seat

    engine = engines.find_engine("mr_jack_ny")
    pack = pack_for("mr_jack_ny")
    play = random_playthrough(engine, engine.example_configs(pack)[0], pack, 3, max_steps=800, check_first=0,
                              check_every=10_000)
    for state in play.states:
        movers = [s for s in engine.to_move(state) if s >= 0]
        if len(movers) == 1:
            view = engine.observe(state, None)
            assert acting_seat(view, "escape", "player", private=True) == movers[0]
    assert engine.actions["escape"].PRIVATE
