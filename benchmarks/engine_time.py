"""How fast ``gostop engine`` answers under a time limit (docs/protocol.md).

    python benchmarks/engine_time.py                      # best, time_ms=50, 150 + 150 positions
    python benchmarks/engine_time.py --bot ismcts --time-ms 100 --positions 50

Two test sets of positions: 2-player casual and 3-player standard, every
decision (with more than one legal move) of hands dealt from seed 1,000,000
up and played by a seeded mix of first and random legal moves, until
``--positions`` of each are collected.  Each position is sent to one
``gostop engine --bot BOT`` process through the client
(``SimpleEngine.play(view, Limit(time=...))``), and the answer's round trip
is measured there, pipes and parsing included.  Prints one JSON line per set
and one for both: positions, answers over the limit, median, 99th percentile
and the slowest answer in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys

from gostop_core.game import Game, PlayerView
from gostop_core.protocol.client import Limit, SimpleEngine


def positions(preset: str, players: int, count: int) -> list[PlayerView]:
    out: list[PlayerView] = []
    seed = 1_000_000
    while len(out) < count:
        game = Game(preset, players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over() and len(out) < count:
            legal = list(game.legal_moves)
            if len(legal) > 1:
                out.append(game.view(game.turn))
            game.push(legal[0] if rng.random() < 0.5 else rng.choice(legal))
        seed += 1
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="best")
    parser.add_argument("--time-ms", type=int, default=50)
    parser.add_argument("--positions", type=int, default=150)
    args = parser.parse_args()
    command = [shutil.which("gostop") or "gostop", "engine", "--bot", args.bot]
    limit = Limit(time=args.time_ms / 1000)
    every: list[float] = []
    with SimpleEngine.popen(command) as engine:
        for preset, players in (("casual", 2), ("standard", 3)):
            times = []
            for view in positions(preset, players, args.positions):
                times.append(engine.play(view, limit).seconds * 1000)
            every += times
            print(json.dumps(summary(f"{players}-player {preset}", times, args)), flush=True)
    print(json.dumps(summary("both", every, args)))


def summary(name: str, times: list[float], args: argparse.Namespace) -> dict:
    return {"set": name, "bot": args.bot, "time_ms": args.time_ms, "positions": len(times),
            "over_limit": sum(1 for t in times if t > args.time_ms),
            "median_ms": round(statistics.median(times), 1),
            "p99_ms": round(percentile(times, 0.99), 1), "slowest_ms": round(max(times), 1)}


if __name__ == "__main__":
    sys.exit(main())
