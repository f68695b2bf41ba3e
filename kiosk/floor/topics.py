"""Topic names, table ids and the JSON payload codec shared by tablets and the floor.

A tablet logs in with its table id as MQTT username; the broker's ACL (deploy/floor/tablehost.acl) lets it
write only under `tablehost/table/<id>/` and read only `tablehost/floor/<id>/` and the content topics.
"""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path
from typing import Any

ROOT = "tablehost"
TABLE_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
FLOOR_USER = "floor"


def valid_table_id(table: str) -> bool:
    """Lower-case letters, digits, '-' and '_' (no MQTT wildcards or levels); never the floor's own user."""
    return bool(TABLE_ID.match(table)) and table != FLOOR_USER


def status(table: str) -> str:
    return f"{ROOT}/table/{table}/status"


def online(table: str) -> str:
    return f"{ROOT}/table/{table}/online"


def event(table: str) -> str:
    return f"{ROOT}/table/{table}/event"


def content_report(table: str) -> str:
    return f"{ROOT}/table/{table}/content"


def ack(table: str) -> str:
    return f"{ROOT}/floor/{table}/ack"


MANIFEST = f"{ROOT}/floor/content/manifest"
TABLES_ALL = f"{ROOT}/table/+/+"


def blob(sha256: str) -> str:
    return f"{ROOT}/floor/content/blob/{sha256}"


def parse_table_topic(topic: str) -> tuple[str, str] | None:
    """`tablehost/table/<id>/<kind>` → (id, kind), else None."""
    parts = topic.split("/")
    if len(parts) == 4 and parts[0] == ROOT and parts[1] == "table" and valid_table_id(parts[2]):
        return parts[2], parts[3]
    return None


def encode(payload: Any) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def decode(data: bytes) -> Any:
    """The JSON payload, or None when it is not JSON (a foreign or broken message is ignored)."""
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def load_json(path: Path | None) -> dict[str, Any]:
    """A state file `save_json` wrote; {} when there is none or it does not read (said in the log)."""
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        logging.getLogger(__name__).error("floor state file %s unreadable (%s); starting without it", path, exc)
        return {}
    return data if isinstance(data, dict) else {}


def save_json(path: Path, data: Any) -> None:
    """Write a small state file whole (0600, fsync'd, then renamed over the old one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
