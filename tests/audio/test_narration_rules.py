"""Rulebook items on the narration side: what the kiosk reads aloud, in which order, and what it must
never read before an explicit reveal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from audio.captions import CaptionState
from audio.narrator import Narrator
from audio.segments import Segment
from tests.audio.narration_fakes import SpySynth, rig

INTRO = Segment("wh.case01.intro", "ko", "안개 낀 밤, 부두에서 선원이 사라졌습니다.")
QUESTIONS = Segment("wh.case01.questions", "ko", "첫째, 선원은 어디로 갔을까요? 둘째, 누가 그를 데려갔을까요?")
SPECIAL = Segment("wh.case01.special", "ko", "이 사건에서는 경찰 토큰을 두 개씩 받습니다.")
LOCATION_7 = Segment("wh.case01.loc07", "ko", "여관 주인은 자정에 마차 소리를 들었다고 합니다.", secret=True)
SOLUTION = Segment("wh.case01.solution", "ko", "선원은 스스로 배에 올라 도망쳤습니다.", secret=True)


@pytest.fixture()
def table(tmp_path: Path) -> Iterator[tuple[Narrator, SpySynth, list[CaptionState]]]:
    mixer, _dev, _gate, board = rig(speed=40)
    synth = SpySynth(per_char=0.01)
    n = Narrator(mixer=mixer, synth=synth, cache_dir=tmp_path, board=board, tick=0.01)
    caps: list[CaptionState] = []
    n.listen(caps.append)
    yield n, synth, caps
    n.close()
    mixer.close()


def _said(synth: SpySynth, caps: list[CaptionState], seg: Segment) -> bool:
    return any(t in seg.text for t in synth.texts) or any(c.segment_id == seg.id for c in caps)


def test_case_opening_is_narrated_intro_questions_special_rules(table: tuple) -> None:
    """Covers WH-33."""
    n, synth, caps = table
    utts = [n.speak(s) for s in (INTRO, QUESTIONS, SPECIAL)]
    assert utts[-1].done.wait(10)
    assert [u.state for u in utts] == ["finished"] * 3
    order = [c.segment_id for c in caps]
    firsts = [order.index(s.id) for s in (INTRO, QUESTIONS, SPECIAL)]
    assert firsts == sorted(firsts)
    assert synth.texts == [INTRO.text, "첫째, 선원은 어디로 갔을까요?", "둘째, 누가 그를 데려갔을까요?", SPECIAL.text]


def test_location_text_is_not_read_during_setup_only_through_watson(table: tuple) -> None:
    """A location card's text is secret; the kiosk reads it aloud only when the Watson card holder makes
    that card's owner read it (an explicit reveal). Covers WH-06, WH-66."""
    n, synth, caps = table
    assert n.speak(LOCATION_7).state == "refused"  # setup / an accidental call
    assert n.speak(INTRO).done.wait(10)
    assert not _said(synth, caps, LOCATION_7)
    watson = n.reveal(LOCATION_7)  # the Watson action
    assert watson.done.wait(10) and watson.state == "finished"
    assert synth.texts[-1] == LOCATION_7.text


def test_solution_stays_hidden_until_the_game_ends_then_is_read(table: tuple) -> None:
    """Covers WH-36, WH-98."""
    n, synth, caps = table
    for seg in (INTRO, QUESTIONS, SOLUTION, INTRO):  # replaying the intro during play is fine; the solution not
        n.speak(seg)
    assert n.wait_idle(10)
    assert not _said(synth, caps, SOLUTION)
    end = n.reveal(SOLUTION)  # game over: the table reveals Holmes's solution
    assert end.done.wait(10) and end.state == "finished"
    assert caps[-1].segment_id == SOLUTION.id and caps[-1].sentences == (SOLUTION.text,)


def test_spyfall_location_card_is_never_spoken_to_the_table(table: tuple) -> None:
    """The location is on the heroes' cards only; narrating it would tell the Joker. Round prompts are
    spoken; the card text is refused. Covers SPY-02, SPY-19."""
    n, synth, caps = table
    card = Segment("spy.round3.card", "ko", "장소: 배트케이브", secret=True)
    n.say("카드를 확인하고 다른 사람에게 보이지 마세요.")
    n.speak(card)
    n.say("토론을 시작하세요.")
    assert n.wait_idle(10)
    assert not _said(synth, caps, card)
    assert "배트케이브" not in "".join(synth.texts) + "".join("".join(c.sentences) for c in caps)
