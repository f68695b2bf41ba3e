"""The content library as last loaded, kept in the data folder for the next start (#43).

`load_library` parses and validates every YAML file and imports every rules engine (for its content types):
~0.26 s of CPU here, most of what stood between the attract screen and its games' tiles. A kiosk's content
rarely changes between two starts, so the loaded library is kept (`library.pickle` in the cache folder) under a
key: the content of every file the loader reads (each root's folder, its games/**/*.yaml and branches.yaml, their
relative paths and bytes, and the game folders' names) and a fingerprint of the code that defines what they load into
(content/ and engines/ sources: size and mtime). Any change, a damaged or truncated file, or a cache written by
other code loads from the YAML again and writes a new cache; so does anything the cache holds but the content's
own types (the unpickler refuses every other class: a cache is never code). A game's pack stays pickled until
first used (`LazyPack`): the tiles need no rules engine imported.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import importlib
import io
import logging
import os
import pickle
import sys
import types
from collections.abc import Iterator, Mapping
from pathlib import Path, PosixPath
from typing import Any

from content import ROOT
from content.loader import Game, Library, game_ids, load_library

log = logging.getLogger(__name__)

MAGIC = b"tablehost-content-1\n"
NAME = "library.pickle"
CODE = (Path(__file__).resolve().parent, Path(__file__).resolve().parents[1] / "engines")


def _proxy(data: dict[str, Any]) -> types.MappingProxyType[str, Any]:
    return types.MappingProxyType(data)


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is types.MappingProxyType:  # engines.serial freezes mappings so
            return _proxy, (dict(obj),)
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    """Only the content's own types: content.loader's, dataclasses and enums of engines.*, paths."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == (__name__, "_proxy"):
            return _proxy
        if (module, name) in (("pathlib", "PosixPath"), ("pathlib", "Path")):
            return PosixPath
        if module == "content.loader" or module.startswith("engines."):
            obj = getattr(importlib.import_module(module), name, None)
            if isinstance(obj, type) and (dataclasses.is_dataclass(obj) or issubclass(obj, enum.Enum)):
                return obj
        raise pickle.UnpicklingError(f"not content: {module}.{name}")


def _dumps(obj: Any) -> bytes:
    out = io.BytesIO()
    _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return out.getvalue()


def _loads(data: bytes) -> Any:
    return _Unpickler(io.BytesIO(data)).load()


class LazyPack(Mapping[str, Any]):
    """A game's pack (its engine's content), unpickled on first use."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._pack: Mapping[str, Any] | None = None

    def _get(self) -> Mapping[str, Any]:
        if self._pack is None:  # two threads may both unpickle it: the same pack
            self._pack = _loads(self._data)
        return self._pack

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return f"LazyPack({dict(self._get())!r})"


def key(roots: list[Path]) -> str:
    """What the library loaded from `roots` depends on: the files the loader reads and the code it loads them into."""
    h = hashlib.sha256(MAGIC + sys.version.encode())
    for folder in CODE:
        for p in sorted(folder.rglob("*.py")):
            st = p.stat()
            h.update(f"{p.relative_to(folder.parent)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    for i, root in enumerate(roots):
        h.update(f"root {i} {root.resolve()}\n".encode())  # Game.files name them
        games = root / "games"
        files = sorted(games.rglob("*.yaml")) if games.is_dir() else []
        if (root / "branches.yaml").is_file():
            files.append(root / "branches.yaml")
        for p in files:
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
    h.update("\0".join(game_ids(roots)).encode())
    return h.hexdigest()


def load_library_cached(cache_dir: Path, overlay: Path | None = None, root: Path = ROOT) -> Library:
    """`load_library(overlay, root)`, from `cache_dir`'s copy when it was made from the same files by the same code;
    else loaded and the copy renewed (a folder that takes no write: loaded each time)."""
    roots = [root] + ([overlay] if overlay is not None and overlay.is_dir() else [])
    try:
        want = key(roots).encode()
    except OSError:
        return load_library(overlay, root)
    path = cache_dir / NAME
    try:
        data = path.read_bytes()
    except OSError:
        data = b""
    head = MAGIC + want + b"\n"
    if data.startswith(head):
        try:
            return _unpack(_loads(data[len(head):]))
        except Exception:  # damaged (the key matched): loaded again below
            log.warning("content cache %s unreadable; loading the content again", path, exc_info=True)
    library = load_library(overlay, root)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{NAME}.{os.getpid()}.tmp")
        tmp.write_bytes(head + _dumps(_pack(library)))
        os.replace(tmp, path)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        log.warning("content cache %s not written", path, exc_info=True)
    return library


def _pack(library: Library) -> dict[str, Any]:
    games = {gid: (g.info, g.content_hash, g.files, g.playable, _dumps(dict(g.pack))) for gid, g in library.games.items()}
    return {"games": games, "branches": library.branches, "errors": library.errors}


def _unpack(data: dict[str, Any]) -> Library:
    games = {gid: Game(gid, info, LazyPack(pack), content_hash, tuple(files), bool(playable))
             for gid, (info, content_hash, files, playable, pack) in data["games"].items()}
    return Library(games, data["branches"], list(data["errors"]))
