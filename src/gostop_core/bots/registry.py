"""The built-in bots by name: ``random``, ``greedy``, ``expectimax``,
``expectimax-v1``, ``best``, ``ismcts`` and their ``name:key=value`` settings."""

from __future__ import annotations

from typing import Any

from gostop_core.bots.base import Bot
from gostop_core.bots.best import BestBot
from gostop_core.bots.expectimax import ExpectimaxBot
from gostop_core.bots.learned import LearnedBot, learned_from_spec
from gostop_core.bots.mcts import IsmctsBot
from gostop_core.bots.settings import settings_from_spec
from gostop_core.bots.simple import GreedyBot, RandomBot

__all__ = ["BOT_NAMES", "SETTINGS_PREFIXES", "BOT_CLASSES", "BEST_SETTINGS",
           "EXPECTIMAX_V1_SETTINGS", "make_builtin_bot", "is_builtin_spec", "builtin_spec_key",
           "builtin_classes"]


# ---------------------------------------------------------------- factory and runner

#: Names accepted by :func:`make_bot`.
BOT_NAMES = ("random", "greedy", "expectimax", "expectimax-v1", "best", "ismcts", "learned",
             "neural", "neural-search", "neural-ismcts")
#: Prefixes of the built-in bots that take ``key=value`` settings.
SETTINGS_PREFIXES = ("expectimax:", "best:", "ismcts:", "learned:", "neural:", "neural-search:",
                    "neural-ismcts:")
#: ``expectimax-v1``: the expectimax bot as first released (depth 1, 256
#: samples, greedy playouts, win bonus 2), kept as a fixed baseline.
EXPECTIMAX_V1_SETTINGS: dict[str, Any] = {"depth": 1, "samples": 256, "leaf": "rollout",
                                          "win_bonus": 2.0, "consistent": False}
#: ``best``: the strongest search settings measured (docs/strength.md).  Still
#: those of ``expectimax-v1``: the planned Go/Stop with the early stop
#: (``expectimax:plan=4,stop=2.5``) did not measure stronger.  At the tables of
#: :data:`gostop_core.bots.best.NETWORK_TABLES` (2 players, standard and casual)
#: ``best`` plays them with the network's playouts, and at 2-player casual blends
#: its values with the network's Q (:class:`~gostop_core.bots.best.BestBot`).
BEST_SETTINGS: dict[str, Any] = dict(EXPECTIMAX_V1_SETTINGS)
#: ``neural-search``: the ``expectimax-v1`` search with the network's playouts, on
#: the setting that measured best on the tuning deals (docs/strength.md, round 6).
NEURAL_SEARCH_SETTINGS: dict[str, Any] = dict(EXPECTIMAX_V1_SETTINGS, samples=128)

#: The class of each built-in name (its ``SETTINGS`` table: docs/bots.md).
BOT_CLASSES: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot,
                                "expectimax": ExpectimaxBot, "expectimax-v1": ExpectimaxBot,
                                "best": BestBot, "ismcts": IsmctsBot,
                                "learned": LearnedBot}


#: The settings a built-in name starts from, over its class's defaults.
BOT_DEFAULTS: dict[str, dict[str, Any]] = {"expectimax-v1": EXPECTIMAX_V1_SETTINGS,
                                           "best": BEST_SETTINGS,
                                           "learned": EXPECTIMAX_V1_SETTINGS,
                                           "neural-search": NEURAL_SEARCH_SETTINGS}


def builtin_classes() -> dict[str, type]:
    """:data:`BOT_CLASSES` and the ``neural`` bot's class, which is imported only
    when asked for (it loads the network's compiled module and numpy)."""
    from gostop_core.bots.neural import NeuralBot, NeuralIsmctsBot, NeuralSearchBot
    return dict(BOT_CLASSES, neural=NeuralBot, **{"neural-search": NeuralSearchBot,
                                                  "neural-ismcts": NeuralIsmctsBot})


def builtin_spec_key(spec: str) -> str:
    """``spec`` as a built-in name is looked up: stripped, the name and each
    setting's key lower-cased, the values as written (a ``weights`` path keeps
    its case: ``neural:WEIGHTS=Run/A.npz`` is ``neural:weights=Run/A.npz``)."""
    name, sep, rest = spec.strip().partition(":")
    if not sep:
        return name.lower()
    items = []
    for item in rest.split(","):
        key, eq, value = item.partition("=")
        items.append(f"{key.strip().lower()}={value.strip()}" if eq else item.strip().lower())
    return f"{name.strip().lower()}:{','.join(items)}"


def is_builtin_spec(spec: str) -> bool:
    """Whether ``spec`` names a built-in bot (``greedy``, ``best:samples=64``,
    ...; any case), before its settings are checked."""
    key = builtin_spec_key(spec)
    return key in BOT_NAMES or key.startswith(SETTINGS_PREFIXES)



def _expectimax_from_spec(spec: str, seed: int | None,
                          base: dict[str, Any] | None = None,
                          cls: type[ExpectimaxBot] = ExpectimaxBot) -> ExpectimaxBot:
    """``D`` (a depth) or ``key=value`` pairs separated by commas, over the
    settings ``base`` (default: the class's defaults), for ``cls`` (the
    expectimax bot or ``best``'s)."""
    if spec.isdigit():
        return cls(seed, **dict(base or {}, depth=int(spec)))
    return cls(seed, **settings_from_spec(cls.name, spec, cls.SETTINGS,
                                          f"{cls.name}:depth=2,samples=64", base))



def make_builtin_bot(name: str, seed: int | None = None) -> Bot:
    """A built-in bot by its name as :func:`builtin_spec_key` writes it (the
    name and the settings' keys lower-case), as :func:`make_bot` describes."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    if name == "expectimax":
        return ExpectimaxBot(seed)
    if name == "expectimax-v1":
        return ExpectimaxBot(seed, **EXPECTIMAX_V1_SETTINGS)
    if name == "best":
        return BestBot(seed, **BEST_SETTINGS)
    if name.startswith("expectimax:"):
        return _expectimax_from_spec(name[len("expectimax:"):], seed)
    if name.startswith("best:"):
        return _expectimax_from_spec(name[len("best:"):], seed, BEST_SETTINGS, BestBot)
    if name == "ismcts":
        return IsmctsBot(seed)
    if name.startswith("ismcts:"):
        return IsmctsBot(seed, **settings_from_spec("ismcts", name[len("ismcts:"):],
                                                    IsmctsBot.SETTINGS,
                                                    "ismcts:iterations=4000,c=0.7"))
    if name == "learned" or name.startswith("learned:"):
        return learned_from_spec(name[len("learned:"):], seed, EXPECTIMAX_V1_SETTINGS)
    if name == "neural" or name.startswith("neural:"):
        # imported here: the network's C module loads gostop_core.bots itself
        from gostop_core.bots.neural import neural_from_spec
        return neural_from_spec(name[len("neural:"):], seed, EXPECTIMAX_V1_SETTINGS)
    if name == "neural-search" or name.startswith("neural-search:"):
        from gostop_core.bots.neural import neural_search_from_spec
        return neural_search_from_spec(name[len("neural-search:"):], seed, NEURAL_SEARCH_SETTINGS)
    if name == "neural-ismcts" or name.startswith("neural-ismcts:"):
        from gostop_core.bots.neural import neural_ismcts_from_spec
        return neural_ismcts_from_spec(name[len("neural-ismcts:"):], seed)
    raise ValueError(f"unknown bot {name!r}; choose one of: {', '.join(BOT_NAMES)}")


