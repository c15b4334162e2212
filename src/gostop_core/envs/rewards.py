"""What a finished hand is worth to each seat, for the learning environments.

* Casual rules (the winner scores its points, nobody pays): the winner gets
  ``+points``, every other seat in play ``-points``, a drawn hand 0 - net points,
  a zero-sum game with two players only.
* Every other preset: each seat's chips won or paid in the hand
  (:attr:`gostop_core.Outcome.chips`: payments and special-event chips;
  family rules: the balances).
"""

from __future__ import annotations

import numpy as np


def hand_rewards(game) -> np.ndarray:
    """Each seat's reward (float32, one per seat) for a finished ``game``;
    zeros while the hand is on."""
    out = np.zeros(game.players, dtype=np.float32)
    outcome = game.outcome()
    if outcome is None:
        return out
    if game.rules.payment != 0:
        out[:] = outcome.chips
    elif outcome.winner is not None:
        for q in range(game.players):
            if q != game.sitter:
                out[q] = outcome.points if q == outcome.winner else -outcome.points
    return out


def is_zero_sum(rules, players: int) -> bool:
    """Whether every hand's rewards sum to zero under ``rules`` with ``players``."""
    return rules.payment != 0 or players == 2
