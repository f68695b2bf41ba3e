"""Each try-it step drives its real engine to the expected result; refusals come from the engine."""

from __future__ import annotations

import pytest

from engines.core import TABLE
from kiosk.teach.model import TryIt
from kiosk.teach.tryit import TryError, TryRun
from tests.teach.helpers import correct, fresh_run, teaching, try_spec

GAMES = ["watson_holmes", "spyfall", "clue", "mr_jack_ny"]


@pytest.mark.parametrize("game", GAMES)
def test_every_choice_of_every_move_gives_its_expected_result(game: str) -> None:
    spec = try_spec(game)
    for m, move in enumerate(spec.moves):
        for i, choice in enumerate(move.choices):
            run = fresh_run(game)
            for _ in range(m):
                run.choose(correct(run))
            before = run.state_dict()
            result = run.choose(i)
            assert run.check_expect(result) == [], (game, m, choice.label.en)
            assert result.advanced == (choice.correct and result.error is None)
            if not result.advanced:
                assert run.state_dict() == before and run.move == m  # a wrong choice changes nothing
            if result.error is not None:
                assert any("\uac00" <= ch <= "\ud7a3" for ch in result.message("ko"))
    run = fresh_run(game)
    while not run.done:
        run.choose(correct(run))
    assert run.move == len(spec.moves)


def test_watson_holmes_bank_example_step_by_step() -> None:
    """Covers WH-105, WH-106, WH-107, WH-108, WH-53, WH-54: the rulebook's Suzy/Marco bank auction."""
    run = fresh_run("watson_holmes")
    s = run.state_dict()
    assert s["police_on"] == [1] and s["players"][0]["withdraw"] == 1 and s["players"][0]["carriages"] == 10
    assert run.status("en") == "Carriages — Suzy 10 · Marco 10 · supply 80"
    refused = run.choose(1)  # without the withdraw token: the police keeps her out
    assert refused.error is not None and refused.error.code == "policed"
    run.choose(0)
    s = run.state_dict()
    assert s["police_on"] == [] and s["players"][0]["carriages"] == 9
    assert run.choose(1).error is not None  # Marco's 1 does not beat Suzy's 1
    run.choose(0)
    s = run.state_dict()
    assert (s["players"][0]["carriages"], s["players"][1]["carriages"]) == (9, 8)
    run.choose(0)
    s = run.state_dict()
    assert (s["players"][0]["carriages"], s["players"][1]["carriages"]) == (6, 9)
    assert run.status("ko").startswith("마차 — 수지 6개 · 마르코 9개")
    step = next(st for st in teaching("watson_holmes").teaching.steps if st.id == "practice_auction")
    police = next(sh for sh in step.picture if sh.state == "police_on")
    assert not run.shows(police)  # the picture follows the engine: the police token went to the supply
    run.choose(0)
    s = run.state_dict()
    assert s["phase"] == "investigate" and s["start_player"] == 1 and run.done
    assert (s["players"][0]["carriages"], s["players"][1]["carriages"]) == (6, 9)


def test_spyfall_accusation_and_unanimous_vote() -> None:
    """Covers SPY-34, SPY-36, SPY-37, SPY-48, SPY-52: Isaac accuses Ann, the three others vote yes, Ann is
    the Joker → Isaac 2, Maria 1, Juan 1, Ann 0."""
    run = fresh_run("spyfall")
    assert run.choose(1).error.code == "self_accuse"  # type: ignore[union-attr]
    run.choose(0)
    assert run.choose(2).error.code == "accused_votes"  # type: ignore[union-attr]
    not_all = run.choose(1)  # Maria votes no: accepted by the engine, but not unanimous
    assert not_all.error is None and not not_all.advanced
    assert [e.data for e in not_all.events if e.kind == "vote_result"][0]["passed"] is False
    done = run.choose(0)
    scored = [e.data for e in done.events if e.kind == "round_scored"][0]
    assert list(scored["points"]) == [0, 1, 1, 2]
    assert run.engine.state_to_dict(run.state)["history"][0]["convicted"] == 0


def test_clue_suggestion_and_disproval() -> None:
    """Covers CLUE-31, CLUE-40, CLUE-41, CLUE-43: Scarlet suggests Green + wrench in the Lounge; Minho on her
    left holds the Lounge, shows exactly that card to her only; nobody further is asked."""
    run = fresh_run("clue")
    first = run.choose(0)
    assert [e.kind for e in first.events][0] == "suggested" and run.state.asking == 1
    assert run.choose(1).error.code == "not_named"  # type: ignore[union-attr]
    shown = run.choose(0)
    private = [e for e in shown.events if e.kind == "card_shown"]
    assert private and private[0].to == frozenset({0, 1})
    assert all("lounge" not in str(e.data) for e in run.public_events(shown))
    assert run.state.history[-1].shown_by == 1 and run.state.history[-1].passed == ()


def test_mr_jack_witness_call_clears_the_unseen() -> None:
    """Covers JACK-19, JACK-21, JACK-24: Latimer (Jack) by a lamp is seen → the witness card is lit and the
    five unseen characters are cleared; the kiosk, not the table, knows it."""
    run = fresh_run("mr_jack_ny")
    assert run.state.jack == "latimer" and run.state.phase == "witness"
    assert TABLE in run.engine.to_move(run.state)
    wrong = run.choose(1)
    assert not wrong.advanced and run.state.phase == "witness"
    run.choose(0)
    assert run.state.witness_lit
    assert run.state.innocent == frozenset({"swapper", "cloud_rider", "callahan", "eastman", "smith"})


def test_a_try_it_that_does_not_fit_its_engine_is_reported() -> None:
    spec = try_spec("spyfall")
    folder = teaching("spyfall").folder
    from content.loader import Text
    with pytest.raises(TryError, match="no_such_field"):
        TryRun(TryIt("spyfall", spec.config, spec.moves, prelude=spec.prelude,
                     status=Text("{no_such_field}")), folder).check_parses()
    for bad in (TryIt("chess", {}, ()), TryIt("spyfall", spec.config, (), patch={"nowhere": 1}),
                TryIt("spyfall", spec.config, (), prelude=({"name": "accuse", "seat": 0, "accused": 1},))):
        with pytest.raises(TryError):
            TryRun(bad, folder).start()
