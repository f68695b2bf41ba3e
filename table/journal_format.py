"""The journal's file: its SQLite schema, how its records and header read back, and the checks that tell a
damaged journal from a working one (table/journal.py's `Journal.open` and `open_journal` act on them):
- `check_schema`: the tables are as `SCHEMA` makes them with nothing on them, and the pages check out;
- `probe`: a record of each kind is written, read back and rolled back ("opens" is not "works", issue #42);
- `wal_gone` / `foreign_wal`: a -wal lost (its header does not check out) or another journal's (its `jid`);
- `salvage`: whatever still reads from a damaged journal; `closed_cleanly`: a journal's mark read without a write.
Records are never rewritten: undo is a record too (`effective_actions`)."""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from pathlib import Path
from typing import Any

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS header (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'end')),
    body TEXT NOT NULL,
    at REAL NOT NULL
)""",
    "CREATE TABLE IF NOT EXISTS mark (id INTEGER PRIMARY KEY CHECK (id = 1), open INTEGER NOT NULL, jid TEXT)",
)
# sqlite_master's text of every table a journal may hold (whitespace aside): anything else on them (a trigger, an
# index, a changed constraint) is damage, a journal whose writes may fail (issue #42)
_MARK_V1 = "CREATE TABLE mark (id INTEGER PRIMARY KEY CHECK (id = 1), open INTEGER NOT NULL)"  # before the jid
_TABLES = {s.split()[5]: s.replace(" IF NOT EXISTS", "") for s in SCHEMA}
_TABLES["sqlite_sequence"] = "CREATE TABLE sqlite_sequence(name,seq)"
KINDS = ("action", "undo", "end")
DAMAGED = "damaged"  # journal_dir/damaged: journals moved aside, as found

Record = tuple[int, str, dict[str, Any], float]


class JournalError(Exception):
    pass


class JournalDamaged(JournalError):
    """The journal does not open or does not read back."""


def wal_path(path: Path) -> Path:
    return Path(str(path) + "-wal")


def wal_gone(path: Path) -> bool:
    """No -wal beside the main file, or one whose header does not check out (SQLite then ignores it all)."""
    try:
        with open(wal_path(path), "rb") as f:
            head = f.read(32)
    except FileNotFoundError:
        return True
    if len(head) < 32:  # none written yet, or cut short while it was (before any record)
        return False
    magic = int.from_bytes(head[:4], "big")
    if magic not in (0x377F0682, 0x377F0683):
        return True
    words = [int.from_bytes(head[i:i + 4], "big" if magic & 1 else "little") for i in range(0, 24, 4)]
    s0 = s1 = 0
    for x0, x1 in zip(words[::2], words[1::2], strict=True):
        s0 = (s0 + x0 + s1) & 0xFFFFFFFF
        s1 = (s1 + x1 + s0) & 0xFFFFFFFF
    return (s0, s1) != (int.from_bytes(head[24:28], "big"), int.from_bytes(head[28:32], "big"))

def new_jid() -> str:
    return secrets.token_hex(8)


def _jid(conn: sqlite3.Connection) -> str | None:
    try:
        row = conn.execute("SELECT jid FROM mark WHERE id = 1").fetchone()
    except sqlite3.DatabaseError:
        return None
    return row[0] if row and isinstance(row[0], str) else None


def foreign_wal(path: Path, conn: sqlite3.Connection) -> bool:
    """Is the -wal beside `path` another journal's? Each journal has its own id (`jid`) in its mark row, and every
    -wal a journal starts begins with a write of that row (open, the thread's emptying, close): read through the
    -wal (`conn`), the id is the -wal's journal's; read from the main file alone (immutable: the -wal ignored), it
    is this journal's. Can't tell (a journal from before the id, a main file that does not read): not foreign."""
    seen = _jid(conn)
    if seen is None:
        return False
    try:
        alone = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    except sqlite3.DatabaseError:
        return False
    try:
        mine = _jid(alone)
    finally:
        alone.close()
    return mine is not None and mine != seen


def set_aside_wal(path: Path) -> str:
    """Move the -wal (and its index, -shm) into journal/damaged/, as found; returns its name there."""
    folder = path.parent / DAMAGED
    folder.mkdir(exist_ok=True)
    target = Path(str(free_name(folder, "foreign")) + "-wal")
    os.rename(wal_path(path), target)
    Path(str(path) + "-shm").unlink(missing_ok=True)
    return target.name


def check_schema(conn: sqlite3.Connection) -> None:
    """The journal's tables are as `SCHEMA` makes them, with nothing on them (a trigger, an index, a changed
    constraint can make every write fail, or some), and its pages check out (`quick_check`: the free-page list
    too, which reads never use)."""
    for kind, name, table, sql in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"):
        if table not in _TABLES:
            continue
        text = " ".join(str(sql).split())
        allowed = (" ".join(_TABLES[table].split()), *((_MARK_V1,) if table == "mark" else ()))
        if kind != "table" or name != table or text not in allowed:
            raise JournalDamaged(f"schema: {kind} {name}: {text[:120]}")
    problems = [str(r[0]) for r in conn.execute("PRAGMA quick_check(5)")]
    if problems != ["ok"]:
        raise JournalDamaged("quick_check: " + "; ".join(problems))


def probe(conn: sqlite3.Connection) -> None:
    """Write a record of each kind (one pages long: new pages are taken, from the free-page list first), read
    them and the mark back, roll back: "opens" is not "works"."""
    page = int(conn.execute("PRAGMA page_size").fetchone()[0])
    rows = [(kind, json.dumps({"probe": "x" * (3 * page if kind == "action" else 1)}), float(n))
            for n, kind in enumerate(KINDS)]
    conn.execute("BEGIN IMMEDIATE")
    try:
        first = 0
        for row in rows:
            seq = conn.execute("INSERT INTO records (kind, body, at) VALUES (?, ?, ?)", row).lastrowid
            first = first or int(seq or 0)
        back = conn.execute("SELECT kind, body, at FROM records WHERE seq >= ? ORDER BY seq", (first,)).fetchall()
        mark = conn.execute("SELECT open FROM mark WHERE id = 1").fetchone()
    finally:
        conn.execute("ROLLBACK")
    if back != rows or mark != (2,):
        raise JournalDamaged("a record written did not read back")


def last_seq(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT coalesce(max(seq), 0) FROM records").fetchone()[0])


def parse_header(text: Any) -> dict[str, Any]:
    header = json.loads(text)
    if not isinstance(header, dict):
        raise ValueError("the header is not a mapping")
    return header


def read_records(conn: sqlite3.Connection) -> tuple[list[Record], str]:
    out: list[Record] = []
    try:
        cur = conn.execute("SELECT seq, kind, body, at FROM records ORDER BY seq")
        for seq, kind, body, at in cur:
            data = json.loads(body)
            if kind not in KINDS or not isinstance(data, dict) or not isinstance(at, (int, float)):
                return out, f"record {seq}: not a journal record"
            out.append((int(seq), str(kind), data, float(at)))
    except (sqlite3.DatabaseError, ValueError, TypeError) as exc:
        return out, f"after record {out[-1][0] if out else 0}: {type(exc).__name__}: {exc}"
    return out, ""


def effective_actions(records: list[Record]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for _, kind, body, _ in records:
        if kind == "action":
            out.append(body)
        elif kind == "undo":
            for _ in range(int(body.get("count", 1))):
                if out:
                    out.pop()
    return out


def salvage(path: Path) -> tuple[dict[str, Any] | None, list[Record], int]:
    """Whatever still reads from a damaged journal: its header, the records before the first bad one, and
    the highest record number it claims to have (0 when unknown)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.DatabaseError:
        return None, [], 0
    try:
        try:
            row = conn.execute("SELECT body FROM header WHERE id = 1").fetchone()
            header = parse_header(row[0]) if row else None
        except (sqlite3.DatabaseError, ValueError, TypeError, KeyError):
            header = None
        rows, _ = read_records(conn)
        try:
            last = int(conn.execute("SELECT max(seq) FROM records").fetchone()[0] or 0)
        except (sqlite3.DatabaseError, TypeError, ValueError):
            last = 0
        return header, rows, max(last, rows[-1][0] if rows else 0)
    finally:
        conn.close()

def free_name(folder: Path, label: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = f"{stamp}-{label}" if label else stamp
    target = folder / f"{base}.sqlite"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{base}-{n}.sqlite"
    return target

def closed_cleanly(path: Path) -> bool:
    """A journal that reads and was closed (its mark says so), read without a write or an fsync. (No -wal beside
    it: immutable, or SQLite would make an empty -wal and -shm to read it.)"""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    except sqlite3.DatabaseError:
        return False
    try:
        mark = conn.execute("SELECT open FROM mark WHERE id = 1").fetchone()
        parse_header(conn.execute("SELECT body FROM header WHERE id = 1").fetchone()[0])
        return mark is not None and mark[0] == 0
    except (sqlite3.DatabaseError, ValueError, TypeError):
        return False
    finally:
        conn.close()
