"""Damaged settings never weaken the staff PIN (fail closed), staff get back in with `tablehost pin reset`,
and the PIN lockout escalates."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk import settings as settings_mod
from kiosk.notices import Notice
from kiosk.pin import MAX_LOCK_SECONDS, MAX_TRIES, PinLock, check_pin, hash_pin

ROOT = Path(__file__).resolve().parents[2]
NOW = 1_800_000_000.0


def _locked_out(path: Path, pin: str = "4321") -> settings_mod.Settings:
    """Staff chose a PIN; then a guest tried five wrong ones (each try is saved)."""
    s = settings_mod.load(path)
    s.set_pin(pin)
    settings_mod.save(path, s)
    for _ in range(MAX_TRIES):
        ok, lock = s.pin_lock.attempt("9999", s.pin_hash, NOW)
        assert not ok
        s.pin_lock = lock
        settings_mod.save(path, s)
    assert s.pin_lock.locked(NOW + 1)
    return s


def _load(path: Path) -> tuple[settings_mod.Settings, list[Notice]]:
    notices: list[Notice] = []
    return settings_mod.load(path, notices, now=lambda: NOW + 1), notices


def test_a_torn_settings_file_keeps_the_pin_and_the_lockout(tmp_path: Path) -> None:
    """A torn settings.json (power cut during a save) reset the PIN to 0000 and cleared the lockout."""
    path = tmp_path / "settings.json"
    _locked_out(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    s, notices = _load(path)
    assert [n.key for n in notices] == ["settings_restored"]
    assert not check_pin("0000", s.pin_hash) and check_pin("4321", s.pin_hash)
    assert s.pin_lock.locked(NOW + 30) and s.pin_lock.lockouts >= 1
    kept = tmp_path / notices[0].params["file"]
    assert kept.read_bytes() == data[: len(data) // 2]


@pytest.mark.parametrize("damage", [
    b"", b"\x00" * 300, b"[1, 2]", b'{"pin_hash": 5}', b'{"pin_hash": "pbkdf2_sha256$1$zz$zz"}',
    b'{"lock": "none"}', b'{"volume": "loud"}'])
def test_damage_to_both_files_disables_the_pin(tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / "settings.json"
    _locked_out(path)
    path.write_bytes(damage)
    settings_mod.backup_path(path).write_bytes(damage)
    s, notices = _load(path)
    assert s.pin_disabled and [n.key for n in notices] == ["settings_locked"]
    for pin in ("0000", "4321", ""):
        assert not check_pin(pin, s.pin_hash)
        ok, _ = s.pin_lock.attempt(pin, s.pin_hash, NOW + 10_000)
        assert not ok
    # saving the fail-closed settings keeps them fail-closed
    settings_mod.save(path, s)
    again, notices = _load(path)
    assert again.pin_disabled and [n.key for n in notices] == ["settings_locked"]


def test_a_lost_settings_file_is_restored_from_its_backup(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    _locked_out(path)
    path.unlink()
    s, notices = _load(path)
    assert check_pin("4321", s.pin_hash) and not check_pin("0000", s.pin_hash)
    assert [n.key for n in notices] == ["settings_restored"]


def test_only_a_folder_that_never_had_settings_starts_with_the_default_pin(tmp_path: Path) -> None:
    s, notices = _load(tmp_path / "settings.json")
    assert check_pin("0000", s.pin_hash) and s.pin_is_default and notices == []


def test_the_default_pin_costs_no_hashing_at_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder without settings starts with the default PIN's hash made once (no PBKDF2 on every start); a PIN
    from TABLEHOST_PIN is hashed with a salt of its own."""
    import kiosk.settings as settings_mod

    monkeypatch.setattr(settings_mod, "hash_pin", lambda *a, **k: pytest.fail("hashed at start"))
    s, _ = _load(tmp_path / "settings.json")
    assert check_pin("0000", s.pin_hash) and not check_pin("0001", s.pin_hash) and s.pin_is_default
    monkeypatch.undo()
    monkeypatch.setenv("TABLEHOST_PIN", "4321")
    s, _ = _load(tmp_path / "settings.json")
    assert check_pin("4321", s.pin_hash) and not check_pin("0000", s.pin_hash) and not s.pin_is_default


def test_save_keeps_the_previous_good_file_as_backup(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    s = settings_mod.load(path)
    s.lang = "en"
    settings_mod.save(path, s)
    s.lang = "ko"
    settings_mod.save(path, s)
    assert json.loads(settings_mod.backup_path(path).read_text())["lang"] == "en"
    path.write_text("{", encoding="utf-8")
    s.branch = "branch2"
    settings_mod.save(path, s)  # a damaged file is not copied over the good backup
    assert json.loads(settings_mod.backup_path(path).read_text())["lang"] == "en"
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob("*.bak-tmp"))


def test_pin_reset_command_sets_a_new_pin_and_clears_the_lock(tmp_path: Path) -> None:
    """The documented way back in (README, `tablehost pin reset`): reads the PIN from stdin when not a tty."""
    path = tmp_path / "settings.json"
    _locked_out(path)
    path.write_bytes(b"garbage")
    settings_mod.backup_path(path).write_bytes(b"garbage")
    env = {**os.environ, "TABLEHOST_DATA": str(tmp_path), "PYTHONPATH": str(ROOT)}
    bad = subprocess.run([sys.executable, "-m", "kiosk.cli", "pin", "reset"], input="12\n", env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "4 to 8 digits" in bad.stderr
    out = subprocess.run([sys.executable, "-m", "kiosk.cli", "pin", "reset"], input="2468\n", env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    s, notices = _load(path)
    assert notices == [] and not s.pin_disabled
    ok, lock = s.pin_lock.attempt("2468", s.pin_hash, NOW)
    assert ok and lock == PinLock()


def test_lockout_escalates_until_the_right_pin() -> None:
    """Each lock lasts twice the one before (60 s, 2, 4, 8, 16 min, then 30 min at most); the right PIN
    resets it. Before, every lock was 60 s: 5 tries a minute, a 4-digit PIN in under 34 hours."""
    stored = hash_pin("4321")
    lock, now, lengths = PinLock(), NOW, []
    for _ in range(8):
        for _ in range(MAX_TRIES):
            ok, lock = lock.attempt("0000", stored, now)
            assert not ok
        lengths.append(lock.locked_until - now)
        now = lock.locked_until
    assert lengths == [60, 120, 240, 480, 960, MAX_LOCK_SECONDS, MAX_LOCK_SECONDS, MAX_LOCK_SECONDS]
    ok, lock = lock.attempt("4321", stored, now)
    assert ok and lock == PinLock()
    # saved and read back with the settings
    s = settings_mod.Settings()
    s.pin_lock = PinLock(2, NOW + 5, 3)
    assert s.pin_lock == PinLock(2, NOW + 5, 3)
