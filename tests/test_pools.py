"""The local backend's forked worker pools (gostop_core.arena.pools): a worker
does not run the parent's SIGTERM handler, and ending a pool never waits
forever.

The CI run of round 14 hung for an hour here: the Ray tests' cluster had left
its native crash reporter on SIGTERM in the test process, the self-play pool's
workers inherited it, and after a worker died the pool's terminate waited on
the others without end."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from gostop_core.arena.pools import end_pool, fork_pool, worker_pids

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="forked pools are POSIX")


def _sigterm_disposition() -> str:
    handler = signal.getsignal(signal.SIGTERM)
    return "default" if handler == signal.SIG_DFL else repr(handler)


def _ignore_sigterm() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def test_a_worker_starts_with_sigterm_at_its_default():
    old = signal.signal(signal.SIGTERM, lambda signum, frame: None)
    try:
        pool = fork_pool(1)
        try:
            assert pool.apply(_sigterm_disposition) == "default"
        finally:
            end_pool(pool)
    finally:
        signal.signal(signal.SIGTERM, old)


def test_end_pool_kills_a_worker_that_outlives_the_terminate():
    """A worker that ignores SIGTERM (its initializer did) is killed after the
    grace period; end_pool returns."""
    pool = fork_pool(2, _ignore_sigterm)
    pids = worker_pids(pool)
    assert len(pids) == 2 and pool.apply(_sigterm_disposition) != "default"
    started = time.monotonic()
    end_pool(pool, grace=0.5)
    assert time.monotonic() - started < 5
    for pid in pids:  # gone, not only signalled: the pool collected them
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


KILLER = """
import os, signal, time
from gostop_core.bots import GreedyBot

class Killer(GreedyBot):
    '''Greedy, but ends its own worker process in its first game (until the
    marker file exists); while the file SLOW exists, every move takes a
    while, so that the other worker is inside a game when the run stops.'''

    def choose(self, view, legal):
        if not os.path.exists({marker!r}):
            open({marker!r}, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        if os.path.exists({slow!r}):
            time.sleep(0.2)
        return super().choose(view, legal)
"""


def test_selfplay_ends_when_a_worker_dies_under_a_parent_sigterm_handler(tmp_path):
    """A SIGTERM handler of the parent's that never returns (as a native crash
    reporter can) does not keep a self-play run waiting on its pool after a
    worker died: the run stops with its error, and a second run completes."""
    bot = tmp_path / "killer_bot.py"
    slow = tmp_path / "slow"
    slow.touch()
    bot.write_text(KILLER.format(marker=str(tmp_path / "killed-once"), slow=str(slow)))
    script = textwrap.dedent(f"""
        import os, signal, time
        from gostop_core.arena.selfplay import run_selfplay
        from gostop_core.errors import GoStopError
        signal.signal(signal.SIGTERM, lambda signum, frame: time.sleep(3600))
        spec, out = {f"{bot}:Killer"!r}, {str(tmp_path / "out")!r}
        try:
            run_selfplay(spec, 4, out, shard_size=1, workers=2)
        except GoStopError as exc:
            print("stopped:", exc)
        os.remove({str(slow)!r})
        result = run_selfplay(spec, 4, out, shard_size=1, workers=2)
        print("complete:", result.manifest["complete"])
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "stopped: a worker process died" in proc.stdout
    assert "complete: True" in proc.stdout
