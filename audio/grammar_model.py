"""A grammar-only copy of the Korean voice model, derived from the installed one (nothing is downloaded),
and loading its big graph memory-mapped.

The kiosk decodes only with grammars (a phrase list per screen). With a grammar, vosk composes `HCLr.fst`
with a small G built from the phrases; the model's own `Gr.fst` (a 500,000-word n-gram, 48 MB on disk, two
copies of the word table) is then used for its word table only (vosk `Model::ReadDataFiles` takes
`word_syms_` from `Gr.fst`'s output symbols; `Recognizer::UpdateGrammarFst` looks the phrases' words up in
it). The copy replaces `Gr.fst` by a one-state FST carrying that word table (-94 MB RSS), and rewrites
`HCLr.fst` with its states and arcs 16-byte aligned (same bytes otherwise) so that OpenFst can map them
from the file instead of reading them into the heap (`mapped_loading`): 134 MB of the 181 MB become clean
file pages, of which decoding touches a part and the kernel can drop under pressure. Every other file is
linked to the installed model. Free (grammar-less) decoding with the copy recognises nothing.

Built once into the kiosk's cache folder (~2 s, 190 MB of disk; a new model version gets a new folder).
Recognition is the same: tests/audio/test_grammar_model.py decodes the same audio with both models.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import struct
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from audio.vocab import _FST_MAGIC as FST_MAGIC
from audio.vocab import _HAS_ISYMBOLS, _HAS_OSYMBOLS, VocabularyError, _int32
from audio.vocab import _SYMBOLS_MAGIC as SYMBOLS_MAGIC
from audio.vocab import _string as _skip_string

_EXPANDED, _MUTABLE = 0x1, 0x2  # OpenFst property bits; all others left unknown (always safe)
_VECTOR_VERSION = 2
GRAPH = "graph/Gr.fst"
HCL = "graph/HCLr.fst"
_IS_ALIGNED = 0x4
_ALIGN = 16  # OpenFst's kFileAlign / kArchAlignment
_CONST_STATE, _CONST_ARC = 20, 16  # ConstFst<StdArc, uint32> record sizes


def _skip_symbols(f: BinaryIO) -> None:
    if _int32(f) != SYMBOLS_MAGIC:
        raise VocabularyError("bad symbol table")
    _skip_string(f)
    _available, size = struct.unpack("<qq", f.read(16))
    for _ in range(size):
        _skip_string(f)
        f.read(8)


def word_table(fst: Path) -> bytes:
    """The serialized output symbol table (the words) of an OpenFst file."""
    with fst.open("rb") as f:
        if _int32(f) != FST_MAGIC:
            raise VocabularyError(f"{fst}: not an OpenFst file")
        _skip_string(f)  # fst type
        _skip_string(f)  # arc type
        _version, flags = struct.unpack("<ii", f.read(8))
        f.read(32)  # properties, start, states, arcs
        if flags & _HAS_ISYMBOLS:
            if not flags & _HAS_OSYMBOLS:
                start = f.tell()
                _skip_symbols(f)
                end = f.tell()
                f.seek(start)
                return f.read(end - start)
            _skip_symbols(f)
        if not flags & _HAS_OSYMBOLS:
            raise VocabularyError(f"{fst}: no symbol table")
        start = f.tell()
        _skip_symbols(f)
        end = f.tell()
        f.seek(start)
        return f.read(end - start)


def _string(s: bytes) -> bytes:
    return struct.pack("<i", len(s)) + s


def minimal_fst(symbols: bytes) -> bytes:
    """A VectorFst with one final start state and no arcs, carrying `symbols` as its output symbols."""
    header = (struct.pack("<i", FST_MAGIC) + _string(b"vector") + _string(b"standard")
              + struct.pack("<iiQqqq", _VECTOR_VERSION, _HAS_OSYMBOLS, _EXPANDED | _MUTABLE, 0, 1, 0))
    state = struct.pack("<fq", 0.0, 0)  # final weight One (tropical 0.0), no arcs
    return header + symbols + state


def _copy(src: BinaryIO, dst: BinaryIO, n: int, chunk: int = 1 << 22) -> None:
    while n > 0:
        data = src.read(min(chunk, n))
        if not data:
            raise VocabularyError("truncated FST")
        dst.write(data)
        n -= len(data)


def _header(f: BinaryIO) -> tuple[bytes, bytes, int, int, int, int]:
    """(fst type, arc type, version, flags, states, arcs) of the header at f's position."""
    if _int32(f) != FST_MAGIC:
        raise VocabularyError("not an OpenFst file")
    kind, arc = _skip_string(f), _skip_string(f)
    version, flags = struct.unpack("<ii", f.read(8))
    _props, _start, states, arcs = struct.unpack("<Qqqq", f.read(32))
    return kind, arc, version, flags, states, arcs


def align_lookahead(src: Path, dst: Path) -> None:
    """`src` (an olabel_lookahead FST over a ConstFst) rewritten with the ConstFst's states and arcs aligned,
    as OpenFst writes it with --fst_align; nothing else changes."""
    with src.open("rb") as f, dst.open("wb") as out:
        kind, arc, _v, _flags, _s, _a = _header(f)
        if kind not in (b"olabel_lookahead", b"ilabel_lookahead") or arc != b"standard":
            raise VocabularyError(f"{src}: unexpected FST type {kind!r}")
        f.read(4)  # add-on magic
        inner = f.tell()
        kind, arc, version, flags, states, arcs = _header(f)
        if kind != b"const" or arc != b"standard" or version != 2:
            raise VocabularyError(f"{src}: unexpected inner FST {kind!r} v{version}")
        end = f.tell()
        f.seek(0)
        _copy(f, out, end)
        flags_at = inner + 4 + 4 + len(b"const") + 4 + len(b"standard") + 4
        out.seek(flags_at)
        out.write(struct.pack("<i", flags | _IS_ALIGNED))
        out.seek(end)
        if not flags & _IS_ALIGNED:
            for size in (states * _CONST_STATE, arcs * _CONST_ARC):
                out.write(b"\0" * (-out.tell() % _ALIGN))
                _copy(f, out, size)
        while data := f.read(1 << 22):  # the label-reachability add-on
            out.write(data)


@contextmanager
def mapped_loading() -> Iterator[bool]:
    """While active, OpenFst in libvosk maps aligned ConstFst data from files instead of reading it
    (its `--fst_read_mode=map` flag, which vosk does not expose). Yields whether the switch was made: only
    when libvosk exports the flag as a copy-on-write std::string holding "read" (vosk 0.3.45 wheels);
    otherwise nothing changes and the model is read as before. The replacement is marked "leaked" (copies
    clone it) and the flag is restored on exit, so nothing ever frees or shares the replacement value."""
    import ctypes

    import vosk

    try:
        lib = ctypes.CDLL(str(Path(vosk.__file__).with_name("libvosk.so")))
        flag = ctypes.c_void_p.in_dll(lib, "FLAGS_fst_read_mode")
    except (OSError, ValueError):
        yield False
        return
    old = flag.value
    rep = struct.pack("<QQi", 4, 4, 0)  # length 4, capacity 4, not shared: the literal "read"
    if not old or ctypes.string_at(old - 24, 20) != rep or ctypes.string_at(old, 5) != b"read\0":
        yield False
        return
    value = ctypes.create_string_buffer(struct.pack("<QQi4x", 3, 3, -1) + b"map\0")
    flag.value = ctypes.addressof(value) + 24
    try:
        yield True
    finally:
        flag.value = old


def _identity(model: Path) -> str:
    """Changes when the installed model does (its path, graph sizes and times)."""
    parts = [str(model.resolve())]
    for name in (GRAPH, "graph/HCLr.fst", "am/final.mdl"):
        st = (model / name).stat()
        parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def grammar_model(model: Path, cache: Path) -> Path:
    """The grammar-only copy of `model` under `cache` (built on first use; OSError/VocabularyError if the
    model cannot be read or the cache written: the caller then loads the full model)."""
    target = cache / f"vosk-grammar-{_identity(model)}"
    if (target / GRAPH).is_file():
        drop_cached(target / HCL)
        return target
    cache.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".building-", dir=cache))
    try:
        for src in sorted(model.rglob("*")):
            rel = src.relative_to(model)
            dst = tmp / rel
            if src.is_dir():
                dst.mkdir(parents=True, exist_ok=True)
            elif str(rel) not in (GRAPH, HCL):
                dst.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(src.resolve(), dst)
        (tmp / GRAPH).parent.mkdir(parents=True, exist_ok=True)
        (tmp / GRAPH).write_bytes(minimal_fst(word_table(model / GRAPH)))
        align_lookahead(model / HCL, tmp / HCL)
        for name in (GRAPH, HCL):  # on disk before the rename: a power cut must not leave a short graph
            with (tmp / name).open("rb") as f:
                os.fsync(f.fileno())
        try:
            os.rename(tmp, target)
        except OSError:  # built meanwhile by another process
            if not (target / GRAPH).is_file():
                raise
        for old in cache.glob("vosk-grammar-*"):  # copies of an older model version
            if old != target:
                shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    drop_cached(target / HCL)
    return target


def drop_cached(path: Path) -> None:
    """Ask the kernel to forget `path`'s cached pages (those no process maps). The mapped graph then starts
    cold and only the pages decoding reads come in: with the whole file cached (just built, or read by
    anything else), every page fault also maps up to 15 cached neighbours (fault-around), and the kiosk's
    RSS grew by ~80 MB of graph pages over an hour of play (bench/memory.py) instead of ~5 MB."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    except (OSError, AttributeError):  # not on every platform; only memory is at stake
        pass
    finally:
        os.close(fd)
