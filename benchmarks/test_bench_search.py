"""Benchmarks of the search: ``gostop hint`` latency and the greedy policy.

    python -m pytest benchmarks/test_bench_search.py --benchmark-enable

The hint target (issue 6) is a median of at most 100 ms for a 2-player casual
position at the default settings; ``scripts/hint_latency.py`` measures the median
over every decision of 60 hands, these benchmarks time single positions of a hand
(its first decision is the slowest: ten cards in hand and 21 in the stock).  The
greedy policy is timed in C (the search's opponent model and playout policy) and in
Python (``GreedyBot``, the same choices) on the same positions.
"""

from __future__ import annotations

import pytest

from gostop_core import Game
from gostop_core.bots import GreedyBot
from gostop_core.bots.search import policy_choice
from gostop_core.bots.analysis import hint_moves


def greedy_hand(seed: int) -> list[Game]:
    """Every decision of a casual 2-player hand of greedy against greedy."""
    greedy = GreedyBot()
    game = Game("casual", 2, seed=seed)
    out = []
    while not game.is_over():
        out.append(game.copy())
        game.push(greedy.choose(game.view(game.turn), list(game.legal_moves)))
    return out


HAND = greedy_hand(11)
STAGES = {"first decision": 0, "middle": len(HAND) // 2, "late": len(HAND) - 4}


@pytest.mark.parametrize("stage", STAGES)
def test_hint_latency(benchmark, stage):
    game = HAND[STAGES[stage]]
    view = game.view(game.turn).to_str()
    ranked = benchmark(hint_moves, view)
    assert {str(r.move) for r in ranked} == {str(m) for m in game.legal_moves}


def _policy_c(games):
    return [policy_choice(g._core) for g in games]


def _policy_python(games):
    greedy = GreedyBot()
    return [greedy.choose(g.view(g.turn), list(g.legal_moves)).code for g in games]


@pytest.mark.parametrize("side", ["C", "Python"])
def test_greedy_policy_over_a_hand(benchmark, side):
    run = _policy_c if side == "C" else _policy_python
    choices = benchmark(run, HAND)
    assert choices == _policy_python(HAND)
