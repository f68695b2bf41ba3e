"""Staff settings saved as JSON in the data folder, written atomically (temp file + fsync + rename), with a copy as
settings.json.bak: written before each change (the last good file, while the file is replaced) and after it (the new
file), so a torn file never brings back an older PIN (issue #42); a start that finds the two different (a power cut
between the writes) copies the file over its backup.

Damage never weakens the PIN: a settings file that does not read (torn, garbage, a field of the wrong type)
is replaced by its backup, with the PIN lock kept and one more lock added (a torn save cannot be used to
reset the count); when the backup is damaged too, no PIN opens the staff screen (fail closed) until staff
run `tablehost pin reset`. No PIN is known before staff choose one: a data folder that never had settings (or
install.sh's, `"pin_hash": ""`) takes TABLEHOST_PIN when the install set it, else the kiosk asks staff for a new
PIN at its start (kiosk/screens/pin.py), never 0000 by itself."""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import MISSING, asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from table.notices import Notice, add
from table.pin import PinLock, hash_pin, lock_seconds

log = logging.getLogger(__name__)
DEFAULT_PIN = "0000"
# 0000's hash, made once (`hash_pin(DEFAULT_PIN, salt)`): TABLEHOST_PIN=0000 (the tests') does not spend ~0.3 s of
# PBKDF2 on every start. That PIN is a guess anyone makes, so a fixed salt gives nothing away.
DEFAULT_PIN_HASH = ("pbkdf2_sha256$200000$7461626c65686f73742d64656661756c$"
                    "4f8023f102fc03aeaf8aee00ff3892a808d34076fe62a4cfc555089fa3425586")
LOCKED = "locked"  # a pin_hash no PIN matches: the settings were damaged beyond their backup
UNSET = ""  # no PIN chosen yet: the kiosk asks staff for one at its start


@dataclass
class Settings:
    pin_hash: str = UNSET
    pin_is_default: bool = False  # the PIN is 0000 (TABLEHOST_PIN=0000): the staff screen says to change it
    branch: str = ""
    lang: str = "ko"
    volume: float = 0.8
    voice_enabled: bool = True
    phones_enabled: bool = True
    phones_port: int = 8765
    floor_host: str = ""  # the café floor's MQTT broker (kiosk/floor); empty: off
    floor_port: int = 1883
    floor_table: str = ""
    floor_password: str = ""
    lock: dict[str, float] = field(default_factory=dict)

    @property
    def pin_lock(self) -> PinLock:
        return PinLock(int(self.lock.get("failures", 0)), float(self.lock.get("locked_until", 0.0)),
                       int(self.lock.get("lockouts", 0)))

    @pin_lock.setter
    def pin_lock(self, value: PinLock) -> None:
        self.lock = {"failures": value.failures, "locked_until": value.locked_until, "lockouts": value.lockouts}

    @property
    def pin_disabled(self) -> bool:
        return self.pin_hash == LOCKED

    @property
    def pin_unset(self) -> bool:
        return self.pin_hash == UNSET

    def set_pin(self, pin: str) -> None:
        self.pin_hash = hash_pin(pin)
        self.pin_is_default = pin == DEFAULT_PIN


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def _parse(path: Path) -> tuple[dict[str, Any] | None, str]:
    """The file's fields when every one reads and has the right type, else (None, what is wrong)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, "missing"
    except (OSError, ValueError) as exc:
        return None, f"{type(exc).__name__}: {exc}"
    if not isinstance(data, dict):
        return None, "not a JSON object"
    out: dict[str, Any] = {}
    for f in fields(Settings):
        if f.name not in data:
            continue
        value = data[f.name]
        default = f.default if f.default_factory is MISSING else f.default_factory()
        if not _same_kind(value, default):
            return None, f"{f.name}: {value!r} is not a {type(default).__name__}"
        out[f.name] = value
    if not _pin_hash_ok(out.get("pin_hash")):
        return None, "pin_hash missing or malformed"
    lock = out.get("lock", {})
    if not all(isinstance(lock.get(k, 0), (int, float)) and not isinstance(lock.get(k, 0), bool)
               for k in ("failures", "locked_until", "lockouts")):
        return None, "lock: not numbers"
    return out, ""


def _same_kind(value: Any, default: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    return isinstance(value, type(default))


def _pin_hash_ok(value: Any) -> bool:
    if value in (LOCKED, UNSET):
        return True
    parts = value.split("$") if isinstance(value, str) else []
    if len(parts) != 4 or parts[0] != "pbkdf2_sha256" or not parts[1].isdigit():
        return False
    try:
        bytes.fromhex(parts[2])
        bytes.fromhex(parts[3])
    except ValueError:
        return False
    return True


def _install_pin(settings: Settings) -> Settings:
    """A PIN not chosen yet: TABLEHOST_PIN when the install set it (0000 without hashing), else still unset."""
    pin = os.environ.get("TABLEHOST_PIN", "")
    if settings.pin_unset and pin:
        if pin == DEFAULT_PIN:
            settings.pin_hash, settings.pin_is_default = DEFAULT_PIN_HASH, True
        else:
            settings.set_pin(pin)
    return settings


def load(path: Path, notices: list[Notice] | None = None, now: Callable[[], float] = time.time) -> Settings:
    backup = backup_path(path)
    if not path.exists() and not backup.exists():  # a data folder that never had settings
        return _install_pin(Settings())
    data, problem = _parse(path)
    if data is not None:
        settings = Settings(**data)
        if settings.pin_disabled:
            add(notices, "settings_locked")
        _same_backup(path, backup)
        return _install_pin(settings)
    kept = _keep_damaged(path)
    log.error("settings file %s damaged (%s)", path, problem)
    saved, backup_problem = _parse(backup)
    if saved is not None and saved.get("pin_hash") != LOCKED:
        settings = Settings(**saved)
        lock = settings.pin_lock  # kept, and one more lock: a torn save must not hand out fresh tries
        settings.pin_lock = PinLock(lock.failures, max(lock.locked_until, now() + lock_seconds(lock.lockouts)),
                                    lock.lockouts + 1)
        add(notices, "settings_restored", problem=problem, file=kept)
        return _install_pin(settings)
    log.error("settings backup %s damaged too (%s): the PIN is disabled until `tablehost pin reset`", backup,
              backup_problem)
    settings = Settings(pin_hash=LOCKED, pin_is_default=False)
    add(notices, "settings_locked")
    return settings


def _same_backup(path: Path, backup: Path) -> None:
    """A good file whose backup differs (a power cut between a save's two writes, a backup lost): copied over it,
    best effort (the folder may be read-only)."""
    try:
        data = path.read_bytes()
        if backup.exists() and backup.read_bytes() == data:
            return
        write_whole(backup, data)
    except OSError as exc:
        log.warning("settings backup not refreshed: %s", exc)


def _keep_damaged(path: Path) -> str:
    """Copy a damaged settings file aside for staff (best effort: the folder may be read-only)."""
    if not path.exists():
        return ""
    target = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        shutil.copyfile(path, target)
    except OSError:
        return ""
    return target.name


def save(path: Path, settings: Settings) -> None:
    """Write atomically, the backup written before (the last good file, when it differs) and after (the new one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(asdict(settings), ensure_ascii=False, indent=1).encode()
    backup = backup_path(path)
    if _parse(path)[0] is not None:
        current = path.read_bytes()
        if not backup.exists() or backup.read_bytes() != current:
            write_whole(backup, current)
    write_whole(path, data)
    write_whole(backup, data)
    _sync_dir(path.parent)


def write_whole(target: Path, data: bytes) -> None:
    """Replace `target` with `data`: a temp file beside it, fsync'd, renamed over it."""
    staged = target.with_suffix(".bak-tmp" if target.suffix == ".bak" else ".tmp")
    with open(staged, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(staged, target)


def _sync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
