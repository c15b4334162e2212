"""Simple computer players.

A bot sees exactly what a person in its seat would see: the
:class:`~gostop_core.game.PlayerView` of its seat (its own hand, the field, every
captured pile, counts for the hidden hands and the stock) and the list of legal
moves.  It never sees the other hands or the stock order.

>>> from gostop_core import Game
>>> from gostop_core.bots import make_bot, play_game
>>> g = Game(players=2, seed=3)
>>> outcome = play_game(g, [make_bot("greedy"), make_bot("random", seed=1)])
>>> g.is_over()
True

Four bots are provided:

``random``
    :class:`RandomBot` picks a legal move uniformly at random; with a seed its
    choices are reproducible.

``greedy``
    :class:`GreedyBot` plays the move with the best *immediate* gain, judged
    only from visible cards (see the class for the exact rules of thumb).

``expectimax``
    :class:`ExpectimaxBot` searches the game tree from its view with the
    compiled expectimax of :mod:`gostop_core.bots.search` (flips as chance nodes,
    opponents' hands sampled from the unseen cards; docs/search.md).

``ismcts``
    :class:`IsmctsBot` grows an information-set Monte Carlo tree over its own
    later decisions too (:mod:`gostop_core.bots.ismcts`; docs/search.md).

Two more names select expectimax settings: ``best`` the strongest measured at
each table (:class:`~gostop_core.bots.best.BestBot`: :data:`BEST_SETTINGS`, with
the network's playouts at 2-player standard; docs/strength.md), ``expectimax-v1``
the first expectimax bot, unchanged, as a baseline (:data:`EXPECTIMAX_V1_SETTINGS`).
"""

from gostop_core.bots.base import Bot, play_game
from gostop_core.bots.expectimax import ExpectimaxBot, RankedMove
from gostop_core.bots.mcts import IsmctsBot
from gostop_core.bots.plugins import BotSpec, make_bot, resolve_bot
from gostop_core.bots.registry import (
    BEST_SETTINGS, BOT_NAMES, EXPECTIMAX_V1_SETTINGS, SETTINGS_PREFIXES, make_builtin_bot,
)
from gostop_core.bots.simple import GreedyBot, RandomBot, capture_timing, visible_capture

__all__ = ["Bot", "RandomBot", "GreedyBot", "ExpectimaxBot", "IsmctsBot", "RankedMove", "BOT_NAMES",
           "BEST_SETTINGS", "EXPECTIMAX_V1_SETTINGS", "SETTINGS_PREFIXES", "BotSpec",
           "make_bot", "make_builtin_bot", "resolve_bot", "play_game", "visible_capture",
           "capture_timing"]
