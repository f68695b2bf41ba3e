"""Project conventions that CI enforces: ruff clean, engines pure (standard library only) and typed
under mypy --strict, no source file far over the size limit without a reason."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names)


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.skip("ruff not installed")
    out = subprocess.run([ruff, "check", ".", "--output-format", "concise"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:]


def test_engines_import_only_the_standard_library_and_engines() -> None:
    bad = []
    for path in (ROOT / "engines").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top != "engines" and top not in STDLIB:
                    bad.append(f"{path.relative_to(ROOT)}: {name}")
    assert bad == []


def test_engines_never_read_the_clock_the_disk_or_global_random() -> None:
    banned = ("time.time(", "time.monotonic(", "datetime.now(", "open(", "random.random(", "random.choice(",
              "random.shuffle(", "random.randint(", "Path(")
    bad = []
    for path in (ROOT / "engines").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for b in banned:
            for line in text.splitlines():
                code = line.split("#")[0]
                if b in code and f"rng.{b.split('.')[-1]}" not in code and "def " not in code:
                    bad.append(f"{path.relative_to(ROOT)}: {line.strip()}")
    assert bad == []


@pytest.mark.slow
def test_engines_type_check_under_mypy_strict() -> None:
    mypy = Path(sys.executable).with_name("mypy")
    if not mypy.exists():
        pytest.skip("mypy not installed")
    out = subprocess.run([str(mypy), "--strict", "engines"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:]


def test_no_source_file_is_far_over_600_lines() -> None:
    long = []
    for folder in ("engines", "content", "table", "phones", "floor", "audio", "kiosk"):
        for path in (ROOT / folder).rglob("*.py"):
            n = path.read_text(encoding="utf-8").count("\n")
            if n > 700:
                long.append(f"{path.relative_to(ROOT)}: {n}")
    assert long == []
