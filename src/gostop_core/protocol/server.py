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

import heapq
import queue
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from gostop_core.errors import GoStopError
from gostop_core.game import Outcome, PlayerView
from gostop_core.moves import Move, RankedMove
from gostop_core.protocol import wire
from gostop_core.protocol.positions import (legal_moves_of_view, replay_position, replay_view,
                                            state_of_position, state_of_view)
from gostop_core.protocol.outbox import MAX_WAITING, Outbox
from gostop_core.protocol.requests import (MIN_SHARE_MS, ParsedMessage, echo_id,
                                           parse_message, time_budget_ms)
from gostop_core.protocol.reader import MAX_READ_AHEAD, InputReader, ReadAhead
from gostop_core.protocol.wire import MessageError, Option, TooLong

__all__ = ["EngineBackend", "BotBackend", "SearchResult", "RankedEntry", "serve",
           "time_budget_ms", "MIN_SHARE_MS", "outcome_from_dict", "engine_name"]


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
        return ("rules", "state", "acks")

    def set_option(self, name: str, value: Any) -> Any:
        """Set option ``name``; returns the value set (the ``option`` reply)."""
        raise MessageError(f"setoption: no such option: {name!r}")

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


#: The features ``gostop engine`` may announce in ``ready``: it computes the
#: legal moves itself (a request may carry only a view; a given list is
#: checked), and, serving a searching bot, it analyses (``analyse``, ``stop``).
FEATURES = ("rules", "analyse", "state", "acks")

#: The share of a move's time the search is told to use: the rest covers
#: reading the view, the answer's way back and a loaded machine.
SEARCH_SHARE = 0.4
#: The share of a move's time after which the fallback move is answered.
DEADLINE_SHARE = 0.7
#: Time kept back from every deadline besides, in milliseconds: the pipe both
#: ways, the driver's own reading and a wake-up delayed by a loaded machine,
#: which do not shrink with the limit.
OVERHEAD_MS = 4.0
#: The deadline thread wakes at least this often (seconds) when idle, and
#: each timed wake-up measures how late it came: twice the largest of the
#: last :data:`WAKE_SAMPLES` delays is kept back from every deadline too
#: (the engine's own wake-up, and the driver's, taken to be alike), at most
#: :data:`MAX_MARGIN_MS`.
PROBE_S = 0.02
WAKE_SAMPLES = 50
MAX_MARGIN_MS = 40.0


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


_QUIT = object()
_END = object()

#: The requests that may wait for the worker; one more is refused with an
#: error reply (``busy``), so that a flood costs bounded memory and no thread.
MAX_QUEUE = 64
#: The kinds of message that are answered in turn, by the worker.
_QUEUED = ("request", "analyse", "state", "setoption", "newhand", "end")
#: The kinds that need an id in version 2.
_NEEDS_ID = ("request", "analyse", "state", "setoption")


@dataclass
class _Job:
    """The server's state of one message in flight: its place in the order of
    answers, whether it has been answered, and the fallback move."""

    request: ParsedMessage
    seq: int
    deadline: float | None = None
    answered: bool = False
    started: bool = False
    view: PlayerView | None = None
    legal: list[Move] | None = None
    fallback: Move | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Server:
    def __init__(self, backend: EngineBackend, write_line: Callable[[str], None],
                 log: Callable[[str], None], max_queue: int = MAX_QUEUE):
        self.backend = backend
        self.out = Outbox(write_line, MAX_WAITING)
        self.log = log
        self.version = wire.PROTOCOL_V1
        self.jobs: queue.Queue = queue.Queue(maxsize=max_queue)
        self.current: _Job | None = None
        self.current_lock = threading.Lock()
        self.in_flight: set = set()
        self.in_flight_lock = threading.Lock()
        self.moves = 0
        # one thread keeps every deadline (a heap), never one thread per request
        self.deadlines: list[tuple[float, int, _Job]] = []
        self.deadline_cv = threading.Condition()
        self.closing = False
        # how late the deadline thread's timed wake-ups came, in ms (the last few)
        self.wake_delays: deque[float] = deque(maxlen=WAKE_SAMPLES)
    # ---- control lines, served at once
    def _stop_running(self) -> None:
        with self.current_lock:
            running = self.current
        if running is not None and running.request.kind in ("request", "analyse"):
            self.backend.stop()

    def _ready_ok(self, id: Any) -> None:
        reply: dict = {"type": "readyok"}
        if id is not None:
            reply["id"] = id
        self.out.at_once(reply)

    # ---- the parsing: every line but the control ones served, in the order read
    def parse(self, reader: InputReader) -> bool:
        """Serve the lines the reader passed on, in order: True at the end of
        the input, False at quit."""
        for line, read in reader.lines():
            self.out.wait_for_room()
            if not self.dispatch(line, read):
                return False
        return True

    # ---- answers
    def _error(self, id: Any, text: str) -> dict:
        if self.version == wire.PROTOCOL_V1 and id is None:
            return {"type": "error", "message": " ".join(text.split())[:500]}
        return wire.error_message(id, text)

    def _release(self, job: _Job) -> None:
        self._release_id(job.request.id)

    def _release_id(self, id: Any) -> None:
        if id is not None:
            with self.in_flight_lock:
                self.in_flight.discard(id)

    def answer(self, job: _Job, message: dict | None) -> bool:
        """Answer ``job`` once (the worker or the deadline, whichever is first)."""
        with job.lock:
            if job.answered:
                return False
            job.answered = True
        self._release(job)
        self.out.finish(job.seq, message)
        return True

    # ---- reading
    def dispatch(self, line: str | TooLong, received: float | None = None) -> bool:
        """Handle one line (read at ``received``, by default now); False at quit."""
        if isinstance(line, str) and not line.strip():
            return True
        if received is None:
            received = time.monotonic()
        try:
            message = wire.decode(line)
        except MessageError as exc:
            self._early(exc.id, f"message: {exc}")
            return True
        kind = message["type"]
        if kind == "quit":
            return False
        if kind == "stop":
            self._stop_running()
            return True
        if kind == "isready":
            # at once, ahead of the queue: a liveness check
            try:
                id = wire.validate_id(message, required=False)
            except MessageError as exc:
                self._early(echo_id(message), str(exc))
                return True
            self._ready_ok(id)
            return True
        if kind == "hello":
            self._hello(message)
            return True
        if kind not in _QUEUED:
            self._early(echo_id(message), f"message: unknown type: {kind[:40]!r}")
            return True
        if self.jobs.full():
            # a flood: refuse it at the cost of reading the id alone
            self._early(echo_id(message), f"busy: more requests wait than the queue holds: "
                                           f"{self.jobs.maxsize}")
            return True
        try:
            if self.version == wire.PROTOCOL_V2 and kind in _NEEDS_ID and "id" not in message:
                raise MessageError(f"{kind}: missing \"id\": version 2 needs one on every "
                                   "request")
            parsed = parse_message(message, received)
        except MessageError as exc:
            self._early(echo_id(message), str(exc))
            return True
        if parsed.id is not None:
            with self.in_flight_lock:
                duplicate = parsed.id in self.in_flight
                if not duplicate:
                    self.in_flight.add(parsed.id)
            if duplicate:
                self._early(parsed.id, f"{kind}: the id is already in flight: "
                                       f"{str(parsed.id)[:40]}", release=False)
                return True
        if parsed.budget and kind == "request" and \
                (time.monotonic() - received) * 1000 > parsed.budget + 1.0:
            # the engine is behind (a flood): the request's whole time (and a
            # millisecond) passed before it could be parsed, so it is refused
            # at once rather than answered late at the cost of reading its
            # position.  time_ms 0 asks for the fallback at once: it has no
            # time to miss (a loaded machine took over a millisecond to get here)
            self._release_id(parsed.id)
            self._early(parsed.id, f"busy: the request's time passed before it was parsed: "
                                   f"{parsed.budget:g} ms")
            return True
        job = _Job(parsed, self.out.reserve())
        if kind == "request" and parsed.budget is not None:
            # the position of a timed request is read here, once: the
            # fallback move is ready before the search starts, for the
            # deadline to answer at once (the worker reads the others')
            try:
                job.view, job.legal = self._view(parsed)
            except (GoStopError, ValueError, KeyError, TypeError) as exc:
                self.answer(job, self._error(parsed.id, _error_text(kind, exc)))
                return True
            try:
                job.fallback = self.backend.fallback(job.view, job.legal)
            except Exception as exc:  # the search may still answer
                self.log(f"no fallback move: {type(exc).__name__}: {exc}")
            job.deadline = received + max(0.0, parsed.budget * DEADLINE_SHARE
                                          - self.margin_ms()) / 1000
            if job.fallback is not None and job.deadline <= time.monotonic():
                # no time to search (a loaded machine, a tiny budget): the
                # fallback now, without waking another thread
                self._answer_fallback(job, job.fallback)
                return True
        try:
            self.jobs.put_nowait(job)
        except queue.Full:
            self.answer(job, self._error(parsed.id, f"busy: more requests wait than the "
                                                    f"queue holds: {self.jobs.maxsize}"))
            return True
        if job.deadline is not None:
            with self.deadline_cv:
                heapq.heappush(self.deadlines, (job.deadline, job.seq, job))
                self.deadline_cv.notify()
        return True

    def _early(self, id: Any, text: str, release: bool = True) -> None:
        """An error found while reading, answered in its turn."""
        seq = self.out.reserve()
        if id is None and self.version == wire.PROTOCOL_V2:
            self.log(f"no id: {text}")
        self.out.finish(seq, self._error(id, text))

    def _hello(self, message: dict) -> None:
        id = echo_id(message)
        try:
            self.version = wire.choose_protocol(message.get("protocol"))
        except MessageError as exc:
            self._early(id, str(exc))
            return
        reply: dict[str, Any] = {
            "type": "ready", "name": self.backend.name, "protocol": self.version,
            "engine": engine_name(), "features": list(self.backend.features()),
            "options": [o.as_dict() for o in self.backend.options()]}
        if id is not None:
            reply["id"] = id
        self.out.finish(self.out.reserve(), reply)

    # ---- deadlines
    def margin_ms(self) -> float:
        """The time kept back from a deadline: :data:`OVERHEAD_MS` plus twice
        the latest wake-up delays measured (this engine's thread, and the
        driver's, which is taken to be alike)."""
        with self.deadline_cv:  # appended to by the deadline thread
            late = max(self.wake_delays, default=0.0)
        return OVERHEAD_MS + min(2 * late, MAX_MARGIN_MS)

    def keep_deadlines(self) -> None:
        while True:
            with self.deadline_cv:
                while not self.closing and (
                        not self.deadlines or self.deadlines[0][0] > time.monotonic()):
                    # asleep at most a probe's interval: each timed wake-up
                    # measures how late the machine lets a thread run
                    target = min(self.deadlines[0][0], time.monotonic() + PROBE_S) \
                        if self.deadlines else time.monotonic() + PROBE_S
                    if not self.deadline_cv.wait(max(0.0, target - time.monotonic())):
                        self.wake_delays.append(max(0.0, time.monotonic() - target) * 1000)
                if self.closing:
                    return
                _, _, job = heapq.heappop(self.deadlines)
            if not job.answered:
                self._overrun(job)

    def _overrun(self, job: _Job) -> None:
        if job.fallback is None:
            return  # none could be found: the search answers (late) itself
        with self.current_lock:
            running = self.current is job
        if running:
            self.backend.stop()
        self._answer_fallback(job, job.fallback)

    def _answer_fallback(self, job: _Job, fallback: Move) -> None:
        if self.answer(job, self._move_reply(job, fallback, {"fallback": True})):
            self.moves += 1
            self.log(f"out of time: answered the fallback move {fallback}")

    # ---- the worker
    def work(self) -> None:
        while True:
            job = self.jobs.get()
            if job is _QUIT or job is _END:
                return
            if job.answered:
                continue
            with self.current_lock:
                self.current = job
            try:
                self.run(job)
            except (GoStopError, ValueError, KeyError, TypeError) as exc:
                self.answer(job, self._error(job.request.id, _error_text(job.request.kind, exc)))
            except Exception as exc:  # never let the worker die: report and go on
                self.answer(job, self._error(job.request.id, f"{job.request.kind}: internal "
                                             f"error: {type(exc).__name__}: {exc}"))
            finally:
                with self.current_lock:
                    self.current = None

    def _view(self, request: ParsedMessage) -> tuple[PlayerView, list[Move]]:
        moves = request.moves or []
        if request.position is not None:
            view = replay_position(request.position, moves)
        else:
            assert request.view is not None  # the parser requires a view or a position
            view = (replay_view(request.view, moves, request.stock or [])
                    if moves or request.stock else PlayerView.from_str(request.view))
        legal = legal_moves_of_view(view)
        if request.legal is not None:
            given = [Move.from_str(m) for m in request.legal]
            if set(given) != set(legal) or len(given) != len(legal):
                raise MessageError(
                    f"{request.kind}: the legal moves given are not the view's "
                    f"({' '.join(map(str, legal))}): {' '.join(request.legal)[:200]}", request.id)
        return view, legal

    def _move_reply(self, job: _Job, move: Move, extra: dict | None = None) -> dict:
        if job.request.id is None:  # version 1
            return {"move": str(move)}
        reply = {"type": "move", "id": job.request.id, "move": str(move)}
        if extra:
            reply.update(extra)
        return reply

    def run(self, job: _Job) -> None:
        request = job.request
        kind = request.kind
        if kind == "setoption":
            assert request.name is not None  # the parser requires a name
            value = self.backend.set_option(request.name, request.value)
            self.answer(job, None if request.id is None else {
                "type": "option", "id": request.id, "name": request.name, "value": value})
            return
        if kind in ("newhand", "end"):
            assert request.view is not None  # the parser requires a view
            view = PlayerView.from_str(request.view)
            if kind == "newhand":
                self.backend.new_hand(view)
            else:
                self.backend.end_hand(view, outcome_from_dict(request.outcome))
            self.answer(job, None)
            return
        if kind == "state":
            self.answer(job, self._state(request))
            return
        # request, analyse
        if kind == "analyse" and "analyse" not in self.backend.features():
            raise MessageError(f"analyse: the engine does not analyse: {self.backend.name}",
                               request.id)
        if job.view is not None and job.legal is not None:
            view, legal = job.view, job.legal
        else:
            view, legal = self._view(request)
        budget = request.budget
        self.backend.clear_stop()
        if budget is not None:
            elapsed = (time.monotonic() - request.received) * 1000
            search_ms: float | None = max(1.0, budget * SEARCH_SHARE - self.margin_ms()
                                          - elapsed)
        else:
            search_ms = None
        started = time.monotonic()
        info = None
        if kind == "analyse":
            def info(report: dict) -> None:
                if not job.answered:
                    self.out.progress(job.seq, dict({"type": "info", "id": request.id}, **report))
        if len(legal) == 1 and kind == "request":
            result = SearchResult(legal[0])
        else:
            result = self.backend.search(view, legal, search_ms, info)
        spent = int(round((time.monotonic() - started) * 1000))
        if result.move not in legal:
            raise MessageError(f"{kind}: the bot chose a move that is not legal: "
                               f"{result.move}", request.id)
        if kind == "request":
            if self.answer(job, self._move_reply(job, result.move)):
                self.moves += 1
        else:
            self.answer(job, {"type": "analysis", "id": request.id, "move": str(result.move),
                              "moves": [r.as_dict() for r in result.ranked],
                              "nodes": result.nodes, "samples": result.samples,
                              "time_ms": spent, "stopped": result.stopped,
                              "line": list(result.ranked[0].line) if result.ranked else
                              [str(result.move)]})

    def _state(self, request: ParsedMessage) -> dict:
        moves = request.moves or []
        if request.position is not None:
            state = state_of_position(request.position, moves, request.seat)
        else:
            assert request.view is not None  # the parser requires a view or a position
            state = state_of_view(request.view, moves, request.stock or [], request.seat)
        outcome = state.outcome
        return {"type": "state", "id": request.id, "to_move": state.to_move,
                "phase": state.phase, "legal": [str(m) for m in state.legal],
                "over": state.over,
                "outcome": None if outcome is None else {
                    "winner": outcome.winner, "points": outcome.points,
                    "scores": list(outcome.scores), "chips": list(outcome.chips),
                    "reason": outcome.reason},
                "view": str(state.view), "stock": state.stock}


def _error_text(kind: str, exc: Exception) -> str:
    """``kind: what was wrong: the value`` for an error raised while serving,
    its kind said once even when the text already starts with it."""
    if isinstance(exc, KeyError):
        return f"{kind}: missing field: {exc}"
    text = str(exc)
    if text.startswith(f"{kind}: "):
        return text
    return f"{kind}: {text}"


def serve(backend: EngineBackend | Any, lines: Iterable[bytes | str | TooLong],
          write: Callable[[str], None], name: str | None = None,
          log: Callable[[str], None] | None = None, max_queue: int = MAX_QUEUE) -> int:
    """Answer protocol messages (``lines``: strings or
    :class:`~gostop_core.protocol.wire.TooLong` markers, e.g. a
    :class:`~gostop_core.protocol.wire.LineReader`, or blocks of whole lines
    from a :class:`~gostop_core.protocol.wire.BlockReader`) with ``backend``
    (an :class:`EngineBackend`, or any bot object, wrapped in a
    :class:`BotBackend`).  ``write`` writes one line and flushes; ``log``
    gets a line for each message ignored.  A reader thread takes the input
    as it comes, answers ``isready`` and acts on ``stop`` at once, and passes
    the rest on (at most :data:`MAX_READ_AHEAD` bytes ahead) to the parsing,
    in the calling thread; one worker thread serves the messages in turn (at
    most ``max_queue`` wait), one more keeps the deadlines.  Returns at ``quit`` (the running search is stopped) or at the
    end of input (after the searches asked for); returns the number of moves
    answered."""
    if not isinstance(backend, EngineBackend):
        backend = BotBackend(backend, name or "gostop")
    elif name is not None:
        backend.name = name
    server = _Server(backend, write, log or (lambda text: None), max_queue)
    worker = threading.Thread(target=server.work, name="engine-search", daemon=True)
    keeper = threading.Thread(target=server.keep_deadlines, name="engine-deadlines",
                              daemon=True)
    ahead = ReadAhead(MAX_READ_AHEAD)
    input_reader = InputReader(ahead, server._stop_running, server._ready_ok)
    # the reader is a daemon thread: at quit it may be left waiting for input
    reader = threading.Thread(target=input_reader.run, args=(lines,),
                              name="engine-reader", daemon=True)
    worker.start()
    keeper.start()
    reader.start()
    input_ended = False
    interrupted = True
    try:
        input_ended = server.parse(input_reader)
        interrupted = False
    finally:
        ahead.abandon()
        if not input_ended:
            # quit (or an interruption): the search under way ends with what it
            # has; the requests read before quit are still answered
            with server.current_lock:
                if server.current is not None:
                    backend.stop()
        server.jobs.put(_QUIT if not input_ended else _END)
        # interrupted (Ctrl-C): wait a moment only, the worker is a daemon thread
        worker.join(timeout=2.0 if interrupted else None)
        with server.deadline_cv:
            server.closing = True
            server.deadline_cv.notify()
        keeper.join(timeout=2.0)
    if input_reader.error is not None:
        raise input_reader.error
    return server.moves
