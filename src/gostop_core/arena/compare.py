"""Two arena runs on the same deals, compared deal by deal.

A bot author tuning a setting plays each variant against the same opponents
on the same deals (``gostop arena VARIANT OPPONENT --seed S --records FILE``)
and asks which is ahead.  Each run's own interval is as wide as the spread of
the deals' points; the difference of the two runs on each deal is far less
spread, because the bots are deterministic per deal and seat: a game in which
no decision of the variants differs is the same game in both runs and adds
nothing to the difference.  :func:`compare_runs` reads both files in step
(the arena writes them in deal and rotation order; a run played in parts is
its files joined in the order of their seeds), replays every record (so
each game's points are the rules', not the file's), and returns the per-game
mean of each run's entry, the mean of their difference with a 95 % interval
over the deals, and how many games differ.

Memory holds one record of each file at a time, whatever the files' size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, Any, Iterator

from gostop_core.arena.duplicate import mean_interval
from gostop_core.arena.games import forfeit_points, forfeit_winner, net_points, rotation_seats
from gostop_core.errors import GoStopError
from gostop_core.records import Record, RecordError, game_from_record, iter_records

__all__ = ["ComparisonError", "PairedComparison", "compare_runs"]


class ComparisonError(GoStopError, ValueError):
    """Two runs that cannot be compared: a file that is not the records of a
    ``gostop arena`` run, or two runs of different deals, seatings or
    opponents.  ``run`` is 0 or 1 when one file is at fault (None when the
    two disagree), ``line`` its line when known."""

    def __init__(self, message: str, run: int | None = None, line: int | None = None):
        self.run = run
        self.line = line
        self.reason = message
        where = "" if run is None else f"run {'AB'[run]}" + ("" if line is None else f", line {line}")
        super().__init__(f"{where}: {message}" if where else message)


def _name(text: str) -> str:
    """A name from a file in a message: repr-escaped, cut short."""
    shown = repr(text[:61])
    return shown if len(text) <= 60 else shown[:60] + "..."


@dataclass(frozen=True)
class PairedComparison:
    """The compared entry of each run (``bots``), the deals and games both hold,
    the games whose moves differ between the runs, each run's mean net points
    a game for its entry, the share of the decided games it won and the games
    it lost by forfeit (a bot that fails is seen at once), and the
    mean difference (A - B) with its 95 % interval over the deals (as
    ``gostop arena`` computes its own)."""

    bots: tuple[str, str]
    opponents: tuple[str, ...]
    entry: int
    players: int
    preset: str
    deals: int
    games: int
    games_differ: int
    mean_points: tuple[float, float]
    decided_win_rate: tuple[float, float]
    forfeits: tuple[int, int]
    difference: float
    ci95: tuple[float, float]

    def as_dict(self) -> dict[str, Any]:
        return {"bots": list(self.bots), "opponents": list(self.opponents),
                "entry": self.entry, "players": self.players, "preset": self.preset,
                "deals": self.deals, "games": self.games, "games_differ": self.games_differ,
                "mean_points": list(self.mean_points),
                "decided_win_rate": list(self.decided_win_rate),
                "forfeits": list(self.forfeits), "difference": self.difference,
                "ci95": list(self.ci95)}


@dataclass(frozen=True)
class _Game:
    seed: int                # the arena's --seed
    deal: int                # the deal's index in its arena run
    rotation: int
    line: int | None
    rules: str
    players: int
    start: str
    names: tuple[str, ...]   # the bot of each entry
    points: tuple[int, ...]  # each entry's net points
    winner: int | None       # the entry that won (None: a draw)
    forfeit: int | None      # the entry that lost by forfeit
    moves: tuple[str, ...]

    @property
    def dealt(self) -> int:
        """The deal itself: the seed it was dealt from (the arena's seed plus
        the deal's index), the same whichever part of a run played it."""
        return self.seed + self.deal


def _arena_meta(rec: Record, run: int) -> tuple[int, int, int, int | None]:
    """(arena seed, deal, rotation, forfeiting entry or None) of an arena record."""
    meta = rec.meta.get("arena")
    if not isinstance(meta, dict):
        raise ComparisonError("not a record of 'gostop arena --records' (no \"arena\" field)",
                              run, rec.line)
    deal, rotation = meta.get("deal"), meta.get("rotation")
    ok = (isinstance(deal, int) and not isinstance(deal, bool) and deal >= 0
          and isinstance(rotation, int) and not isinstance(rotation, bool)
          and 0 <= rotation < rec.players)
    if not ok:
        raise ComparisonError("its \"arena\" field needs a deal (0 or more) and a rotation "
                              f"(0..{rec.players - 1})", run, rec.line)
    assert isinstance(deal, int) and isinstance(rotation, int)
    seed = meta.get("seed", 0)  # records from before the arena wrote its seed: one run
    if not (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2 ** 64):
        raise ComparisonError(f"its \"arena\" field's seed is not a seed (0..{2 ** 64 - 1})", run,
                              rec.line)
    forfeit = meta.get("forfeit")
    if forfeit is None:
        return seed, deal, rotation, None
    entry = forfeit.get("bot") if isinstance(forfeit, dict) else None
    if not (isinstance(entry, int) and not isinstance(entry, bool) and 0 <= entry < rec.players):
        raise ComparisonError("its forfeit names no entry of the arena", run, rec.line)
    assert isinstance(entry, int)
    return seed, deal, rotation, entry


def _games(handle: IO[str] | str, run: int) -> Iterator[_Game]:
    """Each game of one run's records, replayed, with each entry's points."""
    try:
        for rec in iter_records(handle):
            assert isinstance(rec, Record)
            seed, deal, rotation, forfeit = _arena_meta(rec, run)
            seats = rotation_seats(rec.players, rotation)  # seats[s]: the entry at seat s
            names = [""] * rec.players
            for s, seat in enumerate(rec.seats):
                names[seats[s]] = seat.bot or seat.name
            game = game_from_record(rec)
            if forfeit is None:
                outcome = game.outcome()
                if outcome is None:
                    raise ComparisonError("an unfinished hand that no bot forfeited", run,
                                          rec.line)
                per_seat = net_points(outcome, game.rules, rec.players)
                winner = None if outcome.winner is None else seats[outcome.winner]
            else:  # as the arena counts a forfeit: the one other seat left wins
                lost = seats.index(forfeit)
                per_seat = forfeit_points(game, lost)
                won = forfeit_winner(game, lost)
                winner = None if won is None else seats[won]
            points = [0] * rec.players
            for s in range(rec.players):
                points[seats[s]] = per_seat[s]
            yield _Game(seed, deal, rotation, rec.line, rec.rules, rec.players, rec.start,
                        tuple(names), tuple(points), winner, forfeit,
                        tuple(d.move for d in rec.decisions))
    except RecordError as exc:
        raise ComparisonError(str(exc), run) from None


def compare_runs(run_a: IO[str] | str, run_b: IO[str] | str, entry: int = 0) -> PairedComparison:
    """Compare entry ``entry`` (0: the bot named first) of two ``gostop arena
    --records`` runs over the same deals (text files or their text).

    Both runs must hold the same games in the same order (deal and rotation,
    with the same start position), with the same bots at every other entry.
    A deal is the seed it was dealt from (the arena's ``--seed`` plus its
    index), so a run played in parts, its files joined in the order of their
    seeds, compares with the same deals played in one run or in other parts.
    Raises :class:`ComparisonError` otherwise, and for a file that is not an
    arena's records or does not replay (the record's own error in the message)."""
    if isinstance(entry, bool) or not isinstance(entry, int) or entry < 0:
        raise ComparisonError(f"the entry is a whole number 0 or more, got {entry!r}")
    games_a, games_b = _games(run_a, 0), _games(run_b, 1)
    first: _Game | None = None
    first_b: _Game | None = None
    prev: _Game | None = None  # run A's game before this one
    deals = games = differ = 0
    sums = [0, 0]
    wins = [0, 0]
    forfeits = [0, 0]
    decided = [0, 0]
    diff_sum = diff_sq = 0
    deal_points = [0, 0]
    in_deal = 0

    def close_deal(players: int) -> None:
        nonlocal deals, diff_sum, diff_sq, in_deal
        if in_deal != players:
            assert prev is not None  # the deal's last game
            raise ComparisonError(f"deal {prev.deal} has {in_deal} game(s), not one for each "
                                  f"of the {players} seat rotations (a run cut short?)")
        in_deal = 0
        deals += 1
        d = deal_points[0] - deal_points[1]
        diff_sum += d
        diff_sq += d * d
        deal_points[0] = deal_points[1] = 0

    while True:
        a, b = next(games_a, None), next(games_b, None)
        if a is None and b is None:
            break
        if a is None or b is None:
            short, longer = ("A", "B") if a is None else ("B", "A")
            raise ComparisonError(f"run {short} ends after {games} games, run {longer} holds more")
        if first is None:
            first = a
            if entry >= a.players:
                raise ComparisonError(f"entry {entry} is not in a {a.players}-player arena "
                                      f"(entries 0..{a.players - 1})")
        # B's table is A's when their start positions are the same (checked next)
        if (a.rules, a.players) != (first.rules, first.players):
            raise ComparisonError(f"deal {a.deal} is played at another table "
                                  f"({a.rules}, {a.players} players) than the first "
                                  f"({first.rules}, {first.players} players)", 0, a.line)
        if (a.dealt, a.rotation) != (b.dealt, b.rotation) or a.start != b.start:
            raise ComparisonError(
                f"the runs hold different games at game {games + 1} (A: deal {a.deal} of seed "
                f"{a.seed} rotation {a.rotation}, B: deal {b.deal} of seed {b.seed} rotation "
                f"{b.rotation}"
                + (", not the same start position" if a.start != b.start else "")
                + "): play both with the same --seed, --deals, --rules and --players")
        others_a = tuple(n for i, n in enumerate(a.names) if i != entry)
        others_b = tuple(n for i, n in enumerate(b.names) if i != entry)
        if others_a != others_b:
            shown_a, shown_b = ", ".join(map(_name, others_a)), ", ".join(map(_name, others_b))
            raise ComparisonError(f"the opponents differ at deal {a.deal} (A: {shown_a}; "
                                  f"B: {shown_b})")
        if first_b is None:
            first_b = b
        for g, g0, run in ((a, first, 0), (b, first_b, 1)):
            if g.names[entry] != g0.names[entry]:
                raise ComparisonError(f"entry {entry} is {_name(g.names[entry])} at deal "
                                      f"{g.deal}, {_name(g0.names[entry])} before", run, g.line)
        # a run played in parts (--seed S --deals N, then --seed S+N ...) joined
        # end to end is one run: its deals are told apart by the seed each was
        # dealt from, so they must rise, and a deal played twice is refused
        if prev is not None and (a.dealt, a.rotation) <= (prev.dealt, prev.rotation):
            raise ComparisonError(
                f"the games are not in deal and rotation order (deal {a.deal} of seed {a.seed} "
                f"rotation {a.rotation} after deal {prev.deal} of seed {prev.seed} rotation "
                f"{prev.rotation}), as 'gostop arena --records' writes them (runs played in "
                "parts are joined in the order of their seeds, with no deal twice)")
        if prev is not None and a.dealt != prev.dealt:
            close_deal(first.players)
        prev = a
        games += 1
        in_deal += 1
        differ += a.moves != b.moves
        deal_points[0] += a.points[entry]
        deal_points[1] += b.points[entry]
        for k, g in enumerate((a, b)):
            sums[k] += g.points[entry]
            decided[k] += g.winner is not None
            wins[k] += g.winner == entry
            forfeits[k] += g.forfeit == entry
    if first is None or first_b is None:
        raise ComparisonError("both runs are empty")
    close_deal(first.players)
    difference, low, high = mean_interval(diff_sum, diff_sq, deals, first.players)
    return PairedComparison(
        bots=(first.names[entry], first_b.names[entry]),
        opponents=tuple(n for i, n in enumerate(first.names) if i != entry),
        entry=entry, players=first.players, preset=first.rules, deals=deals, games=games,
        games_differ=differ,
        mean_points=(round(sums[0] / games, 4), round(sums[1] / games, 4)),
        decided_win_rate=(round(wins[0] / decided[0], 4) if decided[0] else 0.0,
                          round(wins[1] / decided[1], 4) if decided[1] else 0.0),
        forfeits=(forfeits[0], forfeits[1]),
        difference=difference, ci95=(low, high))
