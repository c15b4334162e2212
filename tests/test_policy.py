"""The search's greedy policy (C, ``search.policy_move``) is the greedy bot.

The search models every opponent, and plays out every leaf, with a greedy policy
written in C.  It must choose exactly what :class:`GreedyBot` (Python, from the
player's view) chooses, or the search would model an opponent that does not
exist.  Checked at every decision of whole games of every preset, player count
and option; the games mix in random moves so that positions greedy play never
reaches (bombs declined, odd discards, showdowns asked) are checked too.
"""

from __future__ import annotations

import random

import pytest

from gostop_core import Game, Move, Rules
from gostop_core.bots import GreedyBot
from gostop_core.rules import PRESETS
from gostop_core.bots.search import policy_choice

PRESET_PLAYERS = [(name, n) for name in PRESETS for n in Rules(name).allowed_players()]


def disagreements(rules, players, seeds, explore=0.3):
    """(seed, view string, greedy move, policy move) wherever the two differ, and
    the number of decisions compared."""
    greedy = GreedyBot()
    found, decisions = [], 0
    for seed in seeds:
        game = Game(rules, players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            seat = game.turn
            view = game.view(seat)
            legal = list(game.legal_moves)
            expected = greedy.choose(view, legal)
            got = Move.from_code(policy_choice(game._core))
            decisions += 1
            if got != expected:
                found.append((seed, view.to_str(), str(expected), str(got)))
            game.push(rng.choice(legal) if rng.random() < explore else expected)
    return found, decisions


@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_policy_is_the_greedy_bot(preset, players):
    found, decisions = disagreements(preset, players, range(25))
    assert decisions > 25 * 8
    assert found == []


@pytest.mark.parametrize("rules,players", [
    (Rules("standard", showdown=1), 3),
    (Rules("casual", gwangpalli=1), 4),
    (Rules("traditional", go_bak=1, bomb_flip_only_optional=1), 2),
])
def test_policy_is_the_greedy_bot_with_options(rules, players):
    found, decisions = disagreements(rules, players, range(25), explore=0.5)
    assert decisions > 25 * 8
    assert found == []


def test_policy_has_no_move_in_a_finished_hand():
    game = Game("casual", 2, seed=3)
    greedy = GreedyBot()
    while not game.is_over():
        game.push(greedy.choose(game.view(game.turn), list(game.legal_moves)))
    with pytest.raises(ValueError, match="over"):
        policy_choice(game._core)
