"""The local backend of the arena: deals played in this process or by a pool
of forked worker processes, handed out a few at a time.  A backend yields a
:data:`~gostop_core.arena.games.DealStream`; it knows nothing of the arena
that sums the results."""

from __future__ import annotations

import multiprocessing.util
import os
import queue
import signal
import time
from typing import Any, Generator

from gostop_core.arena.games import DealPlayer, GameRecord
from gostop_core.arena.pools import end_pool, fork_pool, worker_pids
from gostop_core.bots.external import close_all_bots
from gostop_core.errors import BotError

__all__ = ["serial_deals", "parallel_deals"]


# ---------------------------------------------------------------- worker processes
_WORKER: DealPlayer | None = None


def _worker_exit(signum: int, frame: Any) -> None:
    """SIGTERM in a worker (the pool's terminate): end its bot processes, exit."""
    close_all_bots()
    os._exit(128 + signum)


def _worker_init(names: list[str], token: str, players: int, seed: int,
                 move_time: float, game_records: bool = False) -> None:
    """A pool worker: Ctrl-C is the parent's to handle; SIGTERM (the pool's
    terminate) ends the worker's bot processes and the worker; a normal exit
    closes them politely."""
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _worker_exit)
    _WORKER = DealPlayer(names, token, players, seed, move_time, game_records)
    multiprocessing.util.Finalize(None, _close_worker, exitpriority=20)
    multiprocessing.util.Finalize(None, close_all_bots, exitpriority=10)


def _close_worker() -> None:
    global _WORKER
    if _WORKER is not None:
        _WORKER.close()
        _WORKER = None


def _worker_deals(first: int, count: int) -> list[list[GameRecord]]:
    assert _WORKER is not None
    return [_WORKER.play_deal(d) for d in range(first, first + count)]


# ---------------------------------------------------------------- running
def serial_deals(seats: DealPlayer, deals: int) -> Generator[list[GameRecord], None, None]:
    try:
        for d in range(deals):
            yield seats.play_deal(d)
    finally:
        seats.close()


def parallel_deals(init: tuple, deals: int, workers: int,
                      in_flight: int) -> Generator[list[GameRecord], None, None]:
    """Deals played by ``workers`` processes, handed out in small batches, at
    most ``in_flight`` batches at a time; results in the order they finish."""
    # batches of up to 8 deals save messages with fast bots, yet every worker
    # gets many batches (and the progress moves) on short arenas
    batch = max(1, min(8, deals // (workers * 16)))
    done: queue.Queue = queue.Queue()
    pool = fork_pool(workers, _worker_init, init)
    workers_at_start = worker_pids(pool)  # a worker that dies loses its batch
    try:
        submitted = finished = pending = 0
        while finished < deals:
            while submitted < deals and pending < in_flight:
                count = min(batch, deals - submitted)
                pool.apply_async(_worker_deals, (submitted, count), callback=done.put,
                                 error_callback=lambda exc: done.put(exc))
                submitted += count
                pending += 1
            item = None
            polls = 0
            while item is None:
                try:
                    item = done.get_nowait()
                except queue.Empty:
                    # a plain sleep, not a blocking get: Ctrl-C inside Queue.get's
                    # wait can leave its lock half released ("release unlocked lock")
                    time.sleep(0.02)
                    polls += 1
                    if polls % 10 == 0 and workers_at_start - worker_pids(pool):
                        raise BotError("a worker process died during a game (a Python bot "
                                       "that ends its process?); the arena stops") from None
            pending -= 1
            if isinstance(item, BaseException):
                raise item
            for recs in item:
                finished += 1
                yield recs
        pool.close()
        pool.join()
    finally:
        end_pool(pool)
