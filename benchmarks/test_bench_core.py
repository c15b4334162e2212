"""Core speed benchmarks (pytest-benchmark).

Run for figures:  python -m pytest benchmarks --benchmark-enable
CI runs them with benchmarks disabled, as correctness smoke tests.
"""

import pytest

from gostop_core import Game, Rules
from gostop_core.cards import parse_mask
from gostop_core.scoring import score_mask


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts(benchmark, players):
    game = Game(players=players, seed=1)
    games = 2000
    wins, draws = benchmark(game._core.random_playouts, games, 7)
    assert sum(wins) + draws == games


@pytest.mark.parametrize("bulk", [True, False], ids=["bulk", "nobulk"])
def test_perft_depth4(benchmark, bulk):
    game = Game(players=2, seed=1)
    nodes = benchmark(game._core.perft, 4, bulk)
    assert nodes == game._core.perft(4, not bulk)


def test_score_pile(benchmark):
    rules = Rules("casual")
    mask = parse_mask("1B 3B 12B 2A 4A 8A 9A 1R 2R 3R 1J1 1J2 11D X2")
    total = benchmark(score_mask, mask, rules)
    assert total > 0


def test_api_legal_push_pop(benchmark):
    game = Game(players=2, seed=3)

    def cycle():
        n = 0
        for move in game.legal_moves:
            game.push(move)
            game.pop()
            n += 1
        return n

    assert benchmark(cycle) == game.legal_moves.count()
