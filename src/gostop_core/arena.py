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

>>> from gostop_core.arena import run_arena
>>> r = run_arena(["greedy", "random"], deals=2, players=2, workers=1)
>>> r.games
4
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Callable, Sequence

from gostop_core.bots import BOT_NAMES, make_bot, play_game
from gostop_core.game import Game, Outcome
from gostop_core.records import Record, Seat
from gostop_core.rules import Rules

__all__ = ["ArenaResult", "GameRecord", "run_arena", "rotation_seats", "net_points"]


@dataclass(frozen=True)
class GameRecord:
    """One game of the arena: its deal, rotation, the entry seated at each seat
    and each entry's net points (indexed by entry)."""

    deal: int
    rotation: int
    seats: tuple[int, ...]     # seats[s] = the entry at seat s
    points: tuple[int, ...]    # points[i] = entry i's net points
    winner: int | None         # the winning entry, None for a draw
    #: The game's record (gostop-record/1), kept when ``run_arena(keep_records=True)``.
    record: Record | None = field(default=None, compare=False, repr=False)


@dataclass
class ArenaResult:
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
    records: list[GameRecord] = field(default_factory=list, repr=False)

    def as_dict(self) -> dict:
        return {"bots": self.bots, "games": self.games, "mean_points": self.mean_points,
                "ci95": self.ci95, "win_rate": self.win_rate, "draw_rate": self.draw_rate,
                "decided_win_rate": self.decided_win_rate, "deals": self.deals,
                "players": self.players, "preset": self.preset}


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


def _play_deal(task: tuple) -> list[GameRecord]:
    names, rules_token, players, seed, deal = task[:5]
    keep = len(task) > 5 and task[5]
    from gostop_core.notation import rules_from_token
    rules = rules_from_token(rules_token)
    out = []
    for rotation in range(players):
        seats = rotation_seats(players, rotation)
        bots = [make_bot(names[seats[s]], seed=(seed + deal) * 16 + rotation * 4 + s)
                for s in range(players)]
        game = Game(rules, players, seed=seed + deal, dealer=0)
        outcome = play_game(game, bots)
        per_seat = net_points(outcome, rules, players)
        points = [0] * players
        for s in range(players):
            points[seats[s]] = per_seat[s]
        winner = None if outcome.winner is None else seats[outcome.winner]
        record = game.to_record(
            [Seat(names[seats[s]], names[seats[s]]) for s in range(players)],
            meta={"arena": {"seed": seed, "deal": deal, "rotation": rotation}}) if keep else None
        out.append(GameRecord(deal, rotation, seats, tuple(points), winner, record))
    return out


def run_arena(bots: Sequence[str], deals: int = 100, players: int = 2,
              rules: Rules | str = "casual", seed: int = 0, workers: int | None = None,
              on_deal: Callable[[int], None] | None = None,
              keep_records: bool = False) -> ArenaResult:
    """Play ``deals`` duplicate deals (``players`` rotations each).  ``bots`` names
    one bot per seat; fewer names are completed with the last one.  ``workers``
    processes (default: every core); ``on_deal(done)`` is called after each deal.
    ``keep_records``: each :class:`GameRecord` carries its game's record."""
    from gostop_core.notation import rules_to_token
    rules = rules if isinstance(rules, Rules) else Rules(rules)
    rules.check_players(players)
    names = [b.strip().lower() for b in bots]
    if not names:
        raise ValueError("name at least one bot")
    for b in names:
        make_bot(b)  # raises on an unknown name
    if len(names) > players:
        raise ValueError(f"{len(names)} bots for {players} seats")
    names += [names[-1]] * (players - len(names))
    if deals < 1:
        raise ValueError("deals must be >= 1")
    token = rules_to_token(rules)
    tasks = [(names, token, players, seed, d, keep_records) for d in range(deals)]
    workers = workers or os.cpu_count() or 1
    records: list[GameRecord] = []
    if workers <= 1:
        for i, t in enumerate(tasks):
            records += _play_deal(t)
            if on_deal:
                on_deal(i + 1)
    else:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for i, recs in enumerate(pool.imap_unordered(_play_deal, tasks, chunksize=1)):
                records += recs
                if on_deal:
                    on_deal(i + 1)
    records.sort(key=lambda r: (r.deal, r.rotation))
    return summarize(names, rules, players, deals, records)


def summarize(names: list[str], rules: Rules, players: int, deals: int,
              records: list[GameRecord]) -> ArenaResult:
    games = len(records)
    n = len(names)
    per_deal: list[list[float]] = [[0.0] * deals for _ in range(n)]
    wins = [0] * n
    draws = 0
    for r in records:
        for i in range(n):
            per_deal[i][r.deal] += r.points[i] / players
        if r.winner is None:
            draws += 1
        else:
            wins[r.winner] += 1
    means, cis = [], []
    for i in range(n):
        xs = per_deal[i]
        m = sum(xs) / deals
        var = sum((x - m) ** 2 for x in xs) / (deals - 1) if deals > 1 else 0.0
        half = 1.96 * math.sqrt(var / deals)
        means.append(round(m, 4))
        cis.append([round(m - half, 4), round(m + half, 4)])
    decided = games - draws
    return ArenaResult(
        bots=list(names), players=players, preset=rules.preset, deals=deals, games=games,
        mean_points=means, ci95=cis,
        win_rate=[round(w / games, 4) for w in wins],
        draw_rate=round(draws / games, 4),
        decided_win_rate=[round(w / decided, 4) if decided else 0.0 for w in wins],
        records=records)
