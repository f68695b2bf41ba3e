"""Try-it steps on the real rules engines: set up a practice position, let the table act, explain.

The engine decides: a choice's actions go through `engine.apply`; a refused action shows the engine's own
Korean/English message. Content names actions as dicts ({name: visit, seat: 0, ...}); `seat: mover` means
the one seat the engine waits for. Time-bearing actions get a practice clock (`wait: seconds` advances it).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import functools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from content.loader import load_typed
from engines.core import Action, Event, RuleError, stamp
from kiosk.teach.model import Choice, Shape, TryIt

T0 = 1_800_000_000.0


def _shipped_pack(game_id: str) -> Mapping[str, Any]:
    return _shipped_packs().get(game_id, {})


@functools.cache
def _shipped_packs() -> Mapping[str, Mapping[str, Any]]:
    """Every shipped game's pack, the library read once (not once per game: the rule look-up's index checks
    every game's try-its)."""
    from content.loader import load_library

    return {game_id: dict(game.pack) for game_id, game in load_library().games.items()}


class TryError(Exception):
    """The try-it content does not fit its engine (shown by the content check)."""


@dataclass
class Result:
    """What one choice did: the events, the refusal (if any) and the step's explanation."""

    choice: Choice
    events: list[Event] = field(default_factory=list)
    error: RuleError | None = None
    advanced: bool = False  # the move is done; the next move (or the end) follows

    def message(self, lang: str) -> str:
        return self.error.message(lang) if self.error is not None else ""


def _set_path(data: Any, path: str, value: Any) -> None:
    parts = path.split(".")
    target = data
    for part in parts[:-1]:
        target = target[int(part)] if isinstance(target, list) else target[part]
    last = parts[-1]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        if last not in target:
            raise TryError(f"the state has no field {path!r}")
        target[last] = value


def get_path(data: Any, path: str) -> Any:
    for part in path.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


class TryRun:
    """One practice run. `state` is the engine state; `move` the index of the move the table is on."""

    def __init__(self, spec: TryIt, folder: Path) -> None:
        from engines import find_engine

        self.spec = spec
        self.folder = folder
        try:
            self.engine = find_engine(spec.engine)
        except KeyError:
            raise TryError(f"no rules engine {spec.engine!r}") from None
        self.now = T0
        self.move = 0
        self.history: list[Result] = []
        self.state: Any = None

    # -- building the position
    def pack(self) -> dict[str, Any]:
        pack = dict(_shipped_pack(self.spec.engine))
        for key, rel in self.spec.pack_files.items():
            hint = next((t for pattern, t in self.engine.content_types.items()
                         if fnmatch.fnmatch(key + ".yaml", pattern)), None)
            if hint is None:
                raise TryError(f"pack file key {key!r} matches none of the engine's content types")
            value, err = load_typed(self.folder / rel, hint)
            if err is not None:
                raise TryError(str(err))
            pack[key] = value
        return pack

    def start(self) -> TryRun:
        try:
            state = self.engine.setup(dict(self.spec.config), self.pack(), self.spec.seed)
        except RuleError as exc:
            raise TryError(f"set-up refused: {exc.en or exc.ko}") from None
        if self.spec.patch:
            data = self.engine.state_to_dict(state)
            for path, value in self.spec.patch.items():
                try:
                    _set_path(data, path, value)
                except (KeyError, IndexError, ValueError, TypeError) as exc:
                    raise TryError(f"patch {path!r}: {exc!r}") from None
            state = self.engine.state_from_dict(data)
        self.state = state
        for raw in self.spec.prelude:
            try:
                self.state = self.engine.apply(self.state, self.action(raw)).state
            except RuleError as exc:
                raise TryError(f"prelude action {dict(raw)} refused: {exc.en or exc.ko}") from None
        self.move = 0
        self.history = []
        return self

    def action(self, raw: Mapping[str, Any]) -> Action:
        data = {k: v for k, v in raw.items() if k != "wait"}
        self.now += float(raw.get("wait", 0))
        if data.get("seat") == "mover":
            movers = sorted(self.engine.to_move(self.state)) if self.state is not None else []
            if len(movers) != 1:
                raise TryError(f"'seat: mover' needs exactly one seat to move, not {movers}")
            data["seat"] = movers[0]
        try:
            action = self.engine.action_from_dict(data)
        except RuleError as exc:
            raise TryError(_parse_problem(exc, data)) from None
        return stamp(action, self.now)

    def check_parses(self, picture: Sequence[Shape] = ()) -> None:
        """Content check: the engine exists, the position builds, every choice's actions parse, the
        status line and the picture's state conditions name real state fields."""
        self.start()
        data = self.state_dict()
        for shape in picture:
            if shape.state:
                try:
                    get_path(data, shape.state.lstrip("!"))
                except (KeyError, IndexError, ValueError, TypeError):
                    raise TryError(f"picture shape state {shape.state!r} is not a state field") from None
        missing: list[str] = []
        for lang in ("ko", "en"):
            self.status(lang, missing)
        if missing:
            raise TryError(f"status names state fields that do not exist: {', '.join(sorted(set(missing)))}")
        for move in self.spec.moves:
            for choice in move.choices:
                for raw in choice.actions:
                    data = {k: v for k, v in raw.items() if k != "wait"}
                    if data.get("seat") == "mover":
                        data["seat"] = 0
                    try:
                        self.engine.action_from_dict(data)
                    except RuleError as exc:
                        raise TryError(_parse_problem(exc, data)) from None
            if not any(c.correct for c in move.choices):
                raise TryError("every move needs at least one correct choice")

    # -- playing
    @property
    def done(self) -> bool:
        return self.move >= len(self.spec.moves)

    def choices(self) -> Sequence[Choice]:
        return () if self.done else self.spec.moves[self.move].choices

    def choose(self, index: int) -> Result:
        """Submit a choice's actions. A refusal leaves the state as it was; a correct choice advances."""
        choice = self.spec.moves[self.move].choices[index]
        result = Result(choice)
        state, saved_now = self.state, self.now
        try:
            for raw in choice.actions:
                step = self.engine.apply(state, self.action(raw))
                state = step.state
                result.events.extend(step.events)
        except RuleError as exc:
            result.error = exc
            self.now = saved_now
        else:
            if choice.correct:
                self.state = state
                self.move += 1
                result.advanced = True
            else:
                self.now = saved_now  # accepted by the engine but not the move we practise: show why, stay
        self.history.append(result)
        return result

    def status(self, lang: str, missing: list[str] | None = None) -> str:
        """The spec's status line filled from the engine's current state ({dotted.path} placeholders)."""
        if self.spec.status is None or self.state is None:
            return ""
        data = self.state_dict()

        def fill(match: re.Match[str]) -> str:
            try:
                value = get_path(data, match.group(1))
            except (KeyError, IndexError, ValueError, TypeError):
                if missing is not None:
                    missing.append(match.group(1))
                return "?"
            return ", ".join(map(str, value)) if isinstance(value, list) else str(value)

        return re.sub(r"\{([A-Za-z0-9_.]+)\}", fill, self.spec.status.get(lang))

    def shows(self, shape: Shape) -> bool:
        """Whether a picture shape with a `state` condition is shown in the current position."""
        if not shape.state or self.state is None:
            return True
        path = shape.state.lstrip("!")
        try:
            value = get_path(self.state_dict(), path)
        except (KeyError, IndexError, ValueError, TypeError):
            return True
        return bool(value) != shape.state.startswith("!")

    def state_dict(self) -> dict[str, Any]:
        return self.engine.state_to_dict(self.state)

    def public_events(self, result: Result) -> list[Event]:
        return [e for e in result.events if e.to is None]

    def check_expect(self, result: Result) -> list[str]:
        """Where the result differs from the choice's `expect` (tests and the content check use it)."""
        exp = result.choice.expect
        problems: list[str] = []
        if "error" in exp:
            code = result.error.code if result.error is not None else None
            if code != exp["error"]:
                problems.append(f"expected refusal {exp['error']!r}, got {code!r}")
        elif result.error is not None:
            problems.append(f"refused: {result.error.code} {result.error.en}")
        kinds = [e.kind for e in result.events]
        for kind in exp.get("events", ()):
            if kind not in kinds:
                problems.append(f"event {kind!r} missing from {kinds}")
        if exp.get("state"):
            data = self.state_dict()
            for path, want in exp["state"].items():
                want = json.loads(json.dumps(want, default=list))  # YAML tuples → lists, like the state dict
                try:
                    got = get_path(data, path)
                except (KeyError, IndexError, ValueError, TypeError):
                    problems.append(f"state has no {path!r}")
                    continue
                if isinstance(got, list) and isinstance(want, list) and not any(isinstance(x, (list, dict))
                                                                               for x in got + want):
                    got, want = sorted(map(str, got)), sorted(map(str, want))  # sets arrive as lists
                if got != want:
                    problems.append(f"state {path} = {got!r}, expected {want!r}")
        if "outcome" in exp:
            outcome = self.engine.outcome(self.state)
            got_reason = outcome.reason if outcome is not None else None
            if got_reason != exp["outcome"]:
                problems.append(f"outcome {got_reason!r}, expected {exp['outcome']!r}")
        return problems


def replace_spec(spec: TryIt, **changes: Any) -> TryIt:
    return dataclasses.replace(spec, **changes)


def _parse_problem(exc: RuleError, data: Mapping[str, Any]) -> str:
    """For the content check (staff, developers): the guest message names no action code, this one does."""
    detail = exc.params.get("problem", "")
    return f"action {data.get('name')!r}: {exc.en or exc.ko}" + (f" ({detail})" if detail else "")
