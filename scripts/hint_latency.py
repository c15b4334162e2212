"""Latency of ``gostop hint`` at its default depth on 2-player casual positions.

Positions: every decision of greedy-against-greedy hands (seeds 0..N-1), given
to the hint as the player-view string of the seat to move.  The time covers what
the command does after start-up: parsing the string, the search, the ranking.
Wall-clock times (``*_ms``) and the process's CPU times (``cpu_*_ms``: what the
wall time would be on an idle core, useful on a shared machine) are reported,
with the samples the search used (it stops once the best move is clear).

    python scripts/hint_latency.py --games 40
    python scripts/hint_latency.py --games 10 --time 0     # no time limit
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from gostop_core import Game
from gostop_core.bots import GreedyBot
from gostop_core.bots.analysis import hint_moves


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="casual")
    ap.add_argument("--time", type=float, default=None,
                    help="time budget in ms (default: the hint's)")
    args = ap.parse_args()
    greedy = GreedyBot()
    times: list[float] = []
    cpu: list[float] = []
    used: list[int] = []
    for seed in range(args.games):
        game = Game(args.rules, args.players, seed=seed)
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            view = game.view(seat).to_str()
            t, c = time.perf_counter(), time.process_time()
            ranked = hint_moves(view, time_ms=args.time)
            times.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            used.append(max(r.samples for r in ranked))
            game.push(greedy.choose(game.view(seat), list(game.legal_moves)))
    times.sort()
    cpu.sort()
    print(json.dumps({
        "positions": len(times), "median_ms": round(statistics.median(times), 2),
        "p90_ms": round(times[int(0.9 * len(times))], 2), "max_ms": round(times[-1], 2),
        "mean_ms": round(statistics.mean(times), 2),
        "cpu_median_ms": round(statistics.median(cpu), 2),
        "cpu_p90_ms": round(cpu[int(0.9 * len(cpu))], 2), "cpu_max_ms": round(cpu[-1], 2),
        "median_samples": statistics.median(used)}))


if __name__ == "__main__":
    main()
