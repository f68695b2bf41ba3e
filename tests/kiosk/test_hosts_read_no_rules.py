"""The shared screens copy no rule (issue 20): no game screen reads the session's state, a widget's private
fields or an engine's rules modules; they draw from views and send actions."""

from __future__ import annotations

import re
from pathlib import Path

import engines

ROOT = Path(__file__).resolve().parents[2]
SCREENS = sorted((ROOT / "kiosk" / "games").rglob("*.py")) + sorted((ROOT / "kiosk" / "games").rglob("*.kv")) + [
    ROOT / "kiosk" / "generic_host.py"]
FORBIDDEN = [
    (re.compile(r"session\.state\b|\.state\.(players|round|settings)\b"), "reads the session's state"),
    (re.compile(r"\.engine\.(to_move|legal_actions|_apply|outcome|secrets)\("), "asks the engine's rules directly"),
    (re.compile(r"\b_fired\b|\.clock\._"), "touches a widget's private fields"),
    (re.compile(r"session\.dispatch\(|confirmed=True"), "sends around the hosting layer's FINAL confirmation"),
    (re.compile(r"\.engine\.(?!actions\b|action_from_dict\b)\w+|\bengine\._\w+|\.facts\b|\bENGINE\b"),
     "calls an engine's rule helpers (ask views, legal actions, offers)"),
]
RULES_MODULES = re.compile(r"from engines\.\w+\.(rules|claims|scoring|deal|physical|solve|engine)\b|from engines\.(votes|timers)\b")


def test_game_screens_read_no_state_and_no_rules() -> None:
    problems = []
    for path in SCREENS:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern, why in FORBIDDEN:
                if pattern.search(line):
                    problems.append(f"{path.relative_to(ROOT)}:{n}: {why}: {line.strip()}")
            if RULES_MODULES.search(line):
                problems.append(f"{path.relative_to(ROOT)}:{n}: imports a rules module: {line.strip()}")
    assert not problems, "\n".join(problems)


def test_the_check_catches_a_state_read(tmp_path: Path) -> None:
    for line in ("        return list(self.session.state.players)",
                 "        if self.session.engine._may_pride(state, seat):",
                 "        ok = self.ctx.table.engine.to_move(s)",
                 "        joker = view_facts.facts.joker",
                 "        self.ctx.dispatch(action, confirmed=True)",
                 "        self.clock._fired.add(60)"):
        assert any(p.search(line) for p, _ in FORBIDDEN), line
    for line in ("        cls = self.ctx.table.engine.actions[name]",
                 "        legal = self.session.legal(seat)"):
        assert not any(p.search(line) for p, _ in FORBIDDEN), line
    assert RULES_MODULES.search("from engines.spyfall.rules import MODULES")


def test_game_yaml_player_range_is_the_engines() -> None:
    """One player range per game: content's game.yaml; the engine refuses one fewer and one more."""
    from content.loader import load_library

    library = load_library()
    for game in library.games.values():
        engine = engines.find_engine(game.engine_name)
        lo, hi = game.info.players
        config = engine.example_configs(game.pack)[0]
        for n, ok in ((lo - 1, False), (lo, True), (hi, True), (hi + 1, False)):
            names = [f"P{i}" for i in range(n)]
            extra = {"suspects": None} if "suspects" in config else {}
            try:
                engine.setup({**config, **extra, "players": names}, game.pack, 1)
                accepted = True
            except (engines.core.ConfigError, ValueError):
                accepted = False
            assert accepted == ok, f"{game.id}: {n} players {'refused' if ok else 'accepted'} (game.yaml {lo}-{hi})"


def test_one_module_list_per_game_in_game_yaml() -> None:
    """The set-up form and the screens read game.yaml's modules; the engine accepts exactly those."""
    from content.loader import load_library
    from engines.spyfall.rules import MODULES

    library = load_library()
    assert library.games["spyfall"].info.modules == MODULES
    for game in library.games.values():
        if game.id != "spyfall":
            assert game.info.modules == ()
    for path in SCREENS:
        assert '"power_up", "harley"' not in path.read_text(encoding="utf-8"), f"{path.name} lists the modules"


def test_setup_limits_are_what_the_engine_accepts() -> None:
    """A set-up form's number ranges come from the engine (Spyfall's rounds: the decks the modules bring,
    SPY-09): the engine starts with each end of the range and refuses one more."""
    from content.loader import load_library

    game = load_library().games["spyfall"]
    engine = engines.find_engine(game.engine_name)
    base = {"players": ["A", "B", "C", "D", "E"]}
    seen = set()
    for modules in ([], ["prank"], ["multiverse"], ["prank", "multiverse"], list(game.info.modules)):
        config = {**base, "modules": modules}
        lo, hi = engine.setup_limits(config, game.pack)["rounds"]
        seen.add(hi)
        engine.setup({**config, "rounds": lo}, game.pack, 1)
        engine.setup({**config, "rounds": hi}, game.pack, 1)
        try:
            engine.setup({**config, "rounds": hi + 1}, game.pack, 1)
            raise AssertionError(f"{modules}: {hi + 1} rounds accepted")
        except engines.core.ConfigError:
            pass
    assert len(seen) > 1, "the most rounds depends on the modules"
