"""Load and validate teaching content; errors name the file and the line (content.loader.load_typed)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from content import ROOT
from content.loader import ContentError, load_typed
from kiosk.teach.model import RuleBook, Teaching

TEACH_FILE = "teach.yaml"
RULES_FILE = "teach/rules.yaml"


@dataclass(frozen=True)
class GameTeaching:
    game_id: str
    teaching: Teaching
    rules: RuleBook
    folder: Path  # the folder that holds teach.yaml (try-it pack files are relative to it)


def _roots(overlay: Path | None, root: Path) -> list[Path]:
    return [root] + ([overlay] if overlay is not None and overlay.is_dir() else [])


def _pick(roots: list[Path], game_id: str, rel: str) -> Path | None:
    found = [r / "games" / game_id / rel for r in roots if (r / "games" / game_id / rel).is_file()]
    return found[-1] if found else None  # the café's overlay wins


def teaching_game_ids(overlay: Path | None = None, root: Path = ROOT) -> list[str]:
    ids: set[str] = set()
    for r in _roots(overlay, root):
        base = r / "games"
        if base.is_dir():
            ids.update(p.name for p in base.iterdir() if (p / TEACH_FILE).is_file())
    return sorted(ids)


Loaded = tuple[GameTeaching | None, list[ContentError]]
# (game, roots, the files' times and sizes) -> what loading them gave: a teaching read and checked is ~25 ms of
# CPU here (YAML, types, its try-its run), and the teaching screen's first visit to a game read it in its tap's frame
# though the rule look-up's index (built in a thread at start) had read every game's already. A file changed (a staff
# edit in the café's folder) has another time: read again.
_CACHE: dict[tuple[str, tuple[Path, ...], tuple[tuple[int, int], ...]], Loaded] = {}


def _stamp(roots: list[Path], game_id: str) -> tuple[tuple[int, int], ...]:
    """Each file's (modification time, size): a file rewritten within the clock's tick has another size."""
    out = []
    for r in roots:
        for rel in (TEACH_FILE, RULES_FILE):
            try:
                st = (r / "games" / game_id / rel).stat()
                out.append((st.st_mtime_ns, st.st_size))
            except OSError:
                out.append((-1, -1))
    return tuple(out)


def load_teaching(game_id: str, overlay: Path | None = None, root: Path = ROOT) -> Loaded:
    """A game's teaching and rule pieces, or the errors that stop them (cached until a file changes)."""
    roots = _roots(overlay, root)
    key = (game_id, tuple(roots), _stamp(roots, game_id))
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = _load(game_id, roots)
    return found[0], list(found[1])


def _load(game_id: str, roots: list[Path]) -> Loaded:
    path = _pick(roots, game_id, TEACH_FILE)
    if path is None:
        return None, [ContentError(f"games/{game_id}/{TEACH_FILE}", 1, "no teaching for this game")]
    teaching, err = load_typed(path, Teaching, roots)
    errors = [err] if err else []
    rules = RuleBook(())
    rules_path = _pick(roots, game_id, RULES_FILE)
    if rules_path is not None:
        value, err = load_typed(rules_path, RuleBook, roots)
        if err:
            errors.append(err)
        else:
            rules = value
    if errors or teaching is None:
        return None, errors
    shown = f"games/{game_id}/{TEACH_FILE}"
    errors.extend(_cross_check(game_id, teaching, rules, shown, path.parent))
    if errors:
        return None, errors
    return GameTeaching(game_id, teaching, rules, path.parent), []


def _cross_check(game_id: str, t: Teaching, rules: RuleBook, shown: str, folder: Path) -> list[ContentError]:
    """What the types cannot say: unique ids, links that point somewhere, modules that exist, runnable try-its."""
    out: list[ContentError] = []
    rule_ids = [r.id for r in rules.rules]
    step_ids = [s.id for s in t.steps]
    for kind, ids in (("step", step_ids), ("rule", rule_ids), ("set-up item", [s.id for s in t.setup])):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            out.append(ContentError(shown, 1, f"{kind} ids are not unique: {', '.join(dup)}"))
    known = set(rule_ids)
    for r in rules.rules:
        for link in r.related:
            if link not in known:
                out.append(ContentError(f"games/{game_id}/{RULES_FILE}", 1,
                                        f"rule {r.id!r} links to unknown rule {link!r}"))
    for s in t.steps:
        for link in s.rules:
            if link not in known:
                out.append(ContentError(shown, 1, f"step {s.id!r} names unknown rule {link!r}"))
    for q in t.quiz:
        if q.rule and q.rule not in known:
            out.append(ContentError(shown, 1, f"quiz question names unknown rule {q.rule!r}"))
    modules = {m.id for m in t.modules}
    for kind, things in (("set-up item", t.setup), ("step", t.steps)):
        for thing in things:
            for m in (thing.when.module, thing.when.without):
                if m and m not in modules:
                    out.append(ContentError(shown, 1, f"{kind} {thing.id!r} names unknown module {m!r}"))
    lo, hi = t.players
    if not 1 <= lo <= hi:
        out.append(ContentError(shown, 1, f"players must be a range like [2, 7], not {list(t.players)}"))
    if any(s.kind == "quiz" for s in t.steps) and not t.quiz:
        out.append(ContentError(shown, 1, "a quiz step needs questions under `quiz`"))
    from kiosk.teach.tryit import TryError, TryRun

    for s in t.steps:
        if s.try_it is None:
            continue
        try:
            TryRun(s.try_it, folder).check_parses(s.picture)
        except TryError as exc:
            out.append(ContentError(shown, 1, f"try-it step {s.id!r}: {exc}"))
    return out


def validate_teaching(overlay: Path | None = None, root: Path = ROOT,
                      game_ids: Iterable[str] | None = None) -> list[ContentError]:
    """Every game's teaching content checked; [] when all is well (for `tablehost content check`)."""
    errors: list[ContentError] = []
    for game_id in game_ids if game_ids is not None else teaching_game_ids(overlay, root):
        _, errs = load_teaching(game_id, overlay, root)
        errors.extend(errs)
    return errors
