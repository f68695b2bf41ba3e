"""The content library of a data folder: loaded at once, or in a thread once the first screen is drawn
(`tablehost run`); whoever needs it before then waits for it (TableHostApp.library)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from content.loader import Library

log = logging.getLogger(__name__)


class ContentLoad:
    def __init__(self) -> None:
        self.library: Library | None = None
        self.job: threading.Thread | None = None  # the loading thread, while it runs or until its result is taken
        self._loaded: Library | BaseException | None = None

    def take(self, library: Library) -> None:
        self.library, self.job, self._loaded = library, None, None

    def wait(self, overlay: Path, cache: Path) -> Library:
        """The library the thread loaded (waiting for it), else one loaded now; not yet taken."""
        from content.cache import load_library_cached
        from content.loader import Library, load_library

        if self.job is not None:
            self.job.join()
        loaded = self._loaded
        if isinstance(loaded, Library):
            return loaded
        if loaded is None:  # needed before its thread started (a game to resume at start): as last loaded
            return load_library_cached(cache, overlay=overlay)
        log.error("content failed to load in the background; loading again", exc_info=loaded)
        return load_library(overlay=overlay)

    def soon(self, overlay: Path, cache: Path, arrived: Callable[[], None]) -> None:
        """Load in a thread, as last loaded when no file changed (content/cache.py's `cache` folder); `arrived` is
        called from it when done (or failed)."""
        def load() -> None:
            from content.cache import load_library_cached

            try:
                self._loaded = load_library_cached(cache, overlay=overlay)
            except BaseException as exc:  # handed to the UI thread (`wait` loads again)
                self._loaded = exc
            arrived()

        self.job = threading.Thread(target=load, name="content-load", daemon=True)
        self.job.start()
