"""Chance from the operating system (issue 19, item 2): a game's seed has at least 128 bits and is kept only
in the journal; the public layout and the secret deal are separate draws, so neither narrows the other."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from content.loader import load_library
from engines.clue import rules as clue_rules
from table.session import Session
from tests.engines.clue.helpers import PACK

CLUE_CONFIG = {"players": ["지수", "민호", "서연", "하준"], "mode": "digital", "set": "classic"}


def test_every_new_game_draws_a_seed_of_at_least_128_bits(tmp_path: Path) -> None:
    """Eight games, eight seeds: all different, and the space they come from has ≥ 2^128 values (the largest
    of eight uniform 128-bit draws has fewer than 121 bits with probability 2^-56; a 31-bit seed, as
    before, could be searched in minutes)."""
    lib = load_library()
    seeds = []
    for i in range(8):
        s = Session.new(lib, "clue", CLUE_CONFIG, tmp_path / str(i))
        seeds.append(int(s.journal.header["seed"]))
        views = [s.view(seat) for seat in (None, 0, 1, 2, 3)]
        assert str(seeds[-1]) not in json.dumps(views)  # kept in the journal only
        s.close()
    assert len(set(seeds)) == 8 and max(x.bit_length() for x in seeds) > 120


def _streams(monkeypatch: pytest.MonkeyPatch, layout_key: int, deal_key: int) -> Any:
    """Run Clue's set-up with each named draw fed by its own stream: layout draws from `layout_key`, every
    other draw (the deal) from `deal_key`."""
    def fake(seed: int, *salt: object) -> random.Random:
        return random.Random(f"{layout_key}" if "layout" in salt else f"deal:{deal_key}")

    monkeypatch.setattr(clue_rules, "seeded_rng", fake)
    return clue_rules.ENGINE.setup(CLUE_CONFIG, PACK, 0)


def test_clue_public_weapon_rooms_and_the_secret_deal_are_separate_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player who knows the weapon rooms (public) learns nothing of the envelope from them: with the layout
    draw fixed, the deal still ranges over many envelopes; with the deal draw fixed, the layout changes
    and the envelope and hands do not."""
    fixed_layout = [_streams(monkeypatch, 1, k) for k in range(40)]
    assert len({s.weapons for s in fixed_layout}) == 1
    assert len({s.envelope for s in fixed_layout}) > 20
    fixed_deal = [_streams(monkeypatch, k, 1) for k in range(40)]
    assert len({s.weapons for s in fixed_deal}) > 20
    assert len({(s.envelope, s.hands) for s in fixed_deal}) == 1
