"""One deal of an arena, every rotation: the bots of one process
(:class:`DealPlayer`), supervised play (:func:`play_supervised`) and the
per-game result (:class:`GameRecord`).  Every backend (the local process pool
of :mod:`gostop_core.arena.local`, Ray in :mod:`gostop_core.arena.ray_backend`)
plays deals through :class:`DealPlayer` and yields, deal after deal, the list
of that deal's :class:`GameRecord` (a :data:`DealStream`); the arena
(:mod:`gostop_core.arena.duplicate`) only sums them up.  Nothing here imports
a backend or the arena."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Sequence

from gostop_core.bots import Bot
from gostop_core.bots import external
from gostop_core.driver import BotForfeit, HandDriver
from gostop_core.bots.plugins import resolve_bot
from gostop_core.game import Game, Outcome, PlayerView
from gostop_core.notation import rules_from_token
from gostop_core.records import Record, Seat, record_from_game
from gostop_core.rules import Rules

__all__ = ["GameRecord", "DealPlayer", "DealStream", "ArenaSettings", "rotation_seats",
           "net_points", "forfeit_points", "forfeit_winner", "play_supervised"]

#: What a backend is handed: ``(names, rules token, players, seed, move_time,
#: game_records)``, the arguments of :class:`DealPlayer`.  A plain tuple, so it
#: pickles to worker processes and Ray tasks as it is.
ArenaSettings = tuple

#: What a backend returns: the deals' results as they finish, one list of
#: :class:`GameRecord` (every rotation) per deal.
DealStream = Iterator[list["GameRecord"]]


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
    #: The names the programs announced in their ``ready`` line, by entry (None
    #: for a bot that is no program, or one that announced nothing).
    announced: tuple[str | None, ...] = field(default=(), compare=False, repr=False)

    def as_dict(self) -> dict:
        """The record as plain JSON values."""
        return {"deal": self.deal, "rotation": self.rotation, "seats": list(self.seats),
                "points": list(self.points), "winner": self.winner,
                "forfeit": self.forfeit, "reason": self.reason}


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


def forfeit_winner(game: Game, seat: int) -> int | None:
    """The seat that wins when ``seat`` forfeits: the one other active seat,
    or None when two or more are left (no one wins the hand)."""
    others = [s for s in range(game.players) if s not in (seat, game.sitter)]
    return others[0] if len(others) == 1 else None


def play_supervised(game: Game, bots: Sequence[Bot], trusted: Sequence[bool],
                    move_time: float) -> tuple[Outcome | None, int | None, str | None]:
    """Play ``game`` to its end like :func:`~gostop_core.bots.play_game`, but a
    misbehaving bot ends it: returns ``(outcome, None, None)``, or
    ``(None, seat, reason)`` for the seat that forfeits.  Untrusted bots must
    answer one of the legal moves within ``move_time`` (plus the protocol's
    grace); any exception of theirs is a forfeit, a
    :class:`~gostop_core.errors.BotError` of any bot too (the ``"forfeit"`` and
    ``"trusted"`` policies of :class:`~gostop_core.driver.HandDriver`)."""
    policies = ["trusted" if t else "forfeit" for t in trusted]
    # the protocol's grace read now: tests shorten it
    # a bot's sys.exit() must not end a worker: a forfeit
    driver = HandDriver(game, bots, policies, move_time=move_time, grace=external.GRACE,
                        exit_forfeits=True)
    try:
        outcome = driver.play()
    except BotForfeit as forfeit:
        return None, forfeit.seat, forfeit.detail
    return outcome, None, None


class DealPlayer:
    """The bots of one process: a fresh seeded bot per game for the built-in and
    Python bots (so a game does not depend on the games before it), one
    long-lived :class:`~gostop_core.bots.external.ExternalBot` per entry for the
    outside programs."""

    def __init__(self, names: Sequence[str], rules_token: str, players: int, seed: int,
                 move_time: float, game_records: bool = False):
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
                                     result.reason, result.announced)
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
        announced: list[str | None] = [None] * len(self.specs)
        for s, bot in enumerate(bots):
            name = getattr(bot, "bot_name", None) if self.specs[seats[s]].external else None
            if isinstance(name, str):
                announced[seats[s]] = name
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
            won = forfeit_winner(game, lost)
            winner = None if won is None else seats[won]
            forfeit: int | None = seats[lost]
        else:
            per_seat = net_points(outcome, self.rules, players)
            winner = None if outcome.winner is None else seats[outcome.winner]
            forfeit = None
        points = [0] * players
        for s in range(players):
            points[seats[s]] = per_seat[s]
        return GameRecord(deal, rotation, seats, tuple(points), winner, forfeit, reason,
                          announced=tuple(announced)), game

    def record(self, game: Game, seats: Sequence[int], deal: int, rotation: int,
               forfeit: int | None, reason: str | None,
               announced: Sequence[str | None] = ()) -> Record:
        """The record of one arena game; ``meta.arena`` says where it comes from
        (``seed``, ``deal``, ``rotation``, and for a forfeit the entry and why).
        A program's seat is named by the name it announced, its bot by its spec."""
        specs = [self.specs[e].text for e in seats]
        named = [announced[e] if e < len(announced) and announced[e] else None for e in seats]
        record = record_from_game(game, [Seat(n or spec, spec) for n, spec in zip(named, specs)],
                                  meta={"arena": self._arena_meta(deal, rotation, forfeit,
                                                                  reason)})
        return record

    def _arena_meta(self, deal: int, rotation: int, forfeit: int | None,
                    reason: str | None) -> dict:
        arena: dict[str, Any] = {"seed": self.seed, "deal": deal, "rotation": rotation}
        if forfeit is not None:
            arena["forfeit"] = {"bot": forfeit, "reason": reason}
        return arena

    def close(self) -> None:
        bots, self.external = list(self.external.values()), {}
        for bot in bots:
            try:
                bot.close()
            except Exception:  # pragma: no cover - close never raises by design
                pass


#: The old name of :class:`DealPlayer`.
_Seats = DealPlayer
