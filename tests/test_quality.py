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


# The product's packages beside engines/ (#36 item 3: every game's screens read a typed view part): all pass
# mypy --strict (Kivy's, yaml's, vosk's and sounddevice's names are Any: pyproject.toml). One run: they import
# each other, so separate runs would check the same modules again.
TYPED = ("kiosk", "audio", "table", "phones", "floor", "content")


@pytest.mark.slow
def test_the_product_type_checks_under_mypy_strict() -> None:
    mypy = Path(sys.executable).with_name("mypy")
    if not mypy.exists():
        pytest.skip("mypy not installed")
    out = subprocess.run([str(mypy), "--strict", *TYPED], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:]


def test_no_source_file_is_far_over_600_lines() -> None:
    long = []
    for folder in ("engines", "content", "table", "phones", "floor", "audio", "kiosk"):
        for path in (ROOT / folder).rglob("*.py"):
            n = path.read_text(encoding="utf-8").count("\n")
            if n > 700:
                long.append(f"{path.relative_to(ROOT)}: {n}")
    assert long == []


def _modules() -> dict[str, Path]:
    """The tree's own modules (tests, benches and virtualenvs aside), by dotted name."""
    skip = {"tests", "bench", "build", "dist", "node_modules", "__pycache__", "venv"}
    mods = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if any(p in skip or p.startswith(".") for p in parts[:-1]):
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        mods[name] = path
    return mods


def _imports(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
    """Every module of the tree that `name` imports anywhere: module level, in a function, under
    TYPE_CHECKING. `from a import b` counts a and a.b when a.b is a module."""
    wanted: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            wanted += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                pkg = pkg[: len(pkg) - node.level + 1]
                base = ".".join(pkg + ([base] if base else []))
            wanted += [base] + [f"{base}.{a.name}" if base else a.name for a in node.names]
    found = set()
    for w in wanted:
        while w and w not in mods:
            w = w.rpartition(".")[0]
        if w and w != name and not w.startswith(name + "."):  # a package importing its children is no cycle
            found.add(w)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_cycle_finder_sees_a_cycle_through_a_function_level_import() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_anywhere() -> None:
    """No module of the tree imports, even inside a function or under TYPE_CHECKING, one that imports it
    back (a cycle means a missing owner: DESIGN.md)."""
    mods = _modules()
    graph = {name: _imports(name, path, mods) for name, path in mods.items()}
    assert [" <-> ".join(c) for c in _cycles(graph)] == []
