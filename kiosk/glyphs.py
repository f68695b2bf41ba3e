"""Which characters a TrueType font can draw (its cmap), without extra libraries; used to check that every
text we show is drawable by the bundled font (a missing glyph shows as a box)."""

from __future__ import annotations

import struct
from functools import cache
from pathlib import Path

FONT = Path(__file__).resolve().parent / "fonts" / "NanumGothic.ttf"


@cache
def font_chars(path: Path = FONT) -> frozenset[int]:
    """Code points mapped by the font's Unicode cmap subtables (formats 4 and 12)."""
    data = path.read_bytes()
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap = next(struct.unpack_from(">I", data, 12 + 16 * i + 8)[0] for i in range(num_tables)
                if data[12 + 16 * i:12 + 16 * i + 4] == b"cmap")
    chars: set[int] = set()
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
            continue
        chars |= _subtable(data, cmap + offset)
    return frozenset(chars)


def _subtable(data: bytes, at: int) -> set[int]:
    fmt = struct.unpack_from(">H", data, at)[0]
    out: set[int] = set()
    if fmt == 4:
        segs = struct.unpack_from(">H", data, at + 6)[0] // 2
        ends = struct.unpack_from(f">{segs}H", data, at + 14)
        starts = struct.unpack_from(f">{segs}H", data, at + 16 + 2 * segs)
        deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 4 * segs)
        ranges_at = at + 16 + 6 * segs
        offsets = struct.unpack_from(f">{segs}H", data, ranges_at)
        for k in range(segs):
            for c in range(starts[k], ends[k] + 1):
                if c == 0xFFFF:
                    continue
                if offsets[k] == 0:
                    glyph = (c + deltas[k]) & 0xFFFF
                else:
                    pos = ranges_at + 2 * k + offsets[k] + 2 * (c - starts[k])
                    glyph = struct.unpack_from(">H", data, pos)[0]
                    glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
                if glyph:
                    out.add(c)
    elif fmt == 12:
        groups = struct.unpack_from(">I", data, at + 12)[0]
        for g in range(groups):
            start, end, _glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
            out.update(range(start, end + 1))
    return out


def missing(text: str, path: Path = FONT) -> set[str]:
    """Characters of `text` the font cannot draw (line breaks and tabs are not drawn)."""
    have = font_chars(path)
    return {ch for ch in text if ch not in "\n\t\r" and ord(ch) not in have}
