"""The kiosk's voice controller (as `start_voice` wires it) never runs the recogniser on the calling thread:
press, feed, release, screen changes and ticks only queue work for one worker, in order, and return."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from audio.asr import Heard, VoiceEvent
from audio.intents import load_catalog
from audio.status import MicGate, StatusBoard
from audio.voice_system import start_voice
from tests.audio.voice_fakes import FakeBackend, FakeEngine, FakeRecognizer

CATALOG = load_catalog()


class SlowRecognizer(FakeRecognizer):
    """Records the thread of every call; the final decode takes `slow` s (a tablet decoding 15 s of speech)."""

    def __init__(self, grammar: list[str], log: list[tuple[str, str]], slow: float) -> None:
        super().__init__(grammar)
        self.log, self.slow = log, slow

    def accept(self, pcm: bytes) -> Heard | None:
        self.log.append(("accept", threading.current_thread().name))
        return super().accept(pcm)

    def final(self) -> Heard:
        self.log.append(("final", threading.current_thread().name))
        time.sleep(self.slow)
        return super().final()

    def reset(self) -> None:
        self.log.append(("reset", threading.current_thread().name))
        super().reset()


class ThreadEngine(FakeEngine):
    def __init__(self, slow: float) -> None:
        super().__init__()
        self.log: list[tuple[str, str]] = []
        self.slow = slow

    def recognizer(self, grammar: list[str]) -> FakeRecognizer:
        self.log.append(("grammar", threading.current_thread().name))
        rec = SlowRecognizer(grammar, self.log, self.slow)
        self.grammars.append(list(grammar))
        self.recognizers.append(rec)
        return rec


def test_release_and_screen_changes_return_at_once_and_decode_on_the_worker(tmp_path: Path) -> None:
    system = start_voice(CATALOG, board=StatusBoard(), gate=MicGate(), backend=FakeBackend(),
                         model_path=tmp_path / "no-model")
    ctl = system.controller
    ctl.stages, ctl.denoiser = (), None  # the fake's "audio" is text: no speed-perturbed decodes, no filter
    engine = ThreadEngine(slow=1.0)
    events: list[VoiceEvent] = []
    ctl.listen(events.append)
    try:
        ctl.set_engine(engine)
        ctl.set_context("lobby", ["next", "help"])
        caller = threading.current_thread().name
        t0 = time.perf_counter()
        ctl.press()
        ctl.feed("다음".encode())
        ctl.release()  # the final decode takes 1 s on the worker
        ctl.tick()
        ctl.set_context("vote", ["score"])
        spent = time.perf_counter() - t0
        assert spent < 0.5, f"the caller waited {spent:.2f} s for the recogniser"
        assert ctl.wait_idle(10)
    finally:
        system.stop()
    assert ("final", "voice-worker") in engine.log and ("accept", "voice-worker") in engine.log
    assert all(thread != caller for _call, thread in engine.log), engine.log
    heard = [e for e in events if e.kind == "heard"]
    assert heard and heard[0].text == "다음"  # in call order: the release decided before the screen changed
    assert [e.intent.name for e in events if e.kind == "intent" and e.intent] == ["next"]
    assert "점수" in ctl.book().grammar


def test_a_failing_call_does_not_end_the_worker(tmp_path: Path) -> None:
    system = start_voice(CATALOG, board=StatusBoard(), gate=MicGate(), backend=FakeBackend(),
                         model_path=tmp_path / "no-model")
    ctl = system.controller
    try:
        ctl.set_engine(ThreadEngine(slow=0.0))
        ctl.set_context("lobby", ["next"])
        assert ctl.wait_idle(10)
        ctl._recs["command"].accept = None  # type: ignore[assignment]  # broken recogniser: feed raises
        ctl.press()
        ctl.feed(b"x")
        ctl.release()
        ctl.set_context("vote", ["score"])
        assert ctl.wait_idle(10)
        assert "점수" in ctl.book().grammar
    finally:
        system.stop()
