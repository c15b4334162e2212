"""Lines to and from one bot program: the :class:`Transport` interface,
:class:`ProcessTransport` (a program in a session of its own, started by
:func:`gostop_core.protocol.process.spawn` and ended with everything it
started by :func:`~gostop_core.protocol.process.kill_tree`), and
:class:`MockTransport` (a script, for tests).  Every live process transport
is registered, so that no bot program outlives gostop (:func:`close_all_bots`
at exit, on SIGTERM with :func:`sigterm_closes_bots`)."""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import struct
import subprocess
import threading
import time
from collections import deque
from contextlib import contextmanager
from typing import IO, Any, Iterable, Iterator, Sequence

from gostop_core.errors import BotProtocolError, BotTerminatedError, BotTimeoutError
from gostop_core.protocol import process
from gostop_core.protocol.wire import MAX_LINE

__all__ = ["Transport", "ProcessTransport", "MockTransport", "close_all_bots",
           "live_bot_pids", "sigterm_closes_bots", "DEFAULT_MOVE_TIME", "QUIT_WAIT"]

#: The default time per move, in seconds.
DEFAULT_MOVE_TIME = 5.0
#: Seconds a bot has to exit after ``quit`` before its process tree is killed.
QUIT_WAIT = 0.5
#: Lines a bot may have written and gostop not received yet before the
#: reader thread stops taking more (the bot then waits on its full pipe).
MAX_QUEUED = 256

_EOF = object()
_TOO_LONG = object()

# ---------------------------------------------------------------- transports

class Transport:
    """Lines to and from one bot.  :meth:`send` writes one line (without its
    newline); :meth:`receive` waits at most ``timeout`` seconds for the next
    line the bot wrote and raises :class:`~gostop_core.errors.BotTimeoutError`,
    :class:`~gostop_core.errors.BotTerminatedError` or
    :class:`~gostop_core.errors.BotProtocolError` (a line too long);
    ``timeout=0`` only returns a line already read.  :meth:`close` ends the bot
    politely, :meth:`kill` at once; both are safe to call twice."""

    def send(self, line: str, timeout: float = DEFAULT_MOVE_TIME) -> None:
        raise NotImplementedError

    def receive(self, timeout: float) -> str:
        raise NotImplementedError

    def settle(self, timeout: float, sent: bool = False) -> None:
        """Make every line the bot wrote so far receivable at once (for a
        drain before a request); with ``sent``, first wait (at most
        ``timeout`` seconds) until the bot has read every line sent to it.
        Nothing to do for a transport without pipes."""

    def close(self) -> None:
        """End the bot (after ``quit`` was sent) and release everything."""

    def kill(self) -> None:
        """End the bot at once."""
        self.close()


class MockTransport(Transport):
    """A scripted bot for tests: :meth:`expect` a message (a dict whose items
    must all be in the message sent, or the exact line) and the lines the bot
    answers; a :meth:`receive` with nothing to answer times out at once.
    ``sent`` and ``received`` keep the transcript."""

    def __init__(self) -> None:
        self.script: deque[tuple[Any, list[str]]] = deque()
        self.pending: deque[str] = deque()
        self.sent: list[str] = []
        self.received: list[str] = []
        self.closed = False

    def expect(self, message: dict | str, answers: Iterable[str] = ()) -> None:
        """The next line sent must match ``message``; the bot then writes ``answers``."""
        self.script.append((message, list(answers)))

    def send(self, line: str, timeout: float = DEFAULT_MOVE_TIME) -> None:
        if self.closed:
            raise BotTerminatedError("the scripted bot is closed")
        self.sent.append(line)
        if not self.script:
            raise AssertionError(f"unexpected message {line!r}")
        expected, answers = self.script.popleft()
        if isinstance(expected, dict):
            got = json.loads(line)
            wrong = {k: v for k, v in expected.items() if got.get(k) != v}
            if wrong:
                raise AssertionError(f"expected {expected!r}, got {line!r}")
        elif line != expected:
            raise AssertionError(f"expected {expected!r}, got {line!r}")
        self.pending.extend(answers)

    def receive(self, timeout: float) -> str:
        if self.pending:
            line = self.pending.popleft()
            self.received.append(line)
            return line
        raise BotTimeoutError(f"no answer within {timeout:.1f} s (scripted)")

    def close(self) -> None:
        self.closed = True

    def assert_done(self) -> None:
        """Every scripted message was sent and every answer read."""
        assert not self.script, f"messages never sent: {list(self.script)!r}"
        assert not self.pending, f"answers never read: {list(self.pending)!r}"


# every live process transport, so that no bot process outlives gostop
_LIVE: set["ProcessTransport"] = set()
_LIVE_LOCK = threading.RLock()  # re-entrant: a signal handler may close every bot


def close_all_bots() -> None:
    """Kill every bot process this process started and has not closed yet
    (registered at exit, and called by the arena's workers and on signals)."""
    with _LIVE_LOCK:
        transports = list(_LIVE)
    for t in transports:
        t.kill()


@contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while a bot process is started and registered,
    then deliver them: an interruption never leaves an unregistered process."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    old: dict[int, Any] = {}
    for sig in (int(signal.SIGINT), int(signal.SIGTERM)):
        if signal.getsignal(sig) is not None:  # None: a handler Python cannot restore
            old[sig] = signal.signal(sig, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        for sig in caught:
            signal.raise_signal(sig)


@contextmanager
def sigterm_closes_bots() -> Iterator[None]:
    """While the block runs in the main thread, SIGTERM ends every bot process
    and then exits (status 143) instead of leaving the bots behind."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        close_all_bots()
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def live_bot_pids() -> list[int]:
    """The process ids of the bot processes still running (for tests)."""
    with _LIVE_LOCK:
        return sorted(t.pid for t in _LIVE if t.pid is not None)


atexit.register(close_all_bots)


def _unread(fd: int) -> int:
    """Bytes in the pipe ``fd`` (either end) not read yet; 0 when unknown."""
    try:
        import fcntl
        import termios
        return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
    except (ImportError, AttributeError, OSError, ValueError):
        return 0


class ProcessTransport(Transport):
    """A bot program in its own process group (a new session, so a Ctrl-C at the
    terminal reaches gostop, which then ends the bot).  A reader thread splits
    its standard output into lines (at most :data:`MAX_LINE` bytes each); a
    second thread drains its standard error and keeps the last ``stderr_tail``
    characters for error messages."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None, stderr_tail: int = 2000):
        self.argv = list(argv)
        self.stderr_tail = stderr_tail
        self._stderr: deque[str] = deque()
        self._stderr_len = 0
        # the lines read and not received yet: the reader thread stops taking
        # more at MAX_QUEUED; receive() reads the pipe itself when it is empty
        self._lines: deque[Any] = deque()
        self._lines_cv = threading.Condition()
        self._closed = False
        # held from taking bytes off the pipe until their lines are queued (by
        # the reader thread or receive), so that settle() sees them either in
        # the pipe or queued; _buf is the partial line after the last newline
        self._read_lock = threading.Lock()
        self._buf = b""
        self._ended = False
        with _signals_deferred():  # started and registered, or not started at all
            try:
                self.proc: subprocess.Popen | None
                self.token: str | None
                self.proc, self.token = process.spawn(self.argv, cwd=cwd)
            except OSError as exc:
                self.proc, self.token = None, None
                raise BotTerminatedError(f"cannot start {self.argv[0]!r}: "
                                         f"{exc.strerror or exc}") from None
            self.pid: int | None = self.proc.pid
            with _LIVE_LOCK:
                _LIVE.add(self)
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._stdin = self.proc.stdin.fileno()
        os.set_blocking(self._stdin, False)
        self._stdout = self.proc.stdout.fileno()
        os.set_blocking(self._stdout, False)  # two readers: neither may block in read
        self._poller = select.poll()
        self._poller.register(self._stdout, select.POLLIN | select.POLLHUP | select.POLLERR)
        self._reader = threading.Thread(target=self._read_stdout, args=(self.proc.stdout,),
                                        daemon=True, name=f"bot-{self.pid}-out")
        self._drain = threading.Thread(target=self._read_stderr, args=(self.proc.stderr,),
                                       daemon=True, name=f"bot-{self.pid}-err")
        self._reader.start()
        self._drain.start()

    # ---- threads
    def _queue(self, item: Any) -> None:
        with self._lines_cv:
            self._lines.append(item)
            self._lines_cv.notify_all()

    def _take(self) -> bool:
        """Take what the pipe holds and queue its whole lines (the caller
        holds ``_read_lock``); False once the output has ended."""
        if self._ended:
            return False
        try:
            chunk = os.read(self._stdout, 65536)
        except BlockingIOError:
            return True
        except OSError:
            chunk = b""
        if not chunk:
            if self._buf:
                self._queue(self._buf.decode("utf-8", "replace"))
            self._buf = b""
            self._queue(_EOF)
            self._ended = True
            return False
        *lines, self._buf = (self._buf + chunk).split(b"\n")
        for line in lines:
            if len(line) > MAX_LINE:
                break
            self._queue(line.decode("utf-8", "replace").rstrip("\r"))
        else:
            if len(self._buf) <= MAX_LINE:
                return True
        self._queue(_TOO_LONG)
        self._ended = True
        return False

    def _read_stdout(self, stream: IO[bytes]) -> None:
        poller = select.poll()
        poller.register(self._stdout, select.POLLIN | select.POLLHUP | select.POLLERR)
        try:
            while not self._closed:
                with self._lines_cv:  # a bot writing unasked waits for its lines to be read
                    while len(self._lines) >= MAX_QUEUED and not self._closed:
                        self._lines_cv.wait(0.2)
                try:  # wait outside the lock; take and queue under it
                    poller.poll(200)
                except OSError:
                    pass
                with self._read_lock:
                    if not self._take():
                        return
        except Exception:  # pragma: no cover - never let the thread die loudly
            self._queue(_EOF)

    def settle(self, timeout: float, sent: bool = False) -> None:
        """See :meth:`Transport.settle`.  A version 1 answer carries no id, so
        a line the bot wrote before it read the request could be taken for
        its answer; the pipes tell: the bytes still unread in each (Linux's
        ``FIONREAD``, on both ends of a pipe).  Where that cannot be asked,
        nothing is waited for."""
        if self.proc is None or self._closed:
            return
        deadline = time.monotonic() + timeout
        if sent:  # the bot has read what was sent: what it wrote before is out
            while _unread(self._stdin) and self.proc.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.001)
        out = self._stdout
        while time.monotonic() < deadline and len(self._lines) < MAX_QUEUED:
            # the reader holds the lock while its lines are not queued yet
            if not self._read_lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
                return
            try:
                if not _unread(out):
                    return
            finally:
                self._read_lock.release()
            time.sleep(0.0005)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        fd = stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            text = chunk.decode("utf-8", "replace")
            self._stderr.append(text)
            self._stderr_len += len(text)
            while self._stderr_len - len(self._stderr[0]) >= self.stderr_tail:
                self._stderr_len -= len(self._stderr.popleft())

    def stderr_text(self) -> str:
        """The last characters the bot wrote on its standard error."""
        return "".join(self._stderr)[-self.stderr_tail:]

    def _last_words(self) -> str:
        lines = [ln.strip() for ln in self.stderr_text().splitlines() if ln.strip()]
        return f"; its last error line: {lines[-1][:200]}" if lines else ""

    # ---- lines
    def send(self, line: str, timeout: float = DEFAULT_MOVE_TIME) -> None:
        if self.proc is None or self._closed:
            raise BotTerminatedError("the bot's process is not running")
        data = line.encode() + b"\n"
        deadline = time.monotonic() + timeout
        while data:
            try:
                n = os.write(self._stdin, data)
                data = data[n:]
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BotTimeoutError("the bot does not read its input") from None
                select.select([], [self._stdin], [], min(left, 0.5))
            except (BrokenPipeError, OSError):
                raise self._terminated() from None

    def _terminated(self) -> BotTerminatedError:
        code = None
        if self.proc is not None:
            try:
                code = self.proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                code = None
        status = f" (exit code {code})" if code is not None else ""
        return BotTerminatedError(f"the bot's process ended{status}{self._last_words()}", code)

    def _pop(self) -> Any:
        with self._lines_cv:
            if not self._lines:
                return None
            item = self._lines.popleft()
            if item is _EOF:
                self._lines.appendleft(_EOF)  # every later receive sees the end too
            self._lines_cv.notify_all()
            return item

    def receive(self, timeout: float) -> str:
        """See :meth:`Transport.receive`.  While nothing is queued the
        caller reads the pipe itself (the reader thread stands aside), so
        that an answer costs one thread's wake-up, not two: on a loaded
        machine each can take milliseconds."""
        deadline = time.monotonic() + timeout
        while True:
            item = self._pop()
            if item is not None:
                break
            left = deadline - time.monotonic()
            if timeout <= 0 or left <= 0:
                if timeout > 0:
                    raise BotTimeoutError(f"no answer within {timeout:.1f} s")
                raise BotTimeoutError("no line waiting")
            if not self._read_lock.acquire(timeout=min(left, 0.05)):
                continue
            try:
                if not self._lines and not self._ended and not self._closed:
                    try:
                        self._poller.poll(max(1, int(min(left, 0.05) * 1000)))
                    except OSError:
                        pass
                    self._take()
            finally:
                self._read_lock.release()
        if item is _EOF:
            raise self._terminated()
        if item is _TOO_LONG:
            raise BotProtocolError(f"the bot wrote a line longer than {MAX_LINE} bytes")
        return item

    # ---- ending
    def _kill_group(self) -> None:
        """End the program's process group, its descendants and every process
        carrying its token (:func:`gostop_core.protocol.process.kill_tree`)."""
        if self.proc is None:
            return
        process.kill_tree(self.proc, getattr(self, "token", None))

    def _finish(self, polite: bool) -> None:
        if self._closed:
            return
        self._closed = True
        proc = self.proc
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
        except OSError:
            pass
        if polite:
            try:
                proc.wait(timeout=QUIT_WAIT)
            except subprocess.TimeoutExpired:
                pass
        # always: whatever the bot started in its group goes too
        self._kill_group()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL not delivered
            pass
        for thread in (getattr(self, "_reader", None), getattr(self, "_drain", None)):
            if thread is not None:  # None: interrupted while starting
                thread.join(timeout=1.0)
        for stream in (proc.stdout, proc.stderr):
            try:
                if stream:
                    stream.close()
            except OSError:  # pragma: no cover
                pass
        with _LIVE_LOCK:
            _LIVE.discard(self)

    def close(self) -> None:
        self._finish(polite=True)

    def kill(self) -> None:
        self._finish(polite=False)


