"""The ``neural`` bot: the move of the highest Q(state, action) of the network
trained by Deep Monte-Carlo self-play (:mod:`gostop_core.neural`), no search.

It decides from its seat's view alone: the network's inputs are built from the
view's public state and the seat's own hand (:func:`~gostop_core.neural.selfplay.view_inputs`),
so two games that differ only in cards the seat cannot see get the same move.
One decision is one small matrix product (well under a millisecond).  The
inputs have room for 3 seats: at a 4-player table the bot plays the greedy
bot's move.

Settings by name: ``neural:weights=PATH`` (default: the weights shipped with the
package, trained for 2 players, casual) and ``gostop=q`` (the default: Go or
Stop by Q too) or ``gostop=search`` (Go or Stop by the ``expectimax-v1``
search, every other move by Q: measures the Go/Stop decision apart).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gostop_core.bots.base import Bot
from gostop_core.bots.settings import Setting, settings_from_spec
from gostop_core.bots.simple import GreedyBot
from gostop_core.game import PlayerView
from gostop_core.moves import Move
from gostop_core.neural.network import Network, load_network
from gostop_core.neural.selfplay import view_inputs

#: Seats the network's inputs describe (2 and 3 players).
NN_SEATS = 3
from gostop_core.notation import parse_view

__all__ = ["NeuralBot", "neural_from_spec", "NEURAL_KEYS"]

#: ``neural:key=value`` settings and the NeuralBot argument each sets.
NEURAL_KEYS = {"weights": "weights", "gostop": "gostop"}
_GOSTOP_CHOICES = ("q", "search")

_NETWORKS: dict[str | None, Network] = {}


def _network(path: str | None) -> Network:
    """The validated network of ``path`` (read once per process)."""
    if path not in _NETWORKS:
        _NETWORKS[path] = load_network(path)
    return _NETWORKS[path]


class NeuralBot(Bot):
    """Argmax of the network's Q over the legal moves; see the module docstring."""

    name = "neural"

    #: The settings (gostop_core.bots.settings): ``neural:key=value`` specifications
    #: and the options ``gostop engine`` offers.  Neither is live: the network is
    #: loaded and the search built when the bot is.
    SETTINGS = (
        Setting("weights", "weights", "path", None,
                "network weights file (.npz of gostop train-neural); default: the shipped "
                "2-player casual network", live=False),
        Setting("gostop", "gostop", "choice", "q",
                "Go/Stop by the network's Q (q) or by the expectimax-v1 search (search)",
                choices=_GOSTOP_CHOICES, live=False),
    )

    def __init__(self, seed: int | None = None, weights: str | None = None, gostop: str = "q",
                 search_settings: dict[str, Any] | None = None):
        if gostop not in _GOSTOP_CHOICES:
            raise ValueError(f"neural gostop must be one of {', '.join(_GOSTOP_CHOICES)}, "
                             f"got {gostop!r}")
        self.seed = seed      # only the search of gostop=search samples
        self.weights = weights
        self.gostop = gostop
        self.network = _network(weights)
        # the search of gostop=search (the registry gives the expectimax-v1 settings)
        self.search_settings = dict(search_settings or {})
        self._search: Bot | None = None
        self._greedy = GreedyBot(seed)

    def q_values(self, view: PlayerView | str) -> list[tuple[Move, float]]:
        """Every legal move of the view's seat (the one to move) with its Q in
        points, in generation order."""
        text = view if isinstance(view, str) else view.to_str()
        rules, fields = parse_view(text)
        codes, state, actions = view_inputs(rules, fields)
        q = self.network.q_values(state, actions)
        return [(Move.from_code(c), float(v)) for c, v in zip(codes, q)]

    def choose(self, view: PlayerView, legal: list[Move]) -> Move:
        if not legal:
            raise ValueError("no legal move to choose from")
        if len(legal) == 1:
            return legal[0]
        if self.gostop == "search" and any(m.kind in ("go", "stop") for m in legal):
            if self._search is None:
                from gostop_core.bots.expectimax import ExpectimaxBot
                self._search = ExpectimaxBot(self.seed, **self.search_settings)
            return self._search.choose(view, legal)
        if view.players > NN_SEATS:
            # the encoding has room for 3 seats: a 4-player table gets the greedy move
            return self._greedy.choose(view, legal)
        allowed = set(legal)
        scored = [(m, v) for m, v in self.q_values(view) if m in allowed]
        if not scored:
            return legal[0]
        best = int(np.argmax([v for _, v in scored]))   # ties: the first in generation order
        return scored[best][0]


def neural_from_spec(spec: str, seed: int | None,
                     search_settings: dict[str, Any] | None = None) -> NeuralBot:
    """A NeuralBot from ``key=value`` pairs separated by commas (NEURAL_KEYS);
    ``search_settings``: those of the search of ``gostop=search``."""
    kwargs = settings_from_spec("neural", spec, NeuralBot.SETTINGS,
                                "neural:weights=run/checkpoint.npz,gostop=search",
                                {"search_settings": search_settings})
    return NeuralBot(seed, **kwargs)
