"""Starting a bot program and ending it with everything it started.

A bot program runs in a session (and process group) of its own, so a Ctrl-C
at the terminal reaches gostop only.  Ending the group is not enough: a child
that calls ``setsid()`` leaves it.  So every program is started with an
environment variable holding a token of its own (:data:`TOKEN_VARIABLE`), and
:func:`kill_tree` ends, besides the group,

- every descendant of the program (found through ``/proc``: the parent of
  each process), collected before anything is killed, so that a child whose
  parent dies is still found;
- every process whose environment carries the token (a child that left the
  group and was orphaned before, or one that double-forked away);

and repeats until no such process is left.  On Linux, gostop also makes
itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``, no root
needed): an orphaned descendant is then re-parented to gostop instead of init
and stays in its tree; its exit status is collected after the kill.  Where
``/proc`` or ``prctl`` is missing (macOS, BSD), only the process group is
ended: a child that left it survives (docs/protocol.md).
"""

from __future__ import annotations

import ctypes
import os
import secrets
import signal
import subprocess
import sys
import threading
from typing import Sequence

__all__ = ["TOKEN_VARIABLE", "become_subreaper", "spawn", "kill_tree", "processes_with_token",
           "descendants", "subreaper_active", "adopted_orphans"]

#: The environment variable that marks every process a bot program started.
TOKEN_VARIABLE = "GOSTOP_BOT_TOKEN"

_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37
#: The programs :func:`spawn` started (pid -> its start time in clock ticks):
#: an orphan re-parented to this process is told from them.
_spawned: dict[int, int] = {}
_subreaper_lock = threading.Lock()
_subreaper: bool | None = None


def _libc():
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:  # pragma: no cover - no libc to load
        return None


def become_subreaper() -> bool:
    """Make this process the subreaper of its descendants (Linux only; asked
    again at every call, since other code may have turned it off).  Returns
    whether it is one."""
    global _subreaper
    with _subreaper_lock:
        if not sys.platform.startswith("linux"):
            _subreaper = False
            return False
        if subreaper_active():
            return True
        libc = _libc()
        try:
            _subreaper = libc is not None and libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0,
                                                         0) == 0
        except AttributeError:  # pragma: no cover - no prctl
            _subreaper = False
        return _subreaper


def subreaper_active() -> bool:
    """Whether this process is a child subreaper now (asked of the kernel)."""
    if not sys.platform.startswith("linux"):
        return False
    libc = _libc()
    state = ctypes.c_int(0)
    try:
        if libc is None or libc.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(state), 0, 0,
                                      0) != 0:
            return False
    except AttributeError:  # pragma: no cover
        return False
    return state.value != 0


def spawn(argv: Sequence[str], cwd: str | None = None) -> tuple[subprocess.Popen, str]:
    """Start ``argv`` with pipes for its three standard streams, in a new
    session, with a fresh token in its environment; returns the process and
    the token.  Raises OSError when it cannot start."""
    become_subreaper()
    token = secrets.token_hex(12)
    env = dict(os.environ)
    env[TOKEN_VARIABLE] = token
    proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, bufsize=0, cwd=cwd, start_new_session=True,
                            close_fds=True, env=env)
    started = _stat_fields(proc.pid)
    _spawned[proc.pid] = int(started[19]) if started else 0
    return proc, token


def _stat_fields(pid: int) -> list[bytes] | None:
    """The fields of /proc/PID/stat after the command name (state is [0],
    the parent [1], the session [3], the start time [19]), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
        return data[data.rindex(b")") + 2:].split()
    except (OSError, ValueError):
        return None


def adopted_orphans(since_ticks: int) -> set[int]:
    """The orphans this process adopted as subreaper since ``since_ticks``
    (a program's start time): its children that :func:`spawn` did not start,
    in a session other than its own (a ``setsid()`` child of a bot: whatever
    it did to its environment, it cannot hide that it was re-parented here).
    The limit: with several programs running at once, an orphan of one is
    also counted for another started before it."""
    me = os.getpid()
    own_session = os.getsid(0)
    found = set()
    for p in _proc_pids():
        if p == me or p in _spawned:
            continue
        fields = _stat_fields(p)
        if fields is None or len(fields) < 20 or fields[0] in (b"Z", b"X"):
            continue
        try:
            parent, session, started = int(fields[1]), int(fields[3]), int(fields[19])
        except ValueError:
            continue
        if parent == me and session != own_session and started >= since_ticks:
            found.add(p)
    return found


def _proc_pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


def _parent_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    # the command name is in parentheses and may hold spaces: read after the last ")"
    try:
        return int(data[data.rindex(b")") + 2:].split()[1])
    except (ValueError, IndexError):
        return None


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` in the process tree (empty without /proc)."""
    children: dict[int, list[int]] = {}
    for p in _proc_pids():
        parent = _parent_of(p)
        if parent is not None:
            children.setdefault(parent, []).append(p)
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def processes_with_token(token: str) -> set[int]:
    """The processes whose environment holds ``TOKEN_VARIABLE=token``."""
    needle = f"{TOKEN_VARIABLE}={token}".encode()
    me = os.getpid()
    found = set()
    for p in _proc_pids():
        if p == me:
            continue
        try:
            with open(f"/proc/{p}/environ", "rb") as f:
                environ = f.read()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            found.add(p)
    return found


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _reap(pids: set[int]) -> None:
    """Collect the exit status of those of ``pids`` that are our children now
    (orphans re-parented to this subreaper)."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except (ChildProcessError, OSError):
            pass


def kill_tree(proc: subprocess.Popen, token: str | None) -> None:
    """SIGKILL the program ``proc``, its process group, its descendants and
    every process carrying ``token`` (see the module's docstring)."""
    seen: set[int] = set()
    for _ in range(20):  # a fork bomb cannot keep this going forever
        if proc.poll() is None:
            # stop the program first, so that it forks no more while its tree is read
            try:
                os.kill(proc.pid, signal.SIGSTOP)
            except (ProcessLookupError, PermissionError):
                pass
        targets = descendants(proc.pid) | (processes_with_token(token) if token else set())
        if subreaper_active():
            # a setsid() child that dropped the token and was orphaned at once
            # was re-parented here: it is found by its new parent
            targets |= adopted_orphans(_spawned.get(proc.pid, 0))
        targets.discard(os.getpid())
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        _kill(proc.pid)
        for pid in targets:
            _kill(pid)
        seen |= targets
        if not targets - _dead(targets):
            break
    _reap(seen)
    _spawned.pop(proc.pid, None)


def _dead(pids: set[int]) -> set[int]:
    dead = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
            if state in (b"Z", b"X"):
                dead.add(pid)
        except (OSError, IndexError):
            dead.add(pid)
    return dead
