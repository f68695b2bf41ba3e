"""Narration for the teaching player: speak through the app's narrator when there is one; captions always."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

log = logging.getLogger(__name__)


def speak(app: Any, segments: Sequence[Any]) -> bool:
    """Interrupt what plays and speak `segments`; False (captions only) when no narrator runs."""
    narrator = getattr(app, "narrator", None)
    if narrator is None or not hasattr(narrator, "speak"):
        return False
    try:
        for i, seg in enumerate(segments):
            narrator.speak(seg, interrupt=(i == 0))
    except Exception:  # narration must never break teaching
        log.exception("teaching narration failed; captions only")
        return False
    return True


def stop(app: Any) -> None:
    narrator = getattr(app, "narrator", None)
    if narrator is not None and hasattr(narrator, "stop"):
        try:
            narrator.stop()
        except Exception:
            log.exception("narrator stop failed")
