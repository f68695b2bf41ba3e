"""Journal damage experiment: a Secret Nim game of N actions is journaled, then damaged the way a bad SD
card or a power cut would (bytes flipped, a page zeroed, the file cut short, the -wal file lost or garbled,
a record or the header overwritten, the whole file garbage), then the kiosk's start-up path runs: resume,
then a new game. Counts what was kept and lost, and checks that every loss was said (a notice).

    python -m tests.kiosk.journal_fuzz --tries 1000
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from table.notices import Notice
from table.session import CURRENT, Session
from tests.engines.reference import Take
from tests.kiosk.nim_library import nim_library

T0 = 1_800_000_000.0
KINDS = ("flip_bytes", "zero_page", "truncate", "lose_wal", "garble_wal", "garbage_record", "garbage_header",
         "not_an_action", "garbage_file", "empty_file")


def play(jdir: Path, actions: int) -> tuple[int, Session]:
    s = Session.new(nim_library(), "secret_nim", {"players": ["가", "나"], "pile": 1000}, jdir, seed=5,
                    clock=lambda: T0)
    for _ in range(actions):
        s.dispatch(Take(s.state.turn, 1))
    return s.count, s


def damage(kind: str, path: Path, rng: random.Random) -> None:
    wal = Path(str(path) + "-wal")
    if kind == "flip_bytes":
        data = bytearray(path.read_bytes())
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))
    elif kind == "zero_page":
        data = bytearray(path.read_bytes())
        page = rng.randrange(max(1, len(data) // 4096))
        data[page * 4096:(page + 1) * 4096] = bytes(len(data[page * 4096:(page + 1) * 4096]))
        path.write_bytes(bytes(data))
    elif kind == "truncate":
        data = path.read_bytes()
        path.write_bytes(data[: rng.randrange(len(data))])
    elif kind == "lose_wal":
        wal.unlink(missing_ok=True)
        Path(str(path) + "-shm").unlink(missing_ok=True)
    elif kind == "garble_wal":
        wal.write_bytes(rng.randbytes(rng.randint(1, 40000)))
    elif kind in ("garbage_record", "garbage_header", "not_an_action"):
        conn = sqlite3.connect(str(path))
        if kind == "garbage_header":
            conn.execute("UPDATE header SET body = ?", (rng.choice(["{", "[]", "null", '{"game": 5}', "\x00\x01"]),))
        else:
            n = conn.execute("SELECT max(seq) FROM records").fetchone()[0] or 1
            body = rng.choice(["}{", "not json", "[1, 2]"]) if kind == "garbage_record" else '{"name": "warp"}'
            conn.execute("UPDATE records SET body = ? WHERE seq = ?", (body, rng.randint(1, n)))
        conn.commit()
        conn.close()
    elif kind == "garbage_file":
        path.write_bytes(rng.randbytes(rng.randint(1, 20000)))
        wal.unlink(missing_ok=True)
    elif kind == "empty_file":
        path.write_bytes(b"")
        wal.unlink(missing_ok=True)


@dataclass
class Tally:
    tries: int = 0
    actions: int = 0  # acknowledged actions before the damage, over all tries
    kept: int = 0  # replayed after the damage
    resumed: int = 0  # tries where a game resumed
    silent_losses: list[str] = field(default_factory=list)  # a loss with no notice
    silent_changes: list[str] = field(default_factory=list)  # a kept action that differs, with no notice
    failures: list[str] = field(default_factory=list)  # an exception on resume or on a new game
    notices: Counter[str] = field(default_factory=Counter)
    per_kind: Counter[str] = field(default_factory=Counter)
    kept_kind: Counter[str] = field(default_factory=Counter)


def one_try(root: Path, kind: str, rng: random.Random, tally: Tally, max_actions: int = 60) -> None:
    jdir = root / f"t{tally.tries}"
    n = rng.randint(1, max_actions)
    close = kind not in ("lose_wal", "garble_wal") and rng.random() < 0.5
    acked, live = play(jdir, n)
    original = live.journal.actions()
    path = jdir / CURRENT
    if close:
        live.close()
    else:  # a power cut: the connection is gone without a clean close, files as they are on disk
        snap = root / f"s{tally.tries}"
        snap.mkdir()
        for f in jdir.iterdir():
            if f.is_file():
                shutil.copy(f, snap / f.name)
        live.close()
        shutil.rmtree(jdir)
        snap.rename(jdir)
    damage(kind, path, rng)
    tally.tries += 1
    tally.actions += acked
    tally.per_kind[kind] += acked
    notices: list[Notice] = []
    try:
        resumed = Session.resume(nim_library(), jdir, clock=lambda: T0, notices=notices)
    except Exception as exc:
        tally.failures.append(f"{kind}: resume raised {exc!r}")
        return
    kept = 0
    if resumed is not None:
        tally.resumed += 1
        session = resumed[0]
        kept = session.count
        if session.journal.actions()[:kept] != original[:kept] and not notices:
            tally.silent_changes.append(f"{kind}: an action changed")
        session.close()
    tally.kept += kept
    tally.kept_kind[kind] += kept
    tally.notices.update(n.key for n in notices)
    if kept < acked and not notices:
        tally.silent_losses.append(f"{kind}: {acked} → {kept}")
    try:
        s = Session.new(nim_library(), "secret_nim", {"players": ["가", "나"]}, jdir, seed=1, clock=lambda: T0)
        s.close()
        again = Session.resume(nim_library(), jdir, clock=lambda: T0)
        assert again is not None
        again[0].close()
    except Exception as exc:
        tally.failures.append(f"{kind}: new game raised {exc!r}")


def run(root: Path, tries: int, seed: int = 1, max_actions: int = 60) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    for i in range(tries):
        one_try(root, KINDS[i % len(KINDS)], rng, tally, max_actions)
    return tally


def report(t: Tally) -> str:
    lines = [f"{t.tries} damaged journals, {t.actions} acknowledged actions: {t.kept} kept "
             f"({100 * t.kept / max(1, t.actions):.1f} %), {t.resumed} games resumed; "
             f"{len(t.failures)} failures, {len(t.silent_losses)} silent losses, "
             f"{len(t.silent_changes)} silent changes"]
    for kind in KINDS:
        lines.append(f"  {kind:15} {t.kept_kind[kind]:5} of {t.per_kind[kind]:5} actions kept")
    lines.append("  notices: " + ", ".join(f"{k} {v}" for k, v in sorted(t.notices.items())))
    return "\n".join(lines + t.failures[:10] + t.silent_losses[:10] + t.silent_changes[:10])


def main() -> None:
    import tempfile

    p = argparse.ArgumentParser()
    p.add_argument("--tries", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(report(run(Path(tmp), args.tries, args.seed)))


if __name__ == "__main__":
    main()
