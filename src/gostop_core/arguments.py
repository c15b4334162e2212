"""Type checks at the door of the public API.

The compiled core converts what it is given to C integers, and would take
``2.0`` for 2 or ``True`` for 1 without a word; these helpers refuse such
arguments first, with an :class:`~gostop_core.errors.ArgumentTypeError` that
names the argument, so a wrong call fails clearly and changes nothing."""

from __future__ import annotations

import operator

from gostop_core.errors import ArgumentTypeError, RulesTypeError
from gostop_core.rules import PRESETS, Rules


def whole_number(value: object, name: str,
                 error: type[ArgumentTypeError] = ArgumentTypeError) -> int:
    """``value`` as an ``int``: an ``int`` or anything with ``__index__`` (a numpy
    integer), but not a ``bool``, a float or a string (``error`` otherwise)."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise error(f"{name} must be a whole number (int), got {type(value).__name__} {value!r}")
    return operator.index(value)  # type: ignore[arg-type]


def seat_number(value: object, players: int, name: str = "seat") -> int:
    """A seat of a ``players``-player game: a whole number ``0 <= value < players``
    (``IndexError`` for a seat that does not exist)."""
    seat = whole_number(value, name)
    if not 0 <= seat < players:
        raise IndexError(f"no seat {seat} in a {players}-player game")
    return seat


# Rules objects are immutable, so one object per preset name serves every game
# (building one from its name validates every field: microseconds a deal).
_PRESET_RULES: dict[str, Rules] = {}


def rules_of(rules: object) -> Rules:
    """A :class:`Rules` from a Rules object or a preset name."""
    if isinstance(rules, Rules):
        return rules
    if not isinstance(rules, str):
        raise RulesTypeError(
            f"rules must be a Rules object or a preset name ({', '.join(PRESETS)}), "
            f"got {type(rules).__name__} {rules!r}")
    cached = _PRESET_RULES.get(rules)
    if cached is None:
        cached = Rules(rules)  # an unknown name raises RulesError here
        _PRESET_RULES[rules] = cached
    return cached
