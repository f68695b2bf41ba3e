"""One glossary per game (content/i18n/glossary/<game>.yaml): the terms as the game's Korean rulebook prints them,
Korean first, with the variants a Korean string of that game must not use (`avoid`). The catalog tests and the UI
tests' text sweep (kiosk.testing) check every Korean string against it; where a rulebook gives no name, the entry's
note says so and names the plain word the kiosk uses."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from content import ROOT

FOLDER = ROOT / "i18n" / "glossary"
# Template-style fallbacks that must never reach a screen: "민호(이)가", "카드(을)를", "(으)로" …
FALLBACK = re.compile(r"\((이|가|을|를|은|는|과|와|으|이에요|예요|이랑|랑)\)")


@dataclass(frozen=True)
class Term:
    ko: str
    en: str
    note: str = ""
    avoid: tuple[str, ...] = ()


@cache
def load(folder: Path = FOLDER) -> dict[str, tuple[Term, ...]]:
    """Game id → its terms."""
    out: dict[str, tuple[Term, ...]] = {}
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        out[str(data.get("game", path.stem))] = tuple(
            Term(str(t["ko"]), str(t.get("en", "")), str(t.get("note", "")).strip(),
                 tuple(str(a) for a in t.get("avoid") or ()))
            for t in data.get("terms") or ())
    return out


def violations(text: str, game: str) -> list[str]:
    """The avoided variants of `game`'s glossary that `text` uses, each as "고발 → 지목"."""
    return [f"{bad} → {term.ko}" for term in load().get(game, ()) for bad in term.avoid if bad in text]
