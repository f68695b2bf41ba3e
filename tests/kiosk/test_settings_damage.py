"""Damaged settings never weaken the staff PIN (fail closed), staff get back in with `tablehost pin reset`,
and the PIN lockout escalates."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from table import settings as settings_mod
from table.notices import Notice
from table.pin import MAX_LOCK_SECONDS, MAX_TRIES, PinLock, check_pin, hash_pin

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


def test_a_fresh_folder_has_no_pin_until_staff_choose_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #42: a fresh install accepted 0000 (public, README) until staff changed it. Now no PIN opens the
    staff screen until staff choose one at the kiosk's first start (kiosk/screens/pin.py); TABLEHOST_PIN set at
    install is the PIN instead, also with install.sh's settings file (which, before, locked the PIN for good)."""
    monkeypatch.delenv("TABLEHOST_PIN", raising=False)
    path = tmp_path / "settings.json"
    s, notices = _load(path)
    assert s.pin_unset and not s.pin_is_default and notices == []
    for pin in ("0000", ""):
        assert not check_pin(pin, s.pin_hash) and not s.pin_lock.attempt(pin, s.pin_hash, NOW)[0]
    s.lang = "en"
    settings_mod.save(path, s)  # saved before the choice (a language, a port): still asked for
    s, notices = _load(path)
    assert s.pin_unset and s.lang == "en" and notices == []
    path.write_text('{"pin_hash": "", "branch": ""}\n', encoding="utf-8")  # deploy/install.sh --pin 2468
    monkeypatch.setenv("TABLEHOST_PIN", "2468")
    s, notices = _load(path)
    assert notices == [] and check_pin("2468", s.pin_hash) and not check_pin("0000", s.pin_hash)
    assert not s.pin_disabled and not s.pin_is_default


def test_a_torn_file_right_after_a_pin_change_keeps_the_new_pin(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #42: the backup was the file before the last save, so a settings file torn right after a PIN change
    brought the old PIN back (0000 on a fresh install). Now the backup is written after each change too."""
    monkeypatch.setenv("TABLEHOST_PIN", "0000")
    path = tmp_path / "settings.json"
    s = settings_mod.load(path)
    for old, new in (("0000", "4321"), ("4321", "8642")):
        s.set_pin(new)
        settings_mod.save(path, s)
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 3])
        s, notices = _load(path)
        assert [n.key for n in notices] == ["settings_restored"]
        assert check_pin(new, s.pin_hash) and not check_pin(old, s.pin_hash)
        settings_mod.save(path, s)


def test_a_power_cut_between_a_saves_two_writes_is_mended_at_the_next_start(tmp_path: Path) -> None:
    """The file written, its backup not yet: the next start copies the file over the backup, so a later tear does
    not bring back the PIN before."""
    path = tmp_path / "settings.json"
    s = settings_mod.load(path)
    s.set_pin("4321")
    settings_mod.save(path, s)
    before = settings_mod.backup_path(path).read_bytes()
    s.set_pin("8642")
    settings_mod.save(path, s)
    settings_mod.backup_path(path).write_bytes(before)  # as if the save's second write never happened
    _load(path)
    path.write_bytes(b"{")
    s, _ = _load(path)
    assert check_pin("8642", s.pin_hash) and not check_pin("4321", s.pin_hash)


def test_the_default_pin_costs_no_hashing_at_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder without settings starts with the default PIN's hash made once (no PBKDF2 on every start); a PIN
    from TABLEHOST_PIN is hashed with a salt of its own."""
    import table.settings as settings_mod

    monkeypatch.setattr(settings_mod, "hash_pin", lambda *a, **k: pytest.fail("hashed at start"))
    s, _ = _load(tmp_path / "settings.json")
    assert check_pin("0000", s.pin_hash) and not check_pin("0001", s.pin_hash) and s.pin_is_default
    monkeypatch.undo()
    monkeypatch.setenv("TABLEHOST_PIN", "4321")
    s, _ = _load(tmp_path / "settings.json")
    assert check_pin("4321", s.pin_hash) and not check_pin("0000", s.pin_hash) and not s.pin_is_default


def test_the_backup_is_the_file_after_each_save_and_never_a_damaged_one(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    s = settings_mod.load(path)
    s.lang = "en"
    settings_mod.save(path, s)
    assert settings_mod.backup_path(path).read_bytes() == path.read_bytes()
    path.write_text("{", encoding="utf-8")
    settings_mod.backup_path(path).write_bytes(b"")
    s.branch = "branch2"
    settings_mod.save(path, s)  # a damaged file is not copied over the backup
    assert json.loads(settings_mod.backup_path(path).read_text())["branch"] == "branch2"
    assert settings_mod.backup_path(path).read_bytes() == path.read_bytes()
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
