"""Content loading: the shipped library validates; broken files name file, line and problem."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from content import ROOT
from content.loader import GameInfo, load_library, load_typed


def test_shipped_library_loads_all_four_games_without_errors() -> None:
    lib = load_library()
    assert lib.errors == []
    assert {"watson_holmes", "spyfall", "mr_jack_ny", "clue"} <= set(lib.games)
    wh = lib.games["watson_holmes"].info
    assert wh.name.ko == "왓슨&홈즈" and wh.players == (2, 7) and wh.minutes == (45, 75)


def test_shelf_codes_per_branch_follow_the_rulebook_headers() -> None:
    """Spyfall: branch 1 X2, branch 2 not stocked; Watson & Holmes: X3."""
    lib = load_library()
    spy = lib.games["spyfall"]
    assert spy.shelf_code("branch1") == "X2"
    assert not spy.stocked("branch2")
    assert lib.games["watson_holmes"].shelf_code("branch1") == "X3"
    assert "spyfall" not in {g.id for g in lib.for_table(branch="branch2")}
    assert "spyfall" in {g.id for g in lib.for_table(branch="branch1")}


def test_library_filters_by_players_and_time() -> None:
    lib = load_library()
    two = {g.id for g in lib.for_table(players=2)}
    assert "mr_jack_ny" in two and "watson_holmes" in two and "spyfall" not in two
    eight = {g.id for g in lib.for_table(players=8)}
    assert eight == {"spyfall"}
    assert {g.id for g in lib.for_table(max_minutes=30)} == set()  # Mr. Jack is 30–45 minutes
    assert {g.id for g in lib.for_table(max_minutes=45)} == {"mr_jack_ny"}
    assert {g.id for g in lib.for_table(max_minutes=60)} == {"mr_jack_ny", "spyfall", "clue"}


def _copy_content(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return root


def test_broken_file_names_file_line_and_problem_and_others_still_load(tmp_path: Path) -> None:
    root = _copy_content(tmp_path)
    path = root / "games" / "clue" / "game.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    idx = next(i for i, line in enumerate(lines) if line.startswith("players:"))
    lines[idx] = "players: [6, 3]"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    lib = load_library(root=root)
    assert "clue" not in lib.games
    assert {"watson_holmes", "spyfall", "mr_jack_ny"} <= set(lib.games)
    (err,) = lib.errors
    assert err.file.endswith("games/clue/game.yaml")
    assert "players" in err.problem


@pytest.mark.parametrize("text, line, words", [
    ("name: {ko: x}\nplayers: [2, 3]\nminutes: [10, 20]\npitch: {ko: y}\nplayerz: 3\n", 5, "unknown field"),
    ("name: {ko: x}\nplayers: [2, 3]\nminutes: [10, oops]\npitch: {ko: y}\n", 3, "number"),
    ("name: {ko: x}\nplayers: [2, 3]\nminutes: [10, 20]\n", 1, "missing required field"),
    ("name: {ko: x\nplayers: [2, 3]\n", 2, "YAML syntax"),
])
def test_validation_errors_point_at_the_line(tmp_path: Path, text: str, line: int, words: str) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    value, err = load_typed(path, GameInfo, roots=(tmp_path,))
    assert value is None and err is not None
    assert err.line == line, str(err)
    assert words in err.problem


def test_overlay_adds_a_game_and_overrides_a_file(tmp_path: Path) -> None:
    overlay = tmp_path / "overlay"
    (overlay / "games" / "mystery").mkdir(parents=True)
    (overlay / "games" / "mystery" / "game.yaml").write_text(
        "name: {ko: 미스터리, en: Mystery}\nplayers: [2, 4]\nminutes: [20, 30]\npitch: {ko: 새 게임}\nengine: none\n",
        encoding="utf-8")
    (overlay / "games" / "clue").mkdir(parents=True)
    shutil.copy(ROOT / "games" / "clue" / "game.yaml", overlay / "games" / "clue" / "game.yaml")
    with open(overlay / "games" / "clue" / "game.yaml", "a", encoding="utf-8") as f:
        f.write("teach_minutes: 99\n")
    lib = load_library(overlay=overlay)
    assert lib.errors == []
    assert lib.games["mystery"].info.name.ko == "미스터리"
    assert not lib.games["mystery"].playable
    assert lib.games["clue"].info.teach_minutes == 99


def _load_in_child(overlay: Path) -> subprocess.CompletedProcess[str]:
    """load_library(overlay) in a child with 1.5 GB of address space and 60 s: a bomb cannot hurt the runner."""
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))\n"
            "from pathlib import Path\n"
            "from content.loader import load_library\n"
            "lib = load_library(overlay=Path(sys.argv[1]))\n"
            "print(sorted(lib.games))\n"
            "for e in lib.errors: print(e)\n")
    root = Path(__file__).resolve().parents[2]
    try:
        return subprocess.run([sys.executable, "-c", code, str(overlay)], cwd=root, capture_output=True, text=True,
                              timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("loading the overlay took more than 60 s")


def _bomb() -> str:
    lines = ['name: {ko: 폭탄}', 'players: [2, 4]', 'minutes: [10, 20]', 'pitch: {ko: x}',
             'a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for n in range(1, 9):
        lines.append(f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_in_an_overlay_is_refused_naming_the_file(tmp_path: Path) -> None:
    """A 1 KB 'billion laughs' file in a café overlay (10^9 values once aliases expand) is refused with a
    message naming the file and line; the other games load and the loader stays small and quick."""
    text = _bomb()
    assert len(text.encode()) < 1024
    folder = tmp_path / "overlay" / "games" / "clue"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    out = _load_in_child(tmp_path / "overlay")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "'spyfall'" in out.stdout and "'clue'" not in out.stdout
    assert "games/clue/game.yaml:" in out.stdout and "alias" in out.stdout


def test_deeply_nested_yaml_is_refused_instead_of_crashing_the_parser(tmp_path: Path) -> None:
    """100,000 nested lists (200 KB): with PyYAML 6.0.3 libyaml's recursive composer overflowed the C stack
    (SIGSEGV, measured); 6.0.4's scanner refuses it. Either way the file is named and the rest loads."""
    folder = tmp_path / "overlay" / "games" / "deep"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text("x: " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    out = _load_in_child(tmp_path / "overlay")
    assert out.returncode == 0, f"rc={out.returncode} {out.stderr[-2000:]}"
    assert "'spyfall'" in out.stdout
    assert "games/deep/game.yaml:1: YAML" in out.stdout and "nest" in out.stdout


def test_oversized_yaml_is_refused_by_size(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("pitch: {ko: '" + "가" * 400_000 + "'}\n", encoding="utf-8")
    value, err = load_typed(path, GameInfo, roots=(tmp_path,))
    assert value is None and err is not None
    assert "file too large" in err.problem and err.file == "tmp_path/game.yaml".replace("tmp_path", tmp_path.name)


def test_shipped_files_stay_far_below_the_limits() -> None:
    from content import yamlmap

    biggest = max(ROOT.rglob("*.yaml"), key=lambda p: p.stat().st_size)
    assert biggest.stat().st_size * 10 < yamlmap.MAX_BYTES
    counted: list[int] = [0]
    loader = yamlmap.Loader(biggest.read_text(encoding="utf-8"))
    yamlmap._walk(loader.get_single_node(), (), {}, counted)
    loader.dispose()
    assert counted[0] * 10 < yamlmap.MAX_NODES
