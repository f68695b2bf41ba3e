"""The pre-rendered cache and render_all (`tablehost narration render`). Covers issue 7 item 2."""

from __future__ import annotations

import io
from pathlib import Path

from audio.cache import RenderCache, progress_bar, render_all
from audio.segments import Segment
from audio.tts import VoiceSettings
from tests.audio.narration_fakes import SpySynth, tone

SEGS = [Segment("a", "ko", "첫 문장입니다. 둘째 문장입니다."), Segment("b", "en", "Hello there."),
        Segment("c", "ko", "정답은 비밀입니다.", secret=True)]


def test_render_all_renders_every_sentence_with_progress(tmp_path: Path) -> None:
    synth = SpySynth()
    seen: list[tuple[int, int, str]] = []
    report = render_all(SEGS, tmp_path, lambda d, t, sid: seen.append((d, t, sid)), synth=synth)
    assert seen == [(1, 3, "a"), (2, 3, "b"), (3, 3, "c")]
    assert (report.segments, report.sentences, report.rendered, report.already) == (3, 4, 4, 0)
    assert [c[1] for c in synth.calls] == ["ko", "ko", "gmw/en", "ko"]
    cache = RenderCache(tmp_path)
    assert cache.get("첫 문장입니다.", "ko", 200) is not None
    names = " ".join(p.name for p in tmp_path.rglob("*"))
    assert "문장" not in names and "비밀" not in names  # file names carry no text


def test_render_again_skips_and_force_rerenders(tmp_path: Path) -> None:
    render_all(SEGS, tmp_path, synth=SpySynth())
    synth = SpySynth()
    report = render_all(SEGS, tmp_path, synth=synth)
    assert report.already == 4 and report.rendered == 0 and synth.texts == []
    report = render_all(SEGS, tmp_path, synth=synth, force=True)
    assert report.rendered == 4


def test_key_depends_on_text_voice_and_rate(tmp_path: Path) -> None:
    render_all(SEGS[:1], tmp_path, synth=SpySynth(), settings=VoiceSettings(rate=1.0))
    cache = RenderCache(tmp_path)
    assert cache.has("첫 문장입니다.", "ko", 200)
    assert not cache.has("첫 문장입니다.", "ko", 260)
    assert not cache.has("첫 문장입니다.", "ko+f2", 200)
    assert not cache.has("첫 문장입니다!", "ko", 200)
    render_all(SEGS[:1], tmp_path, synth=SpySynth(), settings=VoiceSettings(voices={"ko": "ko+f2"}, rate=1.3))
    assert cache.has("첫 문장입니다.", "ko+f2", 260)


def test_failures_are_reported_not_raised(tmp_path: Path) -> None:
    report = render_all(SEGS, tmp_path, synth=SpySynth(error_on="Hello"))
    assert report.rendered == 3 and [f[0] for f in report.failed] == ["b"]
    report = render_all(SEGS, tmp_path / "x", synth=SpySynth(fail="espeak-ng missing"))
    assert report.rendered == 0 and report.failed == [("a", "espeak-ng missing")]


def test_corrupt_cache_entry_is_a_miss(tmp_path: Path) -> None:
    cache = RenderCache(tmp_path)
    path = cache.put("가.", "ko", 200, tone(0.1))
    path.write_bytes(b"garbage")
    assert cache.get("가.", "ko", 200) is None and not path.exists()


def test_progress_bar_for_the_command_line(tmp_path: Path) -> None:
    out = io.StringIO()
    render_all(SEGS, tmp_path, progress_bar(out, width=6), synth=SpySynth())
    text = out.getvalue()
    assert "[##....]    1/3" in text and "[######]    3/3    c" in text and text.endswith("\n")
