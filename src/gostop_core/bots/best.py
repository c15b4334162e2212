"""``best``: the strongest bot measured at each table (docs/strength.md).

At most tables that is the ``expectimax-v1`` search (:data:`BEST_SETTINGS`).  At
the tables of :data:`NETWORK_TABLES` the same search, on the same number of
sampled deals, measured stronger with the shipped network playing every seat's
playout moves and valuing the playout after one turn (``neural-search``'s
playouts; docs/strength.md, rounds 14 and 19): there ``best`` plays that, and at
the tables of :data:`BLEND_TABLES` it blends each root move's value with the
network's Q (``neural-search:blend``; round 19), every decision's but Go or Stop,
which the search's values decide alone (``neural-search:gostop=search``; round 20).  The table is read from each
view, so one ``best`` bot plays every table as measured."""

from __future__ import annotations

from typing import Any

from gostop_core.bots.expectimax import ExpectimaxBot
from gostop_core.bots.settings import Setting
from gostop_core.game import PlayerView
from gostop_core.moves import RankedMove
from gostop_core.notation import parse_view
from gostop_core.rules import Rules, unchanged_preset

__all__ = ["BestBot", "NETWORK_TABLES", "BLEND_TABLES", "plays_network"]

#: The tables (preset, players) where ``best`` searches with the network's
#: playouts: those where that measured stronger than ``expectimax-v1`` on fresh
#: deals (docs/strength.md, rounds 14 and 19).  Only presets played unchanged count.
NETWORK_TABLES = frozenset({("standard", 2), ("casual", 2)})
#: The weight of the network's Q in each root move's value, at the tables where
#: ``best`` blends them (``neural-search:blend``; docs/strength.md, round 19); a
#: Go/Stop decision is never blended (``gostop=search``; round 20).
BLEND_TABLES: dict[tuple[str, int], float] = {("casual", 2): 0.5}


def plays_network(rules: Rules, players: int) -> bool:
    """Whether ``best`` searches with the network's playouts at a table of
    ``rules`` (a preset unchanged) and ``players``."""
    return (unchanged_preset(rules), players) in NETWORK_TABLES


class BestBot(ExpectimaxBot):
    """The expectimax search with ``best``'s settings; at the tables of
    :data:`NETWORK_TABLES` (unless ``network`` is off) its playouts are the
    shipped network's for every seat, cut after
    :attr:`~gostop_core.bots.neural.NeuralSearchBot.CUT` turns by the network's
    value, as ``neural-search`` plays them, and at those of
    :data:`BLEND_TABLES` (unless ``blend`` is off) each root move's value is
    blended with the network's Q, Go or Stop excepted.  Everything else (samples, budgets, the win
    bonus) is the same at every table."""

    name = "best"

    SETTINGS = ExpectimaxBot.SETTINGS + (
        Setting("network", "network", "switch", True,
                "search with the network's playouts where they measured stronger "
                "(2 players: standard, casual)"),
        Setting("blend", "blend", "switch", True,
                "blend each root move's value with the network's Q where that measured "
                "stronger (casual, 2 players)"),
    )

    def __init__(self, seed: int | None = None, network: bool = True, blend: bool = True,
                 **settings: Any):
        super().__init__(seed, **settings)
        self.network = bool(network)
        self.blend = bool(blend)

    def analyse(self, view: PlayerView | str) -> list[RankedMove]:
        """The search's ranking; at the tables of :data:`BLEND_TABLES` (unless
        ``network`` or ``blend`` is off) each value blended with the network's
        Q, but a Go/Stop decision's (as ``neural-search:gostop=search``)."""
        ranked = super().analyse(view)
        if not (self.network and self.blend):
            return ranked
        rules, fields = parse_view(view if isinstance(view, str) else view.to_str())
        preset = unchanged_preset(rules)  # None for a preset with a rule changed
        blend = 0.0 if preset is None else BLEND_TABLES.get((preset, fields["nplayers"]), 0.0)
        if blend == 0.0:
            return ranked
        from gostop_core.bots.neural import blend_with_network
        return blend_with_network(ranked, rules, fields, None, blend, gostop="search")

    def search_options(self, rules: Rules, fields: dict) -> dict[str, Any]:
        players = fields["nplayers"]
        if not (self.network and plays_network(rules, players)):
            return {}
        # imported here: the network's compiled module imports gostop_core.bots
        from gostop_core.bots.neural import NeuralSearchBot, network_playout_options
        return network_playout_options(rules, players, cut=NeuralSearchBot.CUT)
