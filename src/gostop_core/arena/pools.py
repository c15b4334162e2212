"""Forked worker pools of the local backend (the arena's ``--workers`` and
self-play's): a worker that dies is noticed, and ending a pool never waits
forever.

A forked worker inherits its parent's signal handlers.  A library of the parent
may have installed one that must not run in a worker: a native crash reporter
on SIGTERM (Ray's core worker installs one in every process that joins a
cluster) answers the pool's terminate by printing a stack, and can hang there,
which left ``Pool.join`` waiting without end.  Every worker therefore starts
with SIGTERM at its default before its own initializer runs; and
:func:`end_pool` kills (SIGKILL) the workers still alive after a grace period
whatever they are doing."""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import signal
import threading
from typing import Any, Callable

__all__ = ["fork_pool", "worker_pids", "end_pool"]


def _start_worker(initializer: Callable[..., None] | None, *initargs: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not a handler of the parent's
    if initializer is not None:
        initializer(*initargs)


def fork_pool(workers: int, initializer: Callable[..., None] | None = None,
              initargs: tuple = ()) -> multiprocessing.pool.Pool:
    """A pool of ``workers`` forked processes, each starting with SIGTERM at its
    default and then running ``initializer(*initargs)``."""
    return multiprocessing.get_context("fork").Pool(
        workers, initializer=_start_worker, initargs=(initializer, *initargs))


def worker_pids(pool: multiprocessing.pool.Pool) -> set[int]:
    """The ids of the pool's worker processes now.  The pool quietly replaces a
    worker that dies (a Python bot calling ``os._exit``, a crash in C) and the
    task it held is lost: a pid of the start missing from this set tells it."""
    return {p.pid for p in list(getattr(pool, "_pool", ()))}


def end_pool(pool: multiprocessing.pool.Pool, grace: float = 5.0) -> None:
    """Terminate ``pool`` and wait for it, but never forever: a worker the pool
    started to replace a dead one can wait on the task queue's lock the dead
    worker held, and the pool's own terminate then waits on it without end.
    After ``grace`` seconds every worker still alive is killed (SIGKILL)."""
    ender = threading.Thread(target=lambda: (pool.terminate(), pool.join()), daemon=True)
    ender.start()
    ender.join(grace)
    if ender.is_alive():
        for proc in list(getattr(pool, "_pool", ())):
            if proc.exitcode is None:
                proc.kill()
        ender.join(grace)
