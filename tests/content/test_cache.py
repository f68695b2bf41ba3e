"""The content library kept in the data folder (content/cache.py): the same library as a fresh load, never a stale,
damaged or foreign one."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

from content import ROOT, cache
from content.loader import load_library


def _same(a: object, b: object) -> None:
    assert a.branches == b.branches and a.errors == b.errors  # type: ignore[attr-defined]
    assert a.games.keys() == b.games.keys()  # type: ignore[attr-defined]
    for gid, g in a.games.items():  # type: ignore[attr-defined]
        h = b.games[gid]  # type: ignore[attr-defined]
        assert (g.info, g.content_hash, g.files, g.playable) == (h.info, h.content_hash, h.files, h.playable)
        assert dict(g.pack) == dict(h.pack)


def test_a_second_start_gets_the_same_library_from_the_cache(tmp_path: Path) -> None:
    fresh = load_library()
    first = cache.load_library_cached(tmp_path)
    assert (tmp_path / cache.NAME).is_file()
    again = cache.load_library_cached(tmp_path)
    assert isinstance(again.games["spyfall"].pack, cache.LazyPack)  # from the cache
    _same(fresh, first)
    _same(fresh, again)


def test_a_changed_file_loads_again(tmp_path: Path) -> None:
    overlay = tmp_path / "overlay"
    (overlay / "games" / "spyfall").mkdir(parents=True)
    game = (ROOT / "games" / "spyfall" / "game.yaml").read_text(encoding="utf-8")
    (overlay / "games" / "spyfall" / "game.yaml").write_text(game, encoding="utf-8")
    cache.load_library_cached(tmp_path / "c", overlay)
    changed = game.replace("players: [", "players: [4, 8] #", 1)
    assert changed != game
    (overlay / "games" / "spyfall" / "game.yaml").write_text(changed, encoding="utf-8")
    lib = cache.load_library_cached(tmp_path / "c", overlay)
    assert lib.games["spyfall"].info.players == (4, 8)
    _same(lib, load_library(overlay))
    # a broken file: the same errors as a fresh load, from the cache too
    (overlay / "games" / "spyfall" / "game.yaml").write_text("name: [", encoding="utf-8")
    for _ in range(2):
        lib = cache.load_library_cached(tmp_path / "c", overlay)
        assert "spyfall" not in lib.games and lib.errors == load_library(overlay).errors


def test_a_damaged_cache_loads_again_and_is_renewed(tmp_path: Path) -> None:
    cache.load_library_cached(tmp_path)
    path = tmp_path / cache.NAME
    good = path.read_bytes()
    for bad in (good[: len(good) // 2], good[:200] + b"\0" * (len(good) - 200), b"", b"garbage"):
        path.write_bytes(bad)
        _same(cache.load_library_cached(tmp_path), load_library())
        assert path.read_bytes() == good


def test_a_cache_holding_anything_but_content_is_refused(tmp_path: Path) -> None:
    """A cache is data, never code: a pickle calling os.system under the right key is refused and loaded again."""
    cache.load_library_cached(tmp_path)
    path = tmp_path / cache.NAME
    head = path.read_bytes().split(b"\n", 2)
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return os.system, (f"touch {marker}",)

    path.write_bytes(head[0] + b"\n" + head[1] + b"\n" + pickle.dumps(Evil()))
    _same(cache.load_library_cached(tmp_path), load_library())
    assert not marker.exists()


def test_the_tiles_need_no_rules_engine(tmp_path: Path) -> None:
    """From the cache, the library's games (names, players, playable) come without importing an engine's rules;
    a pack's first use imports its own."""
    cache.load_library_cached(tmp_path)
    code = (f"import sys; from pathlib import Path; from content.cache import load_library_cached as l; "
            f"lib = l(Path({str(tmp_path)!r})); assert lib.games['clue'].playable; "
            "print(sorted(m for m in sys.modules if m.endswith('.rules'))); lib.games['clue'].pack['sets/classic']; "
            "print(sorted(m for m in sys.modules if m.startswith('engines.clue')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2]).stdout.splitlines()
    assert out[0] == "[]"
    assert "engines.clue.content" in out[1]


def test_an_overlay_moved_elsewhere_loads_again(tmp_path: Path) -> None:
    """The same files in another folder (a read-only data folder copied to memory): the games name the files there."""
    for name in ("a", "b"):
        (tmp_path / name / "games" / "spyfall").mkdir(parents=True)
        (tmp_path / name / "games" / "spyfall" / "game.yaml").write_bytes(
            (ROOT / "games" / "spyfall" / "game.yaml").read_bytes())
        lib = cache.load_library_cached(tmp_path / "c", tmp_path / name)
        assert tmp_path / name / "games" / "spyfall" / "game.yaml" in lib.games["spyfall"].files
