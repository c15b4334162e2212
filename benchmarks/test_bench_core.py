"""Core speed benchmarks (pytest-benchmark), one per figure of docs/performance.md.

Run for figures:  python -m pytest benchmarks --benchmark-enable -p no:randomly
                  (add --benchmark-json=out.json to keep the extra_info rates)
CI runs them with benchmarks disabled, as quick correctness smoke tests.

Each benchmark stores its rate (games/s, nodes/s, evals/s, moves/s) in
``extra_info`` from the best round; the reference comparison times the core and
the pure-Python reference on the same positions in the same test.
"""

from __future__ import annotations

import time

import pytest

from gostop_core import Game, Rules
from gostop_core.bench import (
    PRESETS, api_cycle, api_positions, memory_playouts, perft_nodes, score_masks,
)
from gostop_core.testing.reference import ReferenceGame
from gostop_core.scoring import score_mask, score_masks_loop

#: (preset, players) for every player count each preset seats.
SEATINGS = [(p, n) for p in PRESETS for n in Rules(p).allowed_players()]
IDS = [f"{p}-{n}p" for p, n in SEATINGS]


def record(benchmark, key: str, work: int) -> None:
    """Store ``work`` per second of the best round (when benchmarks are enabled)."""
    stats = getattr(benchmark, "stats", None)
    if stats is not None and stats.stats.min > 0:
        benchmark.extra_info[key] = work / stats.stats.min


# ---------------------------------------------------------------- playouts
@pytest.mark.parametrize("preset,players", SEATINGS, ids=IDS)
def test_random_playouts(benchmark, preset, players):
    core = Game(preset, players, seed=1)._core
    games = 2000
    wins, draws = benchmark(core.random_playouts, games, 7)
    assert sum(wins) + draws == games
    record(benchmark, "games_per_s", games)


# ---------------------------------------------------------------- perft
@pytest.mark.parametrize("bulk", [True, False], ids=["bulk", "nobulk"])
@pytest.mark.parametrize("preset,players", SEATINGS, ids=IDS)
def test_perft_depth5(benchmark, preset, players, bulk):
    nodes = benchmark(perft_nodes, 5, bulk, preset, players, 2)
    assert nodes == perft_nodes(5, not bulk, preset, players, 2)
    record(benchmark, "nodes_per_s", nodes)


@pytest.mark.parametrize("bulk", [True, False], ids=["bulk", "nobulk"])
def test_perft_depth6_casual(benchmark, bulk):
    """The headline perft figure: depth 6 of seeded 2-player casual deals."""
    nodes = benchmark(perft_nodes, 6, bulk)
    assert nodes > 0
    record(benchmark, "nodes_per_s", nodes)


@pytest.mark.parametrize("preset", ["casual", "traditional"])
def test_perft_reference_ratio(benchmark, preset):
    """The pure-Python reference and the core on the same positions at the same
    depth, in the same run; ``extra_info`` holds both rates and their ratio."""
    depth, seeds = 3, (1, 2)
    refs = [ReferenceGame(preset, 2, s) for s in seeds]
    cores = [Game(preset, 2, seed=s)._core for s in seeds]

    def reference() -> int:
        return sum(r.perft(depth, False) for r in refs)

    ref_nodes = benchmark.pedantic(reference, rounds=3 if not benchmark.disabled else 1)
    core_best = float("inf")
    for _ in range(20):
        t = time.perf_counter()
        core_nodes = sum(c.perft(depth, False) for c in cores)
        core_best = min(core_best, time.perf_counter() - t)
    assert core_nodes == ref_nodes
    stats = getattr(benchmark, "stats", None)
    if stats is not None and stats.stats.min > 0:
        ref_rate = ref_nodes / stats.stats.min
        core_rate = core_nodes / core_best
        benchmark.extra_info.update(reference_nodes_per_s=ref_rate, core_nodes_per_s=core_rate,
                                    ratio=core_rate / ref_rate)


# ---------------------------------------------------------------- scoring
@pytest.mark.parametrize("preset", PRESETS)
def test_score_piles(benchmark, preset):
    """Scoring in a C loop (no Python call per pile): 4096 piles x 20 rounds."""
    rules = Rules(preset)
    masks = score_masks(4096, bonus=bool(rules.as_dict().get("bonus_cards")))
    repeats = 20
    checksum = benchmark(score_masks_loop, masks, rules, repeats)
    assert score_masks_loop(masks, rules, 1) == sum(score_mask(int(m), rules) for m in masks)
    assert checksum >= 0
    record(benchmark, "evals_per_s", len(masks) * repeats)


def test_score_mask_python_call(benchmark):
    """One pile through the Python entry point: the call overhead, for contrast."""
    rules = Rules("casual")
    total = benchmark(score_mask, int(score_masks(1, seed=3)[0]) | 0b111, rules)
    assert total >= 0
    record(benchmark, "evals_per_s", 1)


# ---------------------------------------------------------------- the Python API
@pytest.mark.parametrize("preset,players", SEATINGS, ids=IDS)
def test_api_legal_push_pop(benchmark, preset, players):
    """``for m in g.legal_moves: g.push(m); g.pop()`` over the positions of a random game."""
    positions = api_positions(1, preset, players)
    moves = benchmark(api_cycle, positions)
    assert moves == sum(g.legal_moves.count() for g in positions)
    record(benchmark, "moves_per_s", moves)


# ---------------------------------------------------------------- memory
def test_memory_flat_over_playouts(benchmark):
    """RSS before and after in-core playouts (1,000,000 when benchmarks are enabled)."""
    games = 50_000 if benchmark.disabled else 1_000_000
    result = benchmark.pedantic(memory_playouts, args=(games,), rounds=1, iterations=1)
    benchmark.extra_info.update(result)
    assert result["rss_playouts"] == games
    assert result["rss_growth_kb"] <= 1024
