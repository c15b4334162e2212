"""VectorGame against the Game loop (pytest-benchmark); figures in docs/performance.md.

Run for figures:  python -m pytest benchmarks/test_bench_vector.py --benchmark-enable
CI runs them with benchmarks disabled, as smoke tests.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from gostop_core import Game
from gostop_core.envs import VectorGame
from gostop_core.envs.actions import random_actions, random_legal
from gostop_core.envs.vector_bench import compare

GAMES = 4096
STEPS = 50


def record(benchmark, key: str, work: int) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is not None and stats.stats.min > 0:
        benchmark.extra_info[key] = work / stats.stats.min


@pytest.mark.parametrize("draw", ["legal", "mask"])
@pytest.mark.parametrize("preset,players", [("casual", 2), ("standard", 3), ("family", 4)])
def test_vector_numpy_random_actions(benchmark, preset, players, draw):
    """Random legal actions drawn with numpy from ``vg.legal`` or from the mask."""
    vg = VectorGame(GAMES, rules=preset, players=players, seed=1)
    rng = np.random.default_rng(1)

    def run():
        for _ in range(STEPS):
            if draw == "legal":
                vg.step(random_legal(vg.legal, vg.legal_count, rng))
            else:
                vg.step(random_actions(vg.mask, rng))

    benchmark(run)
    record(benchmark, "decisions_per_s", GAMES * STEPS)


def test_game_loop_random_moves(benchmark):
    rnd = random.Random(1)

    def run():
        n = 0
        for seed in range(1, 101):
            g = Game("casual", 2, seed=seed)
            while not g.is_over():
                g.push(rnd.choice(list(g.legal_moves)))
                n += 1
        return n

    decisions = benchmark(run)
    record(benchmark, "decisions_per_s", decisions)


def test_compare_reports_both_rates():
    fig = compare(0.05, num_games=256)
    assert fig["vector_decisions_per_s"] > 0 and fig["game_loop_decisions_per_s"] > 0
    assert fig["vector_vs_game_loop"] == pytest.approx(
        fig["vector_decisions_per_s"] / fig["game_loop_decisions_per_s"])
