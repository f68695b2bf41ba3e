"""Card sets as content: suspects (with colours), weapons and rooms, with Korean and English names.

The shipped sets live in content/games/clue/sets/*.yaml and load as `CardSet`. `CLASSIC` is the same
classic set built in code, used only when a pack carries no sets (a test asserts the two are equal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SUSPECT, WEAPON, ROOM = 0, 1, 2
CATEGORIES = ("suspect", "weapon", "room")


@dataclass(frozen=True)
class Card:
    id: str
    ko: str
    en: str
    color: str = ""  # suspects only: the token colour (ko)
    color_en: str = ""
    short: str = ""  # suspects: the name on their token on the kiosk's board ("" → the full name)
    short_en: str = ""

    def name(self, lang: str = "ko") -> str:
        return self.en if lang == "en" else self.ko

    def short_name(self, lang: str = "ko") -> str:
        return (self.short_en if lang == "en" else self.short) or self.name(lang)


@dataclass(frozen=True)
class CardSet:
    """One edition's cards and the board facts the engine needs (rooms only; squares stay at the table)."""

    id: str
    ko: str
    en: str
    suspects: tuple[Card, ...]
    weapons: tuple[Card, ...]
    rooms: tuple[Card, ...]
    first: str  # the suspect whose player starts (Miss Scarlet)
    start_order: tuple[str, ...]  # suspects' start spaces, clockwise around the board from `first`
    passages: tuple[tuple[str, str], ...] = ()  # secret passages between opposite corner rooms
    players: tuple[int, int] = (3, 6)

    def __post_init__(self) -> None:
        ids = [c.id for c in (*self.suspects, *self.weapons, *self.rooms)]
        if len(set(ids)) != len(ids):
            raise ValueError("card ids must be unique across the set")
        if not (self.suspects and self.weapons and self.rooms):
            raise ValueError("a set needs at least one suspect, weapon and room")
        if self.first not in {c.id for c in self.suspects}:
            raise ValueError(f"first must be a suspect id, not {self.first!r}")
        if sorted(self.start_order) != sorted(c.id for c in self.suspects):
            raise ValueError("start_order must list every suspect once")
        rooms = {c.id for c in self.rooms}
        for a, b in self.passages:
            if a not in rooms or b not in rooms:
                raise ValueError(f"passage {a}-{b} must join two rooms")
        lo, hi = self.players
        if not 2 <= lo <= hi <= len(self.suspects):
            raise ValueError("players must be a range within the number of suspects")

    @property
    def categories(self) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
        return (self.suspects, self.weapons, self.rooms)

    @property
    def cards(self) -> tuple[Card, ...]:
        return (*self.suspects, *self.weapons, *self.rooms)

    def card(self, card_id: str) -> Card:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def category_of(self, card_id: str) -> int:
        for i, cat in enumerate(self.categories):
            if any(c.id == card_id for c in cat):
                return i
        raise KeyError(card_id)

    def ids(self, category: int) -> tuple[str, ...]:
        return tuple(c.id for c in self.categories[category])

    def passage_from(self, room: str) -> str | None:
        for a, b in self.passages:
            if room == a:
                return b
            if room == b:
                return a
        return None


def _c(cid: str, ko: str, en: str, color: str = "", color_en: str = "", short: str = "", short_en: str = "") -> Card:
    return Card(cid, ko, en, color, color_en, short, short_en)


CLASSIC = CardSet(
    id="classic", ko="클래식", en="Classic",
    suspects=(
        _c("scarlet", "미스 스칼렛", "Miss Scarlet", "빨간색", "red", "스칼렛", "Scarlet"),
        _c("mustard", "머스타드 대령", "Colonel Mustard", "노란색", "yellow", "머스타드", "Mustard"),
        _c("white", "화이트 부인", "Mrs. White", "하얀색", "white", "화이트", "White"),
        _c("green", "그린 씨", "Mr. Green", "초록색", "green", "그린", "Green"),
        _c("peacock", "피콕 부인", "Mrs. Peacock", "파란색", "blue", "피콕", "Peacock"),
        _c("plum", "플럼 교수", "Professor Plum", "보라색", "purple", "플럼", "Plum"),
    ),
    weapons=(
        _c("rope", "끈", "Rope"), _c("lead_pipe", "파이프", "Lead Pipe"), _c("knife", "칼", "Knife"),
        _c("wrench", "렌치", "Wrench"), _c("candlestick", "촛대", "Candlestick"),
        _c("revolver", "연발 권총", "Revolver"),
    ),
    rooms=(
        _c("kitchen", "부엌", "Kitchen"), _c("ballroom", "볼룸", "Ballroom"),
        _c("conservatory", "온실", "Conservatory"), _c("dining_room", "식당", "Dining Room"),
        _c("billiard_room", "당구장", "Billiard Room"), _c("library", "도서관", "Library"),
        _c("lounge", "라운지", "Lounge"), _c("hall", "홀", "Hall"), _c("study", "서재", "Study"),
    ),
    first="scarlet",
    start_order=("scarlet", "mustard", "white", "green", "peacock", "plum"),
    passages=(("kitchen", "study"), ("conservatory", "lounge")),
    players=(3, 6),
)


def sets_in(pack: Mapping[str, Any]) -> dict[str, CardSet]:
    """The card sets of a loaded pack by id (`sets/<name>` keys); the built-in classic set if none."""
    found = {v.id: v for k, v in pack.items() if k.startswith("sets/") and isinstance(v, CardSet)}
    return found or {CLASSIC.id: CLASSIC}
