"""Where the kiosk writes: the settings file (saved, or kept in memory when the folder takes no write; taken
again when staff changed it outside the kiosk) and the storage check that moves the kiosk to a folder in memory
when the data folder goes read-only or full (table/storage.py)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from table import ops, storage
from table import settings as settings_mod
from table.notices import add

if TYPE_CHECKING:
    from kiosk.app_api import KioskApp

log = logging.getLogger(__name__)


def stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def save_settings(app: KioskApp) -> None:
    try:
        settings_mod.save(app.settings_path, app.settings)
    except OSError as exc:  # the data folder went read-only or full while running: keep going in memory
        log.error("settings not saved: %s", exc)
        if not any(n.key == "settings_unsaved" for n in app.notices):
            add(app.notices, "settings_unsaved", problem=f"{type(exc).__name__}: {exc.strerror or exc}")
    app.settings_stamp = stamp(app.settings_path)


def reload_settings_if_changed(app: KioskApp) -> None:
    """Staff ran `tablehost pin reset` (or edited the file) while the kiosk runs: take the file's settings
    before the next PIN entry, so the kiosk does not save its old PIN over the new one."""
    now = stamp(app.settings_path)
    if now != app.settings_stamp:
        log.info("settings file changed outside the kiosk; reloading it")
        app.settings = settings_mod.load(app.settings_path, app.notices, app.now)
        app.settings_stamp = now


def check_storage(app: KioskApp) -> bool:
    """The data folder went read-only (or full) while the kiosk runs: go on from a folder in memory, the
    game resuming from a copy of its journal (table/storage.py). True when it switched."""
    error, app.storage_error = app.storage_error, ""
    problem = storage.write_problem(app.data_dir)
    if not problem and storage.journal_problem(app.journal_dir):  # the journal folder alone (#42): renewed,
        app.table.close()  # else (a read-only mount of it) in memory too
        problem = storage.renew_journal_folder(app.journal_dir, app.notices)
        if not problem:
            return False
    problem = problem or error
    if not problem:
        return False
    app.table.close()
    source = app.data_dir
    folder, _ = storage.choose(source, problem)
    # settings and content stay as loaded; only where the kiosk writes moves
    app.data_dir, app.settings_path, app.journal_dir = folder, folder / "settings.json", folder / "journal"
    app.table.journal_dir = app.journal_dir
    add(app.notices, "storage_readonly", folder=str(source), problem=problem)
    ops.setup_logging(folder)
    return True
