"""A client for bot programs, in the shape of python-chess's ``chess.engine``.

>>> from gostop_core.game import Game
>>> from gostop_core.protocol.client import SimpleEngine, Limit
>>> with SimpleEngine.popen(["gostop", "engine", "--bot", "best"]) as engine:  # doctest: +SKIP
...     result = engine.play(Game("casual", 2, seed=1), Limit(time=0.1))
...     print(result.move, engine.name)
X3 best

Every call has a timeout (the limit's time plus :data:`GRACE`, or
``timeout``); a program that overruns it, dies, or writes what the protocol
does not allow raises a :class:`~gostop_core.errors.BotError` subclass and
is killed with everything it started
(:func:`gostop_core.protocol.process.kill_tree`).  Leaving the ``with``
block, :meth:`SimpleEngine.quit`, interpreter exit and SIGTERM (with
:func:`~gostop_core.protocol.transport.sigterm_closes_bots`) end it too.

The client speaks both protocol versions: it offers ``gostop-bot/2`` in its
``hello`` and uses it once the program's ``ready`` chose it; with a program
that never answers ``hello`` (version 1 allows it) it goes on in version 1,
sending the legal moves it computed itself.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, NoReturn, Sequence

from gostop_core.errors import (
    BotError, BotProtocolError, BotTerminatedError, BotTimeoutError, IllegalBotMoveError,
    MoveParseError,
)
from gostop_core.game import Game, Outcome, PlayerView
from gostop_core.moves import Move
from gostop_core.protocol import wire
from gostop_core.protocol.positions import legal_moves_of_view
from gostop_core.protocol.transport import ProcessTransport, Transport
from gostop_core.protocol.wire import MessageError, Option

__all__ = ["Limit", "PlayResult", "AnalysisResult", "EngineReplyError", "SimpleEngine",
           "GRACE", "MAX_OUTPUT", "DEFAULT_TIMEOUT", "READY_TIMEOUT"]

#: Seconds added to a limit's time before the program is out of time.
GRACE = 1.0
#: The most a program may write while one answer is awaited, in bytes.
MAX_OUTPUT = 1024 * 1024
#: Seconds a call without a time limit waits (ping, configure).
DEFAULT_TIMEOUT = 10.0
#: Seconds :meth:`SimpleEngine.popen` waits for ``ready`` before it goes on in
#: version 1 with a program that stays silent.
READY_TIMEOUT = 3.0


class EngineReplyError(BotProtocolError):
    """The program answered a request with an ``error`` (it is still running)."""


@dataclass(frozen=True)
class Limit:
    """How long the program may think: ``time`` seconds for this move, or a
    clock (``remaining`` seconds left, ``increment`` seconds added per move)."""

    time: float | None = None
    remaining: float | None = None
    increment: float | None = None

    def fields(self) -> dict:
        out = {}
        for key, value in (("time_ms", self.time), ("remaining_ms", self.remaining),
                           ("increment_ms", self.increment)):
            if value is not None:
                out[key] = int(round(value * 1000))
        return out

    def wait(self) -> float | None:
        """The seconds the program may take (before :data:`GRACE`)."""
        times = [t for t in (self.time, self.remaining) if t is not None]
        return min(times) if times else None


@dataclass
class PlayResult:
    """The move a program chose, the seconds it took, and what else its answer
    said (``info``: the fields of its ``move`` line besides type, id, move)."""

    move: Move
    seconds: float
    info: dict = field(default_factory=dict)


@dataclass
class AnalysisResult:
    """An analysis: ``move`` the best move, ``moves`` every legal move ranked
    (dicts with ``move``, ``value`` in payout units, ``samples``, ``line``),
    ``nodes``, ``samples``, ``time_ms``, and the ``info`` lines streamed."""

    move: Move
    moves: list[dict]
    nodes: int
    samples: int
    time_ms: int
    line: list[str]
    info: list[dict] = field(default_factory=list)




def _view_and_legal(position: Game | PlayerView | str,
                    legal: Sequence[Move] | None) -> tuple[PlayerView, list[Move]]:
    if isinstance(position, Game):
        if position.is_over() or position.turn is None:
            raise ValueError("the game is over: there is no move to make")
        view = position.view(position.turn)
        return view, list(legal) if legal is not None else list(position.legal_moves)
    view = PlayerView.from_str(position) if isinstance(position, str) else position
    return view, list(legal) if legal is not None else legal_moves_of_view(view)


class SimpleEngine:
    """One bot program over a :class:`~gostop_core.protocol.transport.Transport`.
    :meth:`popen` starts a program; ``log(direction, line)`` sees every line
    (``">"`` sent, ``"<"`` read).  Every method raises a
    :class:`~gostop_core.errors.BotError` subclass on failure; unless it is an
    :class:`EngineReplyError` the program is then killed."""

    def __init__(self, transport: Transport, timeout: float = DEFAULT_TIMEOUT,
                 log: Callable[[str, str], None] | None = None):
        self.transport = transport
        self.timeout = timeout
        self.log = log
        #: The protocol version in use (version 1 until ``ready`` chose another).
        self.protocol = wire.PROTOCOL_V1
        #: The name the program gave in ``ready`` (None before).
        self.name: str | None = None
        #: The ``ready`` message (None before).
        self.ready: dict | None = None
        #: The options the program offers, by name.
        self.options: dict[str, Option] = {}
        #: The optional features its ``ready`` announced (``"rules"``, ``"analyse"``).
        self.features: frozenset[str] = frozenset()
        self._next_id = 1
        self._closed = False
        # until the first request: the program may still be starting, and a
        # line it writes before reading anything must not pass for an answer
        self._requested = False

    # ---- starting
    @classmethod
    def popen(cls, command: Sequence[str] | str, timeout: float = DEFAULT_TIMEOUT,
              cwd: str | None = None, wait_ready: bool = True,
              ready_timeout: float = READY_TIMEOUT,
              log: Callable[[str, str], None] | None = None) -> "SimpleEngine":
        """Start ``command`` (an argument vector, or one string split like a
        shell) and send ``hello``; with ``wait_ready`` wait (at most
        ``ready_timeout`` seconds) for its ``ready`` line.  A program that
        stays silent that long is spoken to in version 1 (which lets a
        program ignore ``hello``); one that dies or writes something else
        raises.  ``timeout`` is the default timeout of later calls."""
        if isinstance(command, str):
            import shlex
            command = shlex.split(command)
        engine = cls(ProcessTransport(list(command), cwd=cwd), timeout=timeout, log=log)
        try:
            engine.hello()
            if wait_ready:
                engine.wait_ready(ready_timeout, required=False)
        except BaseException:
            engine.kill()
            raise
        return engine

    def hello(self) -> None:
        """Send ``hello``, offering both protocol versions."""
        self._send({"type": "hello", "protocol": list(wire.PROTOCOLS),
                    "engine": wire.engine_name()})

    def wait_ready(self, timeout: float | None = None, required: bool = True) -> dict | None:
        """Wait for the ``ready`` line.  Silence past ``timeout`` raises
        BotTimeoutError (killing the program) when ``required``, else returns
        None and leaves the program running in version 1."""
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait
        while self.ready is None:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise BotTimeoutError("no ready line")
                line = self._receive(left)
            except BotTimeoutError:
                if not required:
                    return None
                self._fail(BotTimeoutError(f"no ready line within {wait:g} s"))
            except BotError as exc:
                self._fail(exc)
            self._unasked(line)
        return self.ready

    # ---- lines
    def _send(self, message: dict) -> None:
        if self._closed:
            raise BotTerminatedError("the engine is closed")
        line = wire.encode(message)
        if self.log:
            self.log(">", line)
        try:
            self.transport.send(line, timeout=self.timeout)
        except BotError as exc:
            self._fail(exc)

    def _receive(self, timeout: float) -> str:
        line = self.transport.receive(timeout)
        if self.log:
            self.log("<", line)
        return line

    def _fail(self, exc: BaseException) -> NoReturn:
        """Kill the program and raise ``exc``."""
        self.kill()
        raise exc

    def _note_ready(self, message: dict) -> None:
        if self.ready is not None:
            return
        self.ready = message
        name = message.get("name")
        self.name = name[:80] if isinstance(name, str) else None
        chosen = message.get("protocol")
        if chosen in wire.PROTOCOLS:
            self.protocol = chosen
        features = message.get("features")
        if isinstance(features, list) and len(features) <= wire.MAX_LIST:
            self.features = frozenset(f for f in features if isinstance(f, str))
        options = message.get("options") or []
        if isinstance(options, list) and len(options) <= wire.MAX_LIST:
            for data in options:
                try:
                    option = Option.from_dict(data)
                except MessageError:
                    continue
                self.options[option.name] = option

    def _unasked(self, line: str) -> None:
        """A line read while no answer was awaited: ``ready``, ``info`` and
        blank lines are fine; anything else is a protocol error."""
        text = line.strip()
        if not text:
            return
        try:
            message = wire.decode(text)
        except MessageError:
            self._fail(BotProtocolError(f"the bot wrote {text[:80]!r}, which is not a protocol "
                                        "message, when nothing was asked"))
        kind = message.get("type")
        if kind == "ready":
            self._note_ready(message)
        elif kind == "info":
            pass
        else:
            self._fail(BotProtocolError(f"the bot wrote a {kind!r} line when nothing was asked"
                                        if kind != "move" else
                                        f"the bot wrote {text[:80]!r} when no move was asked"))

    def drain(self) -> None:
        """Read what the program wrote while nobody asked (checked as
        :meth:`_unasked` says), at most :data:`MAX_OUTPUT` bytes."""
        written = 0
        while True:
            try:
                line = self._receive(0)
            except BotTimeoutError:
                return
            except BotError as exc:
                self._fail(exc)
            written += len(line.encode()) + 1
            if written > MAX_OUTPUT:
                self._fail(BotProtocolError(f"the bot wrote more than {MAX_OUTPUT} bytes "
                                            "between two requests"))
            self._unasked(line)

    def _new_id(self) -> int:
        value = self._next_id
        self._next_id += 1
        return value

    def _await(self, id: int | None, kinds: tuple[str, ...], wait: float,
               what: str, info: list[dict] | None = None,
               on_info: Callable[[dict], None] | None = None,
               limit: float | None = None) -> dict | str:
        """Read until the answer to request ``id`` (version 2: a message of
        one of ``kinds`` or an error echoing ``id``; version 1, ``id`` None: a
        move line).  Returns the message (version 1: the move text)."""
        deadline = time.monotonic() + wait
        written = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail(BotTimeoutError(f"no {what} within "
                                           f"{wait if limit is None else limit:g} s"))
            try:
                line = self._receive(left)
            except BotTimeoutError:
                continue
            except BotError as exc:
                self._fail(exc)
            written += len(line.encode()) + 1
            if written > MAX_OUTPUT:
                self._fail(BotProtocolError(f"the bot wrote more than {MAX_OUTPUT} bytes for "
                                            f"one {what}"))
            text = line.strip()
            if not text:
                continue
            if id is None and not text.startswith("{"):
                return text  # version 1: a bare move
            try:
                message = wire.decode(text, require_type=id is not None)
            except MessageError as exc:
                self._fail(BotProtocolError(f"the bot wrote {text[:80]!r}, which is not a "
                                            f"protocol message ({exc})"))
            kind = message.get("type")
            if id is None:  # version 1
                if kind == "move" or (kind is None and "move" in message):
                    move = message.get("move")
                    if not isinstance(move, str):
                        self._fail(BotProtocolError(f"the bot's move {move!r} is not a string"))
                    return move
                if kind == "ready":
                    self._note_ready(message)
                    continue
                if kind == "info":
                    continue
                self._fail(BotProtocolError(f"the bot wrote a message of unknown type {kind!r}"))
            if kind == "ready":
                self._note_ready(message)
                continue
            got = message.get("id")
            if kind == "info" and got is None:
                continue
            if got != id:
                self._fail(BotProtocolError(f"the bot answered with id {str(got)[:20]} while "
                                            f"request {id} was awaited ({kind} line)"))
            if kind == "info":
                if info is not None and len(info) < 1000:
                    info.append(message)
                if on_info is not None:
                    on_info(message)
                continue
            if kind == "error":
                raise EngineReplyError(f"the engine refused: {str(message.get('message'))[:300]}")
            if kind in kinds:
                return message
            self._fail(BotProtocolError(f"the bot answered request {id} with a {kind!r} line"))

    # ---- calls
    def ping(self, timeout: float | None = None) -> float:
        """``isready`` and its ``readyok`` (version 2 only); returns the seconds it took."""
        self.drain()
        if self.protocol != wire.PROTOCOL_V2:
            raise BotProtocolError("ping needs protocol version 2 (the bot chose "
                                   f"{self.protocol})")
        started = time.monotonic()
        id = self._new_id()
        self._send({"type": "isready", "id": id})
        self._await(id, ("readyok",), self.timeout if timeout is None else timeout, "readyok")
        return time.monotonic() - started

    def configure(self, options: dict[str, Any], timeout: float | None = None) -> None:
        """Set options (``setoption`` each, checked against the announced
        ones first), then wait for the program to be ready again."""
        if self.protocol != wire.PROTOCOL_V2:
            raise BotProtocolError("configure needs protocol version 2")
        for name, value in options.items():
            if name not in self.options:
                raise ValueError(f"the engine has no option {name!r} (options: "
                                 f"{', '.join(self.options) or 'none'})")
            self.options[name].parse(value)
        self.drain()
        pending = set()
        for name, value in options.items():
            option_id = self._new_id()
            pending.add(option_id)
            # the typed value (a command line gives strings; the engine wants numbers)
            self._send({"type": "setoption", "id": option_id, "name": name,
                        "value": self.options[name].parse(value)})
        id = self._new_id()
        self._send({"type": "isready", "id": id})
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        # an engine announcing "acks" answers each setoption (option or error),
        # after which nothing of this call is left unread; an older one answers
        # only a refusal, before the readyok
        acks = "acks" in self.features
        refused: str | None = None
        ready = False
        while not ready or (acks and pending):
            reply = self._await_any(deadline)
            if reply.get("type") in ("error", "option"):
                pending.discard(reply.get("id"))
            if reply.get("type") == "error" and refused is None:
                refused = str(reply.get("message"))[:300]
            elif reply.get("type") == "readyok" and reply.get("id") == id:
                ready = True
        if refused is not None:
            raise EngineReplyError(f"the engine refused an option: {refused}")

    def _await_any(self, deadline: float) -> dict:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail(BotTimeoutError("no readyok after setoption"))
            try:
                line = self._receive(left)
            except BotTimeoutError:
                continue
            except BotError as exc:
                self._fail(exc)
            if not line.strip():
                continue
            try:
                message = wire.decode(line)
            except MessageError as exc:
                self._fail(BotProtocolError(f"the bot wrote {line[:80]!r} ({exc})"))
            if message["type"] in ("info", "ready"):
                if message["type"] == "ready":
                    self._note_ready(message)
                continue
            return message

    def play(self, position: Game | PlayerView | str, limit: Limit = Limit(time=5.0),
             legal: Sequence[Move] | None = None, timeout: float | None = None) -> PlayResult:
        """The program's move for the seat to move in ``position`` (a game:
        the view of its seat to move; a view, or a view string, whose seat
        must be the one to move).  Only the view and the legal moves are sent.
        Raises BotTimeoutError past ``limit`` plus :data:`GRACE` (or
        ``timeout``), IllegalBotMoveError for a move not legal."""
        view, moves = _view_and_legal(position, legal)
        if not moves:
            raise ValueError("no legal move to choose from")
        names = [str(m) for m in moves]
        wait = timeout if timeout is not None else (limit.wait() or self.timeout) + GRACE
        # what the program wrote before it read this request is unasked (a
        # version 1 answer has no id to tell): before the first request, wait
        # until it has read what was sent (the time counts against the move)
        settling = time.monotonic()
        self.transport.settle(wait, sent=not self._requested)
        self._requested = True
        wait = max(0.0, wait - (time.monotonic() - settling))
        self.drain()
        started = time.monotonic()
        if self.protocol == wire.PROTOCOL_V2:
            id = self._new_id()
            self._send(dict({"type": "request", "id": id, "view": view.to_str(),
                             "legal": names}, **limit.fields()))
            reply = self._await(id, ("move",), wait, "move", limit=limit.wait())
            assert isinstance(reply, dict)
            text = reply.get("move")
            if not isinstance(text, str):
                self._fail(BotProtocolError(f"the bot's move {str(text)[:40]!r} is not a string"))
            extra = {k: v for k, v in reply.items() if k not in ("type", "id", "move")}
        else:
            # an id even so: a version 1 program ignores it, and an engine that
            # chose version 2 before its ready was read needs one
            self._send(dict({"type": "request", "id": self._new_id(), "view": view.to_str(),
                             "legal": names}, **limit.fields()))
            text = self._await(None, ("move",), wait, "move", limit=limit.wait())
            extra = {}
        seconds = time.monotonic() - started
        assert isinstance(text, str)
        try:
            move = Move.from_str(text)
        except MoveParseError:
            self._fail(BotProtocolError(f"the bot answered {text[:80]!r}, which is not a move"))
        if move not in moves:
            self._fail(IllegalBotMoveError(f"the bot answered {str(move)!r}, which is not legal "
                                           f"here (legal: {' '.join(names)})"))
        return PlayResult(move, seconds, extra)

    def analyse(self, position: Game | PlayerView | str, limit: Limit = Limit(time=1.0),
                legal: Sequence[Move] | None = None, timeout: float | None = None,
                on_info: Callable[[dict], None] | None = None) -> AnalysisResult:
        """Every legal move ranked by the program (version 2): ``analyse``,
        the ``info`` lines streamed (``on_info`` sees each), the final
        ``analysis``."""
        if self.protocol != wire.PROTOCOL_V2:
            raise BotProtocolError("analyse needs protocol version 2")
        view, moves = _view_and_legal(position, legal)
        self.drain()
        id = self._new_id()
        self._send(dict({"type": "analyse", "id": id, "view": view.to_str(),
                         "legal": [str(m) for m in moves]}, **limit.fields()))
        wait = timeout if timeout is not None else (limit.wait() or self.timeout) + GRACE
        infos: list[dict] = []
        reply = self._await(id, ("analysis",), wait, "analysis", infos, on_info,
                            limit=limit.wait())
        assert isinstance(reply, dict)
        try:
            move = Move.from_str(str(reply.get("move")))
        except MoveParseError:
            self._fail(BotProtocolError(f"the analysis names no move: {reply.get('move')!r}"))
        if move not in moves:
            self._fail(IllegalBotMoveError(f"the analysis's move {move} is not legal"))
        moves_field = reply.get("moves")
        ranked: list[dict] = moves_field if isinstance(moves_field, list) else []
        return AnalysisResult(move, ranked, int(reply.get("nodes") or 0),
                              int(reply.get("samples") or 0), int(reply.get("time_ms") or 0),
                              list(reply.get("line") or []), infos)

    def stop(self) -> None:
        """Send ``stop`` (a search under way answers with its best move so far)."""
        self._send({"type": "stop"})

    def new_hand(self, view: PlayerView, hand: int, rules: str) -> None:
        """Send ``newhand`` with the seat's view after the deal."""
        self.drain()
        self._send({"type": "newhand", "hand": hand, "seat": view.seat,
                    "players": view.players, "rules": rules, "view": view.to_str()})

    def end_hand(self, view: PlayerView, outcome: Outcome) -> None:
        """Send ``end`` with the seat's last view and the outcome."""
        self._send({"type": "end", "view": view.to_str(), "outcome": outcome.as_dict()})

    # ---- ending
    def quit(self) -> None:
        """Send ``quit``, give the program a moment to exit, then end it and
        everything it started (safe to call twice)."""
        if self._closed:
            return
        try:
            self._send({"type": "quit"})
        except BotError:
            pass
        finally:
            self._closed = True
            self.transport.close()

    close = quit

    def kill(self) -> None:
        """End the program and everything it started at once."""
        self._closed = True
        self.transport.kill()

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, *exc: Any) -> None:
        if exc[0] is None:
            self.quit()
        else:
            self.kill()
