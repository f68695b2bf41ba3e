"""The benchmark script runs (tiny sizes) and prints its figures."""

from __future__ import annotations

import pytest

from bench import clue_solver


def test_bench_prints_methods_and_ratios(capsys: pytest.CaptureFixture[str]) -> None:
    """Covers CLUE-58, CLUE-63: the three methods, times per update and ratios are printed."""
    clue_solver.main(["--games", "2", "--players", "6", "--cap", "40", "--advice-games", "1"])
    out = capsys.readouterr().out
    for word in ("elimination", "propagation", "ours", "p99", "ratio", "approximate", "advice"):
        assert word in out
