"""Every narration segment the content holds, for `tablehost narration render` (pre-rendering the
cache so the first tap speaks at once). Texts are composed exactly as the screens compose them, since
the cache is keyed by sentence text, voice and rate."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from audio.segments import Segment
from content.loader import Library

log = logging.getLogger(__name__)
LANGS = ("ko", "en")


def _pick(text: Any, lang: str) -> str:
    if text is None:
        return ""
    return str(text.en if lang == "en" and getattr(text, "en", None) else text.ko)


def watson_holmes_segments(library: Library) -> Iterator[Segment]:
    """Case openings (intro, questions, special rules) and the solutions (secret: played after a reveal)."""
    game = library.games.get("watson_holmes")
    if game is None:
        return
    for key, case in sorted(game.pack.items()):
        if not key.startswith("cases/") or not hasattr(case, "intro"):
            continue
        for lang in LANGS:
            questions = "\n".join(f"{q.number}. {_pick(q.text, lang)}" for q in case.questions)
            parts = (("intro", _pick(case.intro, lang), False), ("questions", questions, False),
                     ("rules", _pick(case.special_rules, lang), False),
                     ("solution", _pick(case.solution, lang), True))
            for name, text, secret in parts:
                if text.strip():
                    yield Segment(f"wh.{case.id}.{name}", lang, text, secret)


def teaching_segments(library: Library, overlay: Path | None = None) -> Iterator[Segment]:
    try:
        from kiosk.teach.loader import load_teaching
        from kiosk.teach.pages import pages, segments
    except ImportError:
        return
    for game_id in sorted(library.games):
        loaded, errors = load_teaching(game_id, overlay)
        if loaded is None:
            continue
        for page in pages(loaded.teaching):
            for lang in LANGS:
                for seg in segments(game_id, loaded.teaching, page, lang):
                    if isinstance(seg, Segment):
                        yield seg


def all_segments(library: Library, overlay: Path | None = None) -> list[Segment]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for seg in (*watson_holmes_segments(library), *teaching_segments(library, overlay)):
        key = (seg.id, seg.lang, seg.text)
        if key not in seen:
            seen.add(key)
            out.append(seg)
    return out
