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

:func:`compare` runs both in alternating slices, so that a machine whose
speed drifts slows both alike.  ``python -m gostop_core.envs.vector_bench
[--seconds S] [--games N]`` prints both and their ratio.
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np

from gostop_core.envs.actions import random_actions, random_legal
from gostop_core.envs.vector import VectorGame
from gostop_core.game import Game


class _VectorLoop:
    """A VectorGame and its numpy draw, run in slices of CPU time."""

    def __init__(self, num_games: int, rules, players: int, seed: int, draw: str):
        if draw not in ("legal", "mask"):
            raise ValueError(f"draw must be 'legal' or 'mask', got {draw!r}")
        self.vg = VectorGame(num_games, rules=rules, players=players, seed=seed)
        self.rng = np.random.default_rng(seed)
        self.draw = draw
        self.steps = self.hands = 0
        self.cpu = 0.0
        for _ in range(3):  # warm-up: caches and numpy's first calls
            self.vg.step(self._actions())

    def _actions(self):
        vg = self.vg
        if self.draw == "legal":
            return random_legal(vg.legal, vg.legal_count, self.rng)
        return random_actions(vg.mask, self.rng)

    def run(self, seconds: float) -> None:
        vg, steps, hands = self.vg, 0, 0
        start = time.process_time()
        while steps < 5 or time.process_time() - start < seconds:
            _, _, terminated, _ = vg.step(self._actions())
            hands += int(np.count_nonzero(terminated))
            steps += 1
        self.cpu += time.process_time() - start
        self.steps += steps
        self.hands += hands

    def figures(self) -> dict:
        n = self.vg.num_games
        return {"vector_games": n, "vector_steps": self.steps, "vector_draw": self.draw,
                "vector_decisions_per_s": n * self.steps / self.cpu,
                "vector_hands_per_s": self.hands / self.cpu}


class _GameLoop:
    """The Python loop over Game, run in slices of CPU time (whole hands)."""

    def __init__(self, rules, players: int, seed: int):
        self.rules, self.players = rules, players
        self.rnd = random.Random(seed)
        self.deal = seed
        self.decisions = self.hands = 0
        self.cpu = 0.0

    def run(self, seconds: float) -> None:
        rnd, decisions, hands = self.rnd, 0, 0
        start = time.process_time()
        while hands < 5 or time.process_time() - start < seconds:
            g = Game(self.rules, self.players, seed=self.deal)
            self.deal += 1
            while not g.is_over():
                g.push(rnd.choice(list(g.legal_moves)))
                decisions += 1
            hands += 1
        self.cpu += time.process_time() - start
        self.decisions += decisions
        self.hands += hands

    def figures(self) -> dict:
        return {"game_loop_decisions_per_s": self.decisions / self.cpu,
                "game_loop_hands_per_s": self.hands / self.cpu}


def vector_rate(seconds: float = 2.0, num_games: int = 4096, rules="casual", players: int = 2,
                seed: int = 1, draw: str = "legal") -> dict:
    """Decisions and hands per CPU second of a numpy-driven VectorGame loop;
    ``draw`` is ``"legal"`` (from ``vg.legal``) or ``"mask"`` (from the mask)."""
    loop = _VectorLoop(num_games, rules, players, seed, draw)
    loop.run(seconds)
    return loop.figures()


def game_loop_rate(seconds: float = 2.0, rules="casual", players: int = 2, seed: int = 1) -> dict:
    """Decisions and hands per CPU second of a Python loop over Game."""
    loop = _GameLoop(rules, players, seed)
    loop.run(seconds)
    return loop.figures()


def compare(seconds: float = 2.0, num_games: int = 4096, rules="casual", players: int = 2,
            slices: int = 8) -> dict:
    """Both rates in the same run, and their ratio (decisions/s).  The two loops
    take turns in ``slices`` slices of ``seconds / slices`` each, so a machine
    whose speed drifts during the run slows both alike (the ratio is the
    figure to read on a shared machine)."""
    vector = _VectorLoop(num_games, rules, players, 1, "legal")
    game = _GameLoop(rules, players, 1)
    for _ in range(max(1, slices)):
        vector.run(seconds / max(1, slices))
        game.run(seconds / max(1, slices))
    out = vector.figures()
    out.update(game.figures())
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
