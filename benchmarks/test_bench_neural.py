"""The neural bot's speed (pytest-benchmark): self-play actor decisions, learner rows,
the C network and the search on it; figures in docs/performance.md.

Run for figures:  python -m pytest benchmarks/test_bench_neural.py --benchmark-enable
CI runs them with benchmarks disabled, as smoke tests.  ``decisions_per_s`` is
network decisions with a choice (forced moves are played in C without the
network and not counted); one core: numpy's BLAS is held to one thread by the
caller (OPENBLAS_NUM_THREADS=1 in the documented command).
"""

from __future__ import annotations

import pytest

from gostop_core.neural.network import Network
from gostop_core.neural.selfplay import SelfPlay

# The actor's batch as `gostop train-neural` steps it (TrainConfig.games): 256 games,
# whose (legal moves, hidden) layer stays in the processor's cache; 80 steps keep
# the decisions of a round those of 20 steps of 1,024 games (docs/performance.md).
GAMES = 256
STEPS = 80


@pytest.mark.parametrize("hidden", [(256, 128), (128, 64)], ids=["256-128", "128-64"])
def test_actor_decisions_per_second(benchmark, hidden):
    """The actor's whole step: C encoding and first layer, numpy head, C choice and apply."""
    net = Network.initial(hidden, seed=0)
    actor = SelfPlay(GAMES, "casual", 2, seed=1, weights=net.play_weights())

    def run():
        before = actor.decisions
        for _ in range(STEPS):
            actor.advance(net.head(actor.prepare()), 0.05)
            if actor.pending_samples > 60_000:
                actor.drain()
        return actor.decisions - before

    done = benchmark(run)
    assert done > 0
    stats = getattr(benchmark, "stats", None)
    if stats is not None and stats.stats.min > 0:
        benchmark.extra_info["decisions_per_s"] = done / stats.stats.min


def test_one_bot_decision_from_a_view(benchmark):
    """The neural bot's decision as `gostop hint --bot neural` makes it (view parse,
    inputs, Q of every legal move)."""
    from gostop_core import Game
    from gostop_core.bots.neural import NeuralBot
    bot = NeuralBot()
    game = Game("casual", seed=3)
    view, legal = game.view(game.turn), list(game.legal_moves)
    assert benchmark(bot.choose, view, legal) in legal


@pytest.mark.parametrize("hidden", [(256, 128)], ids=["256-128"])
def test_learner_rows_per_second(benchmark, hidden):
    """The learner's step as `gostop train-neural` takes it: a batch of 1,024 rows
    drawn from the replay buffer and scaled, one Adam step on it.  Its rows a
    second bound the self-play a learner keeps up with (docs/strength.md:
    hands/s = rows/s / (samples a hand x --ratio))."""
    import numpy as np

    from gostop_core.neural.dmc import _Replay
    from gostop_core.neural.network import Adam, input_scale

    net = Network.initial(hidden, seed=0)
    actor = SelfPlay(GAMES, "casual", 2, seed=1, weights=net.play_weights())
    replay = _Replay(100_000)
    while replay.size < 20_000:  # real samples: their sparsity is the run's
        actor.advance(net.head(actor.prepare()), 0.05)
        if actor.pending_samples >= 8192:
            replay.add(*actor.drain())
    opt, rng, scale = Adam(net, 5e-4), np.random.default_rng(0), input_scale()
    rows = 1024

    def step():
        x, y = replay.batch(rng, rows, scale)
        return opt.step(x, y)

    assert np.isfinite(benchmark(step))
    stats = getattr(benchmark, "stats", None)
    if stats is not None and stats.stats.min > 0:
        benchmark.extra_info["rows_per_s"] = rows / stats.stats.min


def _first_decision():
    from gostop_core import Game
    from gostop_core.notation import parse_view
    game = Game("casual", seed=3)
    return game, parse_view(game.view(game.turn).to_str())


def test_the_c_network_on_one_view(benchmark):
    """The whole network in C (gostop_core.neural.playout): the Q of every legal
    move of one view, as a playout decision of the search costs it."""
    from gostop_core.neural.network import load_network
    from gostop_core.neural.playout import NeuralPlayout
    model = NeuralPlayout(load_network())
    _, (rules, fields) = _first_decision()
    codes, q = benchmark(model.view_q_values, rules, fields)
    assert len(codes) == len(q) > 1


@pytest.mark.parametrize("spec", ["neural-search:samples=64,cut=4", "neural-search:samples=64,cut=0",
                                  "neural-search"],
                         ids=["cut-4", "to-the-end", "default"])
def test_one_neural_search_decision(benchmark, spec):
    """The search on top of the network: a hand's first decision."""
    from gostop_core.bots import make_bot
    bot = make_bot(spec, seed=1)
    game, _ = _first_decision()
    view, legal = game.view(game.turn), list(game.legal_moves)
    assert benchmark.pedantic(bot.choose, (view, legal), rounds=3, iterations=1) in legal
