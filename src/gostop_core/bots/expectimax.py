"""The expectimax bot: a search over sampled deals of the unseen cards, in C
(:mod:`gostop_core.bots.search`, docs/search.md)."""

from __future__ import annotations

import math
import warnings
import zlib
from typing import Any


from gostop_core.bots.base import Bot
from gostop_core.bots.settings import Setting
from gostop_core.protocol.wire import MAX_TIME_MS
from gostop_core.bots.search import (
    CHANCE_SEAT, MAX_DEPTH, MAX_PLAN, MAX_SAMPLES, StopToken, search_fields,
)
from gostop_core.cards import CARD_CODES
from gostop_core.game import PlayerView
from gostop_core.moves import Move, RankedMove
from gostop_core.notation import parse_view
from gostop_core.rules import Rules

__all__ = ["ExpectimaxBot", "RankedMove"]


# ---------------------------------------------------------------- the expectimax bot

def _line_entry(seat: int, viewer: int, code: int) -> str:

    if seat == CHANCE_SEAT:
        return f"flip:{CARD_CODES[code]}"
    text = str(Move.from_code(code))
    return text if seat == viewer else f"p{seat}:{text}"


class ExpectimaxBot(Bot):
    """Expectimax search from the bot's view (:mod:`gostop_core.bots.search`, in C).

    The other hands are dealt at random from the unseen cards (``samples``
    deals; every root move is searched on the same deals and its values
    averaged).  Max nodes for the bot's own decisions, a chance node for every
    flip (each stock card equally likely), the other seats playing the greedy
    bot's policy, ``depth`` turns deep (1: the bot's own turn with its flip;
    2: also the next seat's), then the leaf value: with ``leaf="rollout"`` (the
    default) the hand played out to its end by the greedy policy for every
    seat, with ``leaf="estimate"`` a fitted estimate of the net points from each
    seat's score, pile progress and hand size (docs/search.md).  A won hand
    counts ``win_bonus`` more and a lost one ``win_bonus`` less, so that among
    moves of about equal points the bot prefers the one more likely to win.
    The sampling is seeded by ``seed`` and the view itself, so the bot never
    depends on hidden cards and repeats its choices.  A single legal move is
    played without a search.

    Budgets: ``time_ms`` (> 0) stops the sampling after that many milliseconds
    (the result then depends on the machine's speed); ``stop_z`` (> 0) stops
    it once the best move leads every other by ``stop_z`` standard errors
    (deterministic).  ``plan`` (> 0) plans the bot's own later Go/Stop
    decisions inside the playouts with ``plan`` nested playouts per Go, on
    fresh deals of the cards it cannot see there.  ``halving`` 1 searches the
    better half of the root moves on twice the samples, from a quarter of them
    up; 2 is sequential halving on the budget of ``samples`` for every move
    (equal rounds, the better half on each round; docs/search.md).
    ``consistent`` makes the bot's own later decisions inside the search (its
    play after banking a bonus card, a flip choice, Go/Stop) one choice per
    information set, over every sample that agrees on what the bot has seen
    then, instead of the best move of each sample (which would know the
    sample's hidden cards).

    Settings can also be given by name to :func:`make_bot`:
    ``expectimax:depth=2,samples=64,leaf=estimate,win=0,time=200,stop=2.5,plan=4,consistent=1``."""

    name = "expectimax"

    #: Defaults: depth in turns, determinizations per decision, leaf value and
    #: win bonus (measured in docs/strength.md).
    DEPTH = 1
    SAMPLES = 256
    LEAF = "rollout"
    WIN_BONUS = 2.0
    #: Leaf values accepted.
    LEAVES = ("rollout", "estimate")

    #: The settings, declared once (gostop_core.bots.settings): specifications,
    #: protocol options, the web lobby's bounds and the help all come from here.
    SETTINGS: tuple[Setting, ...] = (
        Setting("depth", "depth", "int", DEPTH, "search depth in turns", 1, MAX_DEPTH, cap=2),
        Setting("samples", "samples", "int", SAMPLES, "deals of the unseen cards searched",
                1, MAX_SAMPLES),
        Setting("leaf", "leaf", "choice", LEAF, "value past the depth", choices=LEAVES),
        Setting("win", "win_bonus", "float", WIN_BONUS, "points added to a won hand's value",
                -100.0, 100.0),
        Setting("halving", "halving", "level", 0,
                "1: the better half on twice the samples; 2: sequential halving",
                choices=(0, 1, 2)),
        Setting("time", "time_ms", "float", 0.0, "milliseconds a decision (0: no limit)",
                0.0, float(MAX_TIME_MS), cap=3000.0),
        Setting("stop", "stop_z", "float", 0.0,
                "stop once the best move leads by this many standard errors (0: off)",
                0.0, 100.0),
        Setting("plan", "plan", "int", 0, "playouts per Go planned inside the playouts",
                0, MAX_PLAN, cap=2),
        Setting("consistent", "consistent", "switch", False,
                "own later decisions one choice per information set"),
    )

    def __init__(self, seed: int | None = None, depth: int | None = None,
                 samples: int | None = None, leaf: str | None = None,
                 win_bonus: float | None = None, halving: int = 0,
                 time_ms: float = 0.0, stop_z: float = 0.0, plan: int = 0,
                 consistent: bool = False):
        self.seed = seed
        self.halving = int(halving)
        if self.halving not in (0, 1, 2):
            raise ValueError(f"expectimax halving must be 0 (off), 1 or 2, got {halving}")
        self.consistent = bool(consistent)
        self.time_ms = float(time_ms)
        self.stop_z = float(stop_z)
        self.plan = int(plan)
        if not (math.isfinite(self.time_ms) and self.time_ms >= 0):
            raise ValueError(f"expectimax time must be 0 (no limit) or more milliseconds, "
                             f"got {time_ms}")
        if not (math.isfinite(self.stop_z) and self.stop_z >= 0):
            raise ValueError(f"expectimax stop must be 0 (off) or a positive number, got {stop_z}")
        if not 0 <= self.plan <= MAX_PLAN:
            raise ValueError(f"expectimax plan must be 0..{MAX_PLAN}, got {plan}")
        self.depth = self.DEPTH if depth is None else int(depth)
        self.samples = self.SAMPLES if samples is None else int(samples)
        self.leaf = self.LEAF if leaf is None else leaf
        self.win_bonus = self.WIN_BONUS if win_bonus is None else float(win_bonus)
        if not 1 <= self.depth <= MAX_DEPTH:
            raise ValueError(f"expectimax depth must be 1..{MAX_DEPTH}, got {self.depth}")
        if not 1 <= self.samples <= MAX_SAMPLES:
            raise ValueError(f"expectimax samples must be 1..{MAX_SAMPLES}, got {self.samples}")
        if self.leaf not in self.LEAVES:
            raise ValueError(f"expectimax leaf must be one of {', '.join(self.LEAVES)}, "
                             f"got {self.leaf!r}")
        if not math.isfinite(self.win_bonus):
            raise ValueError(f"expectimax win bonus must be a finite number, got {self.win_bonus}")
        #: Search nodes (decisions and chance nodes) visited by this bot so far.
        self.nodes_visited = 0
        #: Set from any thread, it stops this bot's search under way (None: no token).
        self.stop_token: StopToken | None = None

    @property
    def nodes(self) -> int:
        """Deprecated: :attr:`nodes_visited` (``nodes`` of the ismcts bot is the
        size of its tree, a setting: one name, one meaning)."""
        warnings.warn("ExpectimaxBot.nodes is now nodes_visited", DeprecationWarning,
                      stacklevel=2)
        return self.nodes_visited

    def analyse(self, view: PlayerView | str) -> list[RankedMove]:
        """Every legal move of the view's seat (which must be the one to move),
        best first, with its value and principal line.  ``view`` is a
        :class:`PlayerView` or a player-view string."""


        text = view if isinstance(view, str) else view.to_str()
        rules, fields = parse_view(text)
        seed = zlib.crc32(text.encode()) ^ ((self.seed or 0) * 0x9E3779B1)
        result = search_fields(rules, fields, self.depth, self.samples, seed,
                               rollout=self.leaf == "rollout", win_bonus=self.win_bonus,
                               halving=self.halving, time_ms=self.time_ms, stop_z=self.stop_z,
                               consistent=self.consistent,
                               plan=self.plan, stop=self.stop_token,
                               **self.search_options(rules, fields))
        self.last_samples = result["samples"]
        self.last_stopped = result["stopped"]
        #: The last search's result (``search_fields``: each move's spread among it).
        self.last_result = result
        self.nodes_visited += result["nodes"]
        seat = fields["seat"]
        ranked = [RankedMove(Move.from_code(code), value,
                             tuple(_line_entry(s, seat, c) for s, c in line), count)
                  for (code, value, line), count in zip(result["moves"], result["counts"])]
        # the moves searched longest first (the halving's survivors), then best
        # first; equal values keep generation order
        return sorted(ranked, key=lambda r: (-r.samples, -r.value))

    def search_options(self, rules: Rules, fields: dict) -> dict[str, Any]:
        """More keyword arguments of ``search_fields`` (a subclass's playout
        model: :class:`gostop_core.bots.learned.LearnedBot`); none here."""
        return {}

    def choose(self, view: PlayerView, legal: list[Move]) -> Move:
        if not legal:
            raise ValueError("no legal move to choose from")
        if len(legal) == 1:
            return legal[0]
        ranked = self.analyse(view)
        allowed = set(legal)
        for r in ranked:
            if r.move in allowed:
                return r.move
        return legal[0]


