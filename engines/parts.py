"""Display parts: what a seat's private screen (a phone, the tablet's hand-over) draws, in order, without
knowing the game. An engine's `observe` puts them in `View.mine`; texts are content names, player names or
keys the frontends name from their catalogs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Words:
    """Words a seat's private screen shows: `ko`/`en` as given (a name from content, a player's name),
    or a `key` the frontends name from their catalogs (the phones: `phones.part.<game>.<key>`, then
    `phones.part.<key>`; `ko`/`en` are the fallback, else the key itself)."""

    ko: str = ""
    en: str = ""
    key: str = ""


def said(ko: str, en: str = "") -> Words:
    """Words as given (English defaults to the Korean: a player's name is the same in both)."""
    return Words(ko, en or ko)


def phrase(key: str) -> Words:
    """A phrase every frontend names from its own catalogs ("your card", "yes")."""
    return Words(key=key)


Tone = Literal["", "secret"]


@dataclass(frozen=True)
class Card:
    """A part: a big card. `label` says what it is ("your card"), `title` is large, `lines` small under it;
    tone "secret": drawn as a role card (the Joker, Jack)."""

    label: Words
    title: Words
    lines: tuple[Words, ...] = ()
    tone: Tone = ""
    kind: Literal["card"] = "card"


@dataclass(frozen=True)
class Items:
    """A part: a labelled list of short `items` (drawn as chips) and/or `cards` (a title and lines each)."""

    label: Words
    items: tuple[Words, ...] = ()
    cards: tuple[Card, ...] = ()
    kind: Literal["list"] = "list"


@dataclass(frozen=True)
class Reveal:
    """A part: a secret the screen covers until the guest holds it down (hold to see), so that a glance
    from a neighbour catches nothing (Jack's identity)."""

    label: Words
    title: Words
    lines: tuple[Words, ...] = ()
    kind: Literal["reveal"] = "reveal"


# What a seat's private screen (phone, hand-over) draws, in order, without knowing the game.
Part = Card | Items | Reveal
