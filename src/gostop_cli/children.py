"""What the bot programs of ``gostop play`` leave behind.

A ``cmd:`` bot runs in a process group of its own, which gostop ends with the
bot; but a process the bot starts in a session of its own (``setsid``) is in no
group gostop can reach.  On Linux ``gostop play`` makes itself the *subreaper*
of its descendants while its bots run, so that such a process, orphaned when
its bot ends, becomes gostop's own child: :func:`end_orphans` then ends it,
collects it and stops adopting.  Elsewhere both are no-ops."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import time

__all__ = ["become_subreaper", "end_orphans"]

_PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>
_subreaper = False
_own: set[int] = set()  # children this process had before: never taken for orphans


def become_subreaper() -> bool:
    """Adopt the orphans of every process this one starts (Linux); True if done."""
    global _subreaper
    if _subreaper:
        return True
    _own.update(_children())
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _subreaper = False
    return _subreaper


def _adopted() -> list[int]:
    """This process's children outside its own process group that it had not
    before it became a subreaper: the bots' escaped descendants (the bots
    themselves, each in a group of its own, are closed before this is asked)."""
    return [pid for pid in _children(other_groups=True) if pid not in _own]


def _children(other_groups: bool = False) -> list[int]:
    me, group = os.getpid(), os.getpgrp()
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # fields after the name: state, ppid, pgrp, ...
        if len(fields) > 2 and int(fields[1]) == me and not (
                other_groups and int(fields[2]) == group):
            found.append(int(name))
    return found


def end_orphans(wait: float = 2.0) -> list[int]:
    """End (SIGKILL) and collect the adopted orphans, and stop adopting (the
    process that called :func:`become_subreaper` is a subreaper only while its
    bots run: a test runner, say, goes back to normal); returns their pids."""
    global _subreaper
    if not _subreaper:
        return []
    pids = _adopted()
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - set a moment ago
        pass
    _subreaper = False
    _own.clear()
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    deadline = time.monotonic() + wait
    left = set(pids)
    while left and time.monotonic() < deadline:
        for pid in list(left):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:
                left.discard(pid)
        if left:
            time.sleep(0.02)
    return pids
