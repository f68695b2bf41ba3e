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
