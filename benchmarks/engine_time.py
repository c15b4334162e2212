"""How fast ``gostop engine`` answers under a time limit (docs/protocol.md).

    python benchmarks/engine_time.py           # best: time_ms 20 and 50, a 100 ms clock, load 2, a flood
    python benchmarks/engine_time.py --bot ismcts --time-ms 100 --positions 50 --flood 0

Two test sets of positions: 2-player casual and 3-player standard, every
decision (with more than one legal move) of hands dealt from seed 1,000,000
up and played by a seeded mix of first and random legal moves, until
``--positions`` of each are collected.  Each position is sent to one
``gostop engine --bot BOT`` process through the client
(``SimpleEngine.play(view, Limit(time=...))``), and the answer's round trip
is measured there, pipes and parsing included.  Prints one JSON line per set
(both sets) per limit: positions, answers over the limit, median, 99th
percentile and the slowest answer in milliseconds, while ``--load`` busy
processes run beside it.  Then ``--flood`` requests are written at once: the
engine's thread count and resident memory before, at the peak and after,
and how many milliseconds ``readyok`` took behind them.
"""

from __future__ import annotations

import argparse
import json
import random
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


def _busy() -> None:  # a background load: one core kept busy
    while True:
        pass


def engine_command(bot: str) -> list[str]:
    return [sys.executable, "-m", "gostop_cli.main", "engine", "--bot", bot]


def timed_runs(args: argparse.Namespace) -> None:
    """The slowest answers at each ``--time-ms`` and with a ``--clock-ms`` clock."""
    limits = [(f"time_ms={t}", Limit(time=t / 1000), t) for t in args.time_ms]
    if args.clock_ms:
        # a clock with no increment: each move gets its share, at least the floor
        from gostop_core.protocol.server import time_budget_ms
        share = time_budget_ms({"remaining_ms": args.clock_ms})
        limits.append((f"clock={args.clock_ms}ms", Limit(remaining=args.clock_ms / 1000), share))
    for name, limit, allowed in limits:
        every: list[float] = []
        with SimpleEngine.popen(engine_command(args.bot)) as engine:
            for preset, players in (("casual", 2), ("standard", 3)):
                times = []
                for view in positions(preset, players, args.positions):
                    times.append(engine.play(view, limit).seconds * 1000)
                every += times
        print(json.dumps(summary(name, every, args.bot, allowed, args.load)), flush=True)


def _proc_status(pid: int) -> dict:
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("Threads", "VmRSS"):
                out[key] = int(value.split()[0])
    return out


def flood(args: argparse.Namespace) -> None:
    """``--flood N`` pipelined requests at once: the engine's threads and
    memory before, at the peak and after, and how soon ``readyok`` comes."""
    import subprocess
    import threading
    import time
    view = positions("casual", 2, 1)[0].to_str()
    proc = subprocess.Popen(engine_command(args.bot), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    lines: list[bytes] = []
    readyok_at: list[float] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if b'"readyok"' in line:
                readyok_at.append(time.monotonic())
            lines.append(line)
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert proc.stdin is not None
    proc.stdin.write(b'{"type": "hello", "protocol": ["gostop-bot/2"]}\n')
    while not lines and proc.poll() is None:  # a driver waits for ready
        time.sleep(0.01)
    lines.clear()
    time.sleep(0.2)
    before = _proc_status(proc.pid)
    batch = b"".join(json.dumps({"type": "request", "id": i, "view": view,
                                 "time_ms": 50}).encode() + b"\n" for i in range(args.flood))
    # the flood and the isready behind it in one write: readyok_ms counts
    # from its start (the engine must read the whole flood to find isready),
    # readyok_after_write_ms from when the pipe took the last byte
    started = time.monotonic()
    proc.stdin.write(batch + b'{"type": "isready", "id": "ping"}\n')
    sent = time.monotonic()
    peak = dict(before)
    while len(lines) < args.flood + 1 and time.monotonic() - sent < 120:
        status = _proc_status(proc.pid)
        peak = {k: max(peak[k], status[k]) for k in peak}
        time.sleep(0.01)
    after = _proc_status(proc.pid)
    proc.stdin.write(b'{"type": "quit"}\n')
    proc.wait(timeout=30)
    print(json.dumps({"flood": args.flood, "bytes": len(batch), "answers": len(lines) - 1,
                      "readyok_ms": round((readyok_at[0] - started) * 1000, 1) if readyok_at
                      else None,
                      "readyok_after_write_ms": round((readyok_at[0] - sent) * 1000, 1)
                      if readyok_at else None,
                      "readyok_before_answers": sum(1 for x in lines[:lines.index(
                          next(x for x in lines if b'"readyok"' in x))]) if readyok_at else None,
                      "threads": [before["Threads"], peak["Threads"], after["Threads"]],
                      "rss_kb": [before["VmRSS"], peak["VmRSS"], after["VmRSS"]]}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="best")
    parser.add_argument("--time-ms", type=int, action="append",
                        help="a time per move (repeatable; default 20 and 50)")
    parser.add_argument("--clock-ms", type=int, default=100,
                        help="a clock with no increment (0: none)")
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--load", type=int, default=2, help="busy background processes")
    parser.add_argument("--flood", type=int, default=10_000,
                        help="pipelined requests of the flood run (0: none)")
    args = parser.parse_args()
    args.time_ms = args.time_ms or [20, 50]
    import multiprocessing
    load = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(args.load)]
    for p in load:
        p.start()
    try:
        timed_runs(args)
        if args.flood:
            flood(args)
    finally:
        for p in load:
            p.terminate()
            p.join()


def summary(name: str, times: list[float], bot: str, allowed: float, load: int) -> dict:
    return {"set": name, "bot": bot, "allowed_ms": round(allowed, 1), "load": load,
            "positions": len(times), "over_limit": sum(1 for t in times if t > allowed),
            "median_ms": round(statistics.median(times), 1),
            "p99_ms": round(percentile(times, 0.99), 1), "slowest_ms": round(max(times), 1)}


if __name__ == "__main__":
    sys.exit(main())
