"""Pure rules engines. Each game is a sub-package exposing `ENGINE`; `find_engine(name)` finds it."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from engines.core import Engine

_extra: dict[str, Engine[Any]] = {}


def register(engine: Engine[Any]) -> None:
    """Register an engine that is not a sub-package (tests' reference engine)."""
    _extra[engine.name] = engine


def unregister(name: str) -> None:
    _extra.pop(name, None)


def engine_names() -> list[str]:
    """Names of every game sub-package that exposes an ENGINE, plus registered extras."""
    names = [m.name for m in pkgutil.iter_modules(__path__) if m.ispkg]
    found = [n for n in names if _load(n) is not None]
    return sorted(set(found) | set(_extra))


def _load(name: str) -> Engine[Any] | None:
    if name in _extra:
        return _extra[name]
    if not name.isidentifier():
        return None
    try:
        module = importlib.import_module(f"engines.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"engines.{name}":
            return None
        raise
    engine = getattr(module, "ENGINE", None)
    return engine if isinstance(engine, Engine) else None


def find_engine(name: str) -> Engine[Any]:
    engine = _load(name)
    if engine is None:
        raise KeyError(f"no engine named {name!r} (known: {', '.join(engine_names())})")
    return engine
