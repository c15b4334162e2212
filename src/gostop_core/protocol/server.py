"""The engine side of the bot protocol (``gostop engine``, docs/protocol.md).

:func:`serve` reads messages, answers them, and runs each search in a worker
thread, so that ``isready`` is answered and ``stop`` heard while it thinks.
The engine owns the rules: it computes the legal moves of every view itself
(:mod:`gostop_core.protocol.positions`), checks a given ``legal`` list
against them, and refuses a view whose seat is not to move.  A time limit
(``time_ms``, or a clock) is kept by the search (it is told a share of the
time) and, should the search overrun, by a timer that answers the move a
quick fallback chose.

What answers is an :class:`EngineBackend`: :class:`BotBackend` drives any
bot object with ``choose(view, legal)`` (the hand hooks are called when it
has them); gostop's own searching bots get a backend that also offers their
settings as options, analysis and stop (``gostop_core.bots.external``).
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from gostop_core.errors import GoStopError
from gostop_core.game import Outcome, PlayerView
from gostop_core.moves import Move, RankedMove
from gostop_core.protocol import wire
from gostop_core.protocol.positions import legal_moves_of_view, replay_position, replay_view
from gostop_core.protocol.wire import MessageError, Option, TooLong

__all__ = ["EngineBackend", "BotBackend", "SearchResult", "RankedEntry", "serve",
           "time_budget_ms", "outcome_from_dict", "engine_name"]


engine_name = wire.engine_name


#: The old name of :class:`~gostop_core.moves.RankedMove` (one class ranks
#: moves for the bots and the protocol alike).
RankedEntry = RankedMove


@dataclass
class SearchResult:
    """What a search found: the move to play, the ranking of every legal move
    (best first; may be empty for a bot that does not rank), nodes, samples."""

    move: Move
    ranked: list[RankedMove] = field(default_factory=list)
    nodes: int = 0
    samples: int = 0
    stopped: str = ""


class EngineBackend:
    """What :func:`serve` asks.  ``search`` may be called in a worker thread;
    ``stop`` from another thread while it runs."""

    name = "engine"

    def options(self) -> list[Option]:
        return []

    def features(self) -> tuple[str, ...]:
        """What ``ready`` announces: ``rules`` always (the server computes the
        legal moves), ``analyse`` when :meth:`search` ranks the moves."""
        return ("rules",)

    def set_option(self, name: str, value: Any) -> None:
        raise MessageError(f"setoption: no option {name!r}")

    def new_hand(self, view: PlayerView) -> None:
        """A hand begins."""

    def end_hand(self, view: PlayerView, outcome: Outcome) -> None:
        """A hand is over."""

    def search(self, view: PlayerView, legal: list[Move], time_ms: float | None,
               info: Callable[[dict], None] | None) -> SearchResult:
        """Choose a move (``info``: for an analysis, called with progress
        reports while searching).  ``time_ms``: the time to use, or None."""
        raise NotImplementedError

    def stop(self) -> None:
        """End the running search soon, with the best move so far."""

    def clear_stop(self) -> None:
        """Forget a stop (called before every search)."""

    def fallback(self, view: PlayerView, legal: list[Move]) -> Move:
        """A move found at once, played when the search overruns its time."""
        return legal[0]


class BotBackend(EngineBackend):
    """Any bot object: ``choose(view, legal)``; ``start_hand``/``end_hand`` when it has them."""

    def __init__(self, bot: Any, name: str = "gostop"):
        self.bot = bot
        self.name = name

    def new_hand(self, view: PlayerView) -> None:
        hook = getattr(self.bot, "start_hand", None)
        if hook is not None:
            hook(view)

    def end_hand(self, view: PlayerView, outcome: Outcome) -> None:
        hook = getattr(self.bot, "end_hand", None)
        if hook is not None:
            hook(view, outcome)

    def search(self, view: PlayerView, legal: list[Move], time_ms: float | None,
               info: Callable[[dict], None] | None) -> SearchResult:
        return SearchResult(self.bot.choose(view, list(legal)))


def time_budget_ms(message: dict, id: int | None = None) -> float | None:
    """The time to use for one move: ``time_ms``, or a share of the clock
    (``remaining_ms``, ``increment_ms``): a twentieth of what is left plus
    three quarters of the increment, never more than half of what is left.
    None when the message gives no limit."""
    per_move = wire.validate_time(message, "time_ms", id)
    remaining = wire.validate_time(message, "remaining_ms", id)
    increment = wire.validate_time(message, "increment_ms", id) or 0.0
    budget = per_move
    if remaining is not None:
        share = min(remaining / 20 + 0.75 * increment, remaining / 2)
        budget = share if budget is None else min(budget, share)
    return budget


#: The features ``gostop engine`` may announce in ``ready``: it computes the
#: legal moves itself (a request may carry only a view; a given list is
#: checked), and, serving a searching bot, it analyses (``analyse``, ``stop``).
FEATURES = ("rules", "analyse")

#: The share of a move's time the search is told to use: the rest covers
#: reading the view, the answer's way back and a loaded machine.
SEARCH_SHARE = 0.4
#: The share of a move's time after which the fallback move is answered.
DEADLINE_SHARE = 0.7


def outcome_from_dict(data: Any) -> Outcome:
    """An :class:`~gostop_core.game.Outcome` from its ``as_dict()`` (the
    ``outcome`` of an ``end`` message); ``winner_score`` is not rebuilt."""
    from gostop_core.errors import PositionError
    try:
        return Outcome(
            winner=data["winner"], points=int(data["points"]),
            scores=tuple(int(x) for x in data["scores"]),
            go_counts=tuple(int(x) for x in data["go_counts"]), reason=str(data["reason"]),
            chips=tuple(int(x) for x in data.get("chips") or ()),
            settlement=data.get("settlement"))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise PositionError(f"bad outcome: {exc}", "outcome") from None


class _Reply:
    """One answer, written at most once (the search or the deadline's fallback)."""

    def __init__(self, write: Callable[[dict], None]):
        self._write = write
        self._lock = threading.Lock()
        self.done = False

    def send(self, message: dict) -> bool:
        with self._lock:
            if self.done:
                return False
            self.done = True
        self._write(message)
        return True


@dataclass
class _Job:
    kind: str
    message: dict
    id: int | None
    received: float
    reply: _Reply | None = None


_QUIT = object()
_END = object()


class _Server:
    def __init__(self, backend: EngineBackend, write_line: Callable[[str], None],
                 log: Callable[[str], None]):
        self.backend = backend
        self._write_line = write_line
        self._write_lock = threading.Lock()
        self.log = log
        self.version = wire.PROTOCOL_V1
        self.jobs: queue.Queue = queue.Queue()
        self.current: _Job | None = None
        self.current_lock = threading.Lock()
        self.moves = 0
        self.quitting = False

    # ---- output
    def write(self, message: dict) -> None:
        line = wire.encode(message)
        with self._write_lock:
            self._write_line(line)

    def error(self, id: int | None, text: str, kind: str | None = None) -> None:
        """An error reply, only ever to a request with an id (version 1: also
        to a request without one, as version 1 did, so that its driver never
        waits for nothing)."""
        if id is not None:
            self.write(wire.error_message(id, text))
        elif self.version == wire.PROTOCOL_V1 and kind in (None, "request"):
            self.write({"type": "error", "message": " ".join(text.split())[:500]})
        else:
            self.log(f"ignored: {text}")

    def early_error(self, id: int | None, text: str, kind: str | None = None) -> None:
        """An error found while reading: version 2 answers it at once;
        version 1 in turn with the answers before it (it has no ids)."""
        if self.version == wire.PROTOCOL_V1:
            self.jobs.put(_Job("error", {"text": text, "kind": kind}, id, time.monotonic()))
        else:
            self.error(id, text, kind)

    # ---- reading
    def dispatch(self, line: str | TooLong) -> bool:
        """Handle one line; False at quit."""
        if isinstance(line, str) and not line.strip():
            return True
        try:
            message = wire.decode(line)
        except MessageError as exc:
            self.early_error(exc.id, f"bad message: {exc}")
            return True
        kind = message["type"]
        try:
            id = wire.validate_id(message, required=False)
        except MessageError as exc:
            self.early_error(None, str(exc), kind)
            return True
        received = time.monotonic()
        if kind == "quit":
            return False
        if kind == "isready":
            # at once while a search runs with nothing queued behind it (liveness);
            # else after what came before it (so that an error of an earlier
            # setoption or request comes first)
            with self.current_lock:
                searching = self.current is not None and self.current.kind in (
                    "request", "analyse")
            if searching and self.jobs.empty():
                self.write(self._readyok(id))
            else:
                self.jobs.put(_Job("isready", message, id, received))
        elif kind == "stop":
            with self.current_lock:
                running = self.current
            if running is not None and running.kind in ("request", "analyse"):
                self.backend.stop()
        elif kind == "hello":
            try:
                self.version = wire.choose_protocol(message.get("protocol"))
            except MessageError as exc:
                self.early_error(id, str(exc), kind)
                return True
            reply: dict[str, Any] = {
                     "type": "ready", "name": self.backend.name, "protocol": self.version,
                     "engine": engine_name(), "features": list(self.backend.features()),
                     "options": [o.as_dict() for o in self.backend.options()]}
            if id is not None:
                reply["id"] = id
            self.write(reply)
        elif kind in ("request", "analyse", "setoption", "newhand", "end"):
            job = _Job(kind, message, id, received)
            if kind in ("request", "analyse"):
                job.reply = _Reply(self.write)
                self._arm_deadline(job)
            self.jobs.put(job)
        else:
            self.early_error(id, f"unknown message type {kind[:40]!r}", kind)
        return True

    def _arm_deadline(self, job: _Job) -> None:
        """A request with a time limit gets a timer: at the deadline the
        fallback move is answered unless the search answered already."""
        try:
            budget = time_budget_ms(job.message, job.id)
        except MessageError:
            return  # reported when the job runs
        if budget is None or job.kind != "request":
            return
        delay = max(0.0, budget * DEADLINE_SHARE / 1000 - (time.monotonic() - job.received))
        timer = threading.Timer(delay, self._overrun, args=(job,))
        timer.daemon = True
        job.message = dict(job.message, _timer=timer)
        timer.start()

    def _overrun(self, job: _Job) -> None:
        if job.reply is None or job.reply.done:
            return
        fallback = job.message.get("_fallback")
        if fallback is None:
            return  # the position is not read yet: the search answers (late) itself
        self.backend.stop()
        if job.reply.send(self._move_reply(job, fallback, {"fallback": True})):
            self.log(f"out of time: answered the fallback move {fallback}")

    # ---- the worker
    def work(self) -> None:
        while True:
            job = self.jobs.get()
            if job is _QUIT or job is _END:
                return
            with self.current_lock:
                self.current = job
            try:
                self.run(job)
            except (GoStopError, ValueError, KeyError, TypeError) as exc:
                detail = f"missing {exc}" if isinstance(exc, KeyError) else str(exc)
                self._fail(job, f"{job.kind}: {detail}")
            except Exception as exc:  # never let the worker die: report and go on
                self._fail(job, f"{job.kind}: internal error: {type(exc).__name__}: {exc}")
            finally:
                timer = job.message.get("_timer")
                if timer is not None:
                    timer.cancel()
                with self.current_lock:
                    self.current = None

    def _fail(self, job: _Job, text: str) -> None:
        if job.reply is not None:
            if job.reply.done:
                return
            job.reply.done = True
        self.error(job.id, text, job.kind)

    def _view(self, job: _Job) -> tuple[PlayerView, list[Move]]:
        message = job.message
        if "position" in message:
            position = message["position"]
            if not isinstance(position, str) or len(position) > 4096:
                raise MessageError(f"{job.kind}: \"position\" must be a position string", job.id)
            moves = wire.validate_moves(message, "moves", job.id) or []
            view = replay_position(position, moves)
        else:
            text = message.get("view")
            if not isinstance(text, str):
                raise MessageError(f"{job.kind}: missing \"view\" (or \"position\")", job.id)
            moves = wire.validate_moves(message, "moves", job.id) or []
            if moves:
                stock = message.get("stock", [])
                if not isinstance(stock, list) or len(stock) > wire.MAX_LIST or not all(
                        c is None or (isinstance(c, str) and len(c) <= 8) for c in stock):
                    raise MessageError(f"{job.kind}: \"stock\" must be a list of card codes "
                                       "(or null)", job.id)
                view = replay_view(text, moves, stock)
            else:
                view = PlayerView.from_str(text)
        legal = legal_moves_of_view(view)
        given = wire.validate_moves(message, "legal", job.id)
        if given is not None:
            moves_given = [Move.from_str(m) for m in given]
            if set(moves_given) != set(legal) or len(moves_given) != len(legal):
                raise MessageError(
                    f"{job.kind}: the legal moves given ({' '.join(given)[:200]}) are not the "
                    f"legal moves of the view ({' '.join(map(str, legal))})", job.id)
        return view, legal

    @staticmethod
    def _readyok(id: int | None) -> dict:
        reply: dict = {"type": "readyok"}
        if id is not None:
            reply["id"] = id
        return reply

    def _move_reply(self, job: _Job, move: Move, extra: dict | None = None) -> dict:
        if job.id is None:  # version 1
            return {"move": str(move)}
        reply = {"type": "move", "id": job.id, "move": str(move)}
        if extra:
            reply.update(extra)
        return reply

    def run(self, job: _Job) -> None:
        message = job.message
        if job.kind == "error":
            self.error(job.id, message["text"], message["kind"])
            return
        if job.kind == "isready":
            self.write(self._readyok(job.id))
            return
        if job.kind == "setoption":
            name = message.get("name")
            if not isinstance(name, str):
                raise MessageError("setoption: missing \"name\"", job.id)
            if "value" not in message:
                raise MessageError("setoption: missing \"value\"", job.id)
            self.backend.set_option(name, message["value"])
            return
        if job.kind in ("newhand", "end"):
            text = message.get("view")
            if not isinstance(text, str):
                raise MessageError(f"{job.kind}: missing \"view\"", job.id)
            view = PlayerView.from_str(text)
            if job.kind == "newhand":
                self.backend.new_hand(view)
            else:
                self.backend.end_hand(view, outcome_from_dict(message.get("outcome")))
            return
        # request, analyse
        if job.kind == "analyse" and "analyse" not in self.backend.features():
            raise MessageError(f"analyse: {self.backend.name} does not analyse (it announces "
                               "no analyse feature)", job.id)
        budget = time_budget_ms(message, job.id)
        view, legal = self._view(job)
        assert job.reply is not None
        fallback = self.backend.fallback(view, legal) if budget is not None else legal[0]
        message["_fallback"] = fallback
        self.backend.clear_stop()
        if budget is not None:
            elapsed = (time.monotonic() - job.received) * 1000
            search_ms: float | None = max(1.0, budget * SEARCH_SHARE - elapsed)
        else:
            search_ms = None
        started = time.monotonic()
        info = None
        reply = job.reply
        if job.kind == "analyse":
            def info(report: dict) -> None:
                if not reply.done:
                    self.write(dict({"type": "info", "id": job.id}, **report))
        if len(legal) == 1 and job.kind == "request":
            result = SearchResult(legal[0])
        else:
            result = self.backend.search(view, legal, search_ms, info)
        spent = int(round((time.monotonic() - started) * 1000))
        if result.move not in legal:
            raise MessageError(f"{job.kind}: the bot chose {result.move}, which is not legal",
                               job.id)
        if job.kind == "request":
            if job.reply.send(self._move_reply(job, result.move)):
                self.moves += 1
        else:
            job.reply.send({"type": "analysis", "id": job.id, "move": str(result.move),
                            "moves": [r.as_dict() for r in result.ranked],
                            "nodes": result.nodes, "samples": result.samples,
                            "time_ms": spent, "stopped": result.stopped,
                            "line": list(result.ranked[0].line) if result.ranked else
                            [str(result.move)]})


def serve(backend: EngineBackend | Any, lines: Iterable[str | TooLong],
          write: Callable[[str], None], name: str | None = None,
          log: Callable[[str], None] | None = None) -> int:
    """Answer protocol messages (``lines``: strings or
    :class:`~gostop_core.protocol.wire.TooLong` markers, e.g. a
    :class:`~gostop_core.protocol.wire.LineReader`) with ``backend`` (an
    :class:`EngineBackend`, or any bot object, wrapped in a
    :class:`BotBackend`).  ``write`` writes one line and flushes; ``log``
    gets a line for each message ignored.  Returns at ``quit`` (the running
    search is stopped) or at the end of input (after the searches asked for);
    returns the number of moves answered."""
    if not isinstance(backend, EngineBackend):
        backend = BotBackend(backend, name or "gostop")
    elif name is not None:
        backend.name = name
    server = _Server(backend, write, log or (lambda text: None))
    worker = threading.Thread(target=server.work, name="engine-search", daemon=True)
    worker.start()
    input_ended = False
    interrupted = True
    try:
        for line in lines:
            if not server.dispatch(line):
                break
        else:
            input_ended = True
        interrupted = False
    finally:
        if not input_ended:
            # quit (or an interruption): the search under way ends with what it
            # has; the requests read before quit are still answered
            with server.current_lock:
                if server.current is not None:
                    backend.stop()
        server.jobs.put(_QUIT if not input_ended else _END)
        # interrupted (Ctrl-C): wait a moment only, the worker is a daemon thread
        worker.join(timeout=2.0 if interrupted else None)
    return server.moves
