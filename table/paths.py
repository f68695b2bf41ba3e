"""Where the kiosk keeps its data: TABLEHOST_DATA, else $XDG_DATA_HOME/tablehost, else ~/.local/share/tablehost."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    env = os.environ.get("TABLEHOST_DATA")
    if env:
        base = Path(env)
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        base = (Path(xdg) if xdg else Path.home() / ".local" / "share") / "tablehost"
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:  # read-only: table.storage decides what to do about it
        pass
    return base


def journal_dir() -> Path:
    return data_dir() / "journal"


def overlay_dir() -> Path:
    """The café's own content (cases, recordings), same layout as the shipped content/."""
    return data_dir() / "content"
