"""A read-only data folder (an SD card remounted read-only): the real kiosk (`tablehost run`, offscreen)
starts in memory, resumes the game on the table from a copy of its journal, warns staff, and leaves the
folder untouched. Before, start-up raised and systemd restarted it every 2 s forever."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from content.loader import load_library
from kiosk.testing import wait_main_loop
from table.session import Session
from table.storage import choose, write_problem

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def read_only(folder: Path) -> Iterator[list[str]]:
    """A command prefix that runs its command with `folder` read-only: a read-only bind mount in a private
    mount namespace as root, else the folder's write bits taken away (restored after)."""
    if os.geteuid() == 0:
        if shutil.which("unshare") is None or subprocess.run(
                ["unshare", "-m", "sh", "-c", "mount --bind / /mnt"], capture_output=True).returncode != 0:
            pytest.skip("root without mount namespaces: cannot make a read-only folder here")
        script = 'D=$1; shift; mount --bind "$D" "$D" && mount -o remount,ro,bind "$D" "$D" && exec "$@"'
        yield ["unshare", "-m", "sh", "-c", script, "sh", str(folder)]
        return
    modes = {p: p.stat().st_mode for p in [folder, *folder.rglob("*")]}
    for p in modes:
        p.chmod(modes[p] & ~0o222)
    try:
        yield []
    finally:
        for p, mode in modes.items():
            p.chmod(mode)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_kiosk_runs_in_memory_on_a_read_only_data_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    session = Session.new(load_library(), "clue", {"players": ["가", "나", "다"]}, data / "journal", seed=5)
    session.close()
    (data / "kivy").mkdir()
    before = _tree(data)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(TABLEHOST_DATA=str(data), KIVY_HOME=str(data / "kivy"), TABLEHOST_NO_VOICE="1",
               TABLEHOST_NO_PHONES="1", TABLEHOST_MEMORY_DIR=str(tmp_path / "mem"), PYTHONPATH=str(ROOT))
    (tmp_path / "mem").mkdir()
    with read_only(data) as prefix:
        proc = subprocess.Popen(prefix + [sys.executable, "-m", "kiosk.cli", "run", "--windowed"], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            wait_main_loop(proc, lambda: list((tmp_path / "mem").glob("*/kivy/logs/*.txt")))
            time.sleep(2.0)
            assert proc.poll() is None, "the kiosk ended"
            proc.send_signal(signal.SIGTERM)
            rc = proc.wait(timeout=20)
        finally:
            if proc.poll() is None:
                proc.kill()
    output = proc.stdout.read() if proc.stdout else ""
    assert rc == 0, output
    (memory,) = (tmp_path / "mem").iterdir()
    log = (memory / "logs" / "tablehost.log").read_text(encoding="utf-8")
    assert "resumed clue" in log and "storage_readonly" in log
    assert _tree(data) == before  # nothing written, nothing lost


def test_the_kiosk_resumes_when_only_its_journal_folder_is_read_only(tmp_path: Path) -> None:
    """Issue #42: the data folder writable, its journal folder not. Before, the data folder's check passed, the
    resume failed (a read-only journal) and so would every game's start and turnover. Now the real kiosk resumes
    the game: from a renewed journal folder when it can be renamed (its permissions: as another user than root),
    from memory when it cannot (a read-only mount of it: as root)."""
    data = tmp_path / "data"
    session = Session.new(load_library(), "clue", {"players": ["가", "나", "다"]}, data / "journal", seed=5)
    session.close()
    (data / "kivy").mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(TABLEHOST_DATA=str(data), KIVY_HOME=str(data / "kivy"), TABLEHOST_NO_VOICE="1",
               TABLEHOST_NO_PHONES="1", TABLEHOST_MEMORY_DIR=str(tmp_path / "mem"), PYTHONPATH=str(ROOT))
    (tmp_path / "mem").mkdir()
    with read_only(data / "journal") as prefix:
        proc = subprocess.Popen(prefix + [sys.executable, "-m", "kiosk.cli", "run", "--windowed"], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            wait_main_loop(proc, lambda: list(data.glob("kivy/logs/*.txt")))
            time.sleep(2.0)
            assert proc.poll() is None, "the kiosk ended"
            proc.send_signal(signal.SIGTERM)
            rc = proc.wait(timeout=20)
        finally:
            if proc.poll() is None:
                proc.kill()
    output = proc.stdout.read() if proc.stdout else ""
    assert rc == 0, output
    logs = [*data.glob("logs/tablehost.log"), *(tmp_path / "mem").glob("*/logs/tablehost.log")]
    log = "".join(p.read_text(encoding="utf-8") for p in logs)
    assert "resumed clue" in log, output[-3000:]
    assert ("storage_readonly" in log) if os.geteuid() == 0 else ("journal_folder_unwritable" in log)


def test_choose_links_content_and_copies_settings_and_the_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    (data / "content" / "games").mkdir(parents=True)
    (data / "journal").mkdir()
    (data / "journal" / "current.sqlite").write_bytes(b"journal")
    (data / "settings.json").write_text("{}", encoding="utf-8")
    monkeypatch.setenv("TABLEHOST_MEMORY_DIR", str(tmp_path / "mem"))
    (tmp_path / "mem").mkdir()
    assert choose(data) == (data, "")
    monkeypatch.setattr("table.storage.write_problem",
                        lambda folder: "OSError: Read-only file system" if folder == data else write_problem(folder))
    folder, problem = choose(data)
    assert problem and folder.parent == tmp_path / "mem"
    assert (folder / "content").resolve() == (data / "content").resolve()
    assert (folder / "journal" / "current.sqlite").read_bytes() == b"journal"
    assert (folder / "settings.json").read_text() == "{}"
    (folder / "journal" / "current.sqlite").write_bytes(b"played on")  # a restart, still read-only: go on
    again, _ = choose(data)
    assert again == folder and (again / "journal" / "current.sqlite").read_bytes() == b"played on"
