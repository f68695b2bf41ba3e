"""Narration belongs to the screen on show. Leaving a screen (back, end of game, table turnover, staff
mode — every one of them changes the screen) stops its speech and clears its captions at once, so nothing
goes on reading over the next page or to the next guests. Widgets that narrate inside a screen (a case
opening) call `hush()` when they go away themselves (undo past the opening)."""

from __future__ import annotations

import time
from typing import Any


class NarrationScope:
    def __init__(self, app: Any, narrator: Any) -> None:
        from kiosk.widgets.captions import CaptionBar

        self.app, self.narrator = app, narrator
        self.bar = CaptionBar(narrator, app.tr, slot=self.slot)
        self.hushed_at: float | None = None  # perf_counter of the last hush (bench/narration.py)
        app.sm.bind(current=lambda *_: self.hush())

    def slot(self) -> Any:
        """The strip under the screens, unless the screen on show (or its game widget) shows its own
        captions and controls (teaching, a case opening): one set of playback controls per screen."""
        screen = self.app.sm.current_screen
        if screen is None or getattr(screen, "shows_captions", False):
            return None
        host = getattr(screen, "host_widget", None)
        if host is not None and getattr(host, "shows_captions", False):
            return None
        return self.app.caption_slot

    def hush(self) -> None:
        """Stop and clear this screen's speech and captions now. A pause ends with it: paused on one screen (or
        by the last table), the narrator stayed paused and the next screen's speech was never heard."""
        from audio.narrator import utterance_mark

        self.hushed_at = time.perf_counter()
        self.bar.floor = utterance_mark()
        self.narrator.stop()
        if self.narrator.paused:
            self.narrator.resume()
        self.bar.clear()
