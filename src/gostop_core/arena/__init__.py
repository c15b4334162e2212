"""Bots against each other: duplicate-deal arenas and self-play.

:mod:`~gostop_core.arena.duplicate` runs an arena and sums its results;
:mod:`~gostop_core.arena.games` plays the games of one deal under supervision;
the backends, :mod:`~gostop_core.arena.local` (this process or a pool of
worker processes) and :mod:`~gostop_core.arena.ray_backend` (a Ray cluster),
hand deals to :class:`~gostop_core.arena.games.DealPlayer` and stream back
the results; :mod:`~gostop_core.arena.selfplay` writes self-play records for
learning; :mod:`~gostop_core.arena.compare` compares two runs' records deal by
deal.  docs/architecture.md follows one ``gostop arena`` run through them.

>>> from gostop_core.arena import run_arena
>>> r = run_arena(["greedy", "random"], deals=2, players=2, workers=1)
>>> r.games
4
"""

from gostop_core.arena.compare import ComparisonError, PairedComparison, compare_runs
from gostop_core.arena.duplicate import (
    MAX_LISTED_FORFEITS, ArenaResult, run_arena, summarize,
)
from gostop_core.arena.games import (
    DealPlayer, GameRecord, forfeit_points, net_points, play_supervised, rotation_seats,
)

__all__ = ["ArenaResult", "ComparisonError", "DealPlayer", "GameRecord", "MAX_LISTED_FORFEITS",
           "PairedComparison", "compare_runs", "forfeit_points", "net_points", "play_supervised",
           "rotation_seats", "run_arena", "summarize"]
