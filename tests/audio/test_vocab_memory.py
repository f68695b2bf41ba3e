"""The model's word list is read into a compact set (sorted hashes), and freed heap is given back."""

from __future__ import annotations

import struct
from pathlib import Path

from audio import heap
from audio.vocab import Vocabulary, read_vocabulary


def _s(b: bytes) -> bytes:
    return struct.pack("<i", len(b)) + b


def fake_model(tmp: Path, words: list[str]) -> Path:
    """A model folder whose graph/Gr.fst has just an OpenFst header with this symbol table."""
    table = b"".join(_s(w.encode()) + struct.pack("<q", i) for i, w in enumerate(words))
    data = (struct.pack("<i", 2125659606) + _s(b"ngram") + _s(b"standard") + struct.pack("<ii", 1, 1)
            + bytes(32) + struct.pack("<i", 2125658996) + _s(b"words") + struct.pack("<qq", len(words), len(words))
            + table)
    (tmp / "graph").mkdir(parents=True)
    (tmp / "graph" / "Gr.fst").write_bytes(data)
    return tmp


def test_vocabulary_reads_every_word_and_skips_the_special_symbols(tmp_path: Path) -> None:
    words = ["<eps>", "!SIL", "다음", "이전", "네", "<UNK>", "아니요", "#0", "<s>", "</s>", "멈춰"]
    vocab = read_vocabulary(fake_model(tmp_path, words))
    assert len(vocab) == 5
    for w in ("다음", "이전", "네", "아니요", "멈춰"):
        assert w in vocab
    for w in ("<eps>", "<UNK>", "#0", "다음으로", "", "네 다음", 3):
        assert w not in vocab


def test_compact_vocabulary_answers_like_a_set() -> None:
    words = [f"단어{i}" for i in range(20000)]
    vocab, ref = Vocabulary(words + words[:50]), set(words)
    assert len(vocab) == len(ref)
    probes = words[::97] + [f"단어{i}" for i in range(20000, 20500)] + ["", "단어", "단어-1"]
    assert all((w in vocab) == (w in ref) for w in probes)


def test_heap_release_is_rate_limited() -> None:
    heap.release(force=True)
    assert heap.release() is False  # just ran
    assert heap.release(force=True) in (True, False)  # False only without glibc's malloc_trim
