"""The café floor's deploy files (deploy/floor/): the install script passes shellcheck and refuses a listener
on every network, its dry run writes the broker config (LAN address only, passwords, ACL, persistence),
keeps passwords when run again, and the floor page's systemd unit verifies cleanly."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy/floor/install.sh"


def _install(root: Path, *args: str, dry: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), "--root", str(root), *(["--dry-run"] if dry else []), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (apt: shellcheck)")
def test_floor_install_passes_shellcheck() -> None:
    out = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_floor_install_dry_run_writes_the_broker_config(tmp_path: Path) -> None:
    root = tmp_path / "root"
    out = _install(root, "--address", "192.168.0.10", "--tables", "3", "--pin", "4321")
    assert out.returncode == 0, out.stderr
    conf = (root / "etc/mosquitto/conf.d/tablehost.conf").read_text()
    assert "listener 1883 192.168.0.10" in conf
    assert "allow_anonymous false" in conf and "persistence true" in conf
    assert f"acl_file {root}/etc/mosquitto/tablehost.acl" in conf
    assert (root / "etc/mosquitto/tablehost.acl").read_text() == (ROOT / "deploy/floor/tablehost.acl").read_text()
    listed = dict(line.split() for line in (root / "etc/tablehost/floor-tables.txt").read_text().splitlines())
    assert sorted(listed) == ["floor", "t01", "t02", "t03"]
    assert (root / "etc/tablehost/floor-tables.txt").stat().st_mode & 0o077 == 0
    if shutil.which("mosquitto_passwd"):
        users = [line.split(":")[0] for line in (root / "etc/mosquitto/tablehost.passwd").read_text().splitlines()]
        assert sorted(users) == ["floor", "t01", "t02", "t03"]
        assert listed["t01"] not in (root / "etc/mosquitto/tablehost.passwd").read_text()  # hashed
    env = (root / "etc/tablehost/floor.env").read_text()
    assert f"TABLEHOST_FLOOR_PASSWORD={listed['floor']}" in env and "TABLEHOST_FLOOR_PIN=4321" in env
    assert (root / "etc/systemd/system/tablehost-floor.service").exists()
    assert "would run: systemctl restart mosquitto.service tablehost-floor.service" in out.stdout
    # run again with more tables: the existing passwords stay (the tablets keep working)
    out = _install(root, "--address", "192.168.0.10", "--tables", "4")
    assert out.returncode == 0, out.stderr
    again = dict(line.split() for line in (root / "etc/tablehost/floor-tables.txt").read_text().splitlines())
    assert {k: again[k] for k in listed} == listed and "t04" in again
    assert "TABLEHOST_FLOOR_PIN=4321" in (root / "etc/tablehost/floor.env").read_text()  # the PIN stays too


def test_floor_install_with_a_root_never_touches_the_real_system(tmp_path: Path) -> None:
    """`--root` without `--dry-run`: every system command (apt, useradd, venv, systemctl) only printed."""
    root = tmp_path / "root"
    out = _install(root, "--address", "192.168.0.10", "--tables", "2", "--pin", "4321", dry=False)
    assert out.returncode == 0, out.stderr
    for command in ("apt-get update", "systemctl restart", "python3 -m venv /opt/tablehost/.venv"):
        assert f"would run: {command}" in " ".join(out.stdout.split()).replace("\\", ""), command
    assert (root / "etc/tablehost/floor.env").exists()


def test_floor_install_has_no_default_pin(tmp_path: Path) -> None:
    out = _install(tmp_path / "root", "--address", "192.168.0.10", "--tables", "2")
    assert out.returncode == 2 and "PIN" in out.stderr
    assert not (tmp_path / "root/etc/tablehost/floor.env").exists()
    out = _install(tmp_path / "root", "--address", "192.168.0.10", "--tables", "2", "--pin", "12a4")
    assert out.returncode == 2 and "4 to 8 digits" in out.stderr


@pytest.mark.parametrize("args", [("--address", "0.0.0.0", "--tables", "2"), ("--tables", "2"),
                                  ("--address", "10.0.0.2", "--table", "floor"),
                                  ("--address", "10.0.0.2", "--table", "t/1"),
                                  ("--address", "10.0.0.2", "--tables", "2", "--branch", "b1"),
                                  ("--address", "10.0.0.2", "--tables", "2", "--head-office"),
                                  ("--address", "10.0.0.2", "--tables", "2", "--bridge-user", "B/1")])
def test_floor_install_refuses_bad_input(tmp_path: Path, args: tuple[str, ...]) -> None:
    out = _install(tmp_path / "root", *args, "--pin", "4321")
    assert out.returncode == 2 and out.stderr
    assert not (tmp_path / "root/etc/mosquitto").exists()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is needed (apt: systemd)")
def test_floor_unit_verifies(tmp_path: Path) -> None:
    text = (ROOT / "deploy/floor/tablehost-floor.service").read_text()
    for must in ("Restart=always", "User=tablehost", "EnvironmentFile=/etc/tablehost/floor.env",
                 "ExecStart=/opt/tablehost/.venv/bin/tablehost floor"):
        assert must in text
    unit = tmp_path / "tablehost-floor.service"  # the app is not installed here: verify with a stand-in binary
    unit.write_text(text.replace("/opt/tablehost/.venv/bin/tablehost floor", "/bin/true"))
    out = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    assert out.returncode == 0 and not out.stderr.strip(), out.stderr
