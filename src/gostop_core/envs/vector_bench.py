"""Speed of the batched environment against a Python loop over Game.

Both loops draw uniformly random legal decisions and play complete hands of
seeded deals; both are timed in CPU seconds of this process (``time.process_time``),
so a machine shared with other work measures what one core does.

* :func:`vector_rate`: :class:`~gostop_core.envs.VectorGame` stepped by a
  Python loop that draws each step's actions with numpy, from the games' lists
  of legal actions (:func:`~gostop_core.envs.actions.random_legal`) or, with
  ``draw="mask"``, from the masks (:func:`~gostop_core.envs.actions.random_actions`).
* :func:`game_loop_rate`: ``random.choice(list(game.legal_moves))`` and
  ``game.push`` to the end of each hand, one hand after another.

``python -m gostop_core.envs.vector_bench [--seconds S] [--games N]`` prints both.
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np

from gostop_core.envs.actions import random_actions, random_legal
from gostop_core.envs.vector import VectorGame
from gostop_core.game import Game


def vector_rate(seconds: float = 2.0, num_games: int = 4096, rules="casual", players: int = 2,
                seed: int = 1, draw: str = "legal") -> dict:
    """Decisions and hands per CPU second of a numpy-driven VectorGame loop;
    ``draw`` is ``"legal"`` (from ``vg.legal``) or ``"mask"`` (from the mask)."""
    if draw not in ("legal", "mask"):
        raise ValueError(f"draw must be 'legal' or 'mask', got {draw!r}")
    vg = VectorGame(num_games, rules=rules, players=players, seed=seed)
    rng = np.random.default_rng(seed)
    legal, count, mask = vg.legal, vg.legal_count, vg.mask

    def actions():
        return random_legal(legal, count, rng) if draw == "legal" else random_actions(mask, rng)

    for _ in range(3):  # warm-up: caches and numpy's first calls
        vg.step(actions())
    steps = hands = 0
    start = time.process_time()
    while steps < 5 or time.process_time() - start < seconds:
        _, _, terminated, _ = vg.step(actions())
        hands += int(np.count_nonzero(terminated))
        steps += 1
    dt = time.process_time() - start
    return {"vector_games": num_games, "vector_steps": steps, "vector_draw": draw,
            "vector_decisions_per_s": num_games * steps / dt, "vector_hands_per_s": hands / dt}


def game_loop_rate(seconds: float = 2.0, rules="casual", players: int = 2, seed: int = 1) -> dict:
    """Decisions and hands per CPU second of a Python loop over Game."""
    rnd = random.Random(seed)
    decisions = hands = 0
    deal = seed
    start = time.process_time()
    while hands < 5 or time.process_time() - start < seconds:
        g = Game(rules, players, seed=deal)
        deal += 1
        while not g.is_over():
            g.push(rnd.choice(list(g.legal_moves)))
            decisions += 1
        hands += 1
    dt = time.process_time() - start
    return {"game_loop_decisions_per_s": decisions / dt, "game_loop_hands_per_s": hands / dt}


def compare(seconds: float = 2.0, num_games: int = 4096, rules="casual", players: int = 2) -> dict:
    """Both rates in the same run, and their ratio (decisions/s)."""
    out = vector_rate(seconds, num_games, rules, players)
    out.update(game_loop_rate(seconds, rules, players))
    out["vector_vs_game_loop"] = out["vector_decisions_per_s"] / out["game_loop_decisions_per_s"]
    return out


def _main(argv: list[str]) -> None:  # pragma: no cover - a maintainer's tool
    seconds = float(argv[argv.index("--seconds") + 1]) if "--seconds" in argv else 2.0
    games = int(argv[argv.index("--games") + 1]) if "--games" in argv else 4096
    fig = compare(seconds, games)
    mask = vector_rate(seconds, games, draw="mask")
    print(f"VectorGame ({games} games, numpy draws from vg.legal): "
          f"{fig['vector_decisions_per_s']:,.0f} decisions/s, {fig['vector_hands_per_s']:,.0f} hands/s")
    print(f"VectorGame ({games} games, numpy draws from the mask): "
          f"{mask['vector_decisions_per_s']:,.0f} decisions/s, {mask['vector_hands_per_s']:,.0f} hands/s")
    print(f"Game loop (random.choice + push):                 "
          f"{fig['game_loop_decisions_per_s']:,.0f} decisions/s, {fig['game_loop_hands_per_s']:,.0f} hands/s")
    print(f"ratio: {fig['vector_vs_game_loop']:.1f}x")


if __name__ == "__main__":  # pragma: no cover
    _main(sys.argv[1:])
