"""What engines hand frontends: a seat's `View` (the shared part typed, the game's own part a `GamePart`), the
`Event`s a step produced, the `Step` itself, a game's `Outcome` and the `Secret`s a non-interference check
looks for. Re-exported by engines.core, where the contract is described."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from engines.parts import Part
from engines.serial import to_jsonable

S = TypeVar("S")



@dataclass(frozen=True)
class Player:
    seat: int
    name: str


@dataclass(frozen=True)
class Prompt:
    """Who the game waits for now (`seat`: a player or TABLE) and for what (`what`: a stable code)."""

    seat: int
    what: str


@dataclass(frozen=True)
class Named:
    """An entry of a catalog (locations, characters, cards…): what `ref` fields and voice slots name."""

    id: str
    ko: str
    en: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Offer:
    """An action the shared screen may offer now: `action` (a name) for `seat` (TABLE or a player).

    `private`: a claim — the action is PRIVATE, so the screen offers only to open that seat's private
    channel for it, where the seat's own legal actions decide (the Joker's reveal: any player may try
    while the clock runs). Like every offer it is computed from public facts only."""

    seat: int
    action: str
    final: bool = False
    private: bool = False


class GamePart:
    """Base of a game's own part of a view, typed: a frozen dataclass whose fields are the game's public facts
    and the seat's private ones, each declared once and read by attribute on every frontend (tablet, phone,
    voice, bots). A field whose default is None is a fact only some views hold (Jack's identity): it is left
    out of the JSON while None, so a view without it has no such key. A field holding a GamePart (or a tuple of
    them) is a sub-part with the same rule, wherever it sits (Spyfall's round and the seat's own part). `to_dict` is the JSON for
    the wire."""

    def to_dict(self) -> dict[str, Any]:
        fields = _PART_FIELDS.get(type(self))
        if fields is None:  # once per class: the phones ask for every seat's view after every step
            assert dataclasses.is_dataclass(self)
            fields = _PART_FIELDS[type(self)] = tuple((f.name, f.default is None) for f in dataclasses.fields(self))
        out = {}
        for name, optional in fields:
            value = getattr(self, name)
            if value is not None or not optional:
                out[name] = to_jsonable(value)
        return out

    def to_wire(self) -> dict[str, Any]:
        """As a sub-part (engines.serial.to_jsonable honours `to_wire`): the same JSON, its None keys left out."""
        return self.to_dict()


_PART_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}  # a part's fields, each: does it default to None


G = TypeVar("G", bound=GamePart)


@dataclass(frozen=True)
class View:
    """What one seat may see (`seat` None: the shared table screen). The shared part is typed; the game's own
    part is `game` (a `GamePart`) or, for a game not yet typed, the mapping `detail`. `table` (the shared
    screen's offers) is public: the same in every view. `mine`: the seat's private part as display parts (its
    card, hand, notes…), what its private screen shows first; empty in the table view."""

    seat: int | None
    players: tuple[Player, ...]
    phase: str
    prompts: tuple[Prompt, ...] = ()
    scores: tuple[int, ...] = ()
    catalogs: Mapping[str, tuple[Named, ...]] = field(default_factory=dict)
    table: tuple[Offer, ...] = ()
    mine: tuple[Part, ...] = ()
    detail: Mapping[str, Any] = field(default_factory=dict)
    game: GamePart | None = None

    def name(self, seat: int) -> str:
        return self.players[seat].name if 0 <= seat < len(self.players) else ""

    def part(self, cls: type[G]) -> G:
        """The game's typed part, as the game's own class (a screen or bot knows its game's)."""
        if not isinstance(self.game, cls):
            raise TypeError(f"this view's game part is not a {cls.__name__}")
        return self.game

    def own(self) -> dict[str, Any]:
        """JSON of the game's own part."""
        if self.game is not None:
            return self.game.to_dict()
        data = to_jsonable(self.detail)
        assert isinstance(data, dict)
        return data

    def common(self) -> dict[str, Any]:
        data = to_jsonable({f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                            if f.name not in ("detail", "game")})
        assert isinstance(data, dict)
        return data

    def to_dict(self) -> dict[str, Any]:
        """JSON: the game's own keys as before, and the shared part under "common"."""
        out = self.own()
        out["common"] = self.common()
        return out


@dataclass(frozen=True)
class Event:
    """Something that happened, for screens and narration. `to`: seats that may see it (None: everyone)."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": to_jsonable(self.data),
                "to": None if self.to is None else sorted(self.to)}


@dataclass(frozen=True)
class Step(Generic[S]):
    state: S
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """How a game ended. `reason` is a stable code; `scores` maps seat → points where the game scores."""

    winners: tuple[int, ...]
    reason: str
    scores: Mapping[int, int] = field(default_factory=dict)
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason,
                "scores": to_jsonable(self.scores), "detail": to_jsonable(self.detail)}


@dataclass(frozen=True)
class Secret:
    """A fact only `seen_by` may see: the pair (`key`, `value`) must appear in those seats' views and in
    no other seat's view, nor in the table view (seat None), nor in a public event."""

    key: str
    value: Any
    seen_by: frozenset[int]
