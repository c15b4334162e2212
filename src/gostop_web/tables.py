"""Tables: one match of Go-Stop in a server, its seats, its bots and the
connections watching it.  Nothing here knows HTTP; :mod:`gostop_web.app` puts
tables on the web.

A seat is held by a person (who joins with the seat's token) or by a bot.  A
bot's ``choose`` runs in an executor, so that a thinking bot (or an outside
``cmd:`` program) never blocks the event loop.  Every frame a connection gets
is built from the :class:`~gostop_core.PlayerView` of its seat
(:func:`gostop_web.state.view_state`); a watcher's from a view with the hand
left out.

A bot that raises, chooses an illegal move or takes longer than its time
(:data:`BOT_MOVE_SECONDS`) is replaced by the greedy bot for the rest of the
match, and the table says so; the table never waits for ever.  Finished hands
are kept in a ring of :data:`MAX_RECORDS` records (compressed)."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import zlib
from collections import deque
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from gostop_core import GoStopError, Game, Match, Move, Rules
from gostop_core.bots import Bot, GreedyBot, make_bot
from gostop_core.bots.analysis import payout_unit
from gostop_core.bots.search import StopToken
from gostop_core.driver import BotForfeit, HandDriver
from gostop_core.records import Seat, record_from_game
from gostop_web.encoding import dumps
from gostop_web.state import (
    korean_names, move_options, outcome_state, public_events, seat_view_state, view_state,
)

__all__ = ["Table", "TableSeat", "TableError", "Connection", "BUILTIN_BOTS",
           "HintFunction", "MAX_RECORDS", "MAX_WATCHERS", "BOT_MOVE_SECONDS"]

log = logging.getLogger("gostop_web")

#: Bots offered by name in the lobby.
BUILTIN_BOTS = ("greedy", "random", "best", "expectimax", "expectimax-v1", "ismcts", "learned")
#: Finished hands a table keeps for download (the oldest go first).
MAX_RECORDS = 200
#: Watchers one table admits at once.
MAX_WATCHERS = 16
#: Seconds a bot may think over one move before greedy plays for it.
BOT_MOVE_SECONDS = 20.0

HintFunction = Callable[[Any], list]


class TableError(GoStopError, ValueError):
    """A request a table refuses: nothing changed."""


class Connection(Protocol):
    """What a table needs of a client connection."""

    seat: int | None
    closed: bool

    def send_nowait(self, data: Any) -> None: ...


@dataclass
class TableSeat:
    """One seat: its name, its token (a person's seat) or its bot."""

    index: int
    name: str
    token: str | None = None
    bot_spec: str | None = None
    bot: Bot | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


@dataclass
class Table:
    """A match at one table.  Create with :meth:`create`; :meth:`start` deals."""

    id: str
    rules: Rules
    players: int
    seats: list[TableSeat]
    executor: Executor | None
    move_delay: float = 0.6
    seed: int | None = None
    match: Match = field(init=False)
    game: Game = field(init=False)
    connections: set = field(default_factory=set)
    records: deque = field(default_factory=lambda: deque(maxlen=MAX_RECORDS))
    created: float = field(default_factory=time.monotonic)
    last_active: float = field(default_factory=time.monotonic)
    watch_token: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    max_watchers: int = MAX_WATCHERS
    bot_seconds: float = BOT_MOVE_SECONDS
    hands_played: int = 0
    last_events: list = field(default_factory=list)
    hand_number: int = 0
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _bot_task: asyncio.Task | None = None
    _hints: dict = field(default_factory=dict)
    _closed: bool = False

    @classmethod
    def create(cls, rules: str, players: int, bots: list[str | None],
               executor: Executor | None = None, move_delay: float = 0.6,
               seed: int | None = None, allow_spec: Callable[[str], bool] | None = None
               ) -> "Table":
        """A table for ``players`` seats under the ``rules`` preset; ``bots[i]`` is
        the bot specification of seat ``i`` or ``None`` for a person.  A bad
        preset, player count or bot raises :class:`TableError`."""
        try:
            rules_obj = Rules(rules)
            rules_obj.check_players(players)
        except (GoStopError, ValueError, TypeError) as exc:
            raise TableError(" ".join(str(exc).split())) from None
        if len(bots) != players:
            raise TableError(f"{len(bots)} seats described for {players} players")
        if all(spec is not None for spec in bots):
            raise TableError("at least one seat must be a person's")
        seats = []
        try:
            for i, spec in enumerate(bots):
                if spec is None:
                    seats.append(TableSeat(i, f"Player {i}", token=secrets.token_urlsafe(18)))
                    continue
                if allow_spec is not None and not allow_spec(spec):
                    raise TableError(f"bot {spec!r} is not allowed on this server "
                                     "(start it with --bot SPEC to allow it)")
                try:
                    bot = make_bot(spec, seed=secrets.randbits(32) if seed is None else seed + i)
                except (GoStopError, ValueError, OSError) as exc:
                    raise TableError(f"seat {i}: {' '.join(str(exc).split())}") from None
                if hasattr(bot, "stop_token"):  # a search that closing the table ends
                    bot.stop_token = StopToken()
                seats.append(TableSeat(i, f"Bot {i} ({spec})", bot_spec=spec, bot=bot))
        except BaseException:
            for s in seats:
                if s.bot is not None:
                    s.bot.close()
            raise
        table = cls(secrets.token_urlsafe(9), rules_obj, players, seats, executor,
                    move_delay, seed)
        # the table keeps its own ring of records: the match keeps no hand list
        table.match = Match(rules_obj, players, seed=0 if seed is None else seed,
                            dealer=0, history=0)
        table._deal()
        return table

    # ------------------------------------------------------------------ the match
    def _deal(self) -> None:
        if self.seed is None:
            # a fresh random seed for every hand: a finished hand's record (which
            # holds its seed) tells nothing about the next deal
            self.match.seed = secrets.randbits(62)
        self.game = self.match.new_hand()
        self.hand_number = self.match.hands_played + 1
        self.last_events = list(self.game.deal_events())
        # the one hand driver: every bot gets every hook (the people's moves
        # observed too); a bot that fails is replaced by greedy (_replace_bot)
        self.driver = HandDriver(self.game, [s.bot for s in self.seats], policy="forfeit",
                                 on_ignored=self._log_ignored)
        while True:
            try:
                self.driver.start()
                break
            except BotForfeit as failure:
                self.driver.started = False
                self._replace_bot(self.seats[failure.seat], "failed")

    def _log_ignored(self, seat: int, exc: BaseException) -> None:
        log.warning("table %s: %s failed at the end of the hand: %s", self.id,
                    self.seats[seat].name, exc)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    WATCHER = -1

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat a token holds, :attr:`WATCHER` for the watch token, ``None``
        for no token or a wrong one (refused)."""
        if not token or not isinstance(token, str) or len(token) > 64:
            return None
        for s in self.seats:
            if s.token is not None and secrets.compare_digest(s.token, token):
                return s.index
        if secrets.compare_digest(self.watch_token, token):
            return self.WATCHER
        return None

    def watchers(self) -> int:
        return sum(1 for c in self.connections if c.seat is None)

    def join(self, conn: Connection) -> None:
        """Seat a new connection; :class:`TableError` when the table has as many
        watchers as it admits."""
        if conn.seat is None and self.watchers() >= self.max_watchers:
            raise TableError(f"this table has {self.max_watchers} watchers, the most it admits")
        self.connections.add(conn)
        self.touch()

    def leave(self, conn: Connection) -> None:
        self.connections.discard(conn)
        self.touch()

    def touch(self) -> None:
        self.last_active = time.monotonic()

    def connected(self) -> list[bool]:
        """For each seat: a bot, or a person with an open connection."""
        live = {c.seat for c in self.connections if not c.closed}
        return [s.is_bot or s.index in live for s in self.seats]

    def state_for(self, seat: int | None, events: list | None = None,
                  shared: dict | None = None) -> dict[str, Any]:
        """The frame for a connection of ``seat`` (``None``: a watcher).  ``shared``
        keeps what every seat's frame of this position has in common (the public
        state, the report, the events as everyone may know them), for the other
        frames of one broadcast."""
        g = self.game
        if shared is None:
            shared = {}
        view = g.view(0 if seat is None else seat)
        if "frame" not in shared:
            self._public_frame(shared, self.last_events if events is None else events, view)
        state = shared["view"] if seat is None else seat_view_state(view, shared["view"])
        moves: list = []
        if seat is not None and not g.is_over() and g.turn == seat \
                and not self.seats[seat].is_bot:
            moves = list(g.legal_moves)
        # a card drawn after a bonus card is known to its drawer alone
        own_draw = seat is not None and any(ev.kind == "drawn" and ev.player == seat
                                            for ev in shared["events_raw"])
        return dict(shared["frame"], you=seat, view=state,
                    legal=[str(m) for m in moves],
                    legal_moves=move_options(moves),  # what the page needs of each move
                    events=public_events(shared["events_raw"], seat, self.names)
                    if own_draw else shared["events"])

    def _public_frame(self, shared: dict, events: list, view) -> None:
        """What every frame of the position holds alike, into ``shared``: built
        from ``view`` (any seat's, its private parts left out), never from the game."""
        g = self.game
        state = view_state(view, own_hand=False)
        outcome = g.outcome() if g.is_over() else None
        names = self.names
        shared["view"] = state
        shared["events_raw"] = events
        shared["events"] = public_events(events, None, names)
        shared["frame"] = {
            "type": "state",
            "table": self.id,
            "names": names,
            "names_ko": korean_names(names),
            "bots": [s.bot_spec for s in self.seats],
            "connected": self.connected(),
            "hand_number": self.hand_number,
            "moves": len(g.move_stack),  # decisions so far this hand (public)
            "ledger": list(self.match.ledger),
            "outcome": None if outcome is None else outcome_state(outcome, names, view),
            "records": len(self.records),
        }

    async def broadcast(self) -> None:
        """Queue every connection the frame of its own seat (built and encoded
        once per seat; never waits for a socket)."""
        frames: dict[int | None, str] = {}
        shared: dict = {}  # the public part, built once for every seat's frame
        for conn in list(self.connections):
            if conn.closed:
                self.connections.discard(conn)
                continue
            frame = frames.get(conn.seat)
            if frame is None:
                frame = frames[conn.seat] = dumps(self.state_for(conn.seat, shared=shared))
            conn.send_nowait(frame)

    async def play(self, seat: int, text: str, turn: int | None = None) -> None:
        """A person's decision.  Raises :class:`TableError` (and changes nothing)
        unless ``seat`` is a person's seat, it is that seat's turn now and ``text``
        is one of its legal moves."""
        async with self._lock:
            g = self.game
            if not 0 <= seat < self.players or self.seats[seat].is_bot:
                raise TableError("that seat is not yours")
            if g.is_over():
                raise TableError("the hand is over")
            if g.turn != seat:
                raise TableError(f"it is not your turn (player {g.turn} is to move)")
            if turn is not None and turn != g.turns:
                raise TableError("that move was for an earlier turn")
            try:
                move = Move.from_str(text)
            except (GoStopError, ValueError) as exc:
                raise TableError(" ".join(str(exc).split())) from None
            if move not in g.legal_moves:
                raise TableError(f"{move} is not a legal move now")
            self._push(move)
            self.touch()
        await self.broadcast()
        self.wake_bots()

    def _push(self, move: Move) -> None:
        g = self.game
        before = len(g.events())
        while True:
            try:
                self.driver.push(move)  # the bots observe it; the hand's end hooks follow
                break
            except BotForfeit as failure:  # a bot failed while observing: greedy takes over
                self._replace_bot(self.seats[failure.seat], "failed")
        self.last_events = g.events()[before:]
        if g.is_over():
            self._finish()

    def _finish(self) -> None:
        g = self.game
        assert g.outcome() is not None  # the driver has called the end_hand hooks
        self.match.record(g)  # the ledger, the next dealer, the nagari streak
        seats = [Seat(s.name, s.bot_spec) for s in self.seats]
        record = record_from_game(g, seats, match={"hand": self.hand_number,
                                                   "ledger": list(self.match.ledger)})
        # compressed: a table's ring holds up to MAX_RECORDS hands (a record is
        # about 1.8 KB of JSON, a fifth of that compressed)
        self.records.append(zlib.compress(record.to_json().encode("utf-8"), 6))
        self.hands_played += 1

    async def next_hand(self, seat: int) -> None:
        """Deal the next hand (asked by a person once the hand is over)."""
        async with self._lock:
            if self.seats[seat].is_bot:
                raise TableError("that seat is not yours")
            if not self.game.is_over():
                raise TableError("the hand is not over")
            self._deal()
            self.touch()
        await self.broadcast()
        self.wake_bots()

    # ------------------------------------------------------------------ bots
    def wake_bots(self) -> None:
        """Let the bots play while it is a bot's turn (one task per table)."""
        if self._closed or (self._bot_task is not None and not self._bot_task.done()):
            return
        g = self.game
        if g.turn is None or not self.seats[g.turn].is_bot:
            return
        self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._closed:
            g = self.game
            if g.turn is None:  # the hand is over
                return
            seat = self.seats[g.turn]
            if seat.bot is None:
                return
            if self.move_delay:
                await asyncio.sleep(self.move_delay)
            driver = self.driver
            move: Any = None
            problem = None
            try:  # the driver asks the bot and checks its answer (the forfeit policy)
                move = await asyncio.wait_for(
                    loop.run_in_executor(self.executor, driver.choose), self.bot_seconds)
            except asyncio.TimeoutError:
                problem = "took_too_long"
            except BotForfeit as failure:  # a broken bot, or an illegal answer
                problem = "illegal_move" if failure.reason == "illegal" else "failed"
                log.warning("table %s: %s: %s", self.id, seat.name, failure.detail)
            if problem is not None:
                if self.game is not g or g.is_over():
                    return
                self._replace_bot(seat, problem)
                move = driver.choose()  # greedy: a moment's work
            async with self._lock:
                if self._closed or self.game is not g or g.is_over():
                    return
                self._push(move)
            await self.broadcast()

    def _replace_bot(self, seat: TableSeat, problem: str) -> None:
        """Greedy plays for a bot that failed, for the rest of the match."""
        old = seat.bot
        token = getattr(old, "stop_token", None)
        if token is not None:  # a search still running in its worker gives the worker back
            token.set()
        seat.bot = GreedyBot(secrets.randbits(32) if self.seed is None else self.seed)
        self.driver.replace(seat.index, seat.bot)
        notice = {"type": "notice", "notice": "bot_replaced", "seat": seat.index,
                  "problem": problem, "bot": seat.bot_spec, "seconds": self.bot_seconds,
                  "text": f"{seat.name} {problem.replace('_', ' ')}: greedy plays for it now"}
        log.warning("table %s: %s", self.id, notice["text"])
        seat.bot_spec = "greedy"
        for conn in list(self.connections):
            conn.send_nowait(notice)
        if old is not None:
            try:
                old.close()
            except Exception as exc:
                log.warning("table %s: closing a replaced bot: %s", self.id, exc)

    # ------------------------------------------------------------------ hints
    async def hint(self, seat: int, hint: HintFunction) -> dict[str, Any]:
        """Every legal move of ``seat`` ranked by ``hint`` (``gostop hint``'s
        function), computed from the seat's view only, in an executor."""
        g = self.game
        if g.is_over() or g.turn != seat or self.seats[seat].is_bot:
            raise TableError("a hint is given only on your turn")
        # one search per decision, however often it is asked: a repeated request
        # waits for the same result instead of taking another worker
        key = (self.hand_number, len(g.move_stack), seat)
        turns = g.view(seat).turns  # the decision the hint is for
        task = self._hints.get(key)
        if task is None:
            view = g.view(seat)
            self._hints = {}  # the hints of earlier decisions are stale
            task = self._hints[key] = asyncio.ensure_future(
                asyncio.get_running_loop().run_in_executor(self.executor, hint, view))
        ranked = await asyncio.shield(task)
        return {"type": "hint", "turns": turns, "hand_number": key[0], "moves_played": key[1],
                "unit": payout_unit(self.rules),
                "moves": [{"move": str(r.move), "value": r.value} for r in ranked]}

    def record_lines(self) -> str:
        """Every finished hand of the table, one ``gostop-record/1`` JSON line each."""
        return "".join(zlib.decompress(blob).decode("utf-8") + "\n" for blob in self.records)

    def close(self) -> None:
        """Stop the bots (an outside program is ended)."""
        self._closed = True
        if self._bot_task is not None:
            self._bot_task.cancel()
        for s in self.seats:
            token = getattr(s.bot, "stop_token", None)
            if token is not None:  # a search under way in a worker ends at its next check
                token.set()
            if s.bot is not None:
                try:
                    s.bot.close()
                except Exception as exc:
                    log.warning("table %s: closing %s: %s", self.id, s.name, exc)
