"""Content packs for tests: the game's shipped content, or nothing for test-only engines."""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def pack_for(name: str) -> Any:
    try:
        from content.loader import load_library
    except ImportError:
        return {}
    library = load_library()
    game = library.games.get(name)
    return game.pack if game is not None else {}
