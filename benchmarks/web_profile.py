"""Where the server's time goes in one move of the web table (docs/performance.md):
the server side of a move run in one process, without sockets, under cProfile.

    python benchmarks/web_profile.py [--moves 2000] [--top 15] [--rules standard]

A table of people (every seat a person's, as in benchmarks/web_load.py) is played
by seeded random legal moves; each move goes the way a WebSocket message does
after its bytes arrive: the message checked (``parse_message``), the move played
(``Table.play``: its checks, the push, the hand's end), and one frame built and
encoded per seat and queued on each connection (``Table.broadcast``).  The
connections are stand-ins that keep the frames, so the socket writes are left
out (uvicorn's and the kernel's share).  Prints the time a move and the
functions with the most time of their own and in all.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import time

from gostop_web.messages import parse_message
from gostop_web.tables import Table


class FrameSink:
    """A connection that keeps what it is sent (a socket that is always ready)."""

    closed = False

    def __init__(self, seat: int | None):
        self.seat = seat
        self.frames = 0

    def send_nowait(self, data) -> None:
        self.frames += 1


async def play(moves: int, rules: str, players: int, seed: int) -> tuple[int, int]:
    rnd = random.Random(seed)
    table = Table.create(rules, players, [None] * players, move_delay=0, seed=seed)
    sinks = [FrameSink(q) for q in range(players)]
    for sink in sinks:
        table.join(sink)
    done = hands = 0
    while done < moves:
        g = table.game
        if g.is_over():
            await table.next_hand(0)
            hands += 1
            continue
        seat = g.turn
        move = rnd.choice([str(m) for m in g.legal_moves])
        text = json.dumps({"type": "move", "move": move, "turn": g.view(seat).turns})
        msg = parse_message(text, seat)
        await table.play(seat, msg["move"], msg.get("turn"))
        done += 1
    return done, hands


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=2000)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    start, cpu = time.perf_counter(), time.process_time()
    done, hands = asyncio.run(play(args.moves, args.rules, args.players, args.seed))
    plain, cpu = time.perf_counter() - start, time.process_time() - cpu
    profile = cProfile.Profile()
    profile.enable()
    asyncio.run(play(args.moves, args.rules, args.players, args.seed))
    profile.disable()
    # CPU time too: on a shared machine the wall time counts the other jobs' turns
    print(f"{done} moves, {hands} hands ({args.rules}, {args.players} seats), unprofiled: "
          f"{1000 * cpu / done:.3f} ms of CPU a move, {1000 * plain / done:.3f} ms wall")
    stats = pstats.Stats(profile)
    stats.sort_stats("tottime").print_stats(args.top)
    stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
