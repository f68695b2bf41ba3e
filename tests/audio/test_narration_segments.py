"""The narration segment model content teams write (YAML → Segment through engines.serial)."""

from __future__ import annotations

import pytest
import yaml

from audio.segments import Segment, localized, overlay_path
from engines.serial import from_jsonable, to_jsonable

YAML = """
- id: wh.case01.intro
  lang: ko
  text: 안개가 짙은 밤이었습니다. 경감이 문을 두드립니다.
- id: wh.case01.solution
  lang: ko
  text: 범인은 정원사였습니다.
  secret: true
  recording: recordings/wh.case01.solution.wav
"""


def test_segments_load_from_content_yaml() -> None:
    segs = [from_jsonable(Segment, d) for d in yaml.safe_load(YAML)]
    assert segs[0] == Segment("wh.case01.intro", "ko", "안개가 짙은 밤이었습니다. 경감이 문을 두드립니다.")
    assert segs[1].secret and segs[1].recording == "recordings/wh.case01.solution.wav"
    assert from_jsonable(Segment, to_jsonable(segs[1])) == segs[1]


def test_segment_ids_are_safe_file_names() -> None:
    with pytest.raises(ValueError):
        Segment("../../etc/passwd", "ko", "x")
    with pytest.raises(ValueError):
        Segment("사건 1", "ko", "x")
    assert overlay_path("/o", Segment("spy.loc.beach", "en", "x")).as_posix() == "/o/en/spy.loc.beach.wav"


def test_localized_fields_become_one_segment_per_language() -> None:
    segs = localized("wh.case01.intro", {"ko": "소개입니다.", "en": "The introduction.", "ja": " "},
                     recordings={"ko": "audio/case01_ko.wav", "en": ""})
    assert segs == [Segment("wh.case01.intro", "ko", "소개입니다.", False, "audio/case01_ko.wav"),
                    Segment("wh.case01.intro", "en", "The introduction.")]
    assert all(s.secret for s in localized("wh.case01.solution", {"ko": "정답."}, secret=True))
