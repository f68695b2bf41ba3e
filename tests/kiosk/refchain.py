"""What keeps an object alive: referrer chains back towards a module or class, for a leak test's message."""

from __future__ import annotations

import gc
import types
from typing import Any


def chain(obj: Any, depth: int = 12, shown: int = 8) -> str:
    """Breadth-first over referrers (frames skipped); the first chain reaching a module or a class, else the
    first `shown` chains of `depth` steps."""
    seen = {id(obj)}
    frontier: list[tuple[Any, list[str]]] = [(obj, [type(obj).__name__])]
    for _ in range(depth):
        nxt: list[tuple[Any, list[str]]] = []
        for o, path in frontier:
            for r in gc.get_referrers(o):
                if id(r) in seen or isinstance(r, types.FrameType) or r is frontier or r is nxt:
                    continue
                seen.add(id(r))
                if isinstance(r, types.ModuleType):
                    return " <- ".join([*path, f"module {r.__name__}"])
                if isinstance(r, type):
                    return " <- ".join([*path, f"class {r.__name__}"])
                desc = type(r).__name__
                if isinstance(r, dict):
                    desc += str([k for k, v in r.items() if v is o][:2])
                nxt.append((r, [*path, desc]))
        frontier = nxt[:400]
    return "\n".join(" <- ".join(p) for _, p in frontier[:shown])
