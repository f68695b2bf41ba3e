"""Load and validate the content library: game descriptions, each engine's content files, branches.

Content comes from the shipped folder and, optionally, a café's overlay folder (same layout; a file
there replaces the shipped file of the same relative path, new files add cases or whole games).
A broken file becomes a ContentError naming the file, the line and the problem; the other games
still load (a game whose own files are broken is left out of the library, with its errors listed).
"""

from __future__ import annotations

import fnmatch
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from content import ROOT
from content.yamlmap import YamlLimitError, read_yaml
from engines.serial import SchemaError, from_jsonable


@dataclass(frozen=True)
class Text:
    """A guest-facing text in Korean (required) and English."""

    ko: str
    en: str = ""

    def get(self, lang: str) -> str:
        return self.en if lang == "en" and self.en else self.ko


@dataclass(frozen=True)
class Component:
    name: Text
    count: int


@dataclass(frozen=True)
class GameInfo:
    """content/games/<id>/game.yaml"""

    name: Text
    players: tuple[int, int]
    minutes: tuple[int, int]
    pitch: Text
    components: tuple[Component, ...] = ()
    shelf: Mapping[str, str | None] = field(default_factory=dict)  # branch id → shelf code (None: not stocked)
    engine: str = ""  # engine name when it differs from the folder name; "none" for teaching-only games
    teach_minutes: int = 0
    first_game_tip: Text | None = None
    modules: tuple[str, ...] = ()  # optional modules the set-up offers, in order (the engine's ids)

    def __post_init__(self) -> None:
        lo, hi = self.players
        if not 1 <= lo <= hi:
            raise ValueError(f"players must be a range like [2, 7], not {list(self.players)}")
        if not 0 < self.minutes[0] <= self.minutes[1]:
            raise ValueError(f"minutes must be a range like [45, 75], not {list(self.minutes)}")


@dataclass(frozen=True)
class Branch:
    id: str
    name: Text


@dataclass(frozen=True)
class Branches:
    """content/branches.yaml"""

    branches: tuple[Branch, ...]
    default: str


@dataclass(frozen=True)
class ContentError:
    file: str
    line: int
    problem: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.problem}"


@dataclass(frozen=True)
class Game:
    id: str
    info: GameInfo
    pack: Mapping[str, Any]
    content_hash: str
    files: tuple[Path, ...]
    playable: bool = True  # a rules engine exists for it (else: library and teaching only)

    @property
    def engine_name(self) -> str:
        return self.info.engine or self.id

    def stocked(self, branch: str) -> bool:
        """False only when the branch is listed as not stocking the game (shelf: null)."""
        return not (branch in self.info.shelf and self.info.shelf[branch] is None)

    def shelf_code(self, branch: str) -> str | None:
        return self.info.shelf.get(branch)


@dataclass
class Library:
    games: dict[str, Game]
    branches: Branches
    errors: list[ContentError]

    def for_table(self, players: int | None = None, max_minutes: int | None = None,
                  branch: str | None = None) -> list[Game]:
        """Games that fit the table: player count within range, the whole play time range within the limit
        (a 30–45 minute game is not offered "within 30 minutes")."""
        out = []
        for game in self.games.values():
            lo, hi = game.info.players
            if players is not None and not lo <= players <= hi:
                continue
            if max_minutes is not None and game.info.minutes[1] > max_minutes:
                continue
            if branch is not None and not game.stocked(branch):
                continue
            out.append(game)
        return sorted(out, key=lambda g: g.info.name.ko)


def _display(path: Path, roots: Iterable[Path]) -> str:
    for root in roots:
        try:
            return str(path.relative_to(root.parent))
        except ValueError:
            continue
    return str(path)


def load_typed(path: Path, hint: Any, roots: Iterable[Path] = (ROOT,)) -> tuple[Any, ContentError | None]:
    """Read one YAML file as `hint`; on failure return (None, error naming file and line)."""
    shown = _display(path, roots)
    try:
        lined = read_yaml(path)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc)
        kind = "YAML refused" if isinstance(exc, YamlLimitError) else "YAML syntax"
        return None, ContentError(shown, line, f"{kind}: {problem}")
    except (OSError, UnicodeDecodeError) as exc:
        return None, ContentError(shown, 1, f"cannot read: {exc}")
    try:
        return from_jsonable(hint, lined.data), None
    except SchemaError as exc:
        return None, ContentError(shown, lined.line_of(exc.path), str(exc))


def _merged_files(roots: list[Path], sub: str) -> dict[str, Path]:
    """Relative path → file, later roots overriding earlier ones."""
    files: dict[str, Path] = {}
    for root in roots:
        base = root / sub
        if not base.is_dir():
            continue
        for p in sorted(base.rglob("*.yaml")):
            files[p.relative_to(base).as_posix()] = p
    return files


def _load_game(game_id: str, roots: list[Path], errors: list[ContentError]) -> Game | None:
    files = _merged_files(roots, f"games/{game_id}")
    if "game.yaml" not in files:
        errors.append(ContentError(f"games/{game_id}", 1, "game.yaml is missing"))
        return None
    before = len(errors)
    info, err = load_typed(files["game.yaml"], GameInfo, roots)
    if err:
        errors.append(err)
        return None
    assert isinstance(info, GameInfo)
    pack: dict[str, Any] = {}
    engine_name = info.engine or game_id
    types: Mapping[str, type] = {}
    playable = engine_name != "none"
    if playable:
        from engines import find_engine
        try:
            types = find_engine(engine_name).content_types
        except KeyError:
            playable = False  # listed and taught, not hosted
        except Exception as exc:  # a broken engine must not take the library down
            errors.append(ContentError(_display(files["game.yaml"], roots), 1,
                                       f"rules engine {engine_name!r} failed to load: {exc!r}"))
            playable = False
    for rel, path in files.items():
        if rel == "game.yaml":
            continue
        hint = next((t for pattern, t in types.items() if fnmatch.fnmatch(rel, pattern)), None)
        if hint is None:
            continue  # teaching, narration … are validated by their own loaders
        value, err = load_typed(path, hint, roots)
        if err:
            errors.append(err)
        else:
            pack[rel[: -len(".yaml")]] = value
    if len(errors) > before:
        return None
    digest = hashlib.sha256()
    for rel, path in sorted(files.items()):
        digest.update(rel.encode())
        digest.update(path.read_bytes())
    return Game(game_id, info, pack, digest.hexdigest()[:16], tuple(files.values()), playable)


def game_ids(roots: list[Path]) -> list[str]:
    ids: set[str] = set()
    for root in roots:
        base = root / "games"
        if base.is_dir():
            ids.update(p.name for p in base.iterdir() if p.is_dir() and not p.name.startswith("."))
    return sorted(ids)


def load_library(overlay: Path | None = None, root: Path = ROOT) -> Library:
    roots = [root] + ([overlay] if overlay is not None and overlay.is_dir() else [])
    errors: list[ContentError] = []
    games: dict[str, Game] = {}
    for game_id in game_ids(roots):
        game = _load_game(game_id, roots, errors)
        if game is not None:
            games[game_id] = game
    candidates = [r / "branches.yaml" for r in roots if (r / "branches.yaml").is_file()]
    branches_path = candidates[-1] if candidates else None
    branches = Branches((Branch("main", Text("본점", "Main branch")),), "main")
    if branches_path is not None:
        value, err = load_typed(branches_path, Branches, roots)
        if err:
            errors.append(err)
        else:
            branches = value
    return Library(games, branches, errors)
