"""Readable buttons for a seat's legal actions, built from that seat's own view only.

Each legal action becomes an entry the page can show without ever seeing the action's raw values:
`{"id": i, "group": "vote", "glabel": {ko, en}, "parts": [{"field", "flabel", "k", "label"}], "free": [...]}`.
`k` is a small number per distinct value of a field (the page picks field by field when a group has many
actions, e.g. Clue's accusation), `label` is the value in words (a player's name for a seat number, the
localized name of an id found in the view, 예/아니요 for a flag).

A string value the seat's own view does not contain is free text (an answer at 221B): the engine only
offers representative values for those, and a representative may be the right answer, so it is never
sent; the page asks for the text instead (`free`: the field and how many strings) and the server puts the
typed text into the action.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engines.core import Action
from engines.serial import to_jsonable

Text = dict[str, str]
SKIP_FIELDS = frozenset({"seat", "at"})
# Fields that are always typed by the guest (the engine's legal values are only representative samples).
FREE_TEXT = frozenset({("watson_holmes", "submit_answers", "answers"), ("watson_holmes", "check_answer", "answer")})
SEAT_FIELDS = frozenset({"target", "accused", "player", "failed", "to", "whom", "voter", "dealer", "next_seat"})


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
            from kiosk.i18n import load_catalog

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
        """What the page draws by itself: `page.*` as is, `key.*` (names of view keys), yes/no."""
        out = {k[len("phones.page."):]: self.text(k) for k in self.ko if k.startswith("phones.page.")}
        out.update({k[len("phones."):]: self.text(k) for k in self.ko
                    if k.startswith(("phones.key.", "phones.word."))})
        for word in ("yes", "no", "none"):
            out[f"value.{word}"] = self.text(f"phones.value.{word}", default=word)
        return out


def _fmt(text: str, params: Mapping[str, Any]) -> str:
    if not params:
        return text
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


class ViewIndex:
    """What one seat's view says about names: players by seat, and {ko, en} names by id."""

    def __init__(self, view: Mapping[str, Any], names: Mapping[str, Text] | None = None) -> None:
        self.names: dict[str, Text] = {}
        self.strings: set[str] = set()
        self.players: list[str] = []
        players = view.get("players")
        if isinstance(players, list):
            for p in players:
                if isinstance(p, str):
                    self.players.append(p)
                elif isinstance(p, Mapping):
                    self.players.append(str(p.get("name", p.get("id", ""))))
        self._walk(view)
        for key, value in (names or {}).items():
            self.names.setdefault(key, value)

    def _walk(self, node: Any) -> None:
        if isinstance(node, Mapping):
            ident = node.get("id", node.get("number"))
            name = _localized(node) or _localized(node.get("name"))
            if isinstance(ident, (str, int)) and not isinstance(ident, bool) and name is not None:
                self.names.setdefault(str(ident), name)
            for key, value in node.items():
                self.strings.add(str(key))
                self._walk(value)
        elif isinstance(node, list):
            for value in node:
                self._walk(value)
        elif isinstance(node, str):
            self.strings.add(node)

    def known(self, value: str) -> bool:
        """A string the view holds, or an id the game's content names: a choice, not free text."""
        return value in self.strings or value in self.names


def content_names(pack: Mapping[str, Any]) -> dict[str, Text]:
    """{id: {ko, en}} for every named thing in a game's content (characters, cards, places)."""
    index = ViewIndex({})
    for value in pack.values():
        try:
            index._walk(to_jsonable(value))
        except (TypeError, ValueError):
            continue
    return index.names


def _localized(node: Any) -> Text | None:
    if isinstance(node, Mapping) and isinstance(node.get("ko"), str):
        ko = node["ko"]
        en = node.get("en")
        return {"ko": ko, "en": en if isinstance(en, str) else ko}
    return None


def _is_free(value: Any, index: ViewIndex, forced: bool) -> bool:
    if forced:
        return True
    if isinstance(value, str):
        return not index.known(value)
    if isinstance(value, (list, tuple)):
        return any(isinstance(v, str) and not index.known(v) for v in value)
    return False


class Labeller:
    def __init__(self, catalogs: Catalogs, game: str) -> None:
        self.cat = catalogs
        self.game = game

    def group_label(self, name: str) -> Text:
        return self.cat.text(f"phones.action.{self.game}.{name}", f"phones.action.{name}", default=_humanize(name))

    def field_label(self, name: str, field: str) -> Text:
        return self.cat.text(f"phones.field.{self.game}.{name}.{field}", f"phones.field.{field}",
                             default=_humanize(field))

    def value_label(self, name: str, field: str, value: Any, index: ViewIndex) -> Text:
        if isinstance(value, bool):
            word = "yes" if value else "no"
            return self.cat.text(f"phones.value.{self.game}.{name}.{field}.{word}", f"phones.value.{word}",
                                 default=word)
        if isinstance(value, int) and field in SEAT_FIELDS and 0 <= value < len(index.players):
            return {"ko": index.players[value], "en": index.players[value]}
        if isinstance(value, (int, float)):
            return {"ko": str(value), "en": str(value)}
        if isinstance(value, str):
            if not value:
                return self.cat.text("phones.value.none", default="-")
            found = index.names.get(value)
            if found is not None:
                return found
            return self.cat.text(f"phones.value.{self.game}.{name}.{field}.{value}", default=value)
        if isinstance(value, (list, tuple, frozenset)):
            items = sorted(value, key=str) if isinstance(value, frozenset) else value
            parts = [self.value_label(name, field, v, index) for v in items]
            if not parts:
                return self.cat.text("phones.value.none", default="-")
            return {"ko": ", ".join(p["ko"] for p in parts), "en": ", ".join(p["en"] for p in parts)}
        return {"ko": str(value), "en": str(value)}

    def entries(self, actions: Sequence[Action], view: Mapping[str, Any],
                names: Mapping[str, Text] | None = None) -> list[dict[str, Any]]:
        """The page's buttons for these actions (in order; entry i stands for actions[i] unless it was
        folded into a free-text form of the same group, which then stands for the first of them)."""
        index = ViewIndex(view, names)
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
            for field in _fields(type(action)):
                value = getattr(action, field)
                if _is_free(value, index, (self.game, name, field) in FREE_TEXT):
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
                    label = labels[(name, field, raw)] = self.value_label(name, field, value, index)
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
            out.append({"id": i, "group": name, "glabel": glabel, "parts": parts, "free": free})
        return out


_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(cls: type) -> tuple[str, ...]:
    """An action class's fields a guest chooses (not who acts, not the moment)."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.name not in SKIP_FIELDS)
    return found


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
