"""The engine interface shared by every game: value objects, errors, and the apply contract.

An engine is pure: no I/O, no clock, no global random. The session stamps time into actions that
carry an `at` field and supplies chance results through `sample_chance(state, rng)` (logged like any
action), so a journal replays to the same state without a clock or an RNG.

Seats are 0..n-1. Two pseudo-seats act for no single player:
- `TABLE` (-1): the table as a whole (start the clock, enter a count of raised hands, time up);
- `CHANCE` (-2): a chance step (shuffle, deck pick); the session asks `sample_chance` for the action.
"""

from __future__ import annotations

import dataclasses
import random
import typing
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from engines.korean import fmt
from engines.serial import SchemaError, from_jsonable, to_jsonable

TABLE = -1
CHANCE = -2

S = TypeVar("S")


# ---------------------------------------------------------------- errors


class RuleError(Exception):
    """An action the rules do not allow now. `code` is stable; messages are for people (Korean first)."""

    code: str = "rule"

    def __init__(self, code: str, ko: str, en: str, **params: Any) -> None:
        self.code = code
        self.params = params
        self.ko = fmt(ko, **params) if params else ko  # particle placeholders: engines.korean
        self.en = en.format(**params) if params else en
        super().__init__(f"[{code}] {self.ko} / {self.en}")

    def message(self, lang: str = "ko") -> str:
        return self.en if lang == "en" else self.ko

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "ko": self.ko, "en": self.en}


class GameOverError(RuleError):
    """The game has ended; no action is accepted."""


class NotYourTurnError(RuleError):
    """The seat may not act now."""


class UnknownActionError(RuleError):
    """No action of that name in this game, or its fields are malformed."""


class IllegalActionError(RuleError):
    """The action is known and the seat may act, but the rules forbid this action now."""


def game_over() -> GameOverError:
    return GameOverError("game_over", "게임이 이미 끝났어요.", "The game is already over.")


def not_your_turn(seat: int) -> NotYourTurnError:
    who_ko = "테이블" if seat == TABLE else ("우연" if seat == CHANCE else f"{seat + 1}번 자리")
    who_en = "the table" if seat == TABLE else ("chance" if seat == CHANCE else f"seat {seat + 1}")
    return NotYourTurnError(
        "not_your_turn", "지금은 {who_ko}의 차례가 아니에요.", "It is not {who_en}'s turn now.",
        who_ko=who_ko, who_en=who_en,
    )


# ---------------------------------------------------------------- value objects


@dataclass(frozen=True)
class Action:
    """Base of every action. Subclasses set `NAME` and add fields; `seat` is who acts."""

    NAME: ClassVar[str] = ""
    seat: int

    def to_dict(self) -> dict[str, Any]:
        data = to_jsonable(self)
        assert isinstance(data, dict)
        return {"name": self.NAME, **data}


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


# ---------------------------------------------------------------- the engine


class Engine(ABC, Generic[S]):
    """Subclass per game. `apply` checks in a fixed order, then calls `_apply`."""

    name: ClassVar[str]
    version: ClassVar[str] = "1"
    state_type: ClassVar[type]
    actions: ClassVar[Mapping[str, type[Action]]]
    # Content files of the game folder (content/games/<name>/) → the dataclass each must load as.
    # Keys are globs relative to that folder ("decks.yaml", "cases/*.yaml"); the loader validates them and
    # hands `setup` a pack: {"decks": Decks(...), "cases/case_01": Case(...)} (path without ".yaml").
    content_types: ClassVar[Mapping[str, type]] = {}

    # -- to implement
    @abstractmethod
    def setup(self, config: Mapping[str, Any], pack: Mapping[str, Any], seed: int) -> S:
        """The first state. `pack` is the game's loaded content; `seed` drives the initial deal only."""

    @abstractmethod
    def to_move(self, state: S) -> frozenset[int]:
        """Seats that may act now (several at once for simultaneous votes; TABLE; CHANCE)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[Action]:
        """Actions `seat` may take now. For free-form inputs (text answers) a representative set."""

    @abstractmethod
    def _apply(self, state: S, action: Action) -> Step[S]:
        """Apply an action already checked for game over, name and seat. Raise RuleError if illegal."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """JSON-safe view for one seat (None: the shared table screen)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game goes on."""

    def example_configs(self, pack: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Configs that cover the game's variants (player counts, modules); used by conformance tests."""
        raise NotImplementedError(f"{self.name} gives no example configs")

    def secrets(self, state: S) -> Iterable[Secret]:
        """Facts hidden from some seats (used by the conformance and leak tests)."""
        return ()

    def sample_chance(self, state: S, rng: random.Random) -> Action:
        """When CHANCE is to move: draw its action with the session's RNG."""
        raise NotImplementedError(f"{self.name} has no chance steps")

    def seats(self, state: S) -> tuple[int, ...]:
        """All player seats of the game."""
        n = getattr(state, "players", None)
        if isinstance(n, tuple):
            return tuple(range(len(n)))
        raise NotImplementedError

    # -- provided
    def apply(self, state: S, action: Action) -> Step[S]:
        if self.outcome(state) is not None:
            raise game_over()
        cls = self.actions.get(action.NAME)
        if cls is None or type(action) is not cls:
            raise UnknownActionError(
                "unknown_action", "이 게임에 없는 행동이에요: {name}", "This game has no action {name}.",
                name=action.NAME or type(action).__name__,
            )
        if action.seat not in self.to_move(state):
            raise not_your_turn(action.seat)
        return self._apply(state, action)

    def state_to_dict(self, state: S) -> dict[str, Any]:
        data = to_jsonable(state)
        assert isinstance(data, dict)
        return data

    def state_from_dict(self, data: Mapping[str, Any]) -> S:
        return typing.cast(S, from_jsonable(self.state_type, data))

    def action_from_dict(self, data: Mapping[str, Any]) -> Action:
        """Parse an action; a malformed one raises UnknownActionError with a readable message."""
        if not isinstance(data, Mapping) or "name" not in data:
            raise UnknownActionError("bad_action", "행동의 이름이 없어요.", "The action has no name.")
        name = data["name"]
        cls = self.actions.get(name)
        if cls is None:
            raise UnknownActionError(
                "unknown_action", "이 게임에 없는 행동이에요: {name}", "This game has no action {name}.",
                name=str(name),
            )
        fields = {k: v for k, v in data.items() if k != "name"}
        try:
            action = from_jsonable(cls, fields)
        except SchemaError as exc:
            raise UnknownActionError(
                "bad_action", "행동 {name}의 값이 잘못됐어요: {problem}",
                "Action {name} is malformed: {problem}", name=str(name), problem=str(exc),
            ) from None
        return typing.cast(Action, action)

    def describe_actions(self) -> list[dict[str, Any]]:
        """The action vocabulary, machine-readable (for the CLI, voice and docs)."""
        out = []
        for name, cls in sorted(self.actions.items()):
            hints = typing.get_type_hints(cls)
            fields = {f.name: _type_name(hints[f.name]) for f in dataclasses.fields(cls)}
            doc = (cls.__doc__ or "").strip().splitlines()
            out.append({"name": name, "fields": fields, "doc": doc[0] if doc else ""})
        return out


def _type_name(hint: Any) -> str:
    if isinstance(hint, type):
        return hint.__name__
    return str(hint).replace("typing.", "")


def actions_map(*classes: type[Action]) -> Mapping[str, type[Action]]:
    """Build an engine's `actions` mapping; names must be unique and non-empty."""
    out: dict[str, type[Action]] = {}
    for cls in classes:
        if not cls.NAME or cls.NAME in out:
            raise ValueError(f"action name missing or repeated: {cls.__name__} {cls.NAME!r}")
        out[cls.NAME] = cls
    return out


def stamp(action: Action, now: float) -> Action:
    """Give a time-bearing action the session's current time, unless it already carries a moment."""
    moment = getattr(action, "at", None)  # only time-bearing actions have it
    if isinstance(moment, (int, float)) and not moment:
        return dataclasses.replace(action, at=now)  # type: ignore[call-arg]
    return action


def seeded_rng(seed: int, *salt: object) -> random.Random:
    """A private RNG for a deterministic deal; never the global one."""
    return random.Random(":".join([str(seed), *map(str, salt)]))
