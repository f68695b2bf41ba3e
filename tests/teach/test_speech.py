"""Teaching narration goes to the app's narrator when there is one; captions-only otherwise, never a crash."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from kiosk.teach import speech
from kiosk.teach.pages import pages, segments
from tests.teach.helpers import teaching


class FakeNarrator:
    def __init__(self, fail: bool = False) -> None:
        self.spoken: list[tuple[Any, bool]] = []
        self.stopped = 0
        self.fail = fail

    def speak(self, segment: Any, *, interrupt: bool = False) -> None:
        if self.fail:
            raise RuntimeError("device gone")
        self.spoken.append((segment, interrupt))

    def stop(self) -> None:
        self.stopped += 1


def test_page_narration_interrupts_what_plays() -> None:
    t = teaching("clue").teaching
    page = pages(t)[0]
    narrator = FakeNarrator()
    app = SimpleNamespace(narrator=narrator)
    segs = segments("clue", t, page, "ko")
    assert speech.speak(app, segs)
    assert [(s.id, i) for s, i in narrator.spoken] == [("teach.clue.goal", True)]
    assert narrator.spoken[0][0].text == t.steps[0].say.ko
    speech.stop(app)
    assert narrator.stopped == 1


def test_captions_only_without_a_narrator_or_when_it_fails() -> None:
    segs = segments("clue", teaching("clue").teaching, pages(teaching("clue").teaching)[0], "en")
    assert not speech.speak(SimpleNamespace(), segs)
    assert not speech.speak(SimpleNamespace(narrator=FakeNarrator(fail=True)), segs)
    speech.stop(SimpleNamespace())  # nothing to stop: no error


def test_quiz_pages_read_the_question_and_the_options() -> None:
    t = teaching("mr_jack_ny").teaching
    quiz_page = next(p for p in pages(t) if p.question is not None)
    text = segments("mr_jack_ny", t, quiz_page, "ko")[0].text
    assert text.startswith(t.quiz[0].q.ko) and "1. " + t.quiz[0].options[0].ko in text
