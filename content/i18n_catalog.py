"""The UI string catalogs (content/i18n/<lang>/*.yaml, nested keys flattened to "a.b.c").

Korean is the default and the fallback: a key missing in English shows the Korean text; a key missing
everywhere shows the key itself (and is caught by tests).

Korean particles after a variable are written as a pair in the placeholder and chosen from how the value
really ends: "{name:이/가} {card:을/를} 보여줬어요", "{place:으로/로} 할까요?", "제가 {name:이에요/예요}".
Never write "(이)가"-style fallbacks. In code, `particle`, `attach` and `fmt` (re-exported from
engines.korean, standard library only) do the same."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from content import ROOT
from engines.korean import attach, final_of, fmt, particle

__all__ = ["DEFAULT", "LANGS", "Translator", "attach", "final_of", "fmt", "load_catalog", "one_language", "particle"]

log = logging.getLogger(__name__)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: ~10x faster at start-up
LANGS = ("ko", "en")
_HANGUL = re.compile(r"[가-힣]")
DEFAULT = "ko"


def _flatten(prefix: str, data: Any, out: dict[str, str]) -> None:
    if isinstance(data, Mapping):
        for k, v in data.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif data is not None:
        out[prefix] = str(data)


def load_catalog(lang: str, roots: tuple[Path, ...] = (ROOT,)) -> dict[str, str]:
    out: dict[str, str] = {}
    for root in roots:
        folder = root / "i18n" / lang
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.yaml")):
            try:
                _flatten("", yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or {}, out)
            except (yaml.YAMLError, OSError) as exc:
                log.error("i18n catalog %s is broken: %s", path, exc)
    return out


def one_language(text: str, lang: str) -> str:
    """A status reason the audio layer writes in both languages ("마이크 없음 / no microphone", "출력 장치가
    없습니다 (no output device: …)") cut to `lang`; other text is returned as is."""
    ko, sep, en = text.partition(" / ")
    if not sep:
        head, sep, tail = text.partition(" (")
        if not sep or not _HANGUL.search(head) or _HANGUL.search(tail):
            return text
        ko, en = head, tail[:-1] if tail.endswith(")") else tail
    return en if lang == "en" else ko


class _Catalogs(dict[str, dict[str, str]]):
    """Language → catalog, each read on first use (start-up reads only the language on screen and Korean)."""

    def __init__(self, roots: tuple[Path, ...]) -> None:
        super().__init__()
        self.roots = roots

    def __missing__(self, lang: str) -> dict[str, str]:
        self[lang] = load_catalog(lang, self.roots)
        return self[lang]


class Translator:
    def __init__(self, lang: str = DEFAULT, roots: tuple[Path, ...] = (ROOT,)) -> None:
        self.catalogs = _Catalogs(roots)
        self.lang = lang if lang in LANGS else DEFAULT

    def set_lang(self, lang: str) -> None:
        self.lang = lang if lang in LANGS else DEFAULT

    def has(self, key: str) -> bool:
        return key in self.catalogs[DEFAULT]

    def __call__(self, key: str, **params: Any) -> str:
        text = self.catalogs[self.lang].get(key) or self.catalogs[DEFAULT].get(key)
        if text is None:
            log.warning("missing i18n key %s", key)
            return key
        if params:
            try:
                return fmt(text, **params)
            except (KeyError, IndexError, ValueError):
                log.warning("i18n key %s: bad parameters %s", key, params)
        return text
