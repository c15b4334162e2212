"""Latency of ``gostop hint`` at its default depth on 2-player casual positions.

Positions: every decision of greedy-against-greedy hands (seeds 0..N-1), given
to the hint as the player-view string of the seat to move.  The time covers what
the command does after start-up: parsing the string, the search, the ranking.

    python scripts/hint_latency.py --games 40
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from gostop_core import Game
from gostop_core.bots import GreedyBot
from gostop_cli.analysis import hint_moves


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="casual")
    args = ap.parse_args()
    greedy = GreedyBot()
    times: list[float] = []
    for seed in range(args.games):
        game = Game(args.rules, args.players, seed=seed)
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            view = game.view(seat).to_str()
            t = time.perf_counter()
            hint_moves(view)
            times.append((time.perf_counter() - t) * 1000)
            game.push(greedy.choose(game.view(seat), list(game.legal_moves)))
    times.sort()
    print(json.dumps({
        "positions": len(times), "median_ms": round(statistics.median(times), 2),
        "p90_ms": round(times[int(0.9 * len(times))], 2), "max_ms": round(times[-1], 2),
        "mean_ms": round(statistics.mean(times), 2)}))


if __name__ == "__main__":
    main()
