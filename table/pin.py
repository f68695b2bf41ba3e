"""The staff PIN: stored as a salted PBKDF2 hash; 5 wrong tries lock entry for 60 s, and each further lock
before the right PIN lasts twice as long as the one before (60 s, 2 min, 4 min … at most 30 min). Time is an
input; the lock survives a restart because it is saved with the settings."""

from __future__ import annotations

import hashlib
import hmac
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace

ITERATIONS = 200_000
MAX_TRIES = 5
LOCK_SECONDS = 60.0
MAX_LOCK_SECONDS = 30 * 60.0


def lock_seconds(lockouts: int) -> float:
    """How long the lock after `lockouts` earlier locks (since the last right PIN) lasts."""
    return min(MAX_LOCK_SECONDS, LOCK_SECONDS * 2.0 ** min(max(lockouts, 0), 20))


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, ITERATIONS)
    return f"pbkdf2_sha256${ITERATIONS}${salt.hex()}${digest.hex()}"


def check_pin(pin: str, stored: str) -> bool:
    try:
        algo, iters, salt_hex, digest_hex = stored.split("$")
    except ValueError:
        return False
    if algo != "pbkdf2_sha256":
        return False
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt_hex), int(iters))
    return hmac.compare_digest(digest.hex(), digest_hex)


def valid_new_pin(pin: str) -> bool:
    return pin.isdigit() and 4 <= len(pin) <= 8


@dataclass(frozen=True)
class PinLock:
    failures: int = 0
    locked_until: float = 0.0
    lockouts: int = 0  # locks since the last right PIN: the next one lasts lock_seconds(lockouts)

    def locked(self, now: float) -> bool:
        return now < self.locked_until

    def seconds_left(self, now: float) -> int:
        return max(0, int(self.locked_until - now + 0.999))

    def attempt(self, pin: str, stored: str, now: float) -> tuple[bool, PinLock]:
        """Check a PIN; returns (accepted, new lock state). While locked nothing is checked."""
        if self.locked(now):
            return False, self
        if check_pin(pin, stored):
            return True, PinLock()
        failures = self.failures + 1
        if failures >= MAX_TRIES:
            return False, PinLock(0, now + lock_seconds(self.lockouts), self.lockouts + 1)
        return False, replace(self, failures=failures)


class Checks:
    """PIN checks running on worker threads: the hash costs ~80 ms of CPU here and several times that on a
    tablet, a frozen screen if it ran on the UI thread. `start` calls `lock.attempt` on a thread and hands the
    result to `post` (which must bring it to the UI thread); `running` counts checks not yet posted back."""

    def __init__(self) -> None:
        self.running = 0
        self._guard = threading.Lock()

    def start(self, lock: PinLock, pin: str, stored: str, now: float,
              post: Callable[[Callable[[], None]], None], done: Callable[[bool, PinLock], None]) -> None:
        with self._guard:
            self.running += 1

        def finish(ok: bool, new: PinLock) -> None:
            with self._guard:
                self.running -= 1
            done(ok, new)

        def work() -> None:
            try:
                ok, new = lock.attempt(pin, stored, now)
            except Exception:  # noqa: BLE001  (a damaged hash: refused, as check_pin refuses one)
                ok, new = False, lock
            post(lambda: finish(ok, new))

        threading.Thread(target=work, name="pin-check", daemon=True).start()


CHECKS = Checks()
