"""The Ray backend's overhead against the local one, and each built-in bot's
cost per game, on this machine (the figures of docs/scale.md).

    python benchmarks/ray_overhead.py [DEALS] [EXPECTIMAX_DEALS]
    python benchmarks/ray_overhead.py driver

1. The same arena (greedy against random, DEALS duplicate deals) with the local
   backend (2 processes) and on a local Ray cluster of 2 CPUs (started apart
   and warmed up first): wall time and games/s, best of 3 (a shared machine
   makes the others noise).
2. The CPU time of the whole process tree (driver, Ray's daemons, workers) for
   that arena on Ray with 1, 10 and 50 deals per task, less the daemons' idle
   CPU over the same time: what each task costs beyond its games, measured in
   CPU seconds, which the other users of a loaded machine do not distort.
3. Each built-in bot against itself on one core: CPU ms per game.
4. (``driver``) The driver's own CPU per deal it receives, which bounds how
   many deals per second one driver can take in, whatever the cluster.

Needs the ray extra.
"""

from __future__ import annotations

import os
import sys
import time

from gostop_core.arena import run_arena
from gostop_core.arena.ray_backend import connect, default_batch

TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu() -> float:
    """CPU seconds used by this process and every descendant still running."""
    children: dict[int, list[tuple[int, int]]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(
            (int(entry), int(fields[11]) + int(fields[12])))
    with open(f"/proc/{os.getpid()}/stat") as fh:
        own = fh.read().rsplit(")", 1)[1].split()
    total, stack = int(own[11]) + int(own[12]), [os.getpid()]
    while stack:
        for pid, ticks in children.get(stack.pop(), []):
            total += ticks
            stack.append(pid)
    return total / TICK


def timed(**kwargs) -> tuple[float, float, object]:
    cpu, started = tree_cpu(), time.perf_counter()
    result = run_arena(keep_records=False, **kwargs)
    return time.perf_counter() - started, tree_cpu() - cpu, result


def driver_cost(deals: int = 2000) -> float:
    """CPU seconds the driver spends per deal it receives: turning a deal's rows
    back into game results and adding them to the summary (no Ray involved)."""
    from gostop_core.arena.duplicate import _Tally
    from gostop_core.arena.ray_backend import play_deal_rows, rows_to_records
    from gostop_core.notation import rules_to_token
    from gostop_core.rules import Rules
    init = (["greedy", "random"], rules_to_token(Rules("casual")), 2, 0, 5.0, False)
    rows = play_deal_rows(init, 0, 200) * (deals // 200)
    tally = _Tally(2, 2)
    cpu = time.process_time()
    for deal in rows:
        tally.add_deal(rows_to_records(deal))
    return (time.process_time() - cpu) / len(rows)


def main() -> None:
    if sys.argv[1:] == ["driver"]:
        print(f"driver: {1e6 * driver_cost():.1f} us CPU per deal received")
        return
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    em_deals = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    bots = ["greedy", "random"]
    games = 2 * deals
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    started = time.perf_counter()
    connect(cpus=2)
    t_start = time.perf_counter() - started
    timed(bots=bots, deals=8, workers=2, backend="ray", batch=1)  # start the workers
    cpu = tree_cpu()
    time.sleep(3.0)
    idle = (tree_cpu() - cpu) / 3.0
    local = min(timed(bots=bots, deals=deals, workers=2)[:1] for _ in range(3))[0]
    ray_best = min(timed(bots=bots, deals=deals, workers=2, backend="ray")[:1]
                   for _ in range(3))[0]
    batch = default_batch(deals, 2)
    print(f"arena greedy-random, {deals} deals ({games} games), 2 CPUs, best of 3:")
    print(f"  local backend, 2 processes   {local:6.2f} s  {games / local:7.1f} games/s")
    print(f"  ray, {batch} deals per task      {ray_best:6.2f} s  {games / ray_best:7.1f} games/s")
    print(f"  (local Ray cluster start {t_start:.1f} s, not counted; daemons idle "
          f"{1000 * idle:.0f} ms CPU/s)")
    cost = {}
    for b in (50, 10, 1):
        wall, used, _ = timed(bots=bots, deals=deals, workers=2, backend="ray", batch=b)
        cost[b] = used - idle * wall
        print(f"  ray, {b:>2} deals/task: {wall:5.2f} s wall, {cost[b]:5.2f} CPU s "
              f"(daemons' idle share removed)")
    per_task = (cost[1] - cost[50]) / (deals - -(-deals // 50))
    print(f"  => {1000 * per_task:.2f} ms CPU per task beyond its games")
    for bot, n in (("random", 200), ("greedy", 200), ("expectimax", em_deals)):
        if n:
            cpu = time.process_time()
            r = run_arena([bot, bot], deals=n, workers=1, keep_records=False)
            used = time.process_time() - cpu
            print(f"  {bot:<10} against itself, 1 core: {r.games} games, "
                  f"{1000 * used / r.games:8.2f} ms CPU/game")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
