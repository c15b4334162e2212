"""CPU time per decision of bots on the same positions (2-player casual).

Positions: every other decision with more than one legal move of greedy-against-
greedy hands (seeds 1000 up); every bot named decides each of them from the view
of the seat to move.  CPU time of the process (``time.process_time``), so that a
shared machine's load counts less than in wall time.

    python scripts/decision_cpu.py expectimax-v1 ismcts ismcts:iterations=30000
"""

from __future__ import annotations

import argparse
import time

from gostop_core import Game
from gostop_core.bots import GreedyBot, make_bot


def positions(games: int) -> list:
    """(view, legal moves) at every other decision with a choice."""
    greedy = GreedyBot()
    out = []
    for seed in range(1000, 1000 + games):
        game = Game("casual", 2, seed=seed)
        while not game.is_over():
            legal = list(game.legal_moves)
            view = game.view(game.turn)
            if len(legal) > 1:
                out.append((view, legal))
            game.push(greedy.choose(view, legal))
    return out[::2]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("bots", nargs="+")
    ap.add_argument("--games", type=int, default=6)
    args = ap.parse_args()
    views = positions(args.games)
    for spec in args.bots:
        bot = make_bot(spec, seed=1)
        start = time.process_time()
        for view, legal in views:
            bot.choose(view, legal)
        ms = 1000 * (time.process_time() - start) / len(views)
        print(f"{spec:40s} {len(views)} positions  {ms:7.1f} ms CPU per decision")


if __name__ == "__main__":
    main()
