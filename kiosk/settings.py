"""Staff settings saved as JSON in the data folder, written atomically (temp file + fsync + rename), the
previous good file kept as settings.json.bak.

Damage never weakens the PIN: a settings file that does not read (torn, garbage, a field of the wrong type)
is replaced by its backup, with the PIN lock kept and one more lock added (a torn save cannot be used to
reset the count); when the backup is damaged too, no PIN opens the staff screen (fail closed) until staff
run `tablehost pin reset`. TABLEHOST_PIN / 0000 is only for a data folder that never had settings."""

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

from kiosk.notices import Notice, add
from kiosk.pin import PinLock, hash_pin, lock_seconds

log = logging.getLogger(__name__)
DEFAULT_PIN = "0000"
# the default PIN's hash, made once (`hash_pin(DEFAULT_PIN, salt)`): a folder without settings does not spend
# ~0.3 s of PBKDF2 on every start. The PIN is public (README), so a fixed salt gives nothing away.
DEFAULT_PIN_HASH = ("pbkdf2_sha256$200000$7461626c65686f73742d64656661756c$"
                    "4f8023f102fc03aeaf8aee00ff3892a808d34076fe62a4cfc555089fa3425586")
LOCKED = "locked"  # a pin_hash no PIN matches: the settings were damaged beyond their backup


@dataclass
class Settings:
    pin_hash: str = ""
    pin_is_default: bool = True
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
        default = f.default if f.default_factory is MISSING else f.default_factory()  # type: ignore[misc]
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
    if value == LOCKED:
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


def load(path: Path, notices: list[Notice] | None = None, now: Callable[[], float] = time.time) -> Settings:
    backup = backup_path(path)
    if not path.exists() and not backup.exists():  # a data folder that never had settings
        settings = Settings()
        pin = os.environ.get("TABLEHOST_PIN", DEFAULT_PIN)
        if pin == DEFAULT_PIN:
            settings.pin_hash, settings.pin_is_default = DEFAULT_PIN_HASH, True
        else:
            settings.set_pin(pin)
        return settings
    data, problem = _parse(path)
    if data is not None:
        settings = Settings(**data)
        if settings.pin_disabled:
            add(notices, "settings_locked")
        return settings
    kept = _keep_damaged(path)
    log.error("settings file %s damaged (%s)", path, problem)
    saved, backup_problem = _parse(backup)
    if saved is not None and saved.get("pin_hash") != LOCKED:
        settings = Settings(**saved)
        lock = settings.pin_lock  # kept, and one more lock: a torn save must not hand out fresh tries
        settings.pin_lock = PinLock(lock.failures, max(lock.locked_until, now() + lock_seconds(lock.lockouts)),
                                    lock.lockouts + 1)
        add(notices, "settings_restored", problem=problem, file=kept)
        return settings
    log.error("settings backup %s damaged too (%s): the PIN is disabled until `tablehost pin reset`", backup,
              backup_problem)
    settings = Settings(pin_hash=LOCKED, pin_is_default=False)
    add(notices, "settings_locked")
    return settings


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
    """Write atomically; the file being replaced becomes the backup when it reads well."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(asdict(settings), f, ensure_ascii=False, indent=1)
        f.flush()
        os.fsync(f.fileno())
    if _parse(path)[0] is not None:
        backup = backup_path(path)
        staged = backup.with_suffix(".bak-tmp")
        shutil.copyfile(path, staged)
        with open(staged, "rb") as f:
            os.fsync(f.fileno())
        os.replace(staged, backup)
    os.replace(tmp, path)
    _sync_dir(path.parent)


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
