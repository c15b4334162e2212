"""``best``: the strongest bot measured at each table (docs/strength.md).

At most tables that is the ``expectimax-v1`` search (:data:`BEST_SETTINGS`).  At
the tables of :data:`NETWORK_TABLES` the same search, on the same number of
sampled deals, measured stronger with the shipped network playing every seat's
playout moves and valuing the playout after one turn (``neural-search``'s
playouts; docs/strength.md, round 14): there ``best`` plays that.  The table is
read from each view, so one ``best`` bot plays every table as measured."""

from __future__ import annotations

from typing import Any

from gostop_core.bots.expectimax import ExpectimaxBot
from gostop_core.bots.settings import Setting
from gostop_core.rules import Rules, unchanged_preset

__all__ = ["BestBot", "NETWORK_TABLES", "plays_network"]

#: The tables (preset, players) where ``best`` searches with the network's
#: playouts: those where that measured stronger than ``expectimax-v1`` on fresh
#: deals (docs/strength.md, round 14).  Only presets played unchanged count.
NETWORK_TABLES = frozenset({("standard", 2)})


def plays_network(rules: Rules, players: int) -> bool:
    """Whether ``best`` searches with the network's playouts at a table of
    ``rules`` (a preset unchanged) and ``players``."""
    return (unchanged_preset(rules), players) in NETWORK_TABLES


class BestBot(ExpectimaxBot):
    """The expectimax search with ``best``'s settings; at the tables of
    :data:`NETWORK_TABLES` (unless ``network`` is off) its playouts are the
    shipped network's for every seat, cut after
    :attr:`~gostop_core.bots.neural.NeuralSearchBot.CUT` turns by the network's
    value, as ``neural-search`` plays them.  Everything else (samples, budgets,
    the win bonus) is the same at every table."""

    name = "best"

    SETTINGS = ExpectimaxBot.SETTINGS + (
        Setting("network", "network", "switch", True,
                "search with the network's playouts where they measured stronger "
                "(standard, 2 players)"),
    )

    def __init__(self, seed: int | None = None, network: bool = True, **settings: Any):
        super().__init__(seed, **settings)
        self.network = bool(network)

    def search_options(self, rules: Rules, fields: dict) -> dict[str, Any]:
        players = fields["nplayers"]
        if not (self.network and plays_network(rules, players)):
            return {}
        # imported here: the network's compiled module imports gostop_core.bots
        from gostop_core.bots.neural import NeuralSearchBot, network_playout_options
        return network_playout_options(rules, players, cut=NeuralSearchBot.CUT)
