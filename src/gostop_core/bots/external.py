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

import json
import math
import threading
import time
from typing import Any, Callable, Iterable, Sequence

from gostop_core.bots import search
from gostop_core.bots.base import Bot
from gostop_core.bots.expectimax import ExpectimaxBot
from gostop_core.bots.ismcts import MAX_ITERATIONS
from gostop_core.bots.mcts import IsmctsBot
from gostop_core.bots.settings import protocol_options
from gostop_core.bots.simple import GreedyBot
from gostop_core.errors import (
    BotError, BotProtocolError, BotTerminatedError, BotTimeoutError, IllegalBotMoveError,
    MoveParseError,
)
from gostop_core.game import Outcome, PlayerView
from gostop_core.moves import Move, RankedMove
from gostop_core.protocol.transport import (
    QUIT_WAIT,  # noqa: F401  (an 0.1 name)
    DEFAULT_MOVE_TIME, MockTransport, ProcessTransport, Transport, close_all_bots,
    live_bot_pids, sigterm_closes_bots,
)
from gostop_core.protocol.client import GRACE, Limit, SimpleEngine
from gostop_core.protocol.server import (
    BotBackend, EngineBackend, SearchResult, outcome_from_dict,
)
from gostop_core.protocol.server import serve as serve_backend
from gostop_core.protocol.wire import (
    MAX_LINE, MAX_TIME_MS, PROTOCOL_V1, MessageError, Option, engine_name,
)

__all__ = [
    "PROTOCOL", "MAX_LINE", "MAX_OUTPUT", "GRACE", "DEFAULT_MOVE_TIME",
    "Transport", "ProcessTransport", "MockTransport", "BotProtocol", "ExternalBot",
    "serve", "view_from_string", "outcome_from_dict", "close_all_bots", "live_bot_pids",
    "sigterm_closes_bots", "parse_answer", "SearchBotBackend", "BotBackend", "EngineBackend",
]

#: The protocol name and version sent in ``hello``.
PROTOCOL = PROTOCOL_V1
#: The most a bot may write while gostop waits for one answer, in bytes.
MAX_OUTPUT = 1024 * 1024




def _dumps(message: dict) -> str:
    return json.dumps(message, separators=(", ", ": "), ensure_ascii=False)


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
        self._send({"type": "hello", "protocol": PROTOCOL, "engine": engine_name()})

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
    """A bot that is a separate program speaking the protocol, driven through
    the client (:class:`~gostop_core.protocol.client.SimpleEngine`): the
    program starts on the first hand, stays alive across hands, and is
    stopped by :meth:`close`.  Any misbehaviour raises a
    :class:`~gostop_core.errors.BotError` after the program and everything it
    started have been killed; the next hand starts a fresh process.  Only the
    seat's view string and the legal moves are ever sent.

    ``command`` is an argument vector (or one string split like a shell);
    ``move_time`` the seconds per move; ``transport`` an optional factory of
    :class:`Transport` (tests use a :class:`MockTransport`); ``log`` sees every
    line (``">"`` sent, ``"<"`` read)."""

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
        self._engine: SimpleEngine | None = None
        #: The name the program announced last (kept after it stopped).
        self.announced: str | None = None
        self.hands = 0
        #: How many times the program was started.
        self.starts = 0

    @property
    def running(self) -> bool:
        """True while the program is running (between its start and an error or close)."""
        return self._engine is not None

    @property
    def bot_name(self) -> str | None:
        """The name the program announced in its ``ready`` line."""
        if self._engine is not None and self._engine.name:
            self.announced = self._engine.name
        return self.announced

    @property
    def protocol(self) -> str | None:
        """The protocol version the running program speaks (None when not running)."""
        return self._engine.protocol if self._engine is not None else None

    def _start(self) -> SimpleEngine:
        if self._engine is None:
            transport = self._factory()
            self.starts += 1
            engine = SimpleEngine(transport, timeout=self.move_time + GRACE, log=self.log)
            self._engine = engine
            try:
                engine.hello()
            except BaseException:
                self.kill()
                raise
        self._engine.timeout = self.move_time + GRACE
        return self._engine

    def _guard(self, call: Callable[[SimpleEngine], Any]) -> Any:
        engine = self._engine
        if engine is None:
            raise BotTerminatedError("the bot's process is not running")
        try:
            result = call(engine)
            if engine.name:
                self.announced = engine.name
            return result
        except BaseException:  # BotError, and KeyboardInterrupt too: never leave it running
            self.kill()
            raise

    def start_hand(self, view: PlayerView) -> None:
        self._start()
        self.hands += 1
        from gostop_core.notation import rules_to_token
        self._guard(lambda e: e.new_hand(view, self.hands, rules_to_token(view.rules)))

    def choose(self, view: PlayerView, legal: list[Move]) -> Move:
        if self._engine is None:
            self._start()
        return self._guard(lambda e: e.play(view, Limit(time=self.move_time), legal=legal,
                                            timeout=self.move_time + GRACE).move)

    def end_hand(self, view: PlayerView, outcome: Outcome) -> None:
        if self._engine is None:
            return
        try:
            self._guard(lambda e: e.end_hand(view, outcome))
        except BotError:
            pass  # the hand is decided; the program restarts with the next hand

    def kill(self) -> None:
        """Stop the program and everything it started at once."""
        engine, self._engine = self._engine, None
        if engine is not None:
            if engine.name:
                self.announced = engine.name
            engine.kill()

    def close(self) -> None:
        """Send ``quit``, give the program a moment to exit, then end it and
        everything it started."""
        engine, self._engine = self._engine, None
        if engine is not None:
            if engine.name:
                self.announced = engine.name
            engine.quit()

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


class SearchBotBackend(EngineBackend):
    """``gostop engine``'s backend for gostop's own bots: the expectimax and
    IS-MCTS bots offer their settings as options, honour each request's time
    (their ``time_ms`` budget, set per request), stop early on ``stop``
    (a :class:`~gostop_core.bots.search.StopToken` of the backend's own), and stream their analysis in
    rounds of samples; any other bot just chooses."""

    #: The rounds an analysis is split into (an ``info`` line after each).
    ROUNDS = 8

    def __init__(self, bot: Bot, name: str = "gostop"):
        self.bot = bot
        self.name = name
        self._stop = threading.Event()
        # this backend's searches stop on this token alone (never another's)
        self._token = search.StopToken()
        if isinstance(bot, (ExpectimaxBot, IsmctsBot)):
            bot.stop_token = self._token
        self._fallback = GreedyBot()
        self._specs = _option_specs(bot)

    def options(self) -> list[Option]:
        return [spec for spec, _ in self._specs.values()]

    def features(self) -> tuple[str, ...]:
        if isinstance(self.bot, (ExpectimaxBot, IsmctsBot)):
            return ("rules", "analyse", "state", "acks")
        return ("rules", "state", "acks")

    def set_option(self, name: str, value: Any) -> Any:
        if name not in self._specs:
            raise MessageError(f"setoption: no such option (options: "
                               f"{', '.join(self._specs) or 'none'}): {name[:40]!r}")
        spec, attribute = self._specs[name]
        parsed = spec.parse(value, strict=True)
        setattr(self.bot, attribute, parsed)
        return parsed

    def new_hand(self, view: PlayerView) -> None:
        self.bot.start_hand(view)

    def end_hand(self, view: PlayerView, outcome: Outcome) -> None:
        self.bot.end_hand(view, outcome)

    def stop(self) -> None:
        self._stop.set()
        self._token.set()

    def clear_stop(self) -> None:
        self._stop.clear()
        self._token.clear()

    def fallback(self, view: PlayerView, legal: list[Move]) -> Move:
        return self._fallback.choose(view, legal)

    def search(self, view: PlayerView, legal: list[Move], time_ms: float | None,
               info: Callable[[dict], None] | None) -> SearchResult:
        bot = self.bot
        if not isinstance(bot, (ExpectimaxBot, IsmctsBot)):
            return SearchResult(bot.choose(view, list(legal)))
        budget_key = "samples" if isinstance(bot, ExpectimaxBot) else "iterations"
        total = getattr(bot, budget_key)
        saved = (bot.time_ms, total, bot.seed)
        limit = bot.time_ms if time_ms is None else (
            min(time_ms, bot.time_ms) if bot.time_ms > 0 else time_ms)
        started = time.monotonic()
        rounds = self.ROUNDS if info is not None else 1
        per_round = max(1, -(-total // rounds))
        sums: dict[Move, list] = {}
        nodes_before = getattr(bot, "nodes_visited", 0) if isinstance(bot, ExpectimaxBot) else 0
        done = 0
        stopped = "samples"
        try:
            for k in range(rounds):
                left_ms = 0.0
                if limit > 0:
                    left_ms = limit - (time.monotonic() - started) * 1000
                    if left_ms < 1.0 and done:
                        stopped = "time"
                        break
                chunk = min(per_round, total - done)
                if chunk <= 0:
                    break
                setattr(bot, budget_key, chunk)
                # an analysis gives each round its share of the time, so that it
                # reports as it goes
                bot.time_ms = max(min(left_ms, limit / rounds if rounds > 1 else left_ms), 1.0) \
                    if limit > 0 else 0.0
                if rounds > 1:
                    bot.seed = (saved[2] or 0) + 7919 * k
                ranked = bot.analyse(view)
                got = max((r.samples for r in ranked), default=0)
                done += got
                for r in ranked:
                    entry = sums.setdefault(r.move, [0.0, 0, r.line])
                    if r.samples and r.value == r.value:
                        entry[0] += r.value * r.samples
                        entry[1] += r.samples
                    if len(r.line) > len(entry[2]):
                        entry[2] = r.line
                if info is not None:
                    info(self._report(sums, done, started, bot, nodes_before))
                if self._stop.is_set():
                    stopped = "stop"
                    break
                last = getattr(bot, "last_stopped", None)
                if last == "stop" or (last == "time" and rounds == 1):
                    stopped = last
                    break
        finally:
            bot.time_ms, bot.seed = saved[0], saved[2]
            setattr(bot, budget_key, saved[1])
        ranked_entries = self._ranking(sums)
        allowed = set(legal)
        move = next((r.move for r in ranked_entries if r.move in allowed), legal[0])
        nodes = getattr(bot, "nodes_visited", 0) - nodes_before if isinstance(bot, ExpectimaxBot) else 0
        return SearchResult(move, ranked_entries, nodes, done, stopped)

    @staticmethod
    def _ranking(sums: dict) -> list[RankedMove]:
        entries = [RankedMove(m, (v / n) if n else math.nan, tuple(line), n)
                   for m, (v, n, line) in sums.items()]
        return sorted(entries, key=lambda r: (-r.samples, -(r.value if r.samples else -math.inf)))

    def _report(self, sums: dict, done: int, started: float, bot: Bot,
                nodes_before: int) -> dict:
        ranked = self._ranking(sums)
        nodes = getattr(bot, "nodes_visited", 0) - nodes_before if isinstance(bot, ExpectimaxBot) else 0
        return {"moves": [r.as_dict() for r in ranked], "samples": done, "nodes": nodes,
                "time_ms": int(round((time.monotonic() - started) * 1000)),
                "line": list(ranked[0].line) if ranked else []}


def _option_specs(bot: Bot) -> dict[str, tuple[Option, str]]:
    """The options of ``bot`` (name -> (option, attribute)): every setting of
    its class's table that can change on a built bot (``SETTINGS``,
    :mod:`gostop_core.bots.settings`), named as in its ``key=value``
    settings (docs/bots.md)."""
    return {name: (option, setting.attribute)
            for name, (option, setting) in protocol_options(bot).items()}


def serve(bot: Bot | EngineBackend, lines: Iterable[Any], write: Callable[[str], None],
          name: str = "gostop", log: Callable[[str], None] | None = None) -> int:
    """Answer protocol messages with ``bot`` (docs/protocol.md, both
    versions): gostop's own searching bots through a
    :class:`SearchBotBackend`, any other bot through
    :class:`~gostop_core.protocol.server.BotBackend`.  ``lines`` are strings
    or :class:`~gostop_core.protocol.wire.TooLong` markers, ``write`` writes
    one line and flushes.  Returns the number of moves answered."""
    backend = bot if isinstance(bot, EngineBackend) else SearchBotBackend(bot, name)
    return serve_backend(backend, lines, write, log=log)
