"""The information-set Monte Carlo tree search bot, in C
(:mod:`gostop_core.bots.ismcts`, docs/search.md)."""

from __future__ import annotations

import math
import zlib
from typing import Any


from gostop_core.bots.base import Bot
from gostop_core.bots.expectimax import RankedMove
from gostop_core.bots.search import StopToken
from gostop_core.bots.settings import Setting
from gostop_core.protocol.wire import MAX_TIME_MS
from gostop_core.bots.ismcts import (
    DEFAULT_C, DEFAULT_ITERATIONS, DEFAULT_NODES, MAX_ITERATIONS, MAX_NODES, MIN_NODES, ismcts_fields,
)
from gostop_core.game import PlayerView
from gostop_core.moves import Move
from gostop_core.notation import parse_view
from gostop_core.rules import Rules

__all__ = ["IsmctsBot"]


# ---------------------------------------------------------------- the IS-MCTS bot

class IsmctsBot(Bot):
    """Information-set Monte Carlo tree search from the bot's view
    (:mod:`gostop_core.bots.ismcts`, in C).

    Every iteration deals the unseen cards at random (as the expectimax bot
    samples them) and descends a tree keyed by what the bot has seen: its own
    decisions chosen by UCB (exploration ``c`` times the payoffs' standard
    deviation, counting in how many deals a move was legal), every public
    event (another seat's move, a card turned from the stock) an edge, so the
    bot plans its own later plays, flip choices and Go/Stop calls.  The other
    seats play the greedy policy (``opponents="tree"``: they choose by UCB on
    the bot's negated payoff); ``loop="open"`` keeps only decisions as edges;
    ``prior`` (points) biases a tree decision toward the greedy policy's move
    (``prior / (visits + 1)`` more in its UCB value); ``widen`` W (> 0) lets a
    tree decision try one more move every W visits, the greedy move first.
    One node is added per iteration, then the hand is played out by the greedy
    policy and the payoff (net points, ``win_bonus`` more for a won hand and
    less for a lost one, as the expectimax bot counts it) is backed up.  The
    move played is the one chosen in the most iterations.

    Budgets: ``iterations`` deals per decision, ``time_ms`` (> 0) a time limit
    (the result then depends on the machine's speed), ``nodes`` the size of the
    tree's node pool (it stops growing when full).  The deals are seeded by
    ``seed`` and the view, so the bot repeats its choices and never depends on
    hidden cards.  A single legal move is played without a search.

    Settings can also be given by name to :func:`make_bot`:
    ``ismcts:iterations=20000,c=0.7,time=200,opponents=tree,loop=open,nodes=65536,win=2,prior=5,widen=4``."""

    name = "ismcts"

    #: Defaults (measured in docs/search.md).
    ITERATIONS = DEFAULT_ITERATIONS
    C = DEFAULT_C
    WIN_BONUS = 2.0
    OPPONENTS = ("greedy", "tree")
    LOOPS = ("closed", "open")

    #: The settings, declared once (gostop_core.bots.settings).
    SETTINGS: tuple[Setting, ...] = (
        Setting("iterations", "iterations", "int", ITERATIONS, "deals played a decision",
                1, MAX_ITERATIONS, cap=100_000),
        Setting("c", "c", "float", C, "exploration (times the payoffs' spread)", 0.0, 100.0,
                cap=10.0),
        Setting("time", "time_ms", "float", 0.0, "milliseconds a decision (0: no limit)",
                0.0, float(MAX_TIME_MS), cap=3000.0),
        Setting("win", "win_bonus", "float", WIN_BONUS, "points added to a won hand's value",
                -100.0, 100.0),
        Setting("opponents", "opponents", "choice", "greedy",
                "the other seats: the greedy policy, or by UCB in the tree", choices=OPPONENTS),
        Setting("loop", "loop", "choice", "closed",
                "closed: public events are edges; open: decisions only", choices=LOOPS),
        Setting("nodes", "nodes", "int", DEFAULT_NODES, "size of the tree's node pool",
                MIN_NODES, MAX_NODES, cap=DEFAULT_NODES),
        Setting("prior", "prior", "float", 0.0, "points of bias toward the greedy move",
                0.0, 1000.0),
        Setting("widen", "widen", "float", 0.0,
                "try one more move every this many visits (0: off)", 0.0, 1e6),
    )

    def __init__(self, seed: int | None = None, iterations: int | None = None,
                 c: float | None = None, time_ms: float = 0.0, win_bonus: float | None = None,
                 opponents: str = "greedy", loop: str = "closed", nodes: int | None = None,
                 prior: float = 0.0, widen: float = 0.0):

        self.seed = seed
        self.iterations = self.ITERATIONS if iterations is None else int(iterations)
        self.c = self.C if c is None else float(c)
        self.time_ms = float(time_ms)
        self.win_bonus = self.WIN_BONUS if win_bonus is None else float(win_bonus)
        self.opponents = opponents
        self.loop = loop
        self.nodes = DEFAULT_NODES if nodes is None else int(nodes)
        self.prior = float(prior)
        self.widen = float(widen)
        if not 1 <= self.iterations <= MAX_ITERATIONS:
            raise ValueError(f"ismcts iterations must be 1..{MAX_ITERATIONS}, got {self.iterations}")
        if not (math.isfinite(self.c) and self.c >= 0):
            raise ValueError(f"ismcts c must be 0 (no exploration) or a positive number, got {c}")
        if not (math.isfinite(self.time_ms) and self.time_ms >= 0):
            raise ValueError(f"ismcts time must be 0 (no limit) or more milliseconds, got {time_ms}")
        if not math.isfinite(self.win_bonus):
            raise ValueError(f"ismcts win bonus must be a finite number, got {self.win_bonus}")
        if not (math.isfinite(self.prior) and self.prior >= 0):
            raise ValueError(f"ismcts prior must be 0 (none) or a positive number, got {prior}")
        if not (math.isfinite(self.widen) and self.widen >= 0):
            raise ValueError(f"ismcts widen must be 0 (off) or a positive number, got {widen}")
        if self.opponents not in self.OPPONENTS:
            raise ValueError(f"ismcts opponents must be one of {', '.join(self.OPPONENTS)}, "
                             f"got {opponents!r}")
        if self.loop not in self.LOOPS:
            raise ValueError(f"ismcts loop must be one of {', '.join(self.LOOPS)}, got {loop!r}")
        if not MIN_NODES <= self.nodes <= MAX_NODES:
            raise ValueError(f"ismcts nodes must be {MIN_NODES}..{MAX_NODES}, got {self.nodes}")
        self.last_iterations = 0
        #: Set from any thread, it stops this bot's search under way (None: no token).
        self.stop_token: StopToken | None = None

    def search_options(self, rules: Rules, fields: dict[str, Any]) -> dict[str, Any]:
        """More keywords of :func:`~gostop_core.bots.ismcts.ismcts_fields` for a
        view (a subclass gives a playout model here); none by default."""
        return {}

    def analyse(self, view: PlayerView | str) -> list[RankedMove]:
        """Every legal move of the view's seat (which must be the one to move),
        the most chosen first, with its mean payoff (``value``, nan for a move
        never chosen) and the iterations that chose it (``samples``)."""


        text = view if isinstance(view, str) else view.to_str()
        rules, fields = parse_view(text)
        seed = zlib.crc32(text.encode()) ^ ((self.seed or 0) * 0x9E3779B1)
        result = ismcts_fields(rules, fields, self.iterations, self.c, seed,
                               time_ms=self.time_ms, win_bonus=self.win_bonus,
                               opp_tree=self.opponents == "tree", open_loop=self.loop == "open",
                               nodes=self.nodes, prior=self.prior, widen=self.widen,
                               stop=self.stop_token, **self.search_options(rules, fields))
        self.last_iterations = result["iterations"]
        ranked = [RankedMove(Move.from_code(code), value, (str(Move.from_code(code)),), visits)
                  for code, visits, value in result["moves"]]
        # most visits first, then the better mean; equal ones keep generation order
        return sorted(ranked, key=lambda r: (-r.samples, -(r.value if r.samples else -math.inf)))

    def choose(self, view: PlayerView, legal: list[Move]) -> Move:
        if not legal:
            raise ValueError("no legal move to choose from")
        if len(legal) == 1:
            return legal[0]
        allowed = set(legal)
        for r in self.analyse(view):
            if r.move in allowed:
                return r.move
        return legal[0]


