"""Where the kiosk writes. The data folder normally; when it cannot be written (an SD card remounted
read-only, a full disk) the kiosk runs from a folder in memory instead, with a staff warning, rather than
failing at start-up and being restarted by systemd every 2 s forever.

The memory folder reads the café's content and recordings from the data folder (links) and starts from
copies of the settings and the current game journal, so the game on the table resumes. Nothing written
there survives a power cut: staff are told to check the card."""

from __future__ import annotations

import errno
import logging
import os
import shutil
import sqlite3
import tempfile
import time
import zlib
from pathlib import Path

from table.notices import Notice, add

log = logging.getLogger(__name__)
LINKED = ("content", "recordings")  # read-only use: linked, not copied
COPIED = ("settings.json", "settings.json.bak", "phone_passes.json", "teach/progress.json",
          "journal/current.sqlite", "journal/current.sqlite-wal", "journal/current.sqlite-spill", "journal/tonight.json")
PROBE = ".tablehost-write-probe"


def write_problem(folder: Path) -> str:
    """"" when a file can be created, written, synced and removed in `folder` (made if missing)."""
    probe = folder / PROBE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(probe, "wb") as f:
            f.write(b"ok")
            f.flush()
            os.fsync(f.fileno())
        probe.unlink()
    except OSError as exc:
        return f"{type(exc).__name__}: {exc.strerror or exc}"
    return ""


def is_storage_error(exc: BaseException) -> bool:
    """An error that says the data folder cannot be written: read-only, full, or failing."""
    if isinstance(exc, sqlite3.OperationalError):
        text = str(exc).lower()
        return any(w in text for w in ("readonly", "read-only", "disk is full", "disk i/o", "unable to open"))
    return isinstance(exc, OSError) and exc.errno in (errno.EROFS, errno.ENOSPC, errno.EIO, errno.EDQUOT)


def memory_folder(source: Path) -> tuple[Path, bool]:
    """The folder in RAM for `source` (/dev/shm, else $XDG_RUNTIME_DIR, else the temp folder;
    TABLEHOST_MEMORY_DIR first), and whether it is new. A restart while the card is still read-only finds the
    same folder and goes on from it (the game played meanwhile included)."""
    name = f"tablehost-memory-{os.getuid() if hasattr(os, 'getuid') else 0}-{zlib.crc32(str(source).encode()):08x}"
    for base in (os.environ.get("TABLEHOST_MEMORY_DIR", ""), "/dev/shm", os.environ.get("XDG_RUNTIME_DIR", ""),
                 tempfile.gettempdir()):
        if not base or not os.path.isdir(base) or write_problem(Path(base)):
            continue
        folder = Path(base) / name
        if folder.is_dir() and not write_problem(folder):
            return folder, False
        folder.mkdir(mode=0o700)
        return folder, True
    raise OSError("no writable folder for the kiosk at all")


def choose(source: Path, problem: str | None = None) -> tuple[Path, str]:
    """The folder the kiosk should use for `source`, and why it is not `source` itself ("" when it is);
    `problem`: already known (a write that failed), else probed."""
    problem = write_problem(source) if problem is None else problem
    if not problem:
        return source, ""
    folder, new = memory_folder(source)
    log.error("data folder %s cannot be written (%s): running in memory from %s", source, problem, folder)
    if not new:
        return folder, problem
    for name in LINKED:
        if (source / name).is_dir():
            (folder / name).symlink_to(source / name, target_is_directory=True)
    for rel in COPIED:
        src = source / rel
        if src.is_file():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            try:
                shutil.copyfile(src, folder / rel)
            except OSError as exc:
                log.error("could not copy %s into memory: %s", src, exc)
    return folder, problem


JOURNAL_FILES = ("current.sqlite", "current.sqlite-wal", "current.sqlite-spill")  # the game on the table


def journal_problem(folder: Path) -> str:
    """"" when the journal folder and its archive and damaged folders (those there) take a write."""
    for sub in (folder, folder / "archive", folder / "damaged"):
        if sub == folder or sub.is_dir():
            problem = write_problem(sub)
            if problem:
                return f"{sub.name}: {problem}"
    return ""


def renew_journal_folder(folder: Path, notices: list[Notice] | None = None) -> str:
    """Issue #42: a journal folder that takes no write while the data folder does (its permissions, a folder made by
    a command run as root) made every game's start, resume and turnover fail. It is renamed aside as it is
    (journal-unwritable-<time>, beside it, for staff), and a fresh folder starts with copies of the current game's
    files (checked and resumed as any journal: open_journal) and of the archive (the staff screen's play records).
    Returns "" when the folder takes writes (as it was, or renewed), else the problem (it could not be renamed: a
    read-only mount; the caller runs in memory then, as for a read-only data folder)."""
    problem = journal_problem(folder)
    if not problem:
        return ""
    aside = folder.with_name(f"{folder.name}-unwritable-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        os.rename(folder, aside)
    except OSError as exc:
        log.error("journal folder %s takes no write (%s) and cannot be renamed: %s", folder, problem, exc)
        return problem
    try:
        folder.mkdir()
        for name in JOURNAL_FILES:
            if (aside / name).is_file():
                shutil.copyfile(aside / name, folder / name)
    except OSError as exc:
        return f"{type(exc).__name__}: {exc.strerror or exc}"
    if (aside / "archive").is_dir():
        try:
            shutil.copytree(aside / "archive", folder / "archive")
        except (OSError, shutil.Error) as exc:  # what copied is there; the rest stays in the renamed folder
            log.error("journal archive not all copied from %s: %s", aside, exc)
    add(notices, "journal_folder_unwritable", folder=aside.name, problem=problem)
    return journal_problem(folder)
