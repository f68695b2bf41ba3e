"""Sentence templates (Rhasspy style) → phrases.

Template syntax, one template per line:
- words separated by spaces: `남은 시간`
- `[a b]` optional part: `다시 [말해줘]`
- `(a | b c)` alternatives (each may hold optionals, groups, slots): `(뒤로 | 이전 화면)`
- `$type` or `$type:field` a slot, filled at expansion time from the current view: `$player` says a
  player's name and gives the value under "player"; `$player:accused` gives it under "accused". One phrase
  never uses the same value twice for one type ("민호 민호 고발" is not generated).

`expand(template, slots)` gives every (text, slot values) the template accepts. Text is normalised: single
spaces, no leading/trailing space. Parsing errors name the template and the position.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

# One expansion: the words spoken, and for each slot (field, value).
Expansion = tuple[tuple[str, ...], tuple[tuple[str, object], ...]]
_Raw = tuple[tuple[str, ...], tuple[tuple[str, str, object], ...]]


class TemplateError(ValueError):
    """A template cannot be parsed; the message names it and where."""


@dataclass(frozen=True)
class Word:
    text: str


@dataclass(frozen=True)
class Slot:
    name: str  # the slot type: which value list fills it
    field: str  # where the value goes in the intent


@dataclass(frozen=True)
class Seq:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Alt:
    options: tuple[Seq, ...]


Node = Word | Slot | Seq | Alt


@dataclass(frozen=True)
class SlotValue:
    """One way to say a slot value: `text` is spoken, `value` goes into the intent (e.g. a seat number)."""

    text: str
    value: object


def _tokens(template: str) -> list[str]:
    out: list[str] = []
    word = ""
    for ch in template:
        if ch in "[]()|":
            if word:
                out.append(word)
                word = ""
            out.append(ch)
        elif ch.isspace():
            if word:
                out.append(word)
                word = ""
        else:
            word += ch
    if word:
        out.append(word)
    return out


def parse(template: str) -> Seq:
    """Parse a template into a tree; raises TemplateError with the template text on a syntax error."""
    tokens = _tokens(template)
    pos = 0

    def fail(msg: str) -> TemplateError:
        return TemplateError(f"템플릿 오류 / template error in {template!r} at token {pos}: {msg}")

    def parse_alt(closer: str | None) -> Alt:
        nonlocal pos
        options = [parse_seq(closer)]
        while pos < len(tokens) and tokens[pos] == "|":
            pos += 1
            options.append(parse_seq(closer))
        return Alt(tuple(options))

    def parse_seq(closer: str | None) -> Seq:
        nonlocal pos
        items: list[Node] = []
        while pos < len(tokens):
            tok = tokens[pos]
            if tok == "|" or tok == closer:
                break
            if tok in ")]":
                raise fail(f"unexpected {tok!r}")
            pos += 1
            if tok in "([":
                close = ")" if tok == "(" else "]"
                alt = parse_alt(close)
                if pos >= len(tokens) or tokens[pos] != close:
                    raise fail(f"missing {close!r}")
                pos += 1
                if tok == "[":
                    alt = Alt((*alt.options, Seq(())))
                items.append(alt)
            elif tok.startswith("$"):
                name, _, fld = tok[1:].partition(":")
                fld = fld or name
                if not all(x.replace("_", "a").isascii() and x.replace("_", "a").isalnum() for x in (name, fld)):
                    raise fail(f"bad slot {tok!r}")
                items.append(Slot(name, fld))
            else:
                items.append(Word(tok))
        return Seq(tuple(items))

    alt = parse_alt(None)
    if pos != len(tokens):
        raise fail(f"unexpected {tokens[pos]!r}")
    if len(alt.options) == 1:
        return alt.options[0]
    return Seq((alt,))


def slot_names(node: Node) -> frozenset[str]:
    if isinstance(node, Slot):
        return frozenset({node.name})
    if isinstance(node, Seq):
        return frozenset().union(*(slot_names(i) for i in node.items)) if node.items else frozenset()
    if isinstance(node, Alt):
        return frozenset().union(*(slot_names(o) for o in node.options))
    return frozenset()


def _expand(node: Node, slots: Mapping[str, tuple[SlotValue, ...]]) -> Iterator[_Raw]:
    if isinstance(node, Word):
        yield (node.text,), ()
    elif isinstance(node, Slot):
        for sv in slots.get(node.name, ()):
            yield tuple(sv.text.split()), ((node.name, node.field, sv.value),)
    elif isinstance(node, Alt):
        for option in node.options:
            yield from _expand(option, slots)
    else:
        parts = [list(_expand(item, slots)) for item in node.items]
        for combo in itertools.product(*parts):
            words: tuple[str, ...] = ()
            values: tuple[tuple[str, str, object], ...] = ()
            for w, v in combo:
                words += w
                values += v
            typed = [(t, val) for t, _, val in values]
            if len(typed) != len({(t, repr(val)) for t, val in typed}):
                continue  # the same player (etc.) twice in one phrase
            yield words, values


def expand(template: str, slots: Mapping[str, tuple[SlotValue, ...]] | None = None) -> list[Expansion]:
    """Every distinct (words, slot values) the template accepts. A slot with no values yields nothing."""
    seen: set[Expansion] = set()
    out: list[Expansion] = []
    for words, raw in _expand(parse(template), slots or {}):
        exp = (words, tuple((fld, val) for _, fld, val in raw))
        if words and exp not in seen:
            seen.add(exp)
            out.append(exp)
    return out


def normalise(text: str) -> str:
    return " ".join(text.split())
