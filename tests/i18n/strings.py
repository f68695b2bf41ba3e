"""Every Korean string the kiosk can show, with where it comes from and which game it belongs to (None: shared).

Sources: the Korean catalogs (content/i18n/ko), the games' content (content/games/**: every Hangul string except
English fields and search keywords), the voice labels (content/voice/ko.yaml), and Hangul string literals in the
engines and the kiosk's game screens (docstrings and comments are not shown to anyone)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
GAMES = tuple(sorted(p.name for p in (ROOT / "content" / "games").iterdir() if p.is_dir()))
HANGUL = re.compile(r"[가-힣]")
HIDDEN_KEYS = {"en", "keywords", "templates"}  # not shown in Korean (voice templates are what people say)


@dataclass(frozen=True)
class KoString:
    where: str  # file and key path, or file:line
    game: str | None
    text: str


def game_of(*parts: str) -> str | None:
    for part in parts:
        for segment in re.split(r"[./]", part):
            if segment in GAMES:
                return segment
    return None


def _walk(data: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], str]]:
    if isinstance(data, dict):
        for k, v in data.items():
            if str(k) not in HIDDEN_KEYS:
                yield from _walk(v, (*path, str(k)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _walk(v, (*path, str(i)))
    elif isinstance(data, str) and HANGUL.search(data):
        yield path, data


def _yaml_strings(path: Path, top: tuple[str, ...] = ()) -> Iterator[KoString]:
    rel = str(path.relative_to(ROOT))
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}
    for keys, text in _walk(data, top):
        yield KoString(f"{rel}:{'.'.join(keys)}", game_of(rel, ".".join(keys)), text)


def _voice_labels() -> Iterator[KoString]:
    path = ROOT / "content" / "voice" / "ko.yaml"
    for s in _yaml_strings(path):
        if s.where.endswith(".label"):
            yield s


def _python_strings(path: Path) -> Iterator[KoString]:
    rel = str(path.relative_to(ROOT))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
                and HANGUL.search(node.value)):
            yield KoString(f"{rel}:{node.lineno}", game_of(rel), node.value)


def catalog_strings() -> Iterator[KoString]:
    for path in sorted((ROOT / "content" / "i18n" / "ko").glob("*.yaml")):
        yield from _yaml_strings(path)


def engine_strings() -> Iterator[KoString]:
    for path in sorted((ROOT / "engines").rglob("*.py")):
        if path.name != "korean.py":
            yield from _python_strings(path)


@cache
def korean_strings() -> tuple[KoString, ...]:
    out = list(catalog_strings())
    for path in sorted((ROOT / "content" / "games").rglob("*.yaml")):
        out.extend(_yaml_strings(path))
    out.extend(_voice_labels())
    out.extend(engine_strings())
    for path in sorted((ROOT / "kiosk" / "games").rglob("*.py")):
        out.extend(_python_strings(path))
    return tuple(out)
