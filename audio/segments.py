"""The narration segment: the unit content teams write and the narrator speaks.

    Segment(id="wh.case01.intro", lang="ko", text="…", secret=False, recording=None)

- `id`: stable, unique within the content (game.kind.name); names the recording file in the overlay
  folder (`<overlay>/<lang>/<id>.wav`) and is what the narration gate reveals.
- `lang`: "ko" (guest-facing default) or "en".
- `text`: what is said and captioned. Sentences end with . ! ? (or a line break) — captions split there.
- `secret`: solutions, location-card texts… only spoken after an explicit reveal (audio.gate).
- `recording`: optional path to a recorded WAV shipped with the content; a staff recording in the
  overlay folder wins over it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

_ID = re.compile(r"^[A-Za-z0-9_.\-]+$")


@dataclass(frozen=True)
class Segment:
    id: str
    lang: str
    text: str
    secret: bool = False
    recording: str | None = None

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise ValueError(f"segment id must be letters, digits, '.', '_' or '-': {self.id!r}")

    def __repr__(self) -> str:
        # Secret text never lands in logs or tracebacks through repr().
        text = "<secret>" if self.secret else repr(self.text[:40])
        return f"Segment(id={self.id!r}, lang={self.lang!r}, text={text}, secret={self.secret})"


def overlay_path(overlay_dir: str | Path, segment: Segment) -> Path:
    """Where a café's own recording of a segment lives (and is looked for first)."""
    return Path(overlay_dir) / segment.lang / f"{segment.id}.wav"


def localized(segment_id: str, texts: Mapping[str, str], *, secret: bool = False,
              recordings: Mapping[str, str] | None = None) -> list[Segment]:
    """One segment per language from content's usual `{ko: "…", en: "…"}` field (empty texts skipped);
    `recordings` maps a language to a shipped recording (a case's `intro_audio` is usually Korean)."""
    recordings = recordings or {}
    return [Segment(segment_id, lang, text, secret, recordings.get(lang) or None)
            for lang, text in texts.items() if text and text.strip()]
