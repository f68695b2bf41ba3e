"""The floor page's font as a browser takes it. The vendored NanumGothic carries VTT's private source tables
(TSI0-TSI5), one of them empty; Chromium's font sanitiser (OTS) refuses the whole font for it ("zero-length
TSI3 table"). They only matter to the font editor, so the page is served the same font without them: the
sfnt table directory rewritten, every other table byte for byte, head's checksum adjustment recomputed."""

from __future__ import annotations

import struct
from functools import cache
from pathlib import Path

DROP = (b"TSI0", b"TSI1", b"TSI2", b"TSI3", b"TSI5", b"DSIG")  # DSIG: signs the file as it was


def _pad(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 4)


def _checksum(data: bytes) -> int:
    data = _pad(data)
    return int(sum(struct.unpack(f">{len(data) // 4}I", data))) & 0xFFFFFFFF


def without_tables(font: bytes, drop: tuple[bytes, ...] = DROP) -> bytes:
    """A TrueType/OpenType font (one face) without the tables named in `drop`."""
    version, count = struct.unpack(">IH", font[:6])
    tables = []
    for i in range(count):
        tag, checksum, offset, length = struct.unpack(">4sIII", font[12 + 16 * i: 28 + 16 * i])
        if tag not in drop:
            tables.append((tag, checksum, font[offset: offset + length]))
    n = len(tables)
    power = 1 << (n.bit_length() - 1)
    header = struct.pack(">IHHHH", version, n, power * 16, power.bit_length() - 1, n * 16 - power * 16)
    offset = 12 + 16 * n
    directory, bodies, head_at = b"", b"", -1
    for tag, checksum, body in sorted(tables):
        if tag == b"head":
            body = body[:8] + b"\0\0\0\0" + body[12:]  # checkSumAdjustment, set below
            head_at = offset + len(bodies)
        directory += struct.pack(">4sIII", tag, checksum, offset + len(bodies), len(body))
        bodies += _pad(body)
    out = bytearray(header + directory + bodies)
    if head_at >= 0:
        struct.pack_into(">I", out, head_at + 8, (0xB1B0AFBA - _checksum(bytes(out))) & 0xFFFFFFFF)
    return bytes(out)


@cache
def served(path: Path) -> bytes:
    """The font at `path` as the page serves it (computed once per process)."""
    return without_tables(path.read_bytes())
