"""Every character we may show is drawable by the bundled font (a missing glyph shows as a box): every string in
the UI catalogs and content YAML (names, cases, teaching, narration), every engine rule message and every literal
in the kiosk's screens (Python strings other than docstrings, kv lines other than comments)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from kiosk.glyphs import FONT, missing

ROOT = Path(__file__).resolve().parents[2]
BOLD = FONT.with_name("NanumGothicBold.ttf")


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def _texts() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "content").rglob("*.yaml")):
        for text in _strings(yaml.safe_load(path.read_text(encoding="utf-8"))):
            yield str(path.relative_to(ROOT)), text
    for path in sorted((ROOT / "engines").rglob("messages.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield str(path.relative_to(ROOT)), node.value
    for path in sorted((ROOT / "kiosk").rglob("*.py")):
        if "floor" in path.parts:  # web pages: the browser's fonts
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body
                and isinstance(n.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                yield str(path.relative_to(ROOT)), node.value
    for path in sorted((ROOT / "kiosk").rglob("*.kv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip().startswith("#"):
                yield str(path.relative_to(ROOT)), line


def test_every_text_is_in_the_bundled_fonts() -> None:
    bad = {}
    count = 0
    for where, text in _texts():
        count += 1
        gone = missing(text) | missing(text, BOLD)
        if gone:
            bad.setdefault(where, set()).update(gone)
    assert count > 1000  # the walk found the catalogs and content
    assert not bad, {k: sorted(f"{c} U+{ord(c):04X}" for c in v) for k, v in bad.items()}


def test_the_checker_sees_a_missing_glyph() -> None:
    assert missing("−") == {"−"} and not missing("-가A…·")
