"""The tablet deploy files: shell scripts pass shellcheck, the systemd unit verifies cleanly, and the
install script's dry run into a scratch root writes every file and changes nothing on this machine."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ["deploy/install.sh", "deploy/update.sh", "run-kiosk", "run-tests", "scripts/setup.sh", ".ci/run"]


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (apt: shellcheck)")
def test_shell_scripts_pass_shellcheck() -> None:
    out = subprocess.run(["shellcheck", *SCRIPTS], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def _verify(unit: Path) -> str:
    out = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    return (out.stdout + out.stderr).strip() if out.returncode == 0 else f"rc={out.returncode} {out.stderr}"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None or not Path("/usr/bin/cage").exists(),
                    reason="systemd-analyze and cage are needed (apt: systemd cage)")
def test_systemd_unit_verifies_without_warnings(tmp_path: Path) -> None:
    unit = ROOT / "deploy" / "tablehost.service"
    assert _verify(unit) == ""
    text = unit.read_text()
    for must in ("Restart=always", "WatchdogSec=", "Type=notify", "NotifyAccess=all", "User=tablehost"):
        assert must in text
    # the check can fail: a typo is reported
    bad = tmp_path / "tablehost.service"
    bad.write_text(text.replace("Restart=always", "Restartt=always"))
    assert "Unknown key" in _verify(bad)


def test_install_dry_run_into_a_scratch_root(tmp_path: Path) -> None:
    scratch = tmp_path / "root"
    out = subprocess.run(["bash", "deploy/install.sh", "--root", str(scratch), "--dry-run", "--pin", "2468"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert (scratch / "etc/systemd/system/tablehost.service").read_text() == \
        (ROOT / "deploy/tablehost.service").read_text()
    assert (scratch / "etc/logrotate.d/tablehost").exists()
    assert (scratch / "usr/local/bin/tablehost-update").stat().st_mode & 0o111
    assert (scratch / "opt/tablehost/pyproject.toml").exists()
    assert (scratch / "opt/tablehost/kiosk/app.py").exists()
    assert not (scratch / "opt/tablehost/.git").exists()
    assert "TABLEHOST_PIN=2468" in (scratch / "etc/systemd/system/tablehost.service.d/pin.conf").read_text()
    # nothing was executed on this machine: the system-changing commands were only printed
    for cmd in ("apt-get install", "systemctl enable tablehost.service", "python3 -m venv /opt/tablehost/.venv"):
        assert f"would run: {cmd}" in out.stdout.replace("\\ ", " ") or cmd.split()[0] in out.stdout
    assert "would run: systemctl restart tablehost.service" in out.stdout
    # cage exits at start ("Cannot create XWayland server") without Xwayland, which it only recommends
    apt = next(line for line in out.stdout.splitlines() if "apt-get install" in line)
    assert " cage " in apt and " xwayland " in apt


def test_install_refuses_to_run_unprivileged_for_real() -> None:
    if subprocess.run(["id", "-u"], capture_output=True, text=True).stdout.strip() == "0":
        pytest.skip("running as root: the guard only applies to other users")
    out = subprocess.run(["bash", "deploy/install.sh"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 1 and "root" in out.stderr
