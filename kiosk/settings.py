"""Staff settings saved as JSON in the data folder, written atomically (temp file + fsync + rename)."""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from kiosk.pin import PinLock, hash_pin

log = logging.getLogger(__name__)
DEFAULT_PIN = "0000"


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
        return PinLock(int(self.lock.get("failures", 0)), float(self.lock.get("locked_until", 0.0)))

    @pin_lock.setter
    def pin_lock(self, value: PinLock) -> None:
        self.lock = {"failures": value.failures, "locked_until": value.locked_until}

    def set_pin(self, pin: str) -> None:
        self.pin_hash = hash_pin(pin)
        self.pin_is_default = pin == DEFAULT_PIN


def load(path: Path) -> Settings:
    settings = Settings()
    if path.exists():
        try:
            data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            known = {f.name for f in fields(Settings)}
            settings = Settings(**{k: v for k, v in data.items() if k in known})
        except (OSError, ValueError, TypeError) as exc:
            log.error("settings file %s unreadable (%s); using defaults", path, exc)
    if not settings.pin_hash:
        settings.set_pin(os.environ.get("TABLEHOST_PIN", DEFAULT_PIN))
    return settings


def save(path: Path, settings: Settings) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(asdict(settings), f, ensure_ascii=False, indent=1)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
