"""OpenSpiel's IS-MCTS bot against a gostop bot, on the ``python_gostop`` game.

``python -m gostop_core.envs.openspiel_arena --pairs 10 --simulations 100``

Hands are played in duplicate pairs: each pair draws one random order of the
pack, and every chance node of both hands takes the first card of that order
among its outcomes, so the two hands deal the same cards with the seats
swapped.  IS-MCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with one
random rollout per leaf) sees only its information states; the gostop bot gets
its seat's :class:`~gostop_core.PlayerView` and legal moves, as in every arena.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import gostop_core.envs.openspiel  # noqa: F401  (registers python_gostop)
from gostop_core.bots import make_bot
from gostop_core.driver import HandDriver


def _chance(state, order) -> int:
    outcomes = {a for a, _ in state.chance_outcomes()}
    return next(int(c) for c in order if int(c) in outcomes)


def play_hand(game, order, seats: dict, gostop_bot) -> list[float]:
    """One hand: ``seats[p]`` is ``"ismcts"`` (then an ISMCTSBot) or ``"gostop"``."""
    state = game.new_initial_state()
    driver = None
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, order))
            continue
        p = state.current_player()
        g = state._game
        if driver is None:  # the deal is complete: the gostop bot's hand begins
            driver = HandDriver(g, [gostop_bot if seats[s] == "gostop" else None
                                    for s in range(g.players)])
            driver.start()
        bot = seats[p]
        moves = state._table()
        if bot == "gostop":
            move = driver.choose()
            action = next(a for a, m in moves.items() if m == move)
        else:
            action = bot.step(state)
            driver.announce(moves[action])
        state.apply_action(action)
    if driver is not None and state._game.is_over():
        driver.finish()
    return state.returns()


def arena(pairs: int = 10, simulations: int = 100, rules: str = "casual", opponent: str = "greedy",
          seed: int = 1, uct_c: float = 5.0) -> dict:
    """IS-MCTS against ``opponent`` over ``pairs`` duplicate pairs of 2-player hands;
    the IS-MCTS seat's results."""
    game = pyspiel.load_game("python_gostop", {"rules": rules, "players": 2})
    rng = np.random.default_rng(seed)
    pack = 50 if game.rules.bonus_cards else 48
    results = []
    start = time.perf_counter()
    for k in range(pairs):
        order = rng.permutation(pack)
        for search_seat in (0, 1):
            bot = ismcts.ISMCTSBot(
                game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + 2 * k + search_seat)),
                uct_c, simulations, random_state=np.random.RandomState(seed + k),
                child_selection_policy=ismcts.ChildSelectionPolicy.UCT)
            seats = {search_seat: bot, 1 - search_seat: "gostop"}
            returns = play_hand(game, order, seats, make_bot(opponent, seed=seed + k))
            results.append(returns[search_seat])
    r = np.array(results)
    return {"rules": rules, "opponent": opponent, "pairs": pairs, "hands": len(r),
            "simulations": simulations, "uct_c": uct_c, "seed": seed,
            "ismcts_points_per_hand": float(r.mean()), "ismcts_wins": int((r > 0).sum()),
            "opponent_wins": int((r < 0).sum()), "draws": int((r == 0).sum()),
            "stderr": float(r.std(ddof=1) / np.sqrt(len(r))) if len(r) > 1 else 0.0,
            "seconds": time.perf_counter() - start}


def _main(argv: list[str]) -> None:  # pragma: no cover - a maintainer's tool
    def opt(name, default, kind):
        return kind(argv[argv.index(name) + 1]) if name in argv else default
    fig = arena(opt("--pairs", 10, int), opt("--simulations", 100, int), opt("--rules", "casual", str),
                opt("--opponent", "greedy", str), opt("--seed", 1, int), opt("--uct-c", 5.0, float))
    for key, value in fig.items():
        print(f"{key}: {value}")


if __name__ == "__main__":  # pragma: no cover
    _main(sys.argv[1:])
