# This file stays one module for now: the transports, the driver side of the
# protocol and the serving loop share the message format and its limits
# (docs/protocol.md).
"""The gostop bot protocol: bots as separate programs (docs/protocol.md).

One JSON object per line on the bot's standard input; the bot answers a
``request`` with one line on its standard output.  gostop sends

- ``hello``: ``{"type": "hello", "protocol": "gostop-bot/1", "engine": "gostop 0.1.0"}``
  (the bot may answer ``{"type": "ready", "name": "..."}``; gostop does not wait for it)
- ``newhand``: a hand begins: ``hand`` (1, 2, ...), ``seat``, ``players``, ``rules``
  and the seat's ``view`` after the deal
- ``request``: ``view`` (the seat's view string), ``legal`` (the legal moves in
  notation) and ``time_ms`` (the time allowed for this answer); the bot answers
  one legal move, bare (``3B``) or as ``{"move": "3B"}``
- ``end``: the hand is over: the seat's last ``view`` and the ``outcome``
- ``quit``: the bot should exit

:class:`BotProtocol` speaks it over a :class:`Transport`:
:class:`ProcessTransport` runs a program (its own process group, a reader
thread, stderr drained, output capped), :class:`MockTransport` follows a script
for tests.  :class:`ExternalBot` is a :class:`~gostop_core.bots.Bot` whose
decisions come from a program; :func:`serve` is the other side, used by
``gostop engine`` to offer gostop's own bots over the protocol.

>>> t = MockTransport()
>>> t.expect({"type": "hello"}, [])
>>> t.expect({"type": "request"}, ["3B"])
>>> p = BotProtocol(t, move_time=1.0)
>>> p.hello()
>>> from gostop_core.moves import Move
>>> str(p.request("gostop-view/1 ...", [Move.from_str("3B"), Move.from_str("4J1")]))
'3B'
>>> t.assert_done()
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import select
import signal
import subprocess
import threading
import time
from collections import deque
from contextlib import contextmanager
from typing import IO, Any, Callable, Iterable, Iterator, Sequence

from gostop_core.bots.base import Bot
from gostop_core.errors import (
    BotError, BotProtocolError, BotTerminatedError, BotTimeoutError, IllegalBotMoveError,
    MoveParseError, PositionError,
)
from gostop_core.game import Game, Outcome, PlayerView
from gostop_core.moves import Move

__all__ = [
    "PROTOCOL", "MAX_LINE", "MAX_OUTPUT", "GRACE", "DEFAULT_MOVE_TIME",
    "Transport", "ProcessTransport", "MockTransport", "BotProtocol", "ExternalBot",
    "serve", "view_from_string", "outcome_from_dict", "close_all_bots", "live_bot_pids",
    "sigterm_closes_bots", "parse_answer",
]

#: The protocol name and version sent in ``hello``.
PROTOCOL = "gostop-bot/1"
#: The longest line a bot may write, in bytes (newline excluded).
MAX_LINE = 64 * 1024
#: The most a bot may write while gostop waits for one answer, in bytes.
MAX_OUTPUT = 1024 * 1024
#: Seconds added to the announced move time before a bot is out of time.
GRACE = 1.0
#: The default time per move, in seconds.
DEFAULT_MOVE_TIME = 5.0
#: Seconds a bot has to exit after ``quit`` before its process group is killed.
QUIT_WAIT = 0.5

_EOF = object()
_TOO_LONG = object()


def _engine_name() -> str:
    from gostop_core._version import __version__
    return f"gostop {__version__}"


def _dumps(message: dict) -> str:
    return json.dumps(message, separators=(", ", ": "), ensure_ascii=False)


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
        self._lines: queue.Queue = queue.Queue(maxsize=256)
        self._closed = False
        with _signals_deferred():  # started and registered, or not started at all
            try:
                self.proc: subprocess.Popen | None = subprocess.Popen(
                    self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, bufsize=0, cwd=cwd, start_new_session=True,
                    close_fds=True)
            except OSError as exc:
                self.proc = None
                raise BotTerminatedError(f"cannot start {self.argv[0]!r}: "
                                         f"{exc.strerror or exc}") from None
            self.pid: int | None = self.proc.pid
            with _LIVE_LOCK:
                _LIVE.add(self)
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._stdin = self.proc.stdin.fileno()
        os.set_blocking(self._stdin, False)
        self._reader = threading.Thread(target=self._read_stdout, args=(self.proc.stdout,),
                                        daemon=True, name=f"bot-{self.pid}-out")
        self._drain = threading.Thread(target=self._read_stderr, args=(self.proc.stderr,),
                                       daemon=True, name=f"bot-{self.pid}-err")
        self._reader.start()
        self._drain.start()

    # ---- threads
    def _put(self, item: Any) -> bool:
        while not self._closed:
            try:
                self._lines.put(item, timeout=0.2)
                return True
            except queue.Full:
                continue
        return False

    def _read_stdout(self, stream: IO[bytes]) -> None:
        fd = stream.fileno()
        buf = b""
        try:
            while True:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    if buf:
                        self._put(buf.decode("utf-8", "replace"))
                    self._put(_EOF)
                    return
                buf += chunk
                *lines, buf = buf.split(b"\n")
                for line in lines:
                    if len(line) > MAX_LINE:
                        self._put(_TOO_LONG)
                        return
                    if not self._put(line.decode("utf-8", "replace").rstrip("\r")):
                        return
                if len(buf) > MAX_LINE:
                    self._put(_TOO_LONG)
                    return
        except Exception:  # pragma: no cover - never let the thread die loudly
            self._put(_EOF)

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

    def receive(self, timeout: float) -> str:
        try:
            item = self._lines.get(timeout=timeout) if timeout > 0 else \
                self._lines.get_nowait()
        except queue.Empty:
            if timeout > 0:
                raise BotTimeoutError(f"no answer within {timeout:.1f} s") from None
            raise BotTimeoutError("no line waiting") from None
        if item is _EOF:
            self._lines.put(_EOF)  # every later receive sees the end too
            raise self._terminated()
        if item is _TOO_LONG:
            raise BotProtocolError(f"the bot wrote a line longer than {MAX_LINE} bytes")
        return item

    # ---- ending
    def _kill_group(self) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

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


# ---------------------------------------------------------------- the protocol

def parse_answer(line: str) -> tuple[str, Any]:
    """Classify one line a bot wrote: ``("move", text)``, ``("ready", message)``,
    ``("info", message)`` or ``("blank", None)``; anything else raises
    :class:`~gostop_core.errors.BotProtocolError`."""
    text = line.strip()
    if not text:
        return "blank", None
    if text.startswith("{"):
        try:
            message = json.loads(text)
        except ValueError:
            raise BotProtocolError(f"the bot wrote {text[:80]!r}, which is not valid JSON"
                                   ) from None
        if not isinstance(message, dict):
            raise BotProtocolError(f"the bot wrote {text[:80]!r}, not a JSON object")
        kind = message.get("type", "move" if "move" in message else None)
        if kind == "move":
            move = message.get("move")
            if not isinstance(move, str):
                raise BotProtocolError(f"the bot's move {move!r} is not a string")
            return "move", move
        if kind in ("ready", "info"):
            return kind, message
        raise BotProtocolError(f"the bot wrote a message of unknown type {kind!r}")
    return "move", text


class BotProtocol:
    """gostop's side of the protocol over one :class:`Transport`.  ``move_time``
    is announced in every request; an answer later than ``move_time + grace``
    seconds raises :class:`~gostop_core.errors.BotTimeoutError`.  ``name`` is the
    name the bot gave in its ``ready`` line, if any.  ``log(direction, line)``,
    when given, sees every line: ``">"`` sent to the bot, ``"<"`` read from it."""

    def __init__(self, transport: Transport, move_time: float = DEFAULT_MOVE_TIME,
                 grace: float | None = None, log: Callable[[str, str], None] | None = None):
        self.transport = transport
        self.log = log
        self.move_time = move_time
        self.grace = GRACE if grace is None else grace
        self.name: str | None = None
        self.ready: dict | None = None

    def _send(self, message: dict) -> None:
        line = _dumps(message)
        if self.log:
            self.log(">", line)
        self.transport.send(line, timeout=self.move_time + self.grace)

    def _receive(self, timeout: float) -> str:
        line = self.transport.receive(timeout)
        if self.log:
            self.log("<", line)
        return line

    def _note(self, kind: str, message: Any) -> None:
        if kind == "ready" and self.ready is None:
            self.ready = message
            name = message.get("name")
            self.name = name[:80] if isinstance(name, str) else None

    def _drain(self) -> None:
        """Lines the bot wrote while nobody asked: ``ready``, ``info`` and blank
        lines are fine; a move is not, nor more than :data:`MAX_OUTPUT` bytes."""
        written = 0
        while True:
            try:
                line = self._receive(0)
            except BotTimeoutError:
                return
            written += len(line.encode()) + 1
            if written > MAX_OUTPUT:
                raise BotProtocolError(f"the bot wrote more than {MAX_OUTPUT} bytes "
                                       "between two requests")
            kind, message = parse_answer(line)
            if kind == "move":
                raise BotProtocolError(f"the bot wrote {line.strip()[:80]!r} when no move "
                                       "was asked")
            self._note(kind, message)

    def hello(self) -> None:
        """Send ``hello`` (the answer ``ready`` is read whenever it comes)."""
        self._send({"type": "hello", "protocol": PROTOCOL, "engine": _engine_name()})

    def new_hand(self, view: str, hand: int, seat: int, players: int, rules: str) -> None:
        """Send ``newhand`` with the seat's view after the deal."""
        self._drain()
        self._send({"type": "newhand", "hand": hand, "seat": seat, "players": players,
                    "rules": rules, "view": view})

    def request(self, view: str, legal: Sequence[Move]) -> Move:
        """Ask for a move; returns the bot's answer, one of ``legal``."""
        self._drain()
        names = [str(m) for m in legal]
        self._send({"type": "request", "view": view, "legal": names,
                    "time_ms": int(round(self.move_time * 1000))})
        deadline = time.monotonic() + self.move_time + self.grace
        written = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotTimeoutError(f"no move within {self.move_time:g} s")
            try:
                line = self._receive(left)
            except BotTimeoutError:
                raise BotTimeoutError(f"no move within {self.move_time:g} s") from None
            written += len(line.encode()) + 1
            if written > MAX_OUTPUT:
                raise BotProtocolError(f"the bot wrote more than {MAX_OUTPUT} bytes "
                                       "for one move")
            kind, message = parse_answer(line)
            if kind != "move":
                self._note(kind, message)
                continue
            try:
                move = Move.from_str(message)
            except MoveParseError:
                raise BotProtocolError(f"the bot answered {message[:80]!r}, which is not "
                                       "a move") from None
            if move not in legal:
                raise IllegalBotMoveError(f"the bot answered {str(move)!r}, which is not "
                                          f"legal here (legal: {' '.join(names)})")
            return move

    def end(self, view: str, outcome: Outcome) -> None:
        """Send ``end`` with the seat's last view and the outcome."""
        self._send({"type": "end", "view": view, "outcome": outcome.as_dict()})

    def quit(self) -> None:
        """Send ``quit`` (a bot already gone is fine)."""
        try:
            self._send({"type": "quit"})
        except BotError:
            pass


# ---------------------------------------------------------------- the bot

class ExternalBot(Bot):
    """A bot that is a separate program speaking the protocol: the program
    starts on the first hand, stays alive across hands, and is stopped by
    :meth:`close`.  Any misbehaviour raises a
    :class:`~gostop_core.errors.BotError` after its process group has been
    killed; the next hand starts a fresh process.  Only the seat's view string
    and the legal moves are ever sent.

    ``command`` is an argument vector (or one string split like a shell);
    ``move_time`` the seconds per move; ``transport`` an optional factory of
    :class:`Transport` (tests use a :class:`MockTransport`); ``log`` sees every
    line (:class:`BotProtocol`)."""

    name = "external"

    def __init__(self, command: Sequence[str] | str, name: str | None = None,
                 move_time: float = DEFAULT_MOVE_TIME, cwd: str | None = None,
                 transport: Callable[[], Transport] | None = None,
                 log: Callable[[str, str], None] | None = None):
        if isinstance(command, str):
            import shlex
            command = shlex.split(command)
        self.command = tuple(command)
        self.name = name or "cmd:" + " ".join(self.command)
        self.move_time = move_time
        self.cwd = cwd
        self.log = log
        self._factory = transport or (lambda: ProcessTransport(self.command, cwd=self.cwd))
        self._protocol: BotProtocol | None = None
        self.hands = 0
        #: How many times the program was started.
        self.starts = 0

    @property
    def running(self) -> bool:
        """True while the program is running (between its start and an error or close)."""
        return self._protocol is not None

    @property
    def bot_name(self) -> str | None:
        """The name the program announced in its ``ready`` line."""
        return self._protocol.name if self._protocol else None

    def _start(self) -> BotProtocol:
        if self._protocol is None:
            transport = self._factory()
            self.starts += 1
            protocol = BotProtocol(transport, self.move_time, log=self.log)
            self._protocol = protocol
            try:
                protocol.hello()
            except BaseException:
                self.kill()
                raise
        self._protocol.move_time = self.move_time
        return self._protocol

    def _guard(self, call: Callable[[BotProtocol], Any]) -> Any:
        protocol = self._protocol
        if protocol is None:
            raise BotTerminatedError("the bot's process is not running")
        try:
            return call(protocol)
        except BaseException:  # BotError, and KeyboardInterrupt too: never leave it running
            self.kill()
            raise

    def start_hand(self, view: PlayerView) -> None:
        self._start()
        self.hands += 1
        from gostop_core.notation import rules_to_token
        self._guard(lambda p: p.new_hand(view.to_str(), self.hands, view.seat, view.players,
                                         rules_to_token(view.rules)))

    def choose(self, view: PlayerView, legal: list[Move]) -> Move:
        if self._protocol is None:
            self._start()
        return self._guard(lambda p: p.request(view.to_str(), legal))

    def end_hand(self, view: PlayerView, outcome: Outcome) -> None:
        if self._protocol is None:
            return
        try:
            self._guard(lambda p: p.end(view.to_str(), outcome))
        except BotError:
            pass  # the hand is decided; the program restarts with the next hand

    def kill(self) -> None:
        """Stop the program at once (its whole process group)."""
        protocol, self._protocol = self._protocol, None
        if protocol is not None:
            protocol.transport.kill()

    def close(self) -> None:
        """Send ``quit``, give the program a moment to exit, then end its group."""
        protocol, self._protocol = self._protocol, None
        if protocol is not None:
            try:
                protocol.quit()
            finally:
                protocol.transport.close()

    def __enter__(self) -> "ExternalBot":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# ---------------------------------------------------------------- the other side

def view_from_string(text: str, check: bool = True) -> PlayerView:
    """A :class:`~gostop_core.game.PlayerView` from a player-view string (the
    view holds only what the string says: :meth:`PlayerView.from_str`).  Raises
    :class:`~gostop_core.errors.PositionError`; ``check`` is kept for callers of
    earlier versions and changes nothing."""
    return PlayerView.from_str(text)


def outcome_from_dict(data: dict) -> Outcome:
    """An :class:`~gostop_core.game.Outcome` from its :meth:`~Outcome.as_dict`
    (the ``outcome`` of an ``end`` message); ``winner_score`` is not rebuilt."""
    try:
        return Outcome(
            winner=data["winner"], points=int(data["points"]),
            scores=tuple(int(x) for x in data["scores"]),
            go_counts=tuple(int(x) for x in data["go_counts"]), reason=str(data["reason"]),
            chips=tuple(int(x) for x in data.get("chips") or ()),
            settlement=data.get("settlement"))
    except (KeyError, TypeError, ValueError) as exc:
        raise PositionError(f"bad outcome: {exc}", "outcome") from None


def serve(bot: Bot, lines: Iterable[str], write: Callable[[str], None],
          name: str = "gostop") -> int:
    """Answer protocol messages (``lines``, one JSON object each) with ``bot``:
    ``hello`` gets ``ready``, ``request`` gets ``{"move": ...}``, ``quit`` ends.
    A message that cannot be served gets ``{"type": "error", "message": ...}``.
    ``write`` must write one line and flush.  Returns the number of moves made."""
    moves = 0
    view: PlayerView | None = None
    for raw in lines:
        text = raw.strip()
        if not text:
            continue
        try:
            message = json.loads(text)
            if not isinstance(message, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            write(_dumps({"type": "error", "message": f"bad message: {exc}"}))
            continue
        kind = message.get("type")
        try:
            if kind == "hello":
                write(_dumps({"type": "ready", "name": name, "protocol": PROTOCOL,
                              "engine": _engine_name()}))
            elif kind == "newhand":
                view = view_from_string(str(message["view"]))
                bot.start_hand(view)
            elif kind == "request":
                view = view_from_string(str(message["view"]))
                legal = [Move.from_str(str(m)) for m in message["legal"]]
                if not legal:
                    raise ValueError("no legal move given")
                move = bot.choose(view, legal)
                moves += 1
                write(_dumps({"move": str(move)}))
            elif kind == "end":
                view = view_from_string(str(message["view"]))
                bot.end_hand(view, outcome_from_dict(message["outcome"]))
            elif kind == "quit":
                break
        except (KeyError, TypeError, ValueError) as exc:
            detail = f"missing {exc}" if isinstance(exc, KeyError) else " ".join(str(exc).split())
            write(_dumps({"type": "error", "message": f"{kind}: {detail}"}))
    return moves
