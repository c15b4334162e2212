"""The network as a model of the other seats (``NeuralOpponentModel``): a
sampled deal weighed by the likelihood of the opponents' observed decisions,
checked against the softmax of the network's Q computed from the opponent's
own view."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gostop_core import Game
from gostop_core.bots.neural import _playout
from gostop_core.bots.search import search_fields
from gostop_core.neural.network import shipped_weights
from gostop_core.neural.playout import NeuralOpponentModel
from gostop_core.notation import parse_view
from gostop_core.rules import Rules

PLAY = 1


def opponent_decision(seed: int):
    """A game at a card play of seat 1 with a choice (the first game from
    ``seed`` on that reaches one): seat 0's view then, seat 1's own view."""
    for s in range(seed, seed + 100):
        game = Game("casual", 2, seed=s)
        while game.outcome() is None:
            legal = list(game.legal_moves)
            if (game.to_move == 1 and len(legal) > 2
                    and all(m.code >> 12 == PLAY for m in legal)):
                rules, searcher = parse_view(game.view(0).to_str())
                _, own = parse_view(game.view(1).to_str())
                return rules, searcher, own
            game.push(legal[-1])
    raise AssertionError("no game reached a card play of seat 1 with a choice")


@pytest.fixture(scope="module")
def playout():
    return _playout(str(shipped_weights(Rules("casual"), 2)))


@pytest.mark.parametrize("seed", [1, 8, 21])
@pytest.mark.parametrize("temperature", [1.0, 3.0])
def test_weight_is_the_softmax_probability_of_the_observed_move(playout, seed, temperature):
    rules, searcher, own = opponent_decision(seed)
    codes, q = playout.view_q_values(rules, own)
    k = int(np.argmin(q))  # the least likely move: the weight is far from 1
    card = 1 << ((codes[k] >> 6) & 63)
    model = NeuralOpponentModel(playout, temperature)
    model.set_observations(rules, [(searcher, codes[k], card)])
    assert model.observations == 1
    # the deal in which seat 1 holds its real hand less the card it played
    weight = model.weight(rules, searcher, {1: own["hand"] & ~card})
    z = np.exp((q.astype(np.float64) - q.max()) / temperature)
    assert weight == pytest.approx(z[k] / z.sum(), rel=1e-4)
    assert 0.0 < weight < 1.0


def test_a_deal_that_could_not_have_made_the_move_is_all_but_ruled_out(playout):
    rules, searcher, own = opponent_decision(8)
    codes, _ = playout.view_q_values(rules, own)
    card = 1 << ((codes[0] >> 6) & 63)
    model = NeuralOpponentModel(playout, 2.0)
    # observed, but in this deal the card was never in seat 1's hand
    model.set_observations(rules, [(searcher, codes[0], 0)])
    assert model.weight(rules, searcher, {1: own["hand"] & ~card}) == pytest.approx(math.exp(-30.0))
    model.clear_observations()
    assert model.weight(rules, searcher, {1: own["hand"]}) == 1.0


def test_observations_are_validated(playout):
    rules, searcher, own = opponent_decision(1)
    model = NeuralOpponentModel(playout, 2.0)
    codes, _ = playout.view_q_values(rules, own)
    model.set_observations(rules, [(searcher, codes[0], 0)])
    with pytest.raises(ValueError, match="another seat"):
        # a good observation then seat 1's own decision: refused whole
        model.set_observations(rules, [(searcher, codes[0], 0), (own, 0, 0)])
    assert model.observations == 1   # the observations before are kept
    with pytest.raises(ValueError, match="bad observed"):
        model.set_observations(rules, [(searcher, 1 << 16, 0)])
    with pytest.raises(ValueError, match="temperature"):
        NeuralOpponentModel(playout, 0.0)


def test_the_model_plays_and_values_as_its_network(playout):
    """Without ``worlds`` the model is the network's playout model: the same
    playout moves and values, so the same search values."""
    game = Game("casual", 2, seed=4)
    for _ in range(6):
        game.push(list(game.legal_moves)[-1])
    while game.to_move != 0:
        game.push(list(game.legal_moves)[-1])
    rules, fields = parse_view(game.view(0).to_str())
    model = NeuralOpponentModel(playout, 1.0)
    plain = search_fields(rules, fields, 1, 16, 5, model=playout.capsule(), cutoff=1,
                          model_others=True)
    same = search_fields(rules, fields, 1, 16, 5, model=model.capsule(), cutoff=1,
                         model_others=True)
    assert [v for _, v, _ in plain["moves"]] == pytest.approx([v for _, v, _ in same["moves"]])

