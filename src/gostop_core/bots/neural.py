"""The ``neural`` bot: the move of the highest Q(state, action) of the network
trained by Deep Monte-Carlo self-play (:mod:`gostop_core.neural`), no search.

It decides from its seat's view alone: the network's inputs are built from the
view's public state and the seat's own hand (:func:`~gostop_core.neural.selfplay.view_inputs`),
so two games that differ only in cards the seat cannot see get the same move.
One decision is one small matrix product (well under a millisecond).  The
inputs have room for 3 seats: at a 4-player table the bot plays the greedy
bot's move.

Settings by name: ``neural:weights=PATH`` (default: the network shipped for the
table's preset, 2-player casual or 2-player standard, else the casual one) and ``gostop=q`` (the default: Go or
Stop by Q too) or ``gostop=search`` (Go or Stop by the ``expectimax-v1``
search, every other move by Q: measures the Go/Stop decision apart).

The ``neural-search`` bot (:class:`NeuralSearchBot`) is the search on top of the
network: the expectimax search over sampled deals of the unseen cards, every
root move valued on the same deals, with the network (in C,
:class:`~gostop_core.neural.playout.NeuralPlayout`) playing the playouts'
moves for every seat and, with ``cut`` K, valuing a playout after K turns by
its Q instead of playing it to the end.

The ``neural-ismcts`` bot (:class:`NeuralIsmctsBot`) is the information-set
tree search (:mod:`gostop_core.bots.ismcts`) with the same network as its
playout policy and value: a tree keyed by what the bot has seen, so its own
later decisions are planned over information sets rather than per sampled deal.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from gostop_core.bots.base import Bot
from gostop_core.bots.expectimax import ExpectimaxBot
from gostop_core.bots.ismcts import MAX_ITERATIONS
from gostop_core.bots.mcts import IsmctsBot
from gostop_core.bots.learned import observed_decisions
from gostop_core.bots.search import MAX_CUT, MAX_WORLDS
from gostop_core.bots.settings import Setting, settings_from_spec
from gostop_core.bots.simple import GreedyBot
from gostop_core.game import PlayerView
from gostop_core.moves import Move, RankedMove
from gostop_core.neural.network import Network, load_network, neural_weights, shipped_weights
from gostop_core.neural.playout import NeuralOpponentModel, NeuralPlayout
from gostop_core.rules import Rules
from gostop_core.neural.selfplay import view_inputs

#: Seats the network's inputs describe (2 and 3 players).
NN_SEATS = 3
from gostop_core.notation import parse_view

__all__ = ["NeuralBot", "NeuralSearchBot", "NeuralIsmctsBot", "blend_with_network",
           "is_gostop_decision", "neural_from_spec", "neural_search_from_spec", "neural_ismcts_from_spec", "NEURAL_KEYS"]

#: ``neural:key=value`` settings and the NeuralBot argument each sets.
NEURAL_KEYS = {"weights": "weights", "gostop": "gostop", "bonus": "bonus"}
_GOSTOP_CHOICES = ("q", "search")
_BONUS_CHOICES = ("q", "bank")
#: How ``neural-search`` with a blend decides Go or Stop: on the blended values
#: too, or on the search's alone (the blend then weighs only the other decisions).
_BLEND_GOSTOP_CHOICES = ("blend", "search")

_NETWORKS: dict[str | None, Network] = {}
_PLAYOUTS: dict[str | None, NeuralPlayout] = {}
_CAPSULES: dict[str, Any] = {}


def _network(path: str | None) -> Network:
    """The validated network of ``path`` (read once per process)."""
    if path not in _NETWORKS:
        _NETWORKS[path] = load_network(path)
    return _NETWORKS[path]


def _playout(path: str | None) -> NeuralPlayout:
    """The network of ``path`` in C (built once per process; read-only, so
    every search may share it)."""
    if path not in _PLAYOUTS:
        _PLAYOUTS[path] = NeuralPlayout(_network(path))
    return _PLAYOUTS[path]


def _capsule(path: str) -> Any:
    """The search's ``PlayoutModel`` capsule of :func:`_playout` (one per
    process and file, shared as the model is)."""
    if path not in _CAPSULES:
        _CAPSULES[path] = _playout(path).capsule()
    return _CAPSULES[path]


def _search_weights(weights: str | None, rules: Rules, players: int) -> str:
    """The network file a search plays: ``weights``, else the table's shipped
    network (:func:`~gostop_core.neural.network.shipped_weights`)."""
    return weights if weights is not None else str(shipped_weights(rules, players))


def network_playout_options(rules: Rules, players: int, weights: str | None = None, *,
                            cut: int, own: bool = True, others: bool = True,
                            sampled_flips: bool = True) -> dict[str, Any]:
    """The ``search_fields`` keywords of a search whose playouts the network
    plays (``weights``, default the table's shipped network): the bot's own
    moves (``own``), the other seats' (``others``), each playout valued after
    ``cut`` turns; used by ``neural-search`` and by ``best`` where it plays them."""
    path = _search_weights(weights, rules, players)
    return {"model": _capsule(path), "model_own": own, "model_others": others,
            "cutoff": cut, "sampled_flips": sampled_flips}


def is_gostop_decision(ranked: list[RankedMove]) -> bool:
    """Whether a ranking's moves are a Go/Stop decision's."""
    return any(r.move.kind in ("go", "stop") for r in ranked)


def blend_with_network(ranked: list[RankedMove], rules: Rules, fields: dict, weights: str | None,
                       blend: float, gostop: str = "blend") -> list[RankedMove]:
    """A search's ranking of a view's moves (parsed ``rules`` and ``fields``)
    with each value ``(1 - blend) * the search's + blend * the network's Q``
    (``weights``, default the table's shipped network), ranked by it: the
    moves searched longest first, as the search ranks them, then the best.
    With ``gostop="search"`` a Go/Stop decision's ranking is returned as it
    is (docs/strength.md, round 20: the blend's gain is in the other decisions)."""
    if gostop not in _BLEND_GOSTOP_CHOICES:
        raise ValueError(f"gostop must be one of {', '.join(_BLEND_GOSTOP_CHOICES)}, got {gostop!r}")
    if gostop == "search" and is_gostop_decision(ranked):
        return ranked
    codes, state, actions = view_inputs(rules, fields)
    path = _search_weights(weights, rules, fields["nplayers"])
    q = dict(zip(codes, (float(v) for v in _network(path).q_values(state, actions))))
    blended = [replace(r, value=(1.0 - blend) * r.value + blend * q[r.move.code]) for r in ranked]
    return sorted(blended, key=lambda r: (-r.samples, -r.value))


class NeuralBot(Bot):
    """Argmax of the network's Q over the legal moves; see the module docstring."""

    name = "neural"

    #: The settings (gostop_core.bots.settings): ``neural:key=value`` specifications
    #: and the options ``gostop engine`` offers.  Neither is live: the network is
    #: loaded and the search built when the bot is.
    SETTINGS = (
        Setting("weights", "weights", "path", None,
                "network weights file (.npz of gostop train-neural); default: the shipped "
                "network of the table's preset (2- and 3-player casual, 2-player "
                "standard), else casual",
                live=False),
        Setting("gostop", "gostop", "choice", "q",
                "Go/Stop by the network's Q (q) or by the expectimax-v1 search (search)",
                choices=_GOSTOP_CHOICES, live=False),
        Setting("bonus", "bonus", "choice", "q",
                "a bonus card in hand: as the network's Q ranks it (q), or banked at once "
                "(bank)", choices=_BONUS_CHOICES, live=False),
    )

    def __init__(self, seed: int | None = None, weights: str | None = None, gostop: str = "q",
                 search_settings: dict[str, Any] | None = None, bonus: str = "q"):
        if gostop not in _GOSTOP_CHOICES:
            raise ValueError(f"neural gostop must be one of {', '.join(_GOSTOP_CHOICES)}, "
                             f"got {gostop!r}")
        if bonus not in _BONUS_CHOICES:
            raise ValueError(f"neural bonus must be one of {', '.join(_BONUS_CHOICES)}, "
                             f"got {bonus!r}")
        self.bonus = bonus
        self.seed = seed      # only the search of gostop=search samples
        self.weights = weights
        self.gostop = gostop
        self.network = _network(weights)
        # the search of gostop=search (the registry gives the expectimax-v1 settings)
        self.search_settings = dict(search_settings or {})
        self._search: Bot | None = None
        self._greedy = GreedyBot(seed)

    def network_for(self, rules: Rules, players: int) -> Network:
        """The network this bot plays at a table of ``rules`` and ``players``: its
        ``weights``, or without them the shipped network of that preset (2-player
        casual and standard, its own: :data:`~gostop_core.neural.network.NEURAL_WEIGHTS`;
        3-player casual, the searches'), else the casual one."""
        if self.weights is not None:
            return self.network
        return _network(str(neural_weights(rules, players)))

    def q_values(self, view: PlayerView | str) -> list[tuple[Move, float]]:
        """Every legal move of the view's seat (the one to move) with its Q in
        points, in generation order."""
        text = view if isinstance(view, str) else view.to_str()
        rules, fields = parse_view(text)
        codes, state, actions = view_inputs(rules, fields)
        q = self.network_for(rules, fields["nplayers"]).q_values(state, actions)
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
        if self.bonus == "bank":
            # banking costs no turn (a card is drawn in its place): the network
            # undervalues it (docs/strength.md, round 8)
            banked = next((m for m in legal if m.kind == "bonus"), None)
            if banked is not None:
                return banked
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


class NeuralSearchBot(ExpectimaxBot):
    """The expectimax search with the network as its playout policy and value
    (the registry gives it the ``expectimax-v1`` search settings); see the
    module docstring.  At a 4-player table (beyond the network's inputs) the
    playouts are the greedy policy's."""

    name = "neural-search"

    #: Playout turns before the network's value: the setting that measured best
    #: on the tuning deals (docs/strength.md, round 6).
    CUT = 1

    #: The opponent model's temperature, in points of Q.  The true deal ranks
    #: about as high among random ones at 1 to 8 points, and 4 is the one first
    #: played on the tuning deals (docs/strength.md, round 21).
    TEMPERATURE = 4.0

    #: The settings (gostop_core.bots.settings): the search's and the network's.
    SETTINGS = tuple(s for s in ExpectimaxBot.SETTINGS
                     if s.name in ("depth", "samples", "win", "halving", "time", "stop",
                                "consistent")) + (
        Setting("own", "own", "switch", True, "the network plays the bot's own playout moves"),
        Setting("others", "others", "switch", True,
                "the network plays the other seats' playout moves"),
        Setting("cut", "cut", "int", CUT, "playout turns before the network's value "
                "(0: to the end)", 0, MAX_CUT),
        Setting("flips", "flips", "choice", "sampled",
                "a stock flip turns the sample's own card (sampled) or every card (all)",
                choices=("sampled", "all")),
        Setting("blend", "blend", "float", 0.0,
                "weight of the network's Q in each root move's value (0: the search's "
                "value alone, 1: Q alone)", 0.0, 1.0),
        Setting("gostop", "gostop", "choice", "blend",
                "with a blend, Go/Stop by the blended values (blend) or by the search's "
                "alone (search)", choices=_BLEND_GOSTOP_CHOICES),
        Setting("worlds", "worlds", "int", 1,
                "deals drawn per sample by the opponents' observed moves under the "
                "network (1: off)", 1, MAX_WORLDS, cap=8),
        Setting("temp", "temperature", "float", TEMPERATURE,
                "the opponent model's softmax temperature over Q, in points",
                0.01, 100.0, live=False),
        Setting("weights", "weights", "path", None,
                "network weights file (default: as for neural)",
                live=False),
    )

    def __init__(self, seed: int | None = None, weights: str | None = None,
                 own: bool = True, others: bool = True, cut: int | None = None,
                 flips: str = "sampled", blend: float = 0.0, gostop: str = "blend",
                 worlds: int = 1, temperature: float | None = None,
                 **settings: Any):
        super().__init__(seed, **settings)
        self.worlds = int(worlds)
        if not 1 <= self.worlds <= MAX_WORLDS:
            raise ValueError(f"neural-search worlds must be 1..{MAX_WORLDS}, got {worlds}")
        self.temperature = self.TEMPERATURE if temperature is None else float(temperature)
        if not 0.0 < self.temperature < float("inf"):
            raise ValueError(f"neural-search temp must be a positive number of points, "
                             f"got {temperature}")
        self._seen: list[tuple[str, int]] = []
        self._seen_turns = 0
        self._opponents: dict[str, NeuralOpponentModel] = {}
        self.weights = weights
        self.blend = float(blend)
        if not 0.0 <= self.blend <= 1.0:
            raise ValueError(f"neural-search blend must be 0..1, got {blend}")
        if gostop not in _BLEND_GOSTOP_CHOICES:
            raise ValueError(f"neural-search gostop must be blend or search, got {gostop!r}")
        self.gostop = gostop
        self.own = bool(own)
        self.others = bool(others)
        self.cut = self.CUT if cut is None else int(cut)
        if not 0 <= self.cut <= MAX_CUT:
            raise ValueError(f"neural-search cut must be 0..{MAX_CUT} turns, got {cut}")
        if flips not in ("sampled", "all"):
            raise ValueError(f"neural-search flips must be sampled or all, got {flips!r}")
        self.flips = flips
        if weights is not None:
            _playout(weights)  # a file that is no network is refused when the bot is made

    def analyse(self, view: PlayerView | str) -> list[RankedMove]:
        """The search's ranking (:meth:`ExpectimaxBot.analyse`); with ``blend``
        B > 0 each move's value is ``(1 - B) * the search's + B * the
        network's Q`` from the same view, and the moves are ranked by it (the
        moves searched longest first, as the search ranks them); with
        ``gostop="search"`` a Go/Stop decision keeps the search's values."""
        ranked = super().analyse(view)
        if self.blend == 0.0:
            return ranked
        text = view if isinstance(view, str) else view.to_str()
        rules, fields = parse_view(text)
        if fields["nplayers"] > NN_SEATS:
            return ranked
        return blend_with_network(ranked, rules, fields, self.weights, self.blend, self.gostop)

    # the opponent model's observations (worlds > 1) ---------------------------
    def start_hand(self, view: PlayerView) -> None:
        self._seen = []

    def observe(self, view: PlayerView, move: Move) -> None:
        """Another seat played ``move`` when this bot's view was ``view``.  A
        view of fewer turns than the last one seen starts another hand (for a
        caller that does not call :meth:`start_hand`)."""
        if self.worlds > 1 and view.to_move != view.seat:
            if self._seen and view.turns < self._seen_turns:
                self._seen = []
            self._seen_turns = view.turns
            self._seen.append((view.to_str(), move.code))

    def search_options(self, rules: Rules, fields: dict) -> dict[str, Any]:
        sampled = self.flips == "sampled"
        if fields["nplayers"] > NN_SEATS:
            return {"sampled_flips": sampled}
        options = network_playout_options(rules, fields["nplayers"], self.weights, cut=self.cut,
                                          own=self.own, others=self.others,
                                          sampled_flips=sampled)
        if self.worlds > 1:
            # each sample drawn among `worlds` deals by the likelihood of the
            # opponents' observed moves under the same network
            path = _search_weights(self.weights, rules, fields["nplayers"])
            if path not in self._opponents:
                self._opponents[path] = NeuralOpponentModel(_playout(path), self.temperature)
            model = self._opponents[path]
            model.set_observations(rules, observed_decisions(self._seen, fields))
            options["model"] = model.capsule()
            options["worlds"] = self.worlds
        return options


def neural_search_from_spec(spec: str, seed: int | None,
                            base: dict[str, Any] | None = None) -> NeuralSearchBot:
    """A NeuralSearchBot from ``key=value`` pairs separated by commas (its
    :data:`~NeuralSearchBot.SETTINGS`), over the search settings ``base``."""
    return NeuralSearchBot(seed, **settings_from_spec(
        "neural-search", spec, NeuralSearchBot.SETTINGS, "neural-search:samples=64,cut=4", base))


class NeuralIsmctsBot(IsmctsBot):
    """The information-set tree search with the network as its playout policy:
    the other seats' moves in the tree and in the playouts, the bot's own
    playout moves, the move a new node of its own tries first (and the one
    ``prior`` favours) are the network's; a playout is valued by the network
    after ``cut`` turns.  At a 4-player table (beyond the network's inputs)
    it is the greedy-playout ``ismcts``."""

    name = "neural-ismcts"

    #: Iterations a decision by default: about 1.4 times the CPU time of
    #: ``expectimax-v1``'s 256 samples at 2-player casual (docs/strength.md, round 19).
    ITERATIONS = 1000
    #: Playout turns before the network's value.
    CUT = 1

    SETTINGS = (Setting("iterations", "iterations", "int", ITERATIONS, "deals played a decision",
                        1, MAX_ITERATIONS, cap=100_000),) + tuple(
        s for s in IsmctsBot.SETTINGS if s.name != "iterations") + (
        Setting("own", "own", "switch", True, "the network plays the bot's own playout moves"),
        Setting("others", "others", "switch", True,
                "the network plays the other seats' moves"),
        Setting("cut", "cut", "int", CUT, "playout turns before the network's value "
                "(0: to the end)", 0, MAX_CUT),
        Setting("weights", "weights", "path", None,
                "network weights file (default: as for neural)", live=False),
    )

    def __init__(self, seed: int | None = None, weights: str | None = None,
                 own: bool = True, others: bool = True, cut: int | None = None,
                 **settings: Any):
        super().__init__(seed, **settings)
        self.weights = weights
        self.own = bool(own)
        self.others = bool(others)
        self.cut = self.CUT if cut is None else int(cut)
        if not 0 <= self.cut <= MAX_CUT:
            raise ValueError(f"neural-ismcts cut must be 0..{MAX_CUT} turns, got {cut}")
        if weights is not None:
            _playout(weights)  # a file that is no network is refused when the bot is made

    def search_options(self, rules: Rules, fields: dict) -> dict[str, Any]:
        if fields["nplayers"] > NN_SEATS:
            return {}
        options = network_playout_options(rules, fields["nplayers"], self.weights, cut=self.cut,
                                          own=self.own, others=self.others)
        options.pop("sampled_flips")
        return options


def neural_ismcts_from_spec(spec: str, seed: int | None) -> NeuralIsmctsBot:
    """A NeuralIsmctsBot from ``key=value`` pairs separated by commas (its
    :data:`~NeuralIsmctsBot.SETTINGS`)."""
    return NeuralIsmctsBot(seed, **settings_from_spec(
        "neural-ismcts", spec, NeuralIsmctsBot.SETTINGS, "neural-ismcts:iterations=500,cut=1"))
