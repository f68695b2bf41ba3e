"""Every registered engine (and the reference engine) through seeded random playthroughs."""

from __future__ import annotations

import pytest

import engines
from tests.engines import reference
from tests.engines.conformance import random_playthrough
from tests.packs import pack_for

engines.register(reference.ENGINE)
NAMES = engines.engine_names()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", range(6))
def test_random_playthroughs_keep_every_invariant(name: str, seed: int) -> None:
    engine = engines.find_engine(name)
    pack = pack_for(name)
    configs = engine.example_configs(pack)
    assert configs, f"{name} gives no example configs"
    for config in configs:
        play = random_playthrough(engine, config, pack, seed)
        assert play.outcome is not None


class _LeakyNim(reference.SecretNim):
    name = "leaky_nim"

    def view(self, state, seat):  # type: ignore[no-untyped-def]
        out = super().view(state, seat)
        out["everyone"] = [{"hand": h} for h in state.hands]  # shows every secret to every seat
        return out


class _MutatingNim(reference.SecretNim):
    name = "sloppy_nim"

    def legal_actions(self, state, seat):  # type: ignore[no-untyped-def]
        return [*super().legal_actions(state, seat), reference.Take(seat, 99)] if seat >= 0 else \
            super().legal_actions(state, seat)


def test_the_harness_catches_a_leaked_secret() -> None:
    with pytest.raises(AssertionError, match="sees hand"):
        random_playthrough(_LeakyNim(), {"players": ["A", "B"]}, {}, 0)


def test_the_harness_catches_a_legal_action_that_does_not_apply() -> None:
    from engines.core import RuleError
    with pytest.raises(RuleError):
        random_playthrough(_MutatingNim(), {"players": ["A", "B"]}, {}, 0)
