"""What a game costs in the kiosk: product files and lines per game, hand-written UI separately, and the
files a new game must add.

    python -m bench.game_cost            # the table for every game with a kiosk module
    python -m bench.game_cost --json     # the same as JSON

Counted per game: kiosk/games/<game>/ (files, lines, non-blank lines; .py and .kv apart), and lines in
the shared kiosk code that name the game or one of its engine's action classes (a game-specific branch in
a shared file is a cost of that game too). "Needs" lists the files a fifth game must add to be playable
(HOSTING.md's checklist; without a screen of its own it plays on the generic one) and whether each exists.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEEDS = ("engines/{g}/__init__.py", "content/games/{g}/game.yaml")  # then it plays on kiosk/generic_host.py
OPTIONAL = ("content/i18n/ko/{g}.yaml", "content/i18n/en/{g}.yaml", "kiosk/games/{g}/__init__.py")


def _lines(path: Path) -> tuple[int, int]:
    text = path.read_text(encoding="utf-8").splitlines()
    return len(text), sum(1 for line in text if line.strip())


def measure(game: str) -> dict[str, object]:
    folder = ROOT / "kiosk" / "games" / game
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".py", ".kv"))
    by_kind = {".py": [0, 0], ".kv": [0, 0]}
    for p in files:
        total, code = _lines(p)
        by_kind[p.suffix][0] += total
        by_kind[p.suffix][1] += code
    shared = 0
    pattern = re.compile(rf"\b{re.escape(game)}\b")
    for p in (ROOT / "kiosk").rglob("*.py"):
        if folder in p.parents:
            continue
        shared += sum(1 for line in p.read_text(encoding="utf-8").splitlines() if pattern.search(line))
    return {"game": game, "files": len(files), "lines": by_kind[".py"][0] + by_kind[".kv"][0],
            "nonblank": by_kind[".py"][1] + by_kind[".kv"][1], "py": by_kind[".py"][0], "kv": by_kind[".kv"][0],
            "shared_lines": shared,
            "needs": {n.format(g=game): (ROOT / n.format(g=game)).exists() for n in NEEDS}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    games = sorted(p.name for p in (ROOT / "kiosk" / "games").iterdir() if (p / "__init__.py").exists())
    rows = [measure(g) for g in games]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'game':<15}{'files':>6}{'lines':>7}{'nonblank':>9}{'py':>6}{'kv':>6}{'shared':>8}")
    for r in rows:
        print(f"{r['game']:<15}{r['files']:>6}{r['lines']:>7}{r['nonblank']:>9}{r['py']:>6}{r['kv']:>6}"
              f"{r['shared_lines']:>8}")
    total = sum(int(str(r["lines"])) for r in rows)
    print(f"{'all':<15}{sum(int(str(r['files'])) for r in rows):>6}{total:>7}")
    print("a new game needs: " + ", ".join(NEEDS).replace("{g}", "<game>"))
    print("and may add (its own screen and strings): " + ", ".join(OPTIONAL).replace("{g}", "<game>"))


if __name__ == "__main__":
    main()
