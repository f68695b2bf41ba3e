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


def test_counting_bench_compares_with_todays_algorithm(capsys: pytest.CaptureFixture[str]) -> None:
    """Covers CLUE-58: the counting bench runs today's algorithm and the new one on the same notebooks;
    their counts are equal on every update and the ratios are printed."""
    from bench import clue_counting

    clue_counting.main(["--games", "2", "--players", "5"])
    out = capsys.readouterr().out
    assert "counts differ in 0;" in out and "ratio" in out and "worst" in out
