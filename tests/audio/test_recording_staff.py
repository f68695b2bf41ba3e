"""Staff-mode recording backend: countdown, level meter, trimming, play back, keep/discard, and the
narrator using the kept take from then on. Covers issue 7 item 3."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest

from audio.narrator import Narrator
from audio.pcm import Clip, read_wav
from audio.playback import RATE
from audio.recording import FakeInput, Level, RecordingSession, inventory
from audio.segments import Segment
from audio.status import StatusBoard
from tests.audio.narration_fakes import SpySynth, rig, tone

SEG = Segment("wh.case01.q3", "ko", "세 번째 질문입니다.")


def _voice_between_silences() -> Clip:
    quiet = array("h", bytes(2 * int(0.5 * RATE)))
    return Clip(quiet + tone(1.0).samples + quiet, RATE)


def _record(tmp: Path, board: StatusBoard, **kw: object) -> tuple[RecordingSession, list[int], list[Level]]:
    session = RecordingSession(SEG, tmp, input_device=FakeInput(_voice_between_silences(), speed=10),
                               board=board, countdown_interval=0.01, **kw)  # type: ignore[arg-type]
    counts: list[int] = []
    levels: list[Level] = []
    done: list[object] = []
    session.start(on_countdown=counts.append, on_level=levels.append, on_done=done.append, max_seconds=2.2)
    session.wait(5)
    assert done and done[0] is session.take
    return session, counts, levels


def test_countdown_levels_and_trimmed_take(tmp_path: Path) -> None:
    session, counts, levels = _record(tmp_path, StatusBoard())
    assert counts == [3, 2, 1, 0]
    assert session.state == "recorded" and session.take is not None
    assert 2.2 <= session.take.raw.duration < 2.3  # stops at max_seconds of audio
    assert 1.0 <= session.take.duration <= 1.4  # 1 s of voice plus ~0.15 s padding each side
    meters = [lv.meter for lv in levels]
    assert meters[0] == 0.0 and max(meters) > 0.6  # silence first, then the voice
    assert [lv.elapsed for lv in levels] == sorted(lv.elapsed for lv in levels)


def test_keep_saves_to_overlay_and_narrator_uses_it(tmp_path: Path) -> None:
    session, _c, _l = _record(tmp_path, StatusBoard())
    path = session.keep()
    assert path == tmp_path / "ko" / "wh.case01.q3.wav" and session.state == "kept"
    assert abs(read_wav(path).duration - session.take.duration) < 0.01  # type: ignore[union-attr]
    mixer, _dev, _gate, board = rig()
    synth = SpySynth()
    n = Narrator(mixer=mixer, synth=synth, overlay_dir=tmp_path, board=board, tick=0.01)
    try:
        utt = n.speak(SEG)
        assert utt.done.wait(10) and utt.source == "recorded" and synth.texts == []
    finally:
        n.close()
        mixer.close()
    other = Segment("wh.case01.q4", "ko", "네 번째 질문입니다.")
    assert inventory([SEG, other], tmp_path) == [(SEG, path), (other, None)]
    assert RecordingSession.delete(tmp_path, SEG) and RecordingSession.existing(tmp_path, SEG) is None


def test_discard_writes_nothing_and_play_uses_the_mixer(tmp_path: Path) -> None:
    mixer, dev, _gate, _board = rig()
    try:
        session, _c, _l = _record(tmp_path, StatusBoard(), mixer=mixer)
        p = session.play()
        assert p is not None and p.finished.wait(5)
        assert abs(len(dev.samples) / RATE - session.take.duration) < 0.02  # type: ignore[union-attr]
        session.discard()
        assert session.state == "discarded" and not list(tmp_path.rglob("*.wav"))
        with pytest.raises(ValueError):
            session.keep()
    finally:
        mixer.close()


def test_stop_during_countdown_records_nothing(tmp_path: Path) -> None:
    session = RecordingSession(SEG, tmp_path, input_device=FakeInput(tone(1.0)), countdown_interval=5)
    session.start()
    assert session.stop() is None and session.state == "idle"


def test_no_microphone_fails_with_a_reason(tmp_path: Path) -> None:
    board = StatusBoard()
    session = RecordingSession(SEG, tmp_path, input_device=FakeInput(fail="마이크가 없습니다 (no input device)"),
                               board=board, countdown_interval=0.001)
    done: list[object] = []
    session.start(on_done=done.append)
    session.wait(5)
    assert session.state == "failed" and "no input device" in session.error and done == [None]
    assert not board.get("recorder").available  # type: ignore[union-attr]
