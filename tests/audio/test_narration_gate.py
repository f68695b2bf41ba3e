"""The narration gate: secret text (solutions, location cards) reaches neither synthesis nor captions
nor the cache before an explicit reveal. Covers issue 7 item 6."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audio.captions import CaptionState
from audio.gate import NarrationGate
from audio.narrator import Narrator
from audio.segments import Segment
from tests.audio.narration_fakes import SpySynth, rig

SOLUTION = Segment("wh.case01.solution", "ko", "범인은 정원사였습니다. 동기는 유산이었습니다.", secret=True)
PUBLIC = Segment("wh.case01.intro", "ko", "사건이 시작됩니다.")


def _narrator(tmp: Path, synth: SpySynth) -> tuple[Narrator, list[CaptionState], object]:
    mixer, _dev, _gate, board = rig(speed=40)
    n = Narrator(mixer=mixer, synth=synth, cache_dir=tmp / "cache", board=board, tick=0.01)
    caps: list[CaptionState] = []
    n.listen(caps.append)
    return n, caps, mixer


def _leaked(secret: Segment, synth: SpySynth, caps: list[CaptionState]) -> bool:
    said = "".join(synth.texts)
    shown = "".join("".join(c.sentences) for c in caps)
    return any(part in said or part in shown for part in secret.text.split(". "))


def test_secret_is_refused_before_reveal(tmp_path: Path) -> None:
    synth = SpySynth()
    n, caps, mixer = _narrator(tmp_path, synth)
    try:
        utt = n.speak(SOLUTION)
        assert utt.done.is_set() and utt.state == "refused"
        assert n.speak(PUBLIC).done.wait(10)
        assert not _leaked(SOLUTION, synth, caps)
        assert not any(c.segment_id == SOLUTION.id for c in caps)
        assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*.wav"))
    finally:
        n.close()
        mixer.close()  # type: ignore[attr-defined]


def test_reveal_speaks_the_secret_with_a_sting(tmp_path: Path) -> None:
    synth = SpySynth()
    n, caps, mixer = _narrator(tmp_path, synth)
    try:
        utt = n.reveal(SOLUTION)
        assert utt.done.wait(10) and utt.state == "finished"
        assert synth.texts == ["범인은 정원사였습니다.", "동기는 유산이었습니다."]
        assert caps[-1].segment_id == SOLUTION.id and caps[-1].state == "finished"
    finally:
        n.close()
        mixer.close()  # type: ignore[attr-defined]


def test_gate_reset_locks_again_and_repr_hides_secret_text() -> None:
    gate = NarrationGate()
    gate.reveal(SOLUTION.id)
    assert gate.allows(SOLUTION)
    gate.reset()
    assert not gate.allows(SOLUTION) and gate.allows(PUBLIC)
    assert "정원사" not in repr(SOLUTION) and "<secret>" in repr(SOLUTION)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["speak", "reveal"]), st.integers(0, 3), st.booleans()),
                min_size=1, max_size=6))
def test_no_secret_reaches_tts_or_captions_unless_revealed_first(tmp_path: Path, ops: list) -> None:
    """Random sequences of speaking secret/public segments and revealing: a secret's text shows up in
    synthesis or captions only if its reveal came earlier."""
    segs = [Segment(f"s{i}", "ko", f"비밀{i} 번 문장입니다.", secret=bool(i % 2 == 0)) for i in range(4)]
    synth = SpySynth(per_char=0.002)
    n, caps, mixer = _narrator(tmp_path, synth)
    revealed: set[str] = set()
    try:
        for op, i, via_narrator in ops:
            seg = segs[i]
            if op == "reveal":
                if via_narrator:
                    n.reveal(seg)
                else:
                    n.gate.reveal(seg.id)
                revealed.add(seg.id)
            else:
                n.speak(seg)
        assert n.wait_idle(10)
        for seg in segs:
            if seg.secret and seg.id not in revealed:
                assert not _leaked(seg, synth, caps)
    finally:
        n.close()
        mixer.close()  # type: ignore[attr-defined]
