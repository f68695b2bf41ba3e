"""VoiceController with a scripted recogniser: per-screen grammar, push-to-talk, wake phrase, the
confirmation flow, the mic gate, the noise gate, and dropping half-spoken commands."""

from __future__ import annotations

import math
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audio.asr import Heard, Mode, Phase, VoiceController, VoiceEvent
from audio.confirm import Answer
from audio.intents import load_catalog
from audio.status import MicGate, StatusBoard
from tests.audio.voice_fakes import FakeClock, FakeEngine

CATALOG = load_catalog()
NAV = ["next", "previous", "repeat", "stop", "help", "score", "time_left"]


def make(mode: Mode = Mode.PUSH_TO_TALK, engine: FakeEngine | None = None):
    clock, gate, board = FakeClock(), MicGate(), StatusBoard()
    ctl = VoiceController(CATALOG, engine or FakeEngine(), mode, clock=clock, gate=gate, board=board,
                          wake_window=5.0, confirm_timeout=6.0)
    ctl.mic_available(True)
    events: list[VoiceEvent] = []
    ctl.listen(events.append)
    return ctl, clock, gate, board, events


def say(ctl: VoiceController, text: str) -> None:
    """Push-to-talk: hold, speak, release."""
    ctl.press()
    ctl.feed(text.encode())
    ctl.release()


def intents(events: list[VoiceEvent]) -> list[str]:
    return [e.intent.name for e in events if e.kind == "intent" and e.intent]


def test_grammar_is_exactly_the_screen_phrases_plus_decoys_and_rebuilt_on_change() -> None:
    engine = FakeEngine()
    ctl, *_ = make(engine=engine)
    ctl.set_context("lobby", ["next", "help"])
    grammar = set(ctl.book().grammar)
    assert {"다음", "계속", "넘겨줘", "도움말", "도와줘"} <= grammar
    assert set(CATALOG.decoys) <= grammar
    assert "점수" not in grammar and "게임 도우미" not in grammar and "네" not in grammar
    assert grammar - set(CATALOG.decoys) == {"다음", "계속", "넘겨줘", "도움말", "도와줘", "규칙 알려줘"}
    built = len(engine.grammars)
    ctl.set_context("vote", ["score", "spyfall.accuse"], {"player": {"민호": 0, "지수": 1}})
    assert len(engine.grammars) > built  # rebuilt
    grammar = set(ctl.book().grammar)
    assert {"점수", "민호 고발", "지수 고발"} <= grammar and "다음" not in grammar
    ctl.set_context("vote", ["score", "spyfall.accuse"], {"player": {"서연": 2}})
    assert "서연 고발" in ctl.book().grammar and "민호 고발" not in ctl.book().grammar


def test_recogniser_is_given_the_grammar_of_the_current_step() -> None:
    engine = FakeEngine()
    ctl, *_ = make(engine=engine)
    ctl.set_context("vote", NAV + ["spyfall.accuse"], {"player": {"민호": 0}})
    confirm_grammar = [g for g in engine.grammars if "네" in g][-1]
    assert "아니요" in confirm_grammar and "다음" not in confirm_grammar and "민호 고발" not in confirm_grammar


def test_push_to_talk_dispatches_navigation_at_once_and_shows_what_was_heard() -> None:
    ctl, _, _, _, events = make()
    ctl.set_context("teach", NAV)
    say(ctl, "다음")
    assert intents(events) == ["next"]
    heard = [e for e in events if e.kind == "heard"]
    assert (heard[-1].text, heard[-1].intent.name) == ("다음", "next")
    say(ctl, "커피")
    assert intents(events) == ["next"]
    last = [e for e in events if e.kind == "heard"][-1]
    assert (last.text, last.intent) == ("커피", None)  # shown as not understood
    assert ctl.phase is Phase.IDLE


def test_push_to_talk_ignores_audio_while_the_button_is_up() -> None:
    engine = FakeEngine()
    ctl, _, _, _, events = make(engine=engine)
    ctl.set_context("teach", NAV)
    ctl.feed("다음".encode())
    ctl.feed(b"")
    assert intents(events) == [] and all(r.buffer == b"" for r in engine.recognizers)


def test_endpoint_while_holding_dispatches_without_waiting_for_release() -> None:
    ctl, _, _, _, events = make()
    ctl.set_context("teach", NAV)
    ctl.press()
    ctl.feed("점수".encode())
    ctl.feed(b"")  # ~0.6 s of silence
    assert intents(events) == ["score"]
    ctl.release()
    assert intents(events) == ["score"]


def test_noise_after_a_command_while_the_button_is_still_held_does_not_replace_what_was_heard() -> None:
    """One command per press: the screen kept "들은 말: 점수" until trailing noise, still under the finger,
    was heard as a decoy and replaced it ("들은 말: 커피 (알아듣지 못했어요)") after the score was shown."""
    ctl, _, _, _, events = make()
    ctl.set_context("teach", NAV)
    ctl.press()
    ctl.feed("점수".encode())
    ctl.feed(b"")  # the endpoint: acted on while held
    ctl.feed("커피".encode())  # the room, still under the finger
    ctl.feed(b"")
    ctl.release()
    assert intents(events) == ["score"]
    assert [(e.text, e.intent.name) for e in events if e.kind == "heard"] == [("점수", "score")]
    events.clear()
    say(ctl, "다음")  # the next press listens again
    assert intents(events) == ["next"]


def test_a_miss_while_the_button_is_held_still_lets_the_command_be_said_again() -> None:
    ctl, _, _, _, events = make()
    ctl.set_context("teach", NAV)
    ctl.press()
    ctl.feed("커피".encode())
    ctl.feed(b"")  # heard as a decoy: nothing acted on
    ctl.feed("점수".encode())
    ctl.release()
    assert intents(events) == ["score"]


def test_final_action_waits_for_yes_and_is_dispatched_once() -> None:
    ctl, _, _, _, events = make()
    ctl.set_context("vote", NAV + ["spyfall.accuse"], {"player": {"민호": 0, "지수": 1}})
    say(ctl, "민호 고발")
    assert intents(events) == []
    confirm = [e for e in events if e.kind == "confirm"]
    assert confirm and confirm[0].intent.action_fields() == {"accused": 0}
    assert confirm[0].pending.intent.text == "민호 고발"
    assert ctl.phase is Phase.CONFIRMING
    say(ctl, "다음")  # not an answer: navigation is not in the confirmation grammar
    assert intents(events) == []
    say(ctl, "네")
    assert intents(events) == ["spyfall.accuse"]
    done = [e for e in events if e.kind == "confirm_done"]
    assert done[-1].answer is Answer.CONFIRMED
    say(ctl, "네")
    assert intents(events) == ["spyfall.accuse"]


def test_no_and_tap_cancel_and_tap_confirm() -> None:
    ctl, _, _, _, events = make()
    ctl.set_context("end", ["watson_holmes.end_game"])
    say(ctl, "게임 종료")
    say(ctl, "아니요")
    assert intents(events) == []
    assert [e.answer for e in events if e.kind == "confirm_done"] == [Answer.REJECTED]
    say(ctl, "게임 종료")
    ctl.tap_confirm(False)
    say(ctl, "게임 종료")
    ctl.tap_confirm(True)
    assert intents(events) == ["watson_holmes.end_game"]
    assert [e.answer for e in events if e.kind == "confirm_done"] == [Answer.REJECTED] * 2 + [Answer.CONFIRMED]


def test_confirmation_times_out() -> None:
    ctl, clock, _, _, events = make()
    ctl.set_context("vote", ["new_game"])
    say(ctl, "새 게임")
    clock.now += 5.9
    ctl.tick()
    assert ctl.phase is Phase.CONFIRMING
    clock.now += 0.2
    ctl.tick()
    assert ctl.phase is Phase.IDLE
    assert [e.answer for e in events if e.kind == "confirm_done"] == [Answer.TIMED_OUT]
    say(ctl, "네")
    ctl.tap_confirm(True)
    assert intents(events) == []


def test_audio_is_dropped_while_the_kiosk_speaks() -> None:
    ctl, _, gate, _, events = make()
    ctl.set_context("teach", NAV)
    gate.hold()
    say(ctl, "다음")
    assert intents(events) == []
    gate.release()
    say(ctl, "다음")
    assert intents(events) == ["next"]


def test_narration_starting_mid_command_drops_it() -> None:
    ctl, _, gate, _, events = make()
    ctl.set_context("teach", NAV)
    ctl.press()
    ctl.feed("다".encode())
    gate.hold()
    assert [e.detail for e in events if e.kind == "dropped"] == ["안내 음성 재생 중 / the kiosk is speaking"]
    gate.release()
    ctl.feed("점수".encode())
    ctl.release()
    assert intents(events) == ["score"]  # "다" was dropped, not glued to "점수"


def test_screen_change_mid_command_drops_it() -> None:
    ctl, _, _, _, events = make()
    ctl.set_context("teach", NAV)
    ctl.press()
    ctl.feed("점".encode())
    ctl.set_context("score", ["score"])
    ctl.feed("점수".encode())
    ctl.release()
    assert intents(events) == ["score"]
    assert any(e.kind == "dropped" for e in events)


def test_wake_phrase_opens_a_short_window_for_one_command() -> None:
    ctl, clock, _, _, events = make(Mode.WAKE_PHRASE)
    ctl.set_context("teach", NAV)
    ctl.feed("다음".encode())
    ctl.feed(b"")
    assert intents(events) == []  # no wake phrase, no command
    ctl.feed("게임 도우미".encode())
    ctl.feed(b"")
    assert ctl.phase is Phase.LISTENING
    ctl.feed("다음".encode())
    ctl.feed(b"")
    assert intents(events) == ["next"] and ctl.phase is Phase.IDLE
    ctl.feed("게임 도우미".encode())
    ctl.feed(b"")
    clock.now += 5.1
    ctl.feed("점수".encode())
    ctl.feed(b"")
    assert intents(events) == ["next"] and ctl.phase is Phase.IDLE


def test_wake_mode_confirmation_listens_without_the_wake_phrase() -> None:
    ctl, _, _, _, events = make(Mode.WAKE_PHRASE)
    ctl.set_context("vote", ["spyfall.accuse"], {"player": {"지수": 1}})
    for chunk in ("게임 도우미", "", "지수 고발", "", "네", ""):
        ctl.feed(chunk.encode())
    assert intents(events) == ["spyfall.accuse"]


def test_mic_lost_mid_command_drops_it_and_reports_voice_off_with_reason() -> None:
    ctl, _, _, board, events = make()
    ctl.set_context("teach", NAV)
    assert board.get("voice").available
    ctl.press()
    ctl.feed("다음".encode())
    ctl.mic_available(False, "마이크 연결이 끊겼어요 / microphone disconnected")
    ctl.release()
    assert intents(events) == []
    assert any(e.kind == "dropped" for e in events)
    status = board.get("voice")
    assert not status.available and "마이크 연결이 끊겼어요" in status.reason
    ctl.mic_available(True)
    assert board.get("voice").available
    say(ctl, "다음")
    assert intents(events) == ["next"]


def test_without_a_model_voice_is_off_and_audio_is_ignored() -> None:
    clock, gate, board = FakeClock(), MicGate(), StatusBoard()
    board.set("asr_model", False, "음성 모델 없음 / Korean model not installed")
    ctl = VoiceController(CATALOG, None, clock=clock, gate=gate, board=board)
    ctl.mic_available(True)
    events: list[VoiceEvent] = []
    ctl.listen(events.append)
    ctl.set_context("teach", NAV)
    say(ctl, "다음")
    assert intents(events) == []
    status = board.get("voice")
    assert not status.available and "음성 모델 없음" in status.reason
    ctl.set_engine(FakeEngine())  # the model finished loading later
    assert board.get("voice").available
    say(ctl, "다음")
    assert intents(events) == ["next"]


OPS = st.lists(
    st.one_of(
        st.sampled_from(["다음", "점수", "민호 고발", "새 게임", "네", "아니요", "커피", "게임 도우미", "민호 고발 네"]).map(
            lambda t: ("say", t)),
        st.sampled_from([("tap", True), ("tap", False), ("wait", 3.5), ("mode", None), ("screen", "vote"),
                         ("screen", "other")]),
    ),
    max_size=25,
)


@settings(max_examples=80, deadline=None)
@given(OPS)
def test_a_final_action_is_never_dispatched_without_a_yes_just_before(ops) -> None:
    """Random talk, taps and waits: every final intent dispatched was confirmed, once, in time."""
    ctl, clock, _, _, events = make()
    ctl.set_context("vote", NAV + ["new_game", "spyfall.accuse"], {"player": {"민호": 0}})
    for op, arg in ops:
        if op == "say":
            if ctl.mode is Mode.PUSH_TO_TALK:
                say(ctl, arg)
            else:
                ctl.feed(arg.encode())
                ctl.feed(b"")
        elif op == "tap":
            ctl.tap_confirm(arg)
        elif op == "wait":
            clock.now += arg
            ctl.tick()
        elif op == "screen":
            names = NAV + ["new_game", "spyfall.accuse"] if arg == "vote" else NAV
            ctl.set_context(arg, names, {"player": {"민호": 0}})
        else:
            ctl.set_mode(Mode.WAKE_PHRASE if ctl.mode is Mode.PUSH_TO_TALK else Mode.PUSH_TO_TALK)
    for i, e in enumerate(events):
        if e.kind == "intent" and e.intent.final:
            before = events[i - 1]
            assert before.kind == "confirm_done" and before.answer is Answer.CONFIRMED
            assert before.intent is e.intent
            asked = [x for x in events[:i] if x.kind == "confirm" and x.intent is e.intent]
            assert len(asked) == 1


def _tone(seconds: float, amp: int) -> bytes:
    import math
    from array import array

    n = int(16000 * seconds)
    return array("h", (int(amp * math.sin(2 * math.pi * 220 * i / 16000)) for i in range(n))).tobytes()


def _chunks(pcm: bytes) -> list[bytes]:
    return [pcm[i : i + 3200] for i in range(0, len(pcm), 3200)]


def test_quick_endpoint_fires_after_a_short_silence_following_speech() -> None:
    from audio.asr import QuickEndpoint

    ep = QuickEndpoint(silence_after=0.3)
    fired = [ep.update(c) for c in _chunks(bytes(3200 * 3) + _tone(0.6, 6000) + bytes(3200 * 6))]
    assert fired.index(True) == 3 + 6 + 2  # the third quiet chunk: 0.3 s after the speech
    assert fired.count(True) == 1


def test_quick_endpoint_ignores_clicks_and_steady_noise() -> None:
    from audio.asr import QuickEndpoint

    ep = QuickEndpoint()
    assert not any(ep.update(c) for c in _chunks(_tone(0.1, 8000) + bytes(3200 * 10)))  # 0.1 s click
    ep = QuickEndpoint()
    # steady noise: once the floor has adapted the noise counts as quiet, so at most its onset ends once
    assert sum(ep.update(c) for c in _chunks(_tone(5.0, 3000))) <= 1
    # and speech well above that floor is still heard and ended
    assert [ep.update(c) for c in _chunks(_tone(0.5, 20000))] == [False] * 5
    assert any(ep.update(c) for c in _chunks(_tone(1.0, 3000)))


def test_leaving_the_screen_cancels_a_pending_confirmation() -> None:
    ctl, _, _, _, events = make()
    ctl.set_context("vote", ["spyfall.accuse"], {"player": {"민호": 0}})
    say(ctl, "민호 고발")
    ctl.set_context("vote", ["spyfall.accuse"], {"player": {"민호": 0, "지수": 1}})  # same screen, new view
    assert ctl.phase is Phase.CONFIRMING
    ctl.set_context("result", ["next"])
    assert ctl.phase is Phase.IDLE
    assert [e.answer for e in events if e.kind == "confirm_done"] == [Answer.CANCELLED]
    ctl.tap_confirm(True)
    assert intents(events) == []


def test_screen_change_rebuilds_only_the_command_grammar() -> None:
    engine = FakeEngine()
    ctl, *_ = make(engine=engine)
    before = len(engine.grammars)
    ctl.set_context("a", ["next"])
    ctl.set_context("b", ["score"])
    assert len(engine.grammars) == before + 2


def test_staff_switch_turns_voice_off_with_a_reason_and_back_on() -> None:
    ctl, _, _, board, events = make()
    ctl.set_context("vote", NAV + ["new_game"])
    say(ctl, "새 게임")
    ctl.set_enabled(False)
    assert [e.answer for e in events if e.kind == "confirm_done"] == [Answer.CANCELLED]
    say(ctl, "다음")
    assert intents(events) == []
    assert not board.get("voice").available and "껐어요" in board.get("voice").reason
    ctl.set_enabled(True)
    assert board.get("voice").available
    say(ctl, "다음")
    assert intents(events) == ["next"]


def test_snr_of_an_utterance_and_the_background_floor() -> None:
    from audio.recognizer import NoiseFloor, chunk_level, snr_db

    quiet, loud = [chunk_level(bytes(3200))] * 4, [3000.0] * 4
    assert snr_db(quiet + loud) is not None and snr_db(quiet + loud) > 60  # speech over digital silence
    assert snr_db([300.0] * 5 + [560.0] * 5) == pytest.approx(20 * math.log10(560 / 300), abs=0.01)
    assert snr_db([1000.0] * 4) is None  # under 0.5 s: cannot tell
    # talking straight through a press: the floor heard before it is the noise
    assert snr_db([2000.0, 2500.0, 3000.0, 2800.0, 2600.0], floor=100.0) > 25
    floor = NoiseFloor(seconds=1.0)
    assert floor.value is None
    for level in [100.0] * 8 + [5000.0] * 2:
        floor.update(level)
    assert floor.value == 100.0


class AlwaysHears(FakeEngine):
    """A recogniser that hears "계속" whatever the audio: only the noise gate can stop it."""

    def recognizer(self, grammar):  # type: ignore[no-untyped-def]
        rec = super().recognizer(grammar)
        rec.final = lambda: Heard("계속")  # type: ignore[method-assign]
        return rec


def _pcm(level: int, seconds: float) -> bytes:
    return array("h", [level, -level] * int(8000 * seconds)).tobytes()


def test_noise_gate_drops_speech_too_close_to_the_noise_and_says_so() -> None:
    ctl, clock, gate, board, events = make(engine=AlwaysHears())
    ctl.set_context("lobby", ["next"])
    for _ in range(30):  # background noise while nobody talks to the kiosk
        ctl.feed(_pcm(1000, 0.1))
    ctl.press()
    for chunk in [_pcm(1000, 0.1)] * 3 + [_pcm(1800, 0.1)] * 6 + [_pcm(1000, 0.1)] * 2:  # +5 dB
        ctl.feed(chunk)
    ctl.release()
    assert intents(events) == []
    assert [e.detail for e in events if e.kind == "heard"] == ["noisy"]
    events.clear()
    ctl.press()
    for chunk in [_pcm(1000, 0.1)] * 3 + [_pcm(9000, 0.1)] * 6 + [_pcm(1000, 0.1)] * 2:  # +19 dB
        ctl.feed(chunk)
    ctl.release()
    assert intents(events) == ["next"]


def test_noise_gate_is_silent_while_waiting_for_the_wake_phrase() -> None:
    ctl, clock, gate, board, events = make(Mode.WAKE_PHRASE, engine=AlwaysHears())
    ctl.set_context("lobby", ["next"])
    for _ in range(40):
        ctl.feed(_pcm(1000, 0.1))
    ctl.feed(b"")
    assert [e for e in events if e.kind == "heard"] == []
