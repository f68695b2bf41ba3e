"""Shared audio state: device availability with reasons, and the gate that mutes the microphone while
the kiosk itself makes sound (narration, alarms), so voice commands never hear our own speaker."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class DeviceStatus:
    """`name`: "speaker", "tts", "microphone", "asr_model"… `reason` says why it is unavailable, or, when
    it is available, what was given up on the way (e.g. the pyttsx3 worker; the espeak-ng CLI speaks)."""

    name: str
    available: bool
    reason: str = ""


class StatusBoard:
    """Latest status per device; listeners are called (from any thread) on every change."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: dict[str, DeviceStatus] = {}
        self._listeners: list[Callable[[DeviceStatus], None]] = []

    def set(self, name: str, available: bool, reason: str = "") -> None:
        status = DeviceStatus(name, available, reason)
        with self._lock:
            if self._items.get(name) == status:
                return
            self._items[name] = status
            listeners = list(self._listeners)
        for fn in listeners:
            fn(status)

    def get(self, name: str) -> DeviceStatus | None:
        with self._lock:
            return self._items.get(name)

    def all(self) -> list[DeviceStatus]:
        with self._lock:
            return sorted(self._items.values(), key=lambda s: s.name)

    def listen(self, fn: Callable[[DeviceStatus], None]) -> None:
        with self._lock:
            self._listeners.append(fn)


class MicGate:
    """Counts sounds playing; the microphone is muted while the count is above zero."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active = 0
        self._listeners: list[Callable[[bool], None]] = []

    @property
    def muted(self) -> bool:
        with self._lock:
            return self._active > 0

    def hold(self) -> None:
        self._change(+1)

    def release(self) -> None:
        self._change(-1)

    def listen(self, fn: Callable[[bool], None]) -> None:
        """`fn(muted)` is called whenever the muted state flips."""
        with self._lock:
            self._listeners.append(fn)

    def _change(self, delta: int) -> None:
        with self._lock:
            was = self._active > 0
            self._active = max(0, self._active + delta)
            now = self._active > 0
            listeners = list(self._listeners) if was != now else []
        for fn in listeners:
            fn(now)


# One of each per process: the kiosk, narrator and recogniser share them.
BOARD = StatusBoard()
MIC_GATE = MicGate()
