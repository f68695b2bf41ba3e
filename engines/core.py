"""The engine contract shared by every game: errors, value objects, action declarations, views, the engine.

An engine is pure: no I/O, no clock, no global random. The session stamps time into actions that
carry an `at` field and supplies chance results through `sample_chance(state, rng)` (logged like any
action), so a journal replays to the same state without a clock or an RNG.

Seats are 0..n-1. Two pseudo-seats act for no single player:
- `TABLE` (-1): the table as a whole (start the clock, enter a count of raised hands, time up);
- `CHANCE` (-2): a chance step (shuffle, deck pick); the session asks `sample_chance` for the action.

What an engine declares, so that no frontend guesses (kiosk/HOSTING.md explains each for game authors):
- per action class: `BY` (who takes it: a player, the table, or chance), `FINAL` (frontends ask for a
  confirmation first), `PRIVATE` (offered only on the actor's private channel: its legality or its
  value is the actor's secret), and every field's meaning (`Seat`, `ref(...)`, `TEXT`, `number(...)`,
  `choice(...)`, `FLAG`, `At`, `DRAWN`) as `typing.Annotated` metadata;
- `observe(state, seat)` → a typed `View` (players, phase, prompts, scores, catalogs, the table's
  offers, the seat's private part as display parts — `Card`, `Items`, `Reveal` — and the game's own
  part; the parts live in engines/parts.py); `view()` is its JSON;
- `table_offers(state)`: what the shared screen may offer now, never computed from a secret;
- `deadlines(state)`: timeouts the session fires when their moment has passed;
- `hidden_variants(state)`: the same game with a hidden fact changed (for the non-interference check);
- set-up problems raise `ConfigError`; `apply` refuses any action its seat could not take now.
"""

from __future__ import annotations

import dataclasses
import random
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Generic, Literal, TypeVar

from engines.korean import fmt
from engines.parts import Part
from engines.serial import SchemaError, from_jsonable, to_jsonable
from engines.view import (
    Event as Event,
)
from engines.view import (
    G as G,
)
from engines.view import (
    GamePart as GamePart,
)
from engines.view import (
    Named as Named,
)
from engines.view import (
    Offer as Offer,
)
from engines.view import (
    Outcome as Outcome,
)
from engines.view import (
    Player as Player,
)
from engines.view import (
    Prompt as Prompt,
)
from engines.view import (
    Secret as Secret,
)
from engines.view import (
    Step as Step,
)
from engines.view import (
    View as View,
)

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
        self.en = fmt(en, **params) if params else en
        super().__init__(self.ko)  # str() is one language (Korean); `code` and `params` stay for logs and tests

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


class ConfigError(RuleError, ValueError):
    """A set-up the game cannot start with (player count, modules, a missing case…)."""

    def __init__(self, ko: str, en: str, code: str = "bad_config", **params: Any) -> None:
        super().__init__(code, ko, en, **params)


def not_allowed(action: Action) -> IllegalActionError:
    """An action its seat could not take now (it is not among that seat's legal actions)."""
    return IllegalActionError(
        "not_allowed", "지금 이 자리에서 할 수 없는 행동이에요.", "This seat cannot do that now.",
        name=action.NAME)


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


Who = Literal["player", "table", "chance"]


@dataclass(frozen=True)
class Action:
    """Base of every action. Subclasses set `NAME` and add annotated fields; `seat` is who acts.

    `BY`: who takes it ("player": a seat 0..n-1, "table": TABLE, "chance": CHANCE); `FINAL`: frontends
    ask for a confirmation before sending it; `PRIVATE`: only the actor's private channel offers it."""

    NAME: ClassVar[str] = ""
    BY: ClassVar[Who] = "player"
    FINAL: ClassVar[bool] = False
    PRIVATE: ClassVar[bool] = False
    seat: int

    def to_dict(self) -> dict[str, Any]:
        data = to_jsonable(self)
        assert isinstance(data, dict)
        return {"name": self.NAME, **data}


# ---------------------------------------------------------------- action fields


FieldKind = Literal["seat", "ref", "text", "number", "choice", "flag", "moment", "drawn"]


@dataclass(frozen=True)
class FieldSpec:
    """What an action field means, for every frontend (labels, voice slots, phone forms, docs).

    seat: a player's seat (`optional`: -1 means nobody); ref: an id from the view's catalog `of` (`optional`:
    "" means none);
    text: typed by the guest (the engine's legal actions hold placeholders, never a real answer);
    number: an integer in lo..hi; choice: one of `values`; flag: yes/no; moment: stamped by the
    session; drawn: produced by chance, never chosen by a person. A tuple field holds several."""

    kind: FieldKind
    of: str = ""
    lo: int | None = None
    hi: int | None = None
    values: tuple[str, ...] = ()
    optional: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for key in ("of", "lo", "hi", "values", "optional"):
            value = getattr(self, key)
            if value not in ("", None, (), False):
                out[key] = list(value) if isinstance(value, tuple) else value
        return out


SEAT = FieldSpec("seat")
TEXT = FieldSpec("text")
FLAG = FieldSpec("flag")
MOMENT = FieldSpec("moment")
DRAWN = FieldSpec("drawn")


def ref(catalog: str, optional: bool = False) -> FieldSpec:
    """An id from the view's catalog `catalog` (`optional`: "" means none)."""
    return FieldSpec("ref", of=catalog, optional=optional)


def number(lo: int, hi: int) -> FieldSpec:
    return FieldSpec("number", lo=lo, hi=hi)


def choice(*values: str) -> FieldSpec:
    return FieldSpec("choice", values=values)


Seat = Annotated[int, SEAT]
OptSeat = Annotated[int, FieldSpec("seat", optional=True)]
Seats = Annotated[tuple[int, ...], SEAT]
Flag = Annotated[bool, FLAG]
At = Annotated[float, MOMENT]
Text = Annotated[str, TEXT]


def field_specs(cls: type[Action]) -> dict[str, FieldSpec]:
    """Each field of an action class (but `seat`) → its FieldSpec; a field without one raises TypeError."""
    found = _SPECS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls, include_extras=True)
        found = {}
        for f in dataclasses.fields(cls):
            if f.name == "seat":
                continue
            metas = [m for m in getattr(hints[f.name], "__metadata__", ()) if isinstance(m, FieldSpec)]
            if not metas:
                raise TypeError(f"{cls.__name__}.{f.name} has no FieldSpec annotation")
            found[f.name] = metas[0]
        _SPECS[cls] = found
    return found


_SPECS: dict[type, dict[str, FieldSpec]] = {}


def bad_value(name: str, field_name: str, ko: str, en: str, **params: Any) -> UnknownActionError:
    """A value its field's declaration refuses; both messages say what the value must be, for people: the field's
    name and the value (internal identifiers) stay in `params`, for logs and tests."""
    return UnknownActionError("bad_value", "행동의 값이 잘못됐어요: " + ko, "The action's value is wrong: " + en,
                              name=name, field=field_name, **params)


def check_values(action: Action, seats: Sequence[int],
                 ids: Callable[[str], Collection[str] | None] = lambda catalog: None) -> None:
    """Each field's value as its FieldSpec declares it (parse, then apply): a seat among `seats` (-1 too where
    optional), a number an integer in lo..hi, a choice one of its values, a flag a bool, a text a string, a
    ref a string among `ids(catalog)` when the engine says them ("" too where optional), a moment a number;
    each element of a tuple or set field alike. A chance's draw is not checked. Raises UnknownActionError
    (code bad_value) naming the field."""
    for field_name, spec in field_specs(type(action)).items():
        value = getattr(action, field_name)
        if spec.kind == "drawn":
            continue
        items = tuple(value) if isinstance(value, (tuple, frozenset, list)) else (value,)
        for item in items:
            _check_value(action.NAME, field_name, spec, item, seats, ids)


def _check_value(name: str, field_name: str, spec: FieldSpec, value: Any, seats: Sequence[int],
                 ids: Callable[[str], Collection[str] | None]) -> None:
    is_int = isinstance(value, int) and not isinstance(value, bool)
    kind = spec.kind
    if kind == "seat" and not (is_int and (value in seats or (spec.optional and value == -1))):
        raise bad_value(name, field_name, "없는 자리예요.", "no such seat.", value=repr(value))
    if kind == "number" and not (is_int and (spec.lo is None or value >= spec.lo)
                                 and (spec.hi is None or value <= spec.hi)):
        raise bad_value(name, field_name, "{lo}부터 {hi}까지의 수여야 해요.",
                        "it must be a whole number from {lo} to {hi}.", lo=spec.lo, hi=spec.hi,
                        value=repr(value))
    if kind == "choice" and value not in spec.values:
        raise bad_value(name, field_name, "고를 수 없는 값이에요.", "that value cannot be chosen.",
                        values=", ".join(spec.values), value=repr(value))
    if kind == "flag" and not isinstance(value, bool):
        raise bad_value(name, field_name, "예 또는 아니요여야 해요.", "it must be yes or no.")
    if kind in ("ref", "text") and not isinstance(value, str):
        raise bad_value(name, field_name, "글자여야 해요.", "it must be text.")
    if kind == "ref" and not (spec.optional and value == ""):
        known = ids(spec.of)
        if known is not None and value not in known:
            raise bad_value(name, field_name, "이 게임에 없는 이름이에요.", "that name is not in this game.",
                            value=value)
    if kind == "moment" and not (isinstance(value, (int, float)) and not isinstance(value, bool)):
        raise bad_value(name, field_name, "시각이어야 해요.", "it must be a moment.")


@dataclass(frozen=True)
class Deadline:
    """A timeout: when `at` has passed, the session applies `action` (stamped with the current time)."""

    at: float
    action: Action


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
    def observe(self, state: S, seat: int | None) -> View:
        """What one seat may see (None: the shared table screen); build it with `make_view`."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game goes on."""

    def example_configs(self, pack: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Configs that cover the game's variants (player counts, modules); used by conformance tests."""
        raise NotImplementedError(f"{self.name} gives no example configs")

    def setup_limits(self, config: Mapping[str, Any], pack: Mapping[str, Any]) -> Mapping[str, tuple[int, int]]:
        """The range each number option of a set-up may take, given the rest of `config` (Spyfall's
        rounds: 1 to the decks its modules bring), for set-up forms; `setup` refuses values outside it."""
        return {}

    def secrets(self, state: S) -> Iterable[Secret]:
        """Facts hidden from some seats (used by the conformance and leak tests)."""
        return ()

    def sample_chance(self, state: S, rng: random.Random) -> Action:
        """When CHANCE is to move: draw its action with the session's RNG."""
        raise NotImplementedError(f"{self.name} has no chance steps")

    def ref_ids(self, state: S, catalog: str) -> Collection[str] | None:
        """The ids a `ref(catalog)` field may name in this game (its view's catalog), checked before the rules;
        None: not said (the rules check it)."""
        return None

    def seats(self, state: S) -> tuple[int, ...]:
        """All player seats of the game."""
        return tuple(range(len(self.player_names(state))))

    def player_names(self, state: S) -> tuple[str, ...]:
        """The players' names by seat (default: `state.players`, a tuple of names)."""
        names = getattr(state, "players", None)
        if isinstance(names, tuple) and all(isinstance(n, str) for n in names):
            return names
        raise NotImplementedError(f"{self.name} must say its players' names (player_names)")

    def deadlines(self, state: S) -> Sequence[Deadline]:
        """Timeouts pending now; the session applies each action once its moment has passed."""
        return ()

    def hidden_variants(self, state: S) -> Iterable[tuple[S, frozenset[int]]]:
        """The same game with one hidden fact changed, and the seats that may see that fact. Every other
        seat's view and legal actions, the table view and the table's offers must stay identical."""
        return ()

    def table_offers(self, state: S) -> tuple[Offer, ...]:
        """What the shared screen may offer now: each acting seat's legal action names, except PRIVATE
        ones. Override where that would depend on a secret (the conformance swap check tells)."""
        out: list[Offer] = []
        for seat in sorted(self.to_move(state)):
            if seat == CHANCE:
                continue
            names = sorted(self.offer_names(state, seat))
            out += [Offer(seat, n, self.actions[n].FINAL) for n in names]
        return tuple(out)

    def offer_names(self, state: S, seat: int) -> set[str]:
        """The names of `seat`'s legal actions that are not PRIVATE. An engine whose lists are long (every
        combination of cards) may say them without making each action."""
        return {a.NAME for a in self.legal_actions(state, seat) if not type(a).PRIVATE}

    def prompts(self, state: S) -> tuple[Prompt, ...]:
        """Who the game waits for (default: the seats to move, asked for `what`=the phase)."""
        return ()

    def make_view(self, state: S, seat: int | None, phase: str, detail: Mapping[str, Any] | GamePart,
                  scores: Sequence[int] = (), catalogs: Mapping[str, Sequence[Named]] | None = None,
                  prompts: Sequence[Prompt] | None = None, mine: Sequence[Part] = ()) -> View:
        if seat is None and mine:
            raise ValueError("the table view has no private part")
        names = self.player_names(state)
        if prompts is None:
            prompts = self.prompts(state) or tuple(
                Prompt(s, phase) for s in sorted(self.to_move(state)) if s != CHANCE)
        return View(seat=seat, players=tuple(Player(i, n) for i, n in enumerate(names)), phase=phase,
                    prompts=tuple(prompts), scores=tuple(scores),
                    catalogs={k: tuple(v) for k, v in (catalogs or {}).items()},
                    table=self.table_offers(state) if self.outcome(state) is None else (), mine=tuple(mine),
                    detail={} if isinstance(detail, GamePart) else detail,
                    game=detail if isinstance(detail, GamePart) else None)

    # -- provided
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """JSON-safe view for one seat (None: the shared table screen)."""
        return self.observe(state, seat).to_dict()

    def legal_names(self, state: S, seat: int) -> frozenset[str]:
        """Names of the actions `seat` may take now (its legal actions and its pending deadlines)."""
        names = {a.NAME for a in self.legal_actions(state, seat)}
        names |= {d.action.NAME for d in self.deadlines(state) if d.action.seat == seat}
        return frozenset(names)

    def apply(self, state: S, action: Action) -> Step[S]:
        """Check (game not over → known action → seat may act, and is of the kind the action declares → each
        value as its field declares (`check_values`) → a name among the seat's legal actions) then `_apply`.
        Handlers never check again what a declaration says."""
        if self.outcome(state) is not None:
            raise game_over()
        cls = self.actions.get(action.NAME)
        if cls is None or type(action) is not cls:
            raise UnknownActionError(
                "unknown_action", "이 게임에 없는 행동이에요.", "This game has no such action.",
                name=action.NAME or type(action).__name__,
            )
        if action.seat not in self.to_move(state):
            raise not_your_turn(action.seat)
        if _seat_kind(action.seat) != cls.BY:
            raise not_allowed(action)
        check_values(action, self.seats(state), lambda catalog: self.ref_ids(state, catalog))
        if action.seat == CHANCE or action.NAME in self.legal_names(state, action.seat):
            return self._apply(state, action)
        self._apply(state, action)  # its own RuleError names the problem best
        raise not_allowed(action)  # the rules module would accept what the seat may not do

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
                "unknown_action", "이 게임에 없는 행동이에요.", "This game has no such action.",
                name=str(name),
            )
        fields = {k: v for k, v in data.items() if k != "name"}
        try:
            action = from_jsonable(cls, fields)
        except SchemaError as exc:
            raise UnknownActionError(
                "bad_action", "행동의 값이 잘못됐어요.", "The action is malformed.", name=str(name), problem=str(exc),
            ) from None
        return typing.cast(Action, action)

    def describe_actions(self) -> list[dict[str, Any]]:
        """The action vocabulary, machine-readable (for the CLI, voice and docs): name, who takes it,
        final/private marks, the whole doc, and each field's type and meaning."""
        out = []
        for name, cls in sorted(self.actions.items()):
            hints = typing.get_type_hints(cls)
            specs = field_specs(cls)
            fields = {f.name: {"type": _type_name(hints[f.name]), **specs[f.name].to_dict()}
                      for f in dataclasses.fields(cls) if f.name != "seat"}
            doc = " ".join((cls.__doc__ or "").split())
            out.append({"name": name, "by": cls.BY, "final": cls.FINAL, "private": cls.PRIVATE,
                        "fields": fields, "doc": doc})
        return out


def _seat_kind(seat: int) -> Who:
    return "table" if seat == TABLE else ("chance" if seat == CHANCE else "player")


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
