"""Arenas and self-play on a Ray cluster (the optional extra ``gostop[ray]``).

The driver (this process) cuts the deals into batches of consecutive deal
indexes and submits each batch as a Ray task (``max_retries`` retries when the
worker process or its machine dies).  A task rebuilds the bots from their
specifications and the rules from their token, plays its deals exactly as the
local backend does (:class:`gostop_core.arena.DealPlayer`) and returns plain tuples,
never engine objects.  The driver keeps the batches in flight keyed by their
first deal and the results keyed by deal index, so a batch that is retried is
counted once; it polls ``ray.wait`` with a timeout so that progress and Ctrl-C
are seen promptly.  A batch that still fails after its retries is reported by
:class:`IncompleteRunError`, which names the missing deals instead of
summarising a partial run as complete.

Ray is imported only when a run asks for it.  Without an address a local
cluster is started on 127.0.0.1 (and shut down at the end of the run); with one
the run joins that cluster and leaves it running.  Ctrl-C (or any error) cancels
the batches still pending.
"""

from __future__ import annotations

import logging
import os
from contextlib import contextmanager
from typing import Any, Callable, Generator, Iterator, Sequence

from gostop_core.arena.games import DealPlayer, GameRecord
from gostop_core.errors import GoStopError
from gostop_core.records import Record

__all__ = ["IncompleteRunError", "BACKENDS", "require_ray", "connect", "ray_batches",
           "deal_ranges", "default_batch"]

#: The ways to run an arena or a self-play run.
BACKENDS = ("local", "ray")


class IncompleteRunError(GoStopError, RuntimeError):
    """A distributed run lost work it could not redo: ``missing`` lists the
    indexes (deals, or self-play games) that have no result, ``done`` counts
    those that have one."""

    def __init__(self, missing: Sequence[int], done: int, what: str = "deals",
                 cause: str = ""):
        self.missing = sorted(missing)
        self.done = done
        self.what = what
        total = done + len(self.missing)
        why = f" ({cause})" if cause else ""
        super().__init__(f"the run is incomplete: {len(self.missing)} of {total} {what} "
                         f"have no result after their retries{why}; missing {what}: "
                         f"{deal_ranges(self.missing)}")


def deal_ranges(indexes: Sequence[int], limit: int = 20) -> str:
    """``[0, 1, 2, 7]`` as ``"0-2, 7"`` (the first ``limit`` ranges, then "...")."""
    parts: list[str] = []
    items = sorted(indexes)
    i = 0
    while i < len(items):
        j = i
        while j + 1 < len(items) and items[j + 1] == items[j] + 1:
            j += 1
        parts.append(str(items[i]) if i == j else f"{items[i]}-{items[j]}")
        i = j + 1
    if len(parts) > limit:
        parts = parts[:limit] + ["..."]
    return ", ".join(parts)


def default_batch(items: int, cpus: int) -> int:
    """Deals per Ray task: large enough that the scheduling cost per task stays
    small (docs/scale.md), small enough that every CPU gets several batches."""
    return max(1, min(64, items // max(1, 4 * cpus)))


def require_ray() -> Any:
    """The ``ray`` module, or :class:`GoStopError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise GoStopError("the Ray backend needs Ray: pip install 'gostop[ray]'") from None
    return ray


def connect(address: str | None = None, cpus: int | None = None) -> bool:
    """Make sure this process is connected to Ray.  Returns True when it started
    a local cluster (on 127.0.0.1, with ``cpus`` CPUs) that the caller must shut
    down, False when it was connected already or joined ``address``."""
    ray = require_ray()
    if ray.is_initialized():
        return False
    quiet: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                             "logging_level": logging.ERROR, "configure_logging": True}
    if address:
        try:
            ray.init(address=address, **quiet)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise GoStopError(f"cannot join the Ray cluster at {address}: "
                              f"{' '.join(str(exc).split())}") from None
        return False
    try:
        with _loopback_only():
            ray.init(num_cpus=cpus, **quiet)
    except BaseException:  # Ctrl-C while it starts: stop what did start
        ray.shutdown()
        raise
    return True


@contextmanager
def _loopback_only() -> Iterator[None]:
    """While a local cluster starts: make Ray take 127.0.0.1 as this node's
    address, so that its servers listen on the loopback interface only.  Ray
    turns ``_node_ip_address="127.0.0.1"`` into the machine's outside address;
    what it offers instead is its single-machine mode (the one it uses on macOS
    and Windows), read from ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER`` by the
    driver and inherited by every process the cluster starts."""
    from ray._private import ray_constants
    name = ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR
    saved_env, saved_flag = os.environ.get(name), ray_constants.ENABLE_RAY_CLUSTER
    os.environ[name] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = saved_flag
        if saved_env is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = saved_env


_REMOTES: dict[tuple, Any] = {}


def _remote(func: Callable, retries: int) -> Any:
    """``func`` as a Ray task with ``retries`` retries after a system failure."""
    ray = require_ray()
    key = (func, retries)
    if key not in _REMOTES:
        _REMOTES[key] = ray.remote(func).options(max_retries=retries, num_cpus=1)
    return _REMOTES[key]


def ray_batches(func: Callable, args: tuple, batches: Sequence[tuple[int, int]], *,
                address: str | None = None, cpus: int | None = None, retries: int = 3,
                in_flight: int | None = None, what: str = "deals",
                poll: float = 1.0) -> Iterator[tuple[int, int, Any]]:
    """Run ``func(*args, first, count)`` as one Ray task per ``(first, count)``
    of ``batches``; yields ``(first, count, result)`` as batches finish (in any
    order, each batch once).  At most ``in_flight`` batches are pending
    (default: 2 per CPU of the cluster).  A batch whose worker died is retried
    ``retries`` times by Ray; one that still fails is left out and, once every
    other batch is done, :class:`IncompleteRunError` names its items.  An error
    raised by ``func`` itself (a bug, not a lost worker) is raised here.
    Pending batches are cancelled when the caller stops early (Ctrl-C)."""
    ray = require_ray()
    from ray.exceptions import RayError, RayTaskError
    started = connect(address, cpus)
    pending: dict[Any, tuple[int, int]] = {}
    try:
        remote = _remote(func, retries)
        if in_flight is None:
            in_flight = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        shared = ray.put(args)
        done: set[int] = set()
        finished = 0
        missing: list[int] = []
        causes: list[str] = []
        todo = list(batches)[::-1]
        while todo or pending:
            while todo and len(pending) < in_flight:
                first, count = todo.pop()
                pending[remote.remote(shared, first, count)] = (first, count)
            refs = list(pending)
            ready, rest = ray.wait(refs, num_returns=1, timeout=poll)
            if ready and rest:
                ready += ray.wait(rest, num_returns=len(rest), timeout=0)[0]
            for ref in ready:
                start, count = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except RayTaskError as exc:  # raised by func: the task's own error
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, Exception):
                        raise cause from None
                    raise
                except RayError as exc:  # the worker or its node died, retries spent
                    missing.extend(range(start, start + count))
                    causes.append(type(exc).__name__)
                    continue
                if start in done:  # never twice, whatever the scheduler does
                    continue
                done.add(start)
                finished += count
                yield start, count, result
        if missing:
            raise IncompleteRunError(missing, finished, what,
                                     ", ".join(sorted(set(causes))))
    finally:
        if pending:
            for ref in pending:
                try:
                    ray.cancel(ref, force=True)
                except Exception:  # pragma: no cover - already finished or gone
                    pass
        if started:
            ray.shutdown()


def play_deal_rows(args: tuple, first: int, count: int) -> list[list[tuple]]:
    """A Ray task: deals ``first .. first + count - 1`` of an arena, each as the
    plain tuples of its games (:func:`rows_to_records` turns them back)."""
    seats = DealPlayer(*args)  # Ray passes the value of the put object
    try:
        out = []
        for deal in range(first, first + count):
            out.append([(r.deal, r.rotation, r.seats, r.points, r.winner, r.forfeit, r.reason,
                         None if r.record is None else r.record.to_json())
                        for r in seats.play_deal(deal)])
        return out
    finally:
        seats.close()


def rows_to_records(rows: list[tuple]) -> list[Any]:
    """The :class:`~gostop_core.arena.GameRecord` objects of one deal's rows."""
    return [GameRecord(d, rot, tuple(seats), tuple(points), winner, forfeit, reason,
                       None if text is None else Record.from_json(text))
            for d, rot, seats, points, winner, forfeit, reason, text in rows]


def ray_arena_deals(init: tuple, deals: int, *, address: str | None = None,
                    cpus: int | None = None, batch: int | None = None,
                    retries: int = 3,
                    in_flight: int | None = None) -> Generator[list[Any], None, None]:
    """The arena's deals played on Ray, one list of game results per deal, in
    the order the batches finish (the arena's summary does not depend on it).
    ``batch`` deals per task, by default :func:`default_batch` for the
    cluster's CPUs."""
    ray = require_ray()
    started = connect(address, cpus)
    try:
        size = batch or default_batch(deals, int(ray.cluster_resources().get("CPU", 1)))
        batches = [(first, min(size, deals - first)) for first in range(0, deals, size)]
        for _, _, result in ray_batches(play_deal_rows, init, batches, retries=retries,
                                        in_flight=in_flight):
            for rows in result:
                yield rows_to_records(rows)
    finally:
        if started:
            ray.shutdown()
