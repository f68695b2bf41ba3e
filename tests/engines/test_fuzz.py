"""The engine fuzz (CI-sized: about a minute of CPU; TABLEHOST_FUZZ_GAMES=N seeds, default 4, × every
example config): many seeded random games of every engine, picking an action kind first so games go deep,
each step probing illegal actions (other seats', the table's in a player's place and the reverse,
deadlines before their moment) and swapping hidden facts (every other seat's view and legal actions, the
table view and the table's offers must stay identical). A failure names the engine, config and seed:
rerun it with `random_playthrough` directly."""

from __future__ import annotations

import os

import pytest

import engines
from tests.engines.conformance import random_playthrough
from tests.packs import pack_for

GAMES = ["clue", "mr_jack_ny", "spyfall", "watson_holmes"]
SEEDS = range(1000, 1000 + int(os.environ.get("TABLEHOST_FUZZ_GAMES", "4")))


@pytest.mark.parametrize("name", GAMES)
def test_fuzz_random_play_illegal_probes_and_secret_swaps(name: str) -> None:
    """Covers #19 item 4 and 8: apply accepts only what the seat could do; secrets do not interfere."""
    engine = engines.find_engine(name)
    pack = pack_for(name)
    games = variants = 0
    for seed in SEEDS:
        for config in engine.example_configs(pack):
            play = random_playthrough(engine, config, pack, seed, check_first=10, check_every=4,
                                      max_legal_checked=4, by_kind=True)
            assert play.outcome is not None
            games += 1
            variants += play.variants
    assert variants > games, f"{name}: hidden variants were hardly ever checked ({variants} in {games} games)"
