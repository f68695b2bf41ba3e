"""The teaching content model: frozen dataclasses read from YAML with content.loader.load_typed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from content.loader import Text

SECTIONS = ("goal", "components", "setup", "round", "special", "end", "try", "quiz")
KINDS = ("info", "setup", "try", "quiz")
SHAPES = ("card", "token", "circle", "rect", "text", "arrow", "grid", "pile", "person", "die", "clock", "envelope")
COLORS = ("accent", "text", "muted", "panel", "red", "yellow", "purple", "green", "white", "blue", "grey",
          "black", "brown", "ok", "danger")


@dataclass(frozen=True)
class Shape:
    """One element of a step's illustration, in a 0..1 box (x, y = centre; y grows upwards)."""

    kind: str
    x: float = 0.5
    y: float = 0.5
    w: float = 0.16
    h: float = 0.22
    color: str = "accent"
    label: Text | None = None
    n: int = 1  # piles: how many; grids: cells per side
    to: tuple[float, float] | None = None  # arrows: the end point
    state: str = ""  # try-it pictures: shown while this state path is non-empty ("!path": while empty)

    def __post_init__(self) -> None:
        if self.kind not in SHAPES:
            raise ValueError(f"unknown shape {self.kind!r}; use one of {', '.join(SHAPES)}")
        if self.color not in COLORS:
            raise ValueError(f"unknown colour {self.color!r}; use one of {', '.join(COLORS)}")
        if not (0 <= self.x <= 1 and 0 <= self.y <= 1):
            raise ValueError("x and y must be between 0 and 1")
        if not 1 <= self.n <= 40:
            raise ValueError("n must be between 1 and 40")


@dataclass(frozen=True)
class Choice:
    """A button in a try-it move: the actions it submits to the real engine and what to say afterwards."""

    label: Text
    actions: tuple[Mapping[str, Any], ...]
    explain: Text
    expect: Mapping[str, Any] = field(default_factory=dict)  # events: [...], state: {path: value}, error: code
    correct: bool = True  # a wrong choice is refused by the engine (or not the rulebook's move): stay


@dataclass(frozen=True)
class Move:
    prompt: Text
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class TryIt:
    """A practice position on the real engine: set-up, optional state patch and prelude, then moves."""

    engine: str
    config: Mapping[str, Any]
    moves: tuple[Move, ...]
    seed: int = 7
    pack_files: Mapping[str, str] = field(default_factory=dict)  # pack key → file in the game folder
    patch: Mapping[str, Any] = field(default_factory=dict)  # dotted path in the state dict → value
    prelude: tuple[Mapping[str, Any], ...] = ()
    status: Text | None = None  # a live line from the engine state: "수지 {players.0.carriages}개" …


@dataclass(frozen=True)
class Question:
    q: Text
    options: tuple[Text, ...]
    answer: int
    why: Text
    rule: str = ""  # the rule piece that explains it

    def __post_init__(self) -> None:
        if not 2 <= len(self.options) <= 4:
            raise ValueError("a question needs 2 to 4 options")
        if not 0 <= self.answer < len(self.options):
            raise ValueError(f"answer {self.answer} is not one of the options (0..{len(self.options) - 1})")


@dataclass(frozen=True)
class When:
    """When a set-up item or a step applies: player range, modules on or off."""

    players: tuple[int, int] = (1, 99)
    module: str = ""
    without: str = ""

    def matches(self, players: int | None, modules: Iterable[str] = ()) -> bool:
        """`players=None`: every table (the content check and the render-every-step test)."""
        if players is None:
            return True
        mods = set(modules)
        if not self.players[0] <= players <= self.players[1]:
            return False
        if self.module and self.module not in mods:
            return False
        return not (self.without and self.without in mods)


@dataclass(frozen=True)
class Step:
    id: str
    section: str
    title: Text
    say: Text
    picture: tuple[Shape, ...] = ()
    kind: str = "info"
    try_it: TryIt | None = None
    rules: tuple[str, ...] = ()  # related rule pieces
    when: When = When()  # the tutorial branches: a step only for some tables (player count, modules)

    def __post_init__(self) -> None:
        if self.section not in SECTIONS:
            raise ValueError(f"unknown section {self.section!r}; use one of {', '.join(SECTIONS)}")
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}; use one of {', '.join(KINDS)}")
        if (self.kind == "try") != (self.try_it is not None):
            raise ValueError("a step has `try_it` exactly when its kind is 'try'")


@dataclass(frozen=True)
class SetupItem:
    id: str
    text: Text  # may use {players}, {share_lo}, {share_hi}, {share_more}, {share_less} and per-count params
    when: When = When()
    picture: str = ""  # a component key, for the checklist icon (optional)


@dataclass(frozen=True)
class Module:
    id: str
    name: Text
    players: tuple[int, int] = (1, 99)


@dataclass(frozen=True)
class Teaching:
    """content/games/<game>/teach.yaml"""

    players: tuple[int, int]
    steps: tuple[Step, ...]
    setup: tuple[SetupItem, ...] = ()
    quiz: tuple[Question, ...] = ()
    modules: tuple[Module, ...] = ()
    share_total: int = 0  # cards dealt out evenly as far as they go (Clue: 18)
    per_players: Mapping[int, Mapping[str, str]] = field(default_factory=dict)  # n → extra text params
    minutes: int = 0  # our estimate, before any table was measured


@dataclass(frozen=True)
class RulePiece:
    id: str
    title: Text
    text: Text
    keywords: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    covers: tuple[str, ...] = ()  # CHECKLIST ids the piece restates


@dataclass(frozen=True)
class RuleBook:
    """content/games/<game>/teach/rules.yaml"""

    rules: tuple[RulePiece, ...]
