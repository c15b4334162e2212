"""Round 27 prototype: `best` with the blend's Q from an ensemble of networks
(their Q averaged: one block-diagonal network), the playouts unchanged."""
from gostop_core.bots.best import BestBot, BLEND_TABLES
from gostop_core.bots.expectimax import ExpectimaxBot
from gostop_core.bots.registry import BEST_SETTINGS
from gostop_core.notation import parse_view
from gostop_core.rules import unchanged_preset

import os
# the ensemble's file: python scripts/neural_average.py src/gostop_core/neural/casual2-neural.npz
#   docs/data/round22-casual2-blend75.npz docs/data/round24-casual2-cut0-b50.npz
#   src/gostop_core/neural/casual2.npz --outputs --out ENSEMBLE.npz
ENSEMBLE = os.environ["ENSQ"]


class EnsembleQBest(BestBot):
    name = "best-ensq"

    def analyse(self, view):
        ranked = ExpectimaxBot.analyse(self, view)
        rules, fields = parse_view(view if isinstance(view, str) else view.to_str())
        preset = unchanged_preset(rules)
        blend = 0.0 if preset is None else BLEND_TABLES.get((preset, fields["nplayers"]), 0.0)
        if blend == 0.0:
            return ranked
        from gostop_core.bots.neural import blend_with_network
        return blend_with_network(ranked, rules, fields, ENSEMBLE, blend, gostop="search")


def ensq(seed=None):
    return EnsembleQBest(seed, **BEST_SETTINGS)
