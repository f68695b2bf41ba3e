"""Topic names, table ids and the JSON payload codec shared by tablets and the floor.

A tablet logs in with its table id as MQTT username; the broker's ACL (deploy/floor/tablehost.acl) lets it
write only under `tablehost/table/<id>/` and read only `tablehost/floor/<id>/` and the content topics.

A chain of cafés: each branch's broker bridges its tables' topics to the head office's broker under
`branches/<branch>/` (deploy/floor/bridge.conf), and the acks back. Tablets and a branch's own floor never see
the prefix; the head office's floor keys a table as `<branch>/<table>` ("b1/t01"), so two branches' t01 stay
two tables and an ack goes to its own branch only.
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
BRANCHES = "branches"
BRANCH_TABLES_ALL = f"{BRANCHES}/+/{ROOT}/table/+/+"
BRANCH_ACKS_ALL = f"{BRANCHES}/+/{ROOT}/floor/+/ack"


CHUNK = 256 * 1024  # a content file travels in retained parts of this size (the broker takes no larger message)


def blob(sha256: str) -> str:
    return f"{ROOT}/floor/content/blob/{sha256}"


def blob_part(sha256: str, index: int) -> str:
    return f"{blob(sha256)}/{index}"


def blob_parts(size: int) -> int:
    """How many parts a file of `size` bytes travels in (one at least)."""
    return max(1, -(-size // CHUNK))


def _unbranch(topic: str) -> tuple[str, list[str]]:
    """(branch or "", the topic's levels below its branch prefix)."""
    parts = topic.split("/")
    if len(parts) > 2 and parts[0] == BRANCHES and valid_table_id(parts[1]):
        return parts[1], parts[2:]
    return "", parts


def parse_table_topic(topic: str) -> tuple[str, str] | None:
    """`[branches/<b>/]tablehost/table/<id>/<kind>` → (key, kind): key `<id>`, or `<b>/<id>` from a branch."""
    branch, parts = _unbranch(topic)
    if len(parts) == 4 and parts[0] == ROOT and parts[1] == "table" and valid_table_id(parts[2]):
        return (f"{branch}/{parts[2]}" if branch else parts[2]), parts[3]
    return None


def parse_ack_topic(topic: str) -> str | None:
    """`[branches/<b>/]tablehost/floor/<id>/ack` → the table's key, else None."""
    branch, parts = _unbranch(topic)
    if len(parts) == 4 and parts[0] == ROOT and parts[1] == "floor" and parts[3] == "ack" \
            and valid_table_id(parts[2]):
        return f"{branch}/{parts[2]}" if branch else parts[2]
    return None


def valid_key(key: str) -> bool:
    branch, _, table = key.rpartition("/")
    return valid_table_id(table) and (not branch or valid_table_id(branch))


def split_key(key: str) -> tuple[str, str]:
    """A table's key → (branch or "", table id)."""
    branch, _, table = key.rpartition("/")
    return branch, table


def ack_for(key: str) -> str:
    """The ack topic of a table by its key (a branch's table: through the bridge, under its prefix)."""
    branch, table = split_key(key)
    return f"{BRANCHES}/{branch}/{ack(table)}" if branch else ack(table)


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
