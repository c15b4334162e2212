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
import signal
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Generator, Sequence

from gostop_core.arena.games import (
    DealPlayer, GameRecord, forfeit_points, net_points, play_supervised, rotation_seats,
)
from gostop_core.arena.local import parallel_deals, serial_deals
from gostop_core.arena.ray_backend import ray_arena_deals, require_ray
from gostop_core.bots.plugins import resolve_bot
from gostop_core.notation import rules_to_token
from gostop_core.rules import Rules

__all__ = ["ArenaResult", "GameRecord", "run_arena", "rotation_seats", "net_points",
           "forfeit_points", "play_supervised", "summarize", "mean_interval"]

#: Forfeit reasons listed in :attr:`ArenaResult.forfeit_games` (the count is complete).
MAX_LISTED_FORFEITS = 100


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
    #: The name each program announced in its ``ready`` line (None for the
    #: other bots): shown next to its spec in the tables.
    announced: list[str | None] = field(default_factory=list)
    #: ``lead[i]``: entry 0's mean points a game less entry ``i``'s, with its 95 %
    #: interval over the deals, paired deal by deal (``[mean, low, high]``; None
    #: for entry 0). With three or more entries this is the head-to-head measure:
    #: the two entries' own intervals overlap far more than their difference's.
    lead: list[list[float] | None] = field(default_factory=list)

    def label(self, entry: int) -> str:
        """The entry's spec, with the name its program announced."""
        name = self.announced[entry] if entry < len(self.announced) else None
        return f"{self.bots[entry]} ({name})" if name else self.bots[entry]

    def as_dict(self) -> dict:
        return {"bots": self.bots, "games": self.games, "mean_points": self.mean_points,
                "ci95": self.ci95, "win_rate": self.win_rate, "draw_rate": self.draw_rate,
                "decided_win_rate": self.decided_win_rate, "deals": self.deals,
                "players": self.players, "preset": self.preset,
                "forfeits": self.forfeits, "forfeit_games": self.forfeit_games,
                "move_time": self.move_time, "announced": self.announced,
                "lead": self.lead}

# ---------------------------------------------------------------- the summary
def mean_interval(total: int, squares: int, deals: int, games_per_deal: int
                  ) -> tuple[float, float, float]:
    """The mean a game and its 95 % interval over the deals, from the sum and
    the sum of squares of the deals' totals (integers: exact, in any order),
    each rounded to 4 places: the arena's figures and ``gostop compare``'s."""
    m = total / (games_per_deal * deals)
    # variance of the per-deal means (totals / games per deal), from exact sums
    num = deals * squares - total * total
    var = num / (deals * (deals - 1) * games_per_deal ** 2) if deals > 1 else 0.0
    half = 1.96 * math.sqrt(max(var, 0.0) / deals)
    return round(m, 4), round(m - half, 4), round(m + half, 4)


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
        # entry 0's points less each entry's, per deal (index 0 unused)
        self.lead_sum = [0] * entries
        self.lead_sq = [0] * entries
        self.wins = [0] * entries
        self.forfeits = [0] * entries
        self.draws = 0
        self.forfeit_games: list[dict] = []
        self.announced: list[str | None] = [None] * entries

    def add_deal(self, records: Sequence[GameRecord]) -> None:
        self.deals += 1
        totals = [0] * self.n
        for r in records:
            self.games += 1
            for i, name in enumerate(r.announced[:self.n]):
                if name and self.announced[i] is None:
                    self.announced[i] = name
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
            lead = totals[0] - totals[i]
            self.lead_sum[i] += lead
            self.lead_sq[i] += lead * lead

    def result(self, names: list[str], rules: Rules, records: list[GameRecord],
               move_time: float | None) -> ArenaResult:
        deals, games, p = self.deals, self.games, self.players
        means, cis = [], []
        for i in range(self.n):
            m, low, high = mean_interval(self.sum[i], self.sq[i], deals, p)
            means.append(m)
            cis.append([low, high])
        lead: list[list[float] | None] = [None]
        for i in range(1, self.n):
            lead.append(list(mean_interval(self.lead_sum[i], self.lead_sq[i], deals, p)))
        decided = sum(self.wins)
        forfeits = sorted(self.forfeit_games, key=lambda f: (f["deal"], f["rotation"]))
        return ArenaResult(
            bots=list(names), players=p, preset=rules.preset, deals=deals, games=games,
            mean_points=means, ci95=cis,
            win_rate=[round(w / games, 4) for w in self.wins],
            draw_rate=round(self.draws / games, 4),
            decided_win_rate=[round(w / decided, 4) if decided else 0.0 for w in self.wins],
            forfeits=list(self.forfeits), forfeit_games=forfeits, move_time=move_time,
            records=records, announced=list(self.announced), lead=lead)


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


class _Terminated(BaseException):
    """SIGTERM while an arena runs: unwinds past the bots (which may catch
    SystemExit) to :func:`run_arena`, which exits with 128 + 15."""


def _terminated(signum: int, frame: Any) -> None:
    raise _Terminated(signum)


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
    :mod:`gostop_core.bots.plugins`); fewer are completed with the last one.
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
    (:mod:`gostop_core.arena.ray_backend`): the one at ``address``, or a local one on
    127.0.0.1 with ``workers`` CPUs; ``batch`` deals per task, ``retries`` after
    a lost worker.  The result is the same as the local backend's, game for
    game; a run that loses deals raises
    :class:`~gostop_core.arena.ray_backend.IncompleteRunError`."""
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
        require_ray()
        stream = ray_arena_deals(init, deals, address=address,
                                 cpus=None if address else workers, batch=batch,
                                 retries=retries, in_flight=in_flight)
    elif workers <= 1:
        stream = serial_deals(DealPlayer(names, token, players, seed, move_time, game_records),
                                 deals)
    else:
        stream = parallel_deals((names, token, players, seed, move_time, game_records),
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
