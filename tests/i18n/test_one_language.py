"""A guest sees each message in one language: Korean messages hold no English, English ones no Korean, and
neither shows internal ids (action codes, phases, 0-based seats) or units (bits)."""

from __future__ import annotations

import ast
import re

import pytest

from content.i18n_catalog import load_catalog
from content.loader import load_library
from engines import find_engine
from engines.core import RuleError
from tests.i18n.strings import HANGUL, ROOT

PLACEHOLDER = re.compile(r"\{[^{}]*\}")
# Latin that Korean text may carry: card marks, the Baker Street number, acronyms, the English button
ALLOWED_LATIN = re.compile(r"(?<![A-Za-z])(O|X|B|DC|PIN|QR|CSV|TTS|OK|English|221B)(?![A-Za-z])")
LATIN_WORD = re.compile(r"[A-Za-z]*[a-z][A-Za-z]*")  # a word with lower case (all-caps: an acronym)
LANGUAGE_NAMES = ("한국어", "한글")  # a language switch names Korean in Korean in English too


def _ko_en_pairs() -> list[tuple[str, str, str]]:
    """Every (Korean, English) pair of string literals in the engines (their message catalogs)."""
    out = []
    for path in sorted((ROOT / "engines").rglob("*.py")):
        if path.name == "korean.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Tuple) and len(node.elts) == 2 and all(
                    isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
                ko, en = (e.value for e in node.elts)  # type: ignore[attr-defined]
                if HANGUL.search(ko) and re.search("[A-Za-z]", en):  # a (Korean, English) message
                    out.append((f"{path.relative_to(ROOT)}:{node.lineno}", ko, en))
    return out


# what staff messages may quote as is: commands, file names and paths
QUOTED = re.compile(r"`[^`]*`|tablehost( [a-z]+)*|\S*[/.]\S*|-[a-z]+")


def english_in_korean(text: str) -> list[str]:
    return LATIN_WORD.findall(ALLOWED_LATIN.sub("", QUOTED.sub("", PLACEHOLDER.sub("", text))))


def test_engine_messages_keep_each_language_to_itself() -> None:
    pairs = _ko_en_pairs()
    assert len(pairs) > 150
    assert [(w, ko) for w, ko, _ in pairs if english_in_korean(ko)] == []
    assert [(w, en) for w, _, en in pairs if HANGUL.search(en)] == []


def test_catalogs_keep_each_language_to_itself() -> None:
    ko, en = load_catalog("ko"), load_catalog("en")
    assert [(k, v) for k, v in ko.items() if english_in_korean(v)] == []
    assert [(k, v) for k, v in en.items() if HANGUL.search(v) and v not in LANGUAGE_NAMES] == []


@pytest.mark.parametrize("game, config", [
    ("spyfall", {"players": ["지수", "민호"]}),
    ("spyfall", {"players": ["지수", "민호", "서연"], "modules": ["harley"]}),
    ("spyfall", {"players": ["지수", "민호", "서연"], "rounds": 99}),
    ("clue", {"players": ["지수", "민호"]}),
    ("clue", {"players": ["지수", "민호", "서연"], "mode": "vr"}),
])
def test_config_errors_come_out_in_one_language(game: str, config: dict[str, object]) -> None:
    """Was "설정이 잘못됐어요: 3~8명 / 3-8 players" (both languages in one toast)."""
    g = load_library().games[game]
    with pytest.raises(RuleError) as err:
        find_engine(g.engine_name).setup(config, g.pack, 1)
    ko, en = err.value.message("ko"), err.value.message("en")
    assert HANGUL.search(ko) and not english_in_korean(ko), ko
    assert not HANGUL.search(en) and en, en
    assert str(err.value) == ko


def test_internal_ids_stay_out_of_rule_messages() -> None:
    g = load_library().games["clue"]
    engine = find_engine("clue")
    state = engine.setup({"players": ["지수", "민호", "서연"]}, g.pack, 1)
    bad = engine.action_from_dict({"name": "suggest", "seat": state.turn, "suspect": "rope", "weapon": "rope"})
    with pytest.raises(RuleError) as err:
        engine.apply(state, bad)
    for lang in ("ko", "en"):
        text = err.value.message(lang)
        assert "rope" not in text and "_" not in text and "phase" not in text, text
