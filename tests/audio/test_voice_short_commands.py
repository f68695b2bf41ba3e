"""The short commands issue #38 named (뒤로, 취소, 시계 정지, 턴 종료): the alternatives chosen on the tuning part
(content/voice/ko.yaml, session 18) parse to the command's intent in the grammar of the screen that hears it,
survive the model's vocabulary, are what the guest-facing hint (i18n `voice.try`) suggests, and a short command
the decodes do not agree on is not acted on."""

from __future__ import annotations

import pytest

from audio.intents import NO, YES, build_phrasebook, load_catalog
from audio.vocab import default_model_path, read_vocabulary
from audio.vote import answer_vote
from content.i18n_catalog import Translator

CATALOG = load_catalog()
ALTERNATIVES = {  # said phrase -> (its intent, the grammar it is heard in)
    "돌아가 줘": ("previous", None),
    "됐어요": (NO, "confirm"),
    "안 할래": (NO, "confirm"),
    "타이머 정지": ("spyfall.pause_clock", "spyfall"),
    "턴 종료 해": ("mr_jack_ny.end_turn", "mr_jack_ny"),
}


def book_for(where: str | None, vocabulary: frozenset[str] | None = None):  # type: ignore[no-untyped-def]
    if where == "confirm":
        specs = [CATALOG.intents[YES], CATALOG.intents[NO]]
    else:
        specs = CATALOG.navigation() + (CATALOG.game_intents(where) if where else [])
    return build_phrasebook(specs, {"player": {"민호": 0}}, vocabulary, CATALOG.decoys)


@pytest.mark.parametrize("said", sorted(ALTERNATIVES))
def test_each_alternative_parses_to_the_commands_intent(said: str) -> None:
    intent_name, where = ALTERNATIVES[said]
    intent = book_for(where).match(said)
    assert intent is not None and intent.name == intent_name


@pytest.mark.skipif(not default_model_path().exists(), reason="needs the Korean vosk model")
def test_the_alternatives_are_in_the_models_vocabulary() -> None:
    vocabulary = read_vocabulary(default_model_path())
    for said, (intent_name, where) in ALTERNATIVES.items():
        intent = book_for(where, vocabulary).match(said)
        assert intent is not None and intent.name == intent_name, said


def test_dropped_candidates_stay_out() -> None:
    """Tried on the tuning part and not shipped: 뒤로 가 줘 caught 시계 정지 takes, 시계 멈춰 was wrong 3 in 16."""
    assert book_for("spyfall").match("뒤로 가 줘") is None
    assert book_for("spyfall").match("시계 멈춰") is None


def test_the_guest_facing_hint_suggests_the_best_measured_phrasing() -> None:
    """What the kiosk shows when nothing was understood: i18n `voice.try` with the first phrasing of each intent."""
    tr = Translator("ko")
    running = build_phrasebook([CATALOG.intents["spyfall.pause_clock"], *CATALOG.navigation()], {}, None, CATALOG.decoys)
    assert "타이머 정지" in tr("voice.try", examples=" · ".join(running.examples(3)))
    act = build_phrasebook([CATALOG.intents["mr_jack_ny.end_turn"], *CATALOG.navigation()], {}, None, CATALOG.decoys)
    assert "턴 종료 해" in tr("voice.try", examples=" · ".join(act.examples(3)))
    assert "돌아가 줘" in tr("voice.try", examples=" · ".join(book_for(None).examples(3)))


def test_the_vote_acts_on_an_alternative_and_not_on_a_split_short_command() -> None:
    nav = book_for(None)
    text, intent = nav.vote([("돌아가 줘",)] * 5 + [("이거",)] * 2)
    assert intent is not None and (text, intent.name) == ("돌아가 줘", "previous")
    assert nav.vote([("뒤로",), ("이거",), ("그래",), ("뒤로",), ("다음",)])[1] is None  # split: not acted on
    confirm = book_for("confirm")
    heard = answer_vote(confirm, ("됐어요",), [(0.9, 1.1, 0.85, 1.15), (0.8, 1.2, 0.95, 1.05)],
                        lambda speeds: [("됐어요",)] * len(speeds))
    assert heard[1] is not None and heard[1].name == NO
    split = answer_vote(confirm, ("됐어요",), [(0.9, 1.1, 0.85, 1.15), (0.8, 1.2, 0.95, 1.05)],
                        lambda speeds: [("됐어요",), ("네",)] * (len(speeds) // 2))
    assert split[1] is None  # 5 of 9 for 됐어요 but 4 for 네: no answer
