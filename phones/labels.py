"""Readable buttons for a seat's legal actions, built from the engine's declarations and that seat's view.

Each legal action becomes an entry the page can show without ever seeing the action's raw values:
`{"id": i, "group": "vote", "glabel": {ko, en}, "final": bool, "parts": [{"field", "flabel", "k", "label"}],
"free": [...]}`. `k` is a small number per distinct value of a field (the page picks field by field when a
group has many actions, e.g. Clue's accusation), `label` is the value in words, chosen by the field's
FieldSpec (engines/core.py): a seat → the player's name, a ref → the name in the view's catalog, a flag →
예/아니요, a choice → its catalog word. `final` (the action's FINAL mark): the page asks before sending.

A text field is typed by the guest: the engine offers only placeholders for it, so its value is never
sent; the page asks for the text instead (`free`: the field and how many strings) and the server puts the
typed text into the action.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engines.core import Action, FieldSpec, field_specs
from engines.korean import fmt
from engines.serial import to_jsonable

Text = dict[str, str]
SKIP_KINDS = frozenset({"moment", "drawn"})


def _humanize(name: str) -> str:
    return name.replace("_", " ").strip().capitalize()


_LOADED: dict[type, Catalogs] = {}


class Catalogs:
    """The phones' strings in both languages (content/i18n/<lang>/phones.yaml under `phones.`)."""

    def __init__(self, ko: Mapping[str, str], en: Mapping[str, str]) -> None:
        self.ko, self.en = dict(ko), dict(en)

    @classmethod
    def load(cls) -> Catalogs:
        """The shipped catalogs, read once per process (they change only with a new release)."""
        if cls not in _LOADED:
            from content.i18n_catalog import load_catalog

            _LOADED[cls] = cls(load_catalog("ko"), load_catalog("en"))
        return _LOADED[cls]

    def text(self, *keys: str, default: str = "", **params: Any) -> Text:
        """The first key present (Korean catalog decides), in both languages; `default` if none."""
        for key in keys:
            if key in self.ko:
                ko = self.ko[key]
                en = self.en.get(key, ko)
                return {"ko": _fmt(ko, params), "en": _fmt(en, params)}
        return {"ko": default, "en": default}

    def page_strings(self) -> dict[str, Text]:
        """What the page draws by itself: `page.*` as is, yes/no."""
        out = {k[len("phones.page."):]: self.text(k) for k in self.ko if k.startswith("phones.page.")}
        for word in ("yes", "no", "none"):
            out[f"value.{word}"] = self.text(f"phones.value.{word}", default=word)
        return out


def _fmt(text: str, params: Mapping[str, Any]) -> str:
    if not params:
        return text
    try:
        return fmt(text, **params)
    except (KeyError, IndexError, ValueError):
        return text


class ViewIndex:
    """What one seat's view names (its typed shared part, `common`): players by seat and each catalog's
    {ko, en} names by id. Nothing is guessed from the game's own keys or its content files."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        common = view.get("common") or {}
        self.players = [str(p.get("name", "")) for p in common.get("players", ())]
        self.catalogs: dict[str, dict[str, Text]] = {
            key: {str(n["id"]): {"ko": n["ko"], "en": n.get("en") or n["ko"]} for n in entries}
            for key, entries in (common.get("catalogs") or {}).items()}

    def names(self) -> dict[str, Text]:
        """Every catalog id → its names (what the page shows for an id in the view)."""
        return {ident: text for entries in self.catalogs.values() for ident, text in entries.items()}


class Labeller:
    def __init__(self, catalogs: Catalogs, game: str) -> None:
        self.cat = catalogs
        self.game = game

    def group_label(self, name: str) -> Text:
        return self.cat.text(f"phones.action.{self.game}.{name}", f"phones.action.{name}", default=_humanize(name))

    def field_label(self, name: str, field: str) -> Text:
        return self.cat.text(f"phones.field.{self.game}.{name}.{field}", f"phones.field.{field}",
                             default=_humanize(field))

    def value_label(self, name: str, field: str, value: Any, spec: FieldSpec, index: ViewIndex) -> Text:
        if isinstance(value, (list, tuple, frozenset)):
            items = sorted(value, key=str) if isinstance(value, frozenset) else value
            parts = [self.value_label(name, field, v, spec, index) for v in items]
            if not parts:
                return self.cat.text("phones.value.none", default="-")
            return {"ko": ", ".join(p["ko"] for p in parts), "en": ", ".join(p["en"] for p in parts)}
        if spec.kind == "flag":
            word = "yes" if value else "no"
            return self.cat.text(f"phones.value.{self.game}.{name}.{field}.{word}", f"phones.value.{word}",
                                 default=word)
        if spec.kind == "seat":
            if 0 <= value < len(index.players):
                return {"ko": index.players[value], "en": index.players[value]}
            return self.cat.text("phones.value.none", default="-")
        if spec.kind == "ref":
            if not value:
                return self.cat.text("phones.value.none", default="-")
            found = index.catalogs.get(spec.of, {}).get(str(value))
            return found or {"ko": str(value), "en": str(value)}
        if spec.kind == "choice":
            return self.cat.text(f"phones.value.{self.game}.{name}.{field}.{value}", default=str(value))
        return {"ko": str(value), "en": str(value)}

    def said(self, words: Mapping[str, Any]) -> Text:
        """A part's `Words` (engines.core) in both languages: its `key` from the catalogs when they name
        it, else as given (or the key in words)."""
        key = str(words.get("key") or "")
        ko = str(words.get("ko") or "") or _humanize(key)
        given = {"ko": ko, "en": str(words.get("en") or "") or ko}
        return self.cat.text(f"phones.part.{self.game}.{key}", f"phones.part.{key}", default="") \
            if key and (f"phones.part.{key}" in self.cat.ko or f"phones.part.{self.game}.{key}" in self.cat.ko) \
            else given

    def parts(self, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The seat's private part (`common.mine`: Card, Items, Reveal) with every `Words` in both
        languages: what the page draws first, knowing no game."""
        def resolve(node: Any) -> Any:
            if isinstance(node, Mapping):
                if set(node) == {"ko", "en", "key"}:
                    return self.said(node)
                return {k: resolve(v) for k, v in node.items()}
            if isinstance(node, list):
                return [resolve(v) for v in node]
            return node
        return [resolve(p) for p in (view.get("common") or {}).get("mine") or ()]

    @staticmethod
    def words(entry: Mapping[str, Any], lang: str) -> str:
        """An entry in words: its action's label and its values ("지목하기 · 민호")."""
        texts = [entry["glabel"], *(p["label"] for p in entry["parts"])]
        return " · ".join(t.get(lang) or t["ko"] for t in texts)

    def entries(self, actions: Sequence[Action], view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The page's buttons for these actions (in order; entry i stands for actions[i] unless it was
        folded into a free-text form of the same group, which then stands for the first of them)."""
        index = ViewIndex(view)
        keys: dict[tuple[str, str], dict[Any, int]] = {}
        forms: set[str] = set()
        labels: dict[tuple[str, str, Any], Text] = {}
        flabels: dict[tuple[str, str], Text] = {}
        glabels: dict[str, Text] = {}
        out: list[dict[str, Any]] = []
        for i, action in enumerate(actions):
            name = action.NAME
            parts: list[dict[str, Any]] = []
            free: list[dict[str, Any]] = []
            for field, spec in field_specs(type(action)).items():
                if spec.kind in SKIP_KINDS:
                    continue
                value = getattr(action, field)
                if spec.kind == "text":
                    count = len(value) if isinstance(value, (list, tuple)) else None
                    free.append({"field": field, "flabel": self.field_label(name, field), "count": count})
                    continue
                known = keys.setdefault((name, field), {})
                try:
                    raw: Any = (type(value).__name__, value)
                    hash(raw)
                except TypeError:  # a list or a mapping
                    raw = json.dumps(to_jsonable(value), sort_keys=True)
                k = known.setdefault(raw, len(known))
                label = labels.get((name, field, raw))
                if label is None:
                    label = labels[(name, field, raw)] = self.value_label(name, field, value, spec, index)
                flabel = flabels.get((name, field))
                if flabel is None:
                    flabel = flabels[(name, field)] = self.field_label(name, field)
                parts.append({"field": field, "flabel": flabel, "k": k, "label": label})
            if free:
                form_key = name + json.dumps([p["k"] for p in parts])
                if form_key in forms:
                    continue
                forms.add(form_key)
            glabel = glabels.get(name)
            if glabel is None:
                glabel = glabels[name] = self.group_label(name)
            out.append({"id": i, "group": name, "glabel": glabel, "final": type(action).FINAL, "parts": parts,
                        "free": free})
        return out


def fill_free(action: Action, typed: Mapping[str, Any], entry: Mapping[str, Any],
              to_action: Callable[[Mapping[str, Any]], Action]) -> Action:
    """The action of a free-text entry with the guest's text in its free fields (checked: strings, the
    expected count, at most 200 characters each)."""
    data = action.to_dict()
    for spec in entry.get("free", ()):
        field = spec["field"]
        value = typed.get(field)
        if spec["count"] is None:
            if not isinstance(value, str):
                raise ValueError(field)
            data[field] = value.strip()[:200]
        else:
            if not isinstance(value, list) or len(value) != spec["count"] or not all(
                    isinstance(v, str) for v in value):
                raise ValueError(field)
            data[field] = [v.strip()[:200] for v in value]
    return to_action(data)
