"""The UI catalogs: Korean and English have the same keys, and every key the code uses exists."""

from __future__ import annotations

import re
from pathlib import Path

from content.i18n_catalog import Translator, load_catalog

ROOT = Path(__file__).resolve().parents[2]
KEY_USE = re.compile(r"""\btr\(\s*f?['"]([a-z_][a-z0-9_]*(?:\.[a-z0-9_{}]+)+)['"]""")


def test_korean_and_english_catalogs_have_the_same_keys() -> None:
    ko, en = load_catalog("ko"), load_catalog("en")
    # YAML 1.1 reads unquoted yes/no/on/off keys as booleans: they must be quoted
    assert not [k for k in ko if re.search(r"(^|\.)(True|False)(\.|$)", k)]
    assert set(ko) - set(en) == set(), "keys missing in English"
    assert set(en) - set(ko) == set(), "keys missing in Korean"


def test_every_key_used_in_kiosk_code_exists() -> None:
    ko = load_catalog("ko")
    missing = []
    for path in list((ROOT / "kiosk").rglob("*.py")) + list((ROOT / "kiosk").rglob("*.kv")):
        rel = path.relative_to(ROOT / "kiosk").parts
        game = rel[1] if rel[0] == "games" and len(rel) > 2 else None
        for key in KEY_USE.findall(path.read_text(encoding="utf-8")):
            if game and f"{game}.{key}" in ko:  # game screens may prefix their own namespace
                continue
            if "{" in key:  # f-string keys: check the prefix exists
                prefix = key.split("{")[0]
                if not any(k.startswith(prefix) or (game and k.startswith(f"{game}.{prefix}")) for k in ko):
                    missing.append(f"{path.name}: {key}")
            elif key not in ko:
                missing.append(f"{path.name}: {key}")
    assert missing == []


def test_translator_falls_back_to_korean_and_formats() -> None:
    tr = Translator("en")
    assert tr("library.players", lo=2, hi=7) == "2–7 players"
    tr.catalogs["en"].pop("library.title")
    assert tr("library.title") == "어떤 게임을 할까요?"
    assert tr("no.such.key") == "no.such.key"
