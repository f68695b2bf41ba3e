"""The floor box installs and runs without the kiosk's stack (#39.5): the core dependencies name no Kivy, vosk,
numpy, pyttsx3 or sounddevice (the `kiosk` extra does, and the kiosk's installers ask for it), and the floor
service starts, reaches the broker and serves its page in a process where importing those fails; the CLI
says what is missing instead of looping."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.floor.broker import Broker

ROOT = Path(__file__).resolve().parents[2]
KIOSK_ONLY = ("kivy", "vosk", "numpy", "pyttsx3", "sounddevice")
BLOCK = f"""
import importlib.abc, sys
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {KIOSK_ONLY!r}:
            raise ImportError("not on a floor box: " + name)
sys.meta_path.insert(0, Blocker())
"""


def _python(code: str, tmp: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TABLEHOST_FLOOR_")}
    return subprocess.run([sys.executable, "-c", BLOCK + code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**clean, "TABLEHOST_DATA": str(tmp / "data"), **env})


def test_the_core_dependencies_leave_the_kiosk_stack_to_its_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = " ".join(project["dependencies"]).lower()
    assert not [name for name in KIOSK_ONLY if name in core]
    kiosk = " ".join(project["optional-dependencies"]["kiosk"]).lower()
    assert all(name in kiosk for name in KIOSK_ONLY)
    for installer in ("scripts/setup.sh", "deploy/install.sh", "deploy/update.sh"):
        assert "kiosk,voice-model" in (ROOT / installer).read_text(), installer


def test_the_floor_runs_without_kivy_vosk_or_numpy(broker: Broker, tmp_path: Path) -> None:
    out = _python(f"""
import urllib.request
from pathlib import Path
from floor.serve import Floor, FloorSetup
f = Floor(FloorSetup(broker="127.0.0.1", broker_port={broker.port}, password={broker.passwords["floor"]!r},
                     web_port=0, pin="2468", data_dir=Path({str(tmp_path)!r})))
f.start()
assert f.board.wait_connected()
for path in ("/", "/floor.js", "/font.ttf"):
    assert urllib.request.urlopen(f.server.url + path, timeout=10).status == 200
f.stop()
print("served", sorted(m for m in sys.modules if m.split(".")[0] in {KIOSK_ONLY!r}))
""", tmp_path)
    assert out.returncode == 0, out.stderr
    assert "served []" in out.stdout


def test_tablehost_floor_without_settings_says_what_is_missing(tmp_path: Path) -> None:
    code = "from kiosk.cli import main; sys.exit(main(['floor', '--env', {!r}]))"
    out = _python(code.format(str(tmp_path / "none.env")), tmp_path)
    assert out.returncode == 2 and "does not exist" in out.stderr
    env = tmp_path / "floor.env"
    env.write_text("TABLEHOST_FLOOR_BROKER=127.0.0.1\nTABLEHOST_FLOOR_PIN=2468\n")
    out = _python(code.format(str(env)), tmp_path)
    assert out.returncode == 2 and "TABLEHOST_FLOOR_PASSWORD" in out.stderr  # the old floor looped on it
    env.write_text("TABLEHOST_FLOOR_PASSWORD=x\n")
    out = _python(code.format(str(env)), tmp_path)
    assert out.returncode == 2 and "no floor PIN" in out.stderr  # the old floor took 0000
