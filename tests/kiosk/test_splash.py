"""Start-up: the very first frame is the splash (our mark, the name, progress), and the attract screen follows
(the same start-up path as `tablehost run`, in a child process as bench/startup.py runs it)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))


def test_first_frame_is_the_splash_then_the_attract_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import startup  # bench/startup.py

    artifacts = Path(os.environ.get("TABLEHOST_ARTIFACTS", Path(__file__).resolve().parents[2] / "test-artifacts"))
    artifacts.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("SPLASH_SHOT", str(tmp_path / "splash.png"))
    marks = startup.one("kiosk", str(tmp_path))
    assert 0 < marks["first_frame_s"] < marks["ready_s"]
    # ready before the content and the other screens: those load after the attract screen is drawn
    assert marks["screens_at_ready"] == ["attract"] and marks["content_at_ready"] is False
    assert marks["content_s"] > marks["ready_s"]
    # nothing else competes with the content for the CPU: narration's imports and the phone server start once the
    # games' tiles are drawn (the voice model 2 s after; each cost ~0.35 s of CPU before the tiles, #43)
    assert not {"narrator-import", "phones-start"} & set(marks["threads_at_content"]), marks["threads_at_content"]
    shots = sorted(tmp_path.glob("splash*.png"))
    assert shots, "no picture of the first frame"
    # a one-colour 1280×800 frame compresses to a few kB; the mark, the name and the bar make it larger
    assert shots[0].stat().st_size > 12_000, "the first frame is blank"
    shots[0].replace(artifacts / "splash.png")
