"""The Game loop (pytest-benchmark): a plain Python loop of random legal moves
through the public API, dealing included, as a learning user writes it:

    g = Game(rules="casual", players=2, seed=s)
    while not g.is_over():
        g.push(random.choice(list(g.legal_moves)))

Run for figures:  python -m pytest benchmarks/test_bench_game_loop.py --benchmark-enable
CI runs it with benchmarks disabled, as a quick smoke test.  The figures and the
profile are in docs/performance.md, "The Game loop".
"""

from __future__ import annotations

import random

import pytest

from gostop_core import Game, Rules

GAMES = 500


def game_loop(games: int, preset: str = "casual", players: int = 2, seed: int = 0) -> int:
    """Play ``games`` dealt hands with uniformly random decisions; returns the
    number of decisions made."""
    rnd = random.Random(seed)
    decisions = 0
    for s in range(seed, seed + games):
        g = Game(rules=preset, players=players, seed=s)
        while not g.is_over():
            g.push(rnd.choice(list(g.legal_moves)))
            decisions += 1
    return decisions


def record(benchmark, **work: int) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is not None and stats.stats.min > 0:
        for key, amount in work.items():
            benchmark.extra_info[key] = amount / stats.stats.min


def test_game_loop_casual_2p(benchmark):
    """The headline figure: random 2-player casual games per second."""
    decisions = benchmark(game_loop, GAMES)
    assert decisions > 10 * GAMES
    record(benchmark, games_per_s=GAMES, decisions_per_s=decisions)


@pytest.mark.parametrize("preset,players", [(p, n) for p in ("traditional", "standard", "family")
                                            for n in Rules(p).allowed_players()])
def test_game_loop_presets(benchmark, preset, players):
    decisions = benchmark(game_loop, GAMES // 5, preset, players)
    assert decisions > 0
    record(benchmark, games_per_s=GAMES // 5, decisions_per_s=decisions)


def test_game_loop_ends_every_game():
    """Every game of the loop ends, with an outcome and no legal move left."""
    rnd = random.Random(3)
    for s in range(40):
        g = Game("standard", 2 + s % 2, seed=s)
        while not g.is_over():
            g.push(rnd.choice(list(g.legal_moves)))
        assert g.outcome() is not None and g.turn is None and not g.legal_moves
