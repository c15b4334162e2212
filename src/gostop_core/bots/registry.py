"""The built-in bots by name: ``random``, ``greedy``, ``expectimax``,
``expectimax-v1``, ``best``, ``ismcts`` and their ``name:key=value`` settings."""

from __future__ import annotations

from typing import Any

from gostop_core.bots.base import Bot
from gostop_core.bots.expectimax import ExpectimaxBot
from gostop_core.bots.learned import learned_from_spec
from gostop_core.bots.mcts import IsmctsBot
from gostop_core.bots.simple import GreedyBot, RandomBot

__all__ = ["BOT_NAMES", "SETTINGS_PREFIXES", "BEST_SETTINGS", "EXPECTIMAX_V1_SETTINGS",
           "make_builtin_bot"]


# ---------------------------------------------------------------- factory and runner

#: Names accepted by :func:`make_bot`.
BOT_NAMES = ("random", "greedy", "expectimax", "expectimax-v1", "best", "ismcts", "learned",
             "neural")
#: Prefixes of the built-in bots that take ``key=value`` settings.
SETTINGS_PREFIXES = ("expectimax:", "best:", "ismcts:", "learned:", "neural:")

#: ``expectimax-v1``: the expectimax bot as first released (depth 1, 256
#: samples, greedy playouts, win bonus 2), kept as a fixed baseline.
EXPECTIMAX_V1_SETTINGS: dict[str, Any] = {"depth": 1, "samples": 256, "leaf": "rollout",
                                          "win_bonus": 2.0, "consistent": False}
#: ``best``: the strongest settings measured (docs/strength.md).  Still those of
#: ``expectimax-v1``: the planned Go/Stop with the early stop
#: (``expectimax:plan=4,stop=2.5``) did not measure stronger.
BEST_SETTINGS: dict[str, Any] = dict(EXPECTIMAX_V1_SETTINGS)


#: Settings of ``expectimax:key=value,...`` and the ExpectimaxBot argument each sets.
_EXPECTIMAX_KEYS = {"depth": "depth", "samples": "samples", "leaf": "leaf", "win": "win_bonus",
                    "halving": "halving", "time": "time_ms", "stop": "stop_z", "plan": "plan",
                    "consistent": "consistent"}
#: Settings of ``ismcts:key=value,...`` and the IsmctsBot argument each sets.
_ISMCTS_KEYS = {"iterations": "iterations", "c": "c", "time": "time_ms", "win": "win_bonus",
                "opponents": "opponents", "loop": "loop", "nodes": "nodes", "prior": "prior",
                "widen": "widen"}
#: Settings read as decimal numbers, and as words (the others are whole numbers).
_FLOAT_KEYS = ("win", "time", "stop", "c", "prior", "widen")
_WORD_KEYS = ("leaf", "opponents", "loop")
#: Settings with a few values, and those values.
_SWITCH_KEYS = {"halving": ("0", "1", "2"), "consistent": ("0", "1")}


def _settings_from_spec(kind: str, spec: str, keys: dict[str, str], example: str,
                        base: dict[str, Any] | None = None) -> dict[str, Any]:
    """The keyword arguments of ``key=value`` pairs separated by commas (the
    ``keys`` of bot ``kind``), over the settings ``base``."""
    kwargs: dict[str, Any] = dict(base or {})
    for item in spec.split(","):
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or key not in keys or not value:
            raise ValueError(f"bad {kind} setting {item!r}: use key=value with key one of "
                             f"{', '.join(keys)} (e.g. {example})")
        try:
            kwargs[keys[key]] = value if key in _WORD_KEYS else (
                float(value) if key in _FLOAT_KEYS else int(value))
            if key in _SWITCH_KEYS and value not in _SWITCH_KEYS[key]:
                raise ValueError
        except ValueError:
            raise ValueError(f"bad {kind} setting {item!r}: {key} needs "
                             f"{' or '.join(_SWITCH_KEYS[key]) if key in _SWITCH_KEYS else 'a number'}") from None
    return kwargs


def _expectimax_from_spec(spec: str, seed: int | None,
                          base: dict[str, Any] | None = None) -> "ExpectimaxBot":
    """``D`` (a depth) or ``key=value`` pairs separated by commas, over the
    settings ``base`` (default: the ExpectimaxBot defaults)."""
    if spec.isdigit():
        return ExpectimaxBot(seed, **dict(base or {}, depth=int(spec)))
    return ExpectimaxBot(seed, **_settings_from_spec("expectimax", spec, _EXPECTIMAX_KEYS,
                                                     "expectimax:depth=2,samples=64", base))



def make_builtin_bot(name: str, seed: int | None = None) -> Bot:
    """A built-in bot by its (lower-case) name, as :func:`make_bot` describes."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    if name == "expectimax":
        return ExpectimaxBot(seed)
    if name == "expectimax-v1":
        return ExpectimaxBot(seed, **EXPECTIMAX_V1_SETTINGS)
    if name == "best":
        return ExpectimaxBot(seed, **BEST_SETTINGS)
    if name.startswith("expectimax:"):
        return _expectimax_from_spec(name[len("expectimax:"):], seed)
    if name.startswith("best:"):
        return _expectimax_from_spec(name[len("best:"):], seed, BEST_SETTINGS)
    if name == "ismcts":
        return IsmctsBot(seed)
    if name.startswith("ismcts:"):
        return IsmctsBot(seed, **_settings_from_spec("ismcts", name[len("ismcts:"):], _ISMCTS_KEYS,
                                                     "ismcts:iterations=4000,c=0.7"))
    if name == "learned" or name.startswith("learned:"):
        return learned_from_spec(name[len("learned:"):], seed, EXPECTIMAX_V1_SETTINGS)
    if name == "neural" or name.startswith("neural:"):
        # imported here: the network's C module loads gostop_core.bots itself
        from gostop_core.bots.neural import neural_from_spec
        return neural_from_spec(name[len("neural:"):], seed, EXPECTIMAX_V1_SETTINGS)
    raise ValueError(f"unknown bot {name!r}; choose one of: {', '.join(BOT_NAMES)}")


