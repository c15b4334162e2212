"""Bots against each other on duplicate deals.

Each deal (seed ``seed + d``) is played once per seat rotation: with ``n``
players, rotation ``k`` seats bot entry ``i`` at seat ``(i + k) % n``, so every
entry plays every seat of every deal and the luck of the cards cancels out.

Net points per game, for each entry: the winner books +value and each loser
-value, a drawn hand 0 (casual rules, where the value is the winner's points;
with two players a game sums to zero); with chip rules (each opponent pays, or
family balances) the entry's chips in the hand.  The 95% confidence interval
of the mean is taken over deals (the mean of a deal's rotations is one
observation): mean +- 1.96 x sd / sqrt(deals).

Bots we did not write play under supervision: a bot that crashes, exceeds its
time per move, answers garbage or an illegal move, or writes too much output
loses that game by **forfeit**: it pays each opponent the rules' Stop threshold
(points, or chips under chip rules), the game is recorded with the reason
(:attr:`GameRecord.forfeit`, :attr:`GameRecord.reason`) and counted in
:attr:`ArenaResult.forfeits`; an outside program is restarted for its next game.
Built-in bots are trusted: an error of theirs is a bug and stops the arena.

Deals are handed to the workers a few at a time (never all up front) and the
statistics are kept as running integer sums, so the memory does not grow with
``deals`` unless ``keep_records`` asks for every game.

>>> from gostop_core.arena import run_arena
>>> r = run_arena(["greedy", "random"], deals=2, players=2, workers=1)
>>> r.games
4
"""

from __future__ import annotations

import math
import os
import queue
import signal
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Generator, Sequence

from gostop_core.bots import Bot, observers
from gostop_core.errors import BotError, BotTimeoutError, IllegalBotMoveError
from gostop_core.game import Game, Outcome, PlayerView
from gostop_core.records import Record, Seat
from gostop_core.rules import Rules

__all__ = ["ArenaResult", "GameRecord", "run_arena", "rotation_seats", "net_points",
           "play_supervised", "summarize"]

#: Forfeit reasons listed in :attr:`ArenaResult.forfeit_games` (the count is complete).
MAX_LISTED_FORFEITS = 100


@dataclass(frozen=True)
class GameRecord:
    """One game of the arena: its deal, rotation, the entry seated at each seat
    and each entry's net points (indexed by entry).  ``forfeit`` is the entry
    that lost the game by forfeit and ``reason`` why (``"timeout: ..."``,
    ``"crash: ..."``, ``"protocol: ..."``, ``"illegal: ..."``, ``"error: ..."``),
    else both are None."""

    deal: int
    rotation: int
    seats: tuple[int, ...]     # seats[s] = the entry at seat s
    points: tuple[int, ...]    # points[i] = entry i's net points
    winner: int | None         # the winning entry, None for a draw
    forfeit: int | None = None
    reason: str | None = None
    #: The game's record (gostop-record/1), kept when ``run_arena(game_records=True)``.
    record: Record | None = field(default=None, compare=False, repr=False)

    def as_dict(self) -> dict:
        """The record as plain JSON values."""
        return {"deal": self.deal, "rotation": self.rotation, "seats": list(self.seats),
                "points": list(self.points), "winner": self.winner,
                "forfeit": self.forfeit, "reason": self.reason}


@dataclass
class ArenaResult:
    """The summary of an arena (see the module docstring); ``forfeits[i]`` counts
    the games entry ``i`` lost by forfeit, ``forfeit_games`` lists the first
    :data:`MAX_LISTED_FORFEITS` of them with their reasons."""

    bots: list[str]
    players: int
    preset: str
    deals: int
    games: int
    mean_points: list[float]
    ci95: list[list[float]]
    win_rate: list[float]
    draw_rate: float
    decided_win_rate: list[float]
    forfeits: list[int] = field(default_factory=list)
    forfeit_games: list[dict] = field(default_factory=list)
    move_time: float | None = None
    records: list[GameRecord] = field(default_factory=list, repr=False)

    def as_dict(self) -> dict:
        return {"bots": self.bots, "games": self.games, "mean_points": self.mean_points,
                "ci95": self.ci95, "win_rate": self.win_rate, "draw_rate": self.draw_rate,
                "decided_win_rate": self.decided_win_rate, "deals": self.deals,
                "players": self.players, "preset": self.preset,
                "forfeits": self.forfeits, "forfeit_games": self.forfeit_games,
                "move_time": self.move_time}


def rotation_seats(entries: int, rotation: int) -> tuple[int, ...]:
    """``seats[s]``: the entry seated at seat ``s`` in ``rotation`` (entry ``i``
    sits at seat ``(i + rotation) % entries``)."""
    return tuple((s - rotation) % entries for s in range(entries))


def net_points(outcome: Outcome, rules: Rules, players: int) -> list[int]:
    """Each seat's net points of a finished hand (see the module docstring)."""
    if rules.payment != 0:
        return list(outcome.chips) if outcome.chips else [0] * players
    if outcome.winner is None:
        return [0] * players
    return [outcome.points if s == outcome.winner else -outcome.points for s in range(players)]


def forfeit_points(game: Game, seat: int) -> list[int]:
    """Each seat's net points when ``seat`` forfeits: it pays every other active
    seat the rules' Stop threshold."""
    players = game.players
    sitter = game.sitter
    active = [s for s in range(players) if s != sitter]
    stake = max(1, game.rules.threshold(len(active)))
    points = [0] * players
    for s in active:
        if s != seat:
            points[s] = stake
            points[seat] -= stake
    return points


def play_supervised(game: Game, bots: Sequence[Bot], trusted: Sequence[bool],
                    move_time: float) -> tuple[Outcome | None, int | None, str | None]:
    """Play ``game`` to its end like :func:`~gostop_core.bots.play_game`, but a
    misbehaving bot ends it: returns ``(outcome, None, None)``, or
    ``(None, seat, reason)`` for the seat that forfeits.  Untrusted bots must
    answer one of the legal moves within ``move_time`` (plus the protocol's
    grace); any exception of theirs is a forfeit, a
    :class:`~gostop_core.errors.BotError` of any bot too.  A view holds only
    what its seat may see (no hidden card even in its private parts)."""
    from gostop_core import protocol

    def view(s: int) -> PlayerView:
        return game.view(s)

    seat = 0
    try:
        for seat, bot in enumerate(bots):
            bot.start_hand(view(seat))
        watching = observers(bots)
        while not game.is_over():
            turn = game.turn
            assert turn is not None
            seat = turn
            legal = list(game.legal_moves)
            started = time.monotonic()
            move = bots[seat].choose(view(seat), legal)
            if not trusted[seat]:
                if move not in legal:
                    raise IllegalBotMoveError(f"the bot answered {move!r}, which is not one "
                                              "of the legal moves")
                if time.monotonic() - started > move_time + protocol.GRACE:
                    raise BotTimeoutError(f"no move within {move_time:g} s")
            for seat in watching:  # a watcher that fails forfeits, not the mover
                if seat != turn:
                    bots[seat].observe(view(seat), move)
            game.push(move)
    except BotError as exc:
        return None, seat, f"{exc.reason}: {' '.join(str(exc).split())}"[:300]
    except (Exception, SystemExit) as exc:  # a bot's sys.exit() must not end a worker
        if trusted[seat]:
            raise
        return None, seat, f"error: {type(exc).__name__}: {' '.join(str(exc).split())}"[:300]
    outcome = game.outcome()
    assert outcome is not None
    for s, bot in enumerate(bots):
        try:
            bot.end_hand(view(s), outcome)
        except (Exception, SystemExit):
            if trusted[s]:
                raise
    return outcome, None, None


class _Seats:
    """The bots of one process: a fresh seeded bot per game for the built-in and
    Python bots (so a game does not depend on the games before it), one
    long-lived :class:`~gostop_core.protocol.ExternalBot` per entry for the
    outside programs."""

    def __init__(self, names: Sequence[str], rules_token: str, players: int, seed: int,
                 move_time: float, game_records: bool = False):
        from gostop_core.notation import rules_from_token
        from gostop_core.plugins import resolve_bot
        self.specs = [resolve_bot(n) for n in names]
        self.rules = rules_from_token(rules_token)
        self.players = players
        self.seed = seed
        self.move_time = move_time
        self.game_records = game_records
        self.external: dict[int, Any] = {}

    def bot(self, entry: int, seed: int) -> Bot:
        spec = self.specs[entry]
        if not spec.external:
            return spec.make(seed)
        bot = self.external.get(entry)
        if bot is None:
            bot = self.external[entry] = spec.make(seed)
        bot.move_time = self.move_time
        return bot

    def play_deal(self, deal: int) -> list[GameRecord]:
        """Every rotation of one deal."""
        out = []
        for rotation in range(self.players):
            result, game = self.play_game(deal, rotation)
            if self.game_records:
                record = self.record(game, result.seats, deal, rotation, result.forfeit,
                                     result.reason)
                result = replace(result, record=record)
            out.append(result)
        return out

    def play_game(self, deal: int, rotation: int) -> tuple[GameRecord, Game]:
        """One game: deal ``deal`` (seed ``seed + deal``) in ``rotation``; the
        result (without its record) and the finished (or forfeited) game."""
        players = self.players
        seats = rotation_seats(players, rotation)
        bots = [self.bot(seats[s], seed=(self.seed + deal) * 16 + rotation * 4 + s)
                for s in range(players)]
        trusted = [self.specs[seats[s]].trusted for s in range(players)]
        game = Game(self.rules, players, seed=self.seed + deal, dealer=0)
        outcome, lost, reason = play_supervised(game, bots, trusted, self.move_time)
        for s, bot in enumerate(bots):
            if not self.specs[seats[s]].external:  # made for this game only
                try:
                    bot.close()
                except Exception:
                    if trusted[s]:
                        raise
        if outcome is None:
            assert lost is not None
            per_seat = forfeit_points(game, lost)
            others = [s for s in range(players) if s not in (lost, game.sitter)]
            winner = seats[others[0]] if len(others) == 1 else None
            forfeit: int | None = seats[lost]
        else:
            per_seat = net_points(outcome, self.rules, players)
            winner = None if outcome.winner is None else seats[outcome.winner]
            forfeit = None
        points = [0] * players
        for s in range(players):
            points[seats[s]] = per_seat[s]
        return GameRecord(deal, rotation, seats, tuple(points), winner, forfeit, reason), game

    def record(self, game: Game, seats: Sequence[int], deal: int, rotation: int,
               forfeit: int | None, reason: str | None) -> Record:
        """The record of one arena game; ``meta.arena`` says where it comes from
        (``seed``, ``deal``, ``rotation``, and for a forfeit the entry and why)."""
        names = [self.specs[e].text for e in seats]
        arena: dict[str, Any] = {"seed": self.seed, "deal": deal, "rotation": rotation}
        if forfeit is not None:
            arena["forfeit"] = {"bot": forfeit, "reason": reason}
        return game.to_record([Seat(n, n) for n in names], meta={"arena": arena})

    def close(self) -> None:
        bots, self.external = list(self.external.values()), {}
        for bot in bots:
            try:
                bot.close()
            except Exception:  # pragma: no cover - close never raises by design
                pass


# ---------------------------------------------------------------- worker processes
_WORKER: _Seats | None = None


class _Terminated(BaseException):
    """SIGTERM while an arena runs: unwinds past the bots (which may catch
    SystemExit) to :func:`run_arena`, which exits with 128 + 15."""


def _terminated(signum: int, frame: Any) -> None:
    raise _Terminated(signum)


def _worker_exit(signum: int, frame: Any) -> None:
    """SIGTERM in a worker (the pool's terminate): end its bot processes, exit."""
    from gostop_core.protocol import close_all_bots
    close_all_bots()
    os._exit(128 + signum)


def _worker_init(names: list[str], token: str, players: int, seed: int,
                 move_time: float, game_records: bool = False) -> None:
    """A pool worker: Ctrl-C is the parent's to handle; SIGTERM (the pool's
    terminate) ends the worker's bot processes and the worker; a normal exit
    closes them politely."""
    global _WORKER
    import multiprocessing.util
    from gostop_core.protocol import close_all_bots
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _worker_exit)
    _WORKER = _Seats(names, token, players, seed, move_time, game_records)
    multiprocessing.util.Finalize(None, _close_worker, exitpriority=20)
    multiprocessing.util.Finalize(None, close_all_bots, exitpriority=10)


def _close_worker() -> None:
    global _WORKER
    if _WORKER is not None:
        _WORKER.close()
        _WORKER = None


def _worker_deals(first: int, count: int) -> list[list[GameRecord]]:
    assert _WORKER is not None
    return [_WORKER.play_deal(d) for d in range(first, first + count)]


# ---------------------------------------------------------------- the summary
class _Tally:
    """Running sums for the summary: per entry the sum and the sum of squares of
    its points per deal (integers, so the order of the games does not matter)."""

    def __init__(self, entries: int, players: int):
        self.n = entries
        self.players = players
        self.deals = 0
        self.games = 0
        self.sum = [0] * entries
        self.sq = [0] * entries
        self.wins = [0] * entries
        self.forfeits = [0] * entries
        self.draws = 0
        self.forfeit_games: list[dict] = []

    def add_deal(self, records: Sequence[GameRecord]) -> None:
        self.deals += 1
        totals = [0] * self.n
        for r in records:
            self.games += 1
            for i in range(self.n):
                totals[i] += r.points[i]
            if r.forfeit is not None:
                self.forfeits[r.forfeit] += 1
                if len(self.forfeit_games) < MAX_LISTED_FORFEITS:
                    self.forfeit_games.append({"deal": r.deal, "rotation": r.rotation,
                                               "bot": r.forfeit, "reason": r.reason})
            if r.winner is not None:
                self.wins[r.winner] += 1
            elif r.forfeit is None:
                self.draws += 1
        for i in range(self.n):
            self.sum[i] += totals[i]
            self.sq[i] += totals[i] * totals[i]

    def result(self, names: list[str], rules: Rules, records: list[GameRecord],
               move_time: float | None) -> ArenaResult:
        deals, games, p = self.deals, self.games, self.players
        means, cis = [], []
        for i in range(self.n):
            m = self.sum[i] / (p * deals)
            # variance of the per-deal means (totals / players), from exact sums
            num = deals * self.sq[i] - self.sum[i] * self.sum[i]
            var = num / (deals * (deals - 1) * p * p) if deals > 1 else 0.0
            half = 1.96 * math.sqrt(max(var, 0.0) / deals)
            means.append(round(m, 4))
            cis.append([round(m - half, 4), round(m + half, 4)])
        decided = sum(self.wins)
        forfeits = sorted(self.forfeit_games, key=lambda f: (f["deal"], f["rotation"]))
        return ArenaResult(
            bots=list(names), players=p, preset=rules.preset, deals=deals, games=games,
            mean_points=means, ci95=cis,
            win_rate=[round(w / games, 4) for w in self.wins],
            draw_rate=round(self.draws / games, 4),
            decided_win_rate=[round(w / decided, 4) if decided else 0.0 for w in self.wins],
            forfeits=list(self.forfeits), forfeit_games=forfeits, move_time=move_time,
            records=records)


def summarize(names: list[str], rules: Rules, players: int, deals: int,
              records: list[GameRecord]) -> ArenaResult:
    """The summary of finished games (all rotations of ``deals`` deals)."""
    tally = _Tally(len(names), players)
    by_deal: dict[int, list[GameRecord]] = {}
    for r in records:
        by_deal.setdefault(r.deal, []).append(r)
    for d in sorted(by_deal):
        tally.add_deal(by_deal[d])
    return tally.result(names, rules, records, None)


# ---------------------------------------------------------------- running
def _results_serial(seats: _Seats, deals: int) -> Generator[list[GameRecord], None, None]:
    try:
        for d in range(deals):
            yield seats.play_deal(d)
    finally:
        seats.close()


def _results_parallel(init: tuple, deals: int, workers: int,
                      in_flight: int) -> Generator[list[GameRecord], None, None]:
    """Deals played by ``workers`` processes, handed out in small batches, at
    most ``in_flight`` batches at a time; results in the order they finish."""
    import multiprocessing
    # batches of up to 8 deals save messages with fast bots, yet every worker
    # gets many batches (and the progress moves) on short arenas
    batch = max(1, min(8, deals // (workers * 16)))
    done: queue.Queue = queue.Queue()
    pool = multiprocessing.get_context("fork").Pool(workers, initializer=_worker_init,
                                                    initargs=init)
    # the pool quietly replaces a worker that dies (a Python bot calling
    # os._exit, a crash in C) and its batch is lost: watch the workers' ids
    workers_at_start = {p.pid for p in getattr(pool, "_pool", ())}
    try:
        submitted = finished = pending = 0
        while finished < deals:
            while submitted < deals and pending < in_flight:
                count = min(batch, deals - submitted)
                pool.apply_async(_worker_deals, (submitted, count), callback=done.put,
                                 error_callback=lambda exc: done.put(exc))
                submitted += count
                pending += 1
            item = None
            while item is None:
                try:
                    item = done.get(timeout=0.2)
                except queue.Empty:
                    if workers_at_start - {p.pid for p in getattr(pool, "_pool", ())}:
                        raise BotError("a worker process died during a game (a Python bot "
                                       "that ends its process?); the arena stops") from None
            pending -= 1
            if isinstance(item, BaseException):
                raise item
            for recs in item:
                finished += 1
                yield recs
        pool.close()
        pool.join()
    finally:
        _end_pool(pool)


def _end_pool(pool, grace: float = 5.0) -> None:
    """Terminate ``pool`` and wait for it, but never forever: a worker the pool
    started to replace a dead one can wait on the task queue's lock the dead
    worker held, and the pool's own terminate then waits on it without end.
    After ``grace`` seconds every worker still alive is killed (SIGKILL)."""
    ender = threading.Thread(target=lambda: (pool.terminate(), pool.join()), daemon=True)
    ender.start()
    ender.join(grace)
    if ender.is_alive():
        for proc in list(getattr(pool, "_pool", ())):
            if proc.exitcode is None:
                proc.kill()
        ender.join(grace)


def run_arena(bots: Sequence[str], deals: int = 100, players: int = 2,
              rules: Rules | str = "casual", seed: int = 0, workers: int | None = None,
              on_deal: Callable[[int], None] | None = None, move_time: float = 5.0,
              on_record: Callable[[GameRecord], None] | None = None,
              keep_records: bool = True, in_flight: int | None = None,
              game_records: bool = False, backend: str = "local",
              address: str | None = None, batch: int | None = None,
              retries: int = 3) -> ArenaResult:
    """Play ``deals`` duplicate deals (``players`` rotations each).  ``bots``
    gives one bot specification per seat (a built-in name, ``file.py:Class``,
    ``package.module:Class``, an installed plug-in or ``cmd:COMMAND``; see
    :mod:`gostop_core.plugins`); fewer are completed with the last one.
    ``workers`` processes (default: every core) are handed batches of up to 8
    deals, at most ``in_flight`` batches at a time (default 4 per worker), so
    nothing is built up front; ``on_deal(done)`` is
    called after each deal and ``on_record(record)`` after each game, as they
    finish; ``keep_records=False`` keeps only the running sums (for very long
    arenas).  ``move_time`` is the time per move of the bots we did not write,
    in seconds.  ``game_records``: each :class:`GameRecord` carries its game's
    record (:attr:`GameRecord.record`, gostop-record/1, ``meta.arena`` naming
    the seed, deal and rotation).

    ``backend="ray"`` plays the deals on a Ray cluster instead
    (:mod:`gostop_core.distributed`): the one at ``address``, or a local one on
    127.0.0.1 with ``workers`` CPUs; ``batch`` deals per task, ``retries`` after
    a lost worker.  The result is the same as the local backend's, game for
    game; a run that loses deals raises
    :class:`~gostop_core.distributed.IncompleteRunError`."""
    from gostop_core.notation import rules_to_token
    from gostop_core.plugins import resolve_bot
    rules = rules if isinstance(rules, Rules) else Rules(rules)
    rules.check_players(players)
    if not bots:
        raise ValueError("name at least one bot")
    names = [resolve_bot(b).text for b in bots]  # raises on an unknown bot
    if len(names) > players:
        raise ValueError(f"{len(names)} bots for {players} seats")
    names += [names[-1]] * (players - len(names))
    if deals < 1:
        raise ValueError("deals must be >= 1")
    if not move_time > 0:
        raise ValueError("move_time must be > 0 seconds")
    token = rules_to_token(rules)
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r}: choose local or ray")
    workers = max(1, min(workers or os.cpu_count() or 1, deals))
    init = (names, token, players, seed, move_time, game_records)
    stream: Generator[list[GameRecord], None, None]
    if backend == "ray":
        from gostop_core.distributed import ray_arena_deals, require_ray
        require_ray()
        stream = ray_arena_deals(init, deals, address=address,
                                 cpus=None if address else workers, batch=batch,
                                 retries=retries, in_flight=in_flight)
    elif workers <= 1:
        stream = _results_serial(_Seats(names, token, players, seed, move_time, game_records),
                                 deals)
    else:
        stream = _results_parallel((names, token, players, seed, move_time, game_records),
                                   deals, workers,
                                   in_flight or 4 * workers)
    tally = _Tally(players, players)
    records: list[GameRecord] = []
    previous = _exit_on_sigterm()
    try:
        for i, recs in enumerate(stream):
            tally.add_deal(recs)
            if keep_records:
                records += recs
            if on_record:
                for r in recs:
                    on_record(r)
            if on_deal:
                on_deal(i + 1)
    except _Terminated as exc:
        raise SystemExit(128 + int(exc.args[0])) from None
    finally:
        stream.close()
        _restore_sigterm(previous)
    records.sort(key=lambda r: (r.deal, r.rotation))
    return tally.result(names, rules, records, move_time)


def _exit_on_sigterm() -> Any:
    """While an arena runs in the main thread, SIGTERM unwinds like Ctrl-C does
    (so that worker and bot processes are ended); returns the old handler."""
    if threading.current_thread() is not threading.main_thread():
        return None
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return None
    signal.signal(signal.SIGTERM, _terminated)
    return signal.SIG_DFL


def _restore_sigterm(previous: Any) -> None:
    if previous is not None:
        signal.signal(signal.SIGTERM, previous)
