"""Issue #42: only the journal folder read-only (its permissions: a folder left by a command run as root, a chmod),
the data folder still writable. Before, the next game's start and staff "new table" raised every time (the journal
could not be archived or made) and the kiosk exited into systemd's restart loop; the data folder's own check passed,
so the kiosk never went to memory either. Now the folder is renamed aside as it is and a fresh one goes on with the
game on the table. Run as an unprivileged user (root writes into any folder)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534

PLAY = textwrap.dedent("""
    import json, os, sys
    from pathlib import Path
    from table.session import Session, turnover
    from tests.engines.reference import Take
    from tests.kiosk.nim_library import nim_library

    data = Path(sys.argv[2])
    jdir = data / "journal"
    notices = []

    def new(seed):
        return Session.new(nim_library(), "secret_nim", {"players": ["가", "나"], "pile": 500}, jdir, seed=seed,
                           clock=lambda: 1.8e9, notices=notices)

    if sys.argv[1] == "play":  # a game played and closed, another one, then the kiosk killed
        new(1).close()
        s = new(3)
        for _ in range(5):
            s.dispatch(Take(s.state.turn, 1))
        assert s.journal.flush(10)
        os._exit(0)
    out = {}
    for step in ("resume", "next game", "new table"):
        try:
            if step == "resume":
                resumed = Session.resume(nim_library(), jdir, clock=lambda: 1.8e9, notices=notices)
                out["count"] = resumed[0].count if resumed else None
                resumed[0].close()
            elif step == "next game":
                new(9).close()
            else:
                turnover(jdir, notices)
            out[step] = "ok"
        except Exception as exc:
            out[step] = f"{type(exc).__name__}: {exc}"
    out["notices"] = [n.key for n in notices]
    out["left"] = sorted(p.name for p in jdir.iterdir())
    print(json.dumps(out))
""")



@pytest.fixture
def data() -> Iterator[Path]:
    """A data folder the unprivileged user owns (pytest's tmp_path is root's only)."""
    if os.geteuid() != 0 and shutil.which("setpriv") is None:
        pytest.skip("needs root (to run as another user) or setpriv")
    top = Path(tempfile.mkdtemp(prefix="tablehost-journal-folder-"))
    top.chmod(0o755)
    folder = top / "data"
    folder.mkdir()
    if os.geteuid() == 0:
        os.chown(folder, NOBODY, NOBODY)
    try:
        yield folder
    finally:
        shutil.rmtree(top, ignore_errors=True)


def _run(what: str, folder: Path) -> dict[str, object]:
    prefix = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"] if os.geteuid() == 0 else []
    out = subprocess.run([*prefix, sys.executable, "-c", PLAY, what, str(folder)], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(folder)})
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.splitlines()[-1]) if what != "play" else {}


def test_a_read_only_journal_folder_is_renamed_aside_and_the_game_goes_on(data: Path) -> None:
    _run("play", data)
    (data / "journal").chmod(0o555)
    out = _run("table", data)
    assert out["count"] == 11 and out["next game"] == out["new table"] == "ok", out
    assert out["notices"] == ["journal_folder_unwritable"] and out["left"] == ["archive"]
    (kept,) = data.glob("journal-unwritable-*")
    assert (kept / "current.sqlite").exists()  # kept as found
    # the archive copied (the first game), then the resumed game (archived by the next one's start), the next one
    assert len(list((kept / "archive").glob("*.sqlite"))) == 1
    assert len(list((data / "journal" / "archive").glob("*.sqlite"))) == 3
