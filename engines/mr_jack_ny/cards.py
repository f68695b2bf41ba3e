"""Content types of Mr. Jack in New York: the 8 character cards and the table guide.

Loaded from content/games/mr_jack_ny/characters.yaml and table.yaml; the engine falls back to
`DEFAULT_CHARACTERS` (ids, names and ability kinds only) when no pack is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Ability = Literal["swap", "build", "subway", "lamp", "garden", "cordon", "move_other", "ferry"]
ABILITIES: tuple[str, ...] = ("swap", "build", "subway", "lamp", "garden", "cordon", "move_other", "ferry")
Timing = Literal["before_or_after", "instead_of_move"]

# Tile kinds the kiosk counts (JACK-02): total in the box, on the board at set-up (JACK-05).
TILE_KINDS: tuple[str, ...] = ("lamp", "subway", "building")
TILE_TOTAL: tuple[int, ...] = (6, 7, 7)
TILE_AT_SETUP: tuple[int, ...] = (2, 3, 0)
# Which ability places which tile kind.
PLACES: dict[str, str] = {"lamp": "lamp", "subway": "subway", "build": "building"}


@dataclass(frozen=True)
class Text:
    ko: str
    en: str = ""


@dataclass(frozen=True)
class CharacterCard:
    """One blue character card: who, how far (left icon) and what special ability (right icon)."""

    id: str
    name: Text
    ability: Ability
    summary: Text
    move_min: int = 1
    move_max: int = 3
    timing: Timing = "before_or_after"
    mandatory: bool = True

    def __post_init__(self) -> None:
        if not self.id.isidentifier():
            raise ValueError(f"character id must be a simple name, not {self.id!r}")
        if not 0 <= self.move_min <= self.move_max:
            raise ValueError(f"movement range {self.move_min}-{self.move_max} is not a range")


@dataclass(frozen=True)
class CharacterSet:
    """characters.yaml: exactly 8 cards, unique ids, each ability kind once."""

    characters: tuple[CharacterCard, ...]

    def __post_init__(self) -> None:
        ids = [c.id for c in self.characters]
        if len(ids) != 8:
            raise ValueError(f"there must be 8 character cards, not {len(ids)}")
        if len(set(ids)) != 8:
            raise ValueError("character ids must be unique")
        kinds = sorted(c.ability for c in self.characters)
        if kinds != sorted(ABILITIES):
            raise ValueError(f"each ability kind must appear once: {', '.join(ABILITIES)}")

    def get(self, cid: str) -> CharacterCard | None:
        for card in self.characters:
            if card.id == cid:
                return card
        return None


@dataclass(frozen=True)
class TableRule:
    """A rule the table carries out on the physical board; the kiosk shows it as a reminder."""

    id: str  # the CHECKLIST id, e.g. "JACK-20"
    text: Text


@dataclass(frozen=True)
class TableGuide:
    """table.yaml: the witness rule shown next to the buttons, and the board reminders."""

    witness_rule: Text
    escape_rule: Text
    arrest_rule: Text
    reminders: tuple[TableRule, ...] = ()


def _card(cid: str, ko: str, en: str, ability: Ability, timing: Timing = "before_or_after",
          mandatory: bool = True) -> CharacterCard:
    return CharacterCard(cid, Text(ko, en), ability, Text(ko, en), timing=timing, mandatory=mandatory)


DEFAULT_CHARACTERS = CharacterSet((
    _card("swapper", "위치 교환 캐릭터", "The Swapper", "swap", mandatory=False),
    _card("cloud_rider", "클라우드 라이더", "Cloud Rider", "build"),
    _card("beach", "앨프리드 일리 비치", "Alfred Ely Beach", "subway"),
    _card("latimer", "루이스 하워드 래티머", "Lewis Howard Latimer", "lamp"),
    _card("grant", "에마 그랜트 부인", "Mrs. Emma Grant", "garden"),
    _card("callahan", "제임스 H. 캘러핸 경감", "Cpt. James H. Callahan", "cordon"),
    _card("eastman", "멍크 이스트먼", "Monk Eastman", "move_other", timing="instead_of_move", mandatory=False),
    _card("smith", "에드워드 스미스", "Edward Smith", "ferry"),
))
