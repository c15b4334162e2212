"""Each root move's standard error over its samples (``search_fields``'s
``spreads`` and ``relative_spreads``), checked against the per-sample values
recovered in Python: the search draws its samples in order from one seed, so a
run of k samples repeats the first k - 1 of a run of k - 1, and sample k's
value is the difference of the two runs' sums."""

from __future__ import annotations

import math

import pytest

from gostop_core import Game
from gostop_core.bots.search import search_fields
from gostop_core.notation import parse_view


def view_fields(seed: int, plies: int = 0):
    game = Game("casual", 2, seed=seed)
    for _ in range(plies):
        game.push(next(iter(game.legal_moves)))
    return parse_view(game.view(game.turn).to_str())


def per_sample_values(rules, fields, samples: int, **options) -> list[list[float]]:
    """``[sample][move]`` values: run k's sums less run k - 1's."""
    sums = []
    for k in range(1, samples + 1):
        result = search_fields(rules, fields, 1, k, 99, **options)
        sums.append([value * k for _, value, _ in result["moves"]])
    return [sums[0]] + [[b - a for a, b in zip(sums[k - 1], sums[k])] for k in range(1, samples)]


def standard_error(xs: list[float]) -> float:
    k = len(xs)
    mean = sum(xs) / k
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (k - 1) / k)


@pytest.mark.parametrize("seed,plies", [(3, 0), (11, 4), (27, 9)])
def test_spreads_are_the_standard_errors_of_the_per_sample_values(seed, plies):
    rules, fields = view_fields(seed, plies)
    samples = 12
    per = per_sample_values(rules, fields, samples)
    result = search_fields(rules, fields, 1, samples, 99)
    n = len(result["moves"])
    assert result["counts"] == [samples] * n
    for i in range(n):
        column = [row[i] for row in per]
        assert result["spreads"][i] == pytest.approx(standard_error(column), abs=1e-9)
        relative = [row[i] - sum(row) / n for row in per]
        assert result["relative_spreads"][i] == pytest.approx(standard_error(relative), abs=1e-9)
    # the sampled deal's share common to every move cancels in the relative spread
    assert sum(result["relative_spreads"]) < sum(result["spreads"])


def test_relative_spread_takes_only_the_moves_each_sample_valued():
    """With the halving, a dropped move's samples stop early: a move's
    relative spread is against the mean of the moves each sample valued.  The
    samples' deals do not depend on which moves are searched, so the per-sample
    values come from the run without the halving."""
    rules, fields = view_fields(11, 4)
    samples = 16
    per = per_sample_values(rules, fields, samples)
    result = search_fields(rules, fields, 1, samples, 99, halving=1)
    counts = result["counts"]
    assert len(set(counts)) > 1  # the halving dropped some moves after 4 samples
    for i, count in enumerate(counts):
        column = [per[d][i] for d in range(count)]
        assert result["spreads"][i] == pytest.approx(standard_error(column), abs=1e-9)
        relative = []
        for d in range(count):
            valued = [per[d][j] for j in range(len(counts)) if d < counts[j]]
            relative.append(per[d][i] - sum(valued) / len(valued))
        assert result["relative_spreads"][i] == pytest.approx(standard_error(relative), abs=1e-9)


def test_spreads_are_nan_below_two_samples():
    rules, fields = view_fields(3)
    one = search_fields(rules, fields, 1, 1, 99)
    assert all(math.isnan(s) for s in one["spreads"] + one["relative_spreads"])
