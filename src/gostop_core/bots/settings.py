"""Each bot's settings, declared once: :class:`Setting` and the ``SETTINGS``
table of a bot class.

One table per bot class (name, kind, default, bounds, help, and the most a web
lobby may ask) gives every place that takes settings:

* the ``name:key=value,...`` specifications (:func:`settings_from_spec`,
  used by :mod:`gostop_core.bots.registry`);
* the options ``gostop engine`` announces and ``setoption`` changes
  (:func:`protocol_options`);
* the bounded settings a page may ask for (:func:`lobby_bounds`);
* the help text of the commands (:func:`settings_help`).

A setting's ``name`` is its key in a specification and its option's name;
``attribute`` is the bot's constructor keyword and attribute."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from gostop_core.protocol.wire import Option

__all__ = ["Setting", "KINDS", "settings_of", "settings_from_spec", "protocol_options",
           "lobby_bounds", "settings_help"]

#: The kinds of setting: a whole number, a decimal number, a switch (0 or 1 in
#: a specification, true or false as an option), a whole number among a few
#: ``choices``, a word among ``choices``, a file path (never from a page or
#: ``setoption``).
KINDS = ("int", "float", "switch", "level", "choice", "path")
#: The protocol option type of each kind (``path`` has none).
_OPTION_TYPES = {"int": "spin", "float": "float", "switch": "check", "level": "spin",
                 "choice": "combo"}


def _number(x: float) -> str:
    """A bound as written: whole numbers without a point or an exponent."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


@dataclass(frozen=True)
class Setting:
    """One setting of a bot class.  ``low``/``high`` bound a number (inclusive);
    ``choices`` are the values of a ``level`` or ``choice``; ``cap`` is the most
    a web lobby allows (None: up to ``high``); ``live`` says whether changing
    the attribute of a built bot takes effect (``setoption``)."""

    name: str
    attribute: str
    kind: str
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple = ()
    cap: float | None = None
    live: bool = True

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"setting {self.name}: kind must be one of {', '.join(KINDS)}")

    # ------------------------------------------------------------ values
    def bounds_text(self) -> str:
        """The values allowed, for messages and help (``1..1024``, ``0 or 1``, ...)."""
        if self.kind in ("level", "choice"):
            return " or ".join(str(c) for c in self.choices)
        if self.kind == "switch":
            return "0 or 1"
        if self.kind == "path":
            return "a file path"
        if self.low is None and self.high is None:
            return "a number"
        low = "" if self.low is None else _number(self.low)
        high = "" if self.high is None else _number(self.high)
        return f"{low}..{high}"

    def _in_bounds(self, value: float) -> bool:
        return ((self.low is None or value >= self.low)
                and (self.high is None or value <= self.high))

    def from_text(self, text: str) -> Any:
        """The value a specification writes (``samples=64``); raises ValueError
        saying what the setting needs."""
        text = text.strip()
        try:
            if self.kind == "int":
                value: Any = int(text)
            elif self.kind == "float":
                value = float(text)
                if not math.isfinite(value):
                    raise ValueError
            elif self.kind == "switch":
                if text not in ("0", "1"):
                    raise ValueError
                value = text == "1"
            elif self.kind == "level":
                value = int(text)
                if value not in self.choices:
                    raise ValueError
            elif self.kind == "choice":
                # any case, as the names are (a path is the one value kept as written)
                value = next((c for c in self.choices if c.lower() == text.lower()), None)
                if value is None:
                    raise ValueError
            else:
                if not text:
                    raise ValueError
                value = text
        except ValueError:
            raise ValueError(f"{self.name} needs {self._need()}, got {text!r}") from None
        if self.kind in ("int", "float") and not self._in_bounds(value):
            raise ValueError(f"{self.name} must be {self.bounds_text()}, got {text}")
        return value

    def _need(self) -> str:
        if self.kind == "int":
            return f"a whole number {self.bounds_text()}"
        if self.kind == "float":
            return f"a number {self.bounds_text()}"
        return self.bounds_text()

    def from_json(self, value: Any) -> Any:
        """The value of a typed protocol option (``setoption``): a number for
        ``int``/``float``/``level``, a boolean for a ``switch``, one of the words
        for a ``choice``; raises ValueError."""
        if self.kind == "switch":
            if not isinstance(value, bool):
                raise ValueError(f"{self.name} needs true or false, got {value!r}")
            return value
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise ValueError(f"{self.name} needs one of {', '.join(self.choices)}, "
                                 f"got {value!r}")
            return value
        if self.kind == "path":
            raise ValueError(f"{self.name} cannot be set here")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{self.name} needs a number, got {value!r}")
        if self.kind in ("int", "level"):
            if isinstance(value, float) and not value.is_integer():
                raise ValueError(f"{self.name} needs a whole number, got {value!r}")
            value = int(value)
            if self.kind == "level" and value not in self.choices:
                raise ValueError(f"{self.name} must be {self.bounds_text()}, got {value}")
        elif not math.isfinite(value):
            raise ValueError(f"{self.name} needs a finite number, got {value!r}")
        else:
            value = float(value)
        if self.kind in ("int", "float") and not self._in_bounds(value):
            raise ValueError(f"{self.name} must be {self.bounds_text()}, got {value!r}")
        return value

    # ------------------------------------------------------------ the places it goes
    def option(self, current: Any = None) -> Option | None:
        """The protocol option (None for a path or a setting that cannot change
        on a built bot), with the bot's ``current`` value as its default."""
        if self.kind == "path" or not self.live:
            return None
        value = self.default if current is None else current
        if self.kind == "switch":
            value = bool(value)
        elif self.kind in ("int", "level"):
            value = int(value)
        elif self.kind == "float":
            value = float(value)
        low, high = self.low, self.high
        if self.kind == "level":
            low, high = min(self.choices), max(self.choices)
        choices = tuple(self.choices) if self.kind == "choice" else ()
        return Option(self.name, _OPTION_TYPES[self.kind], value, low, high, choices)

    def lobby_range(self) -> tuple[Any, Any] | tuple[str, ...] | None:
        """What a web lobby may ask: ``(low, most)`` for a number, the choices
        for a word or level, (False, True) for a switch; None for a path."""
        if self.kind == "path":
            return None
        if self.kind in ("choice", "level"):
            return tuple(self.choices)
        if self.kind == "switch":
            return (False, True)
        most = self.high if self.cap is None else self.cap
        return (self.low, most)


def settings_of(bot_class: type) -> tuple[Setting, ...]:
    """The settings table of a bot class (empty for a bot with none)."""
    return tuple(getattr(bot_class, "SETTINGS", ()))


def settings_from_spec(kind: str, spec: str, settings: Sequence[Setting], example: str,
                       base: dict[str, Any] | None = None) -> dict[str, Any]:
    """The constructor keywords of ``key=value`` pairs separated by commas (the
    ``settings`` of bot ``kind``), over the keywords ``base``.  Raises
    ValueError naming the pair, with the keys allowed and an ``example``."""
    by_name = {s.name: s for s in settings}
    kwargs: dict[str, Any] = dict(base or {})
    if not spec.strip():
        return kwargs
    for item in spec.split(","):
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or key not in by_name or not value:
            raise ValueError(f"bad {kind} setting {item!r}: use key=value with key one of "
                             f"{', '.join(by_name)} (e.g. {example})")
        setting = by_name[key]
        try:
            kwargs[setting.attribute] = setting.from_text(value)
        except ValueError as exc:
            raise ValueError(f"bad {kind} setting {item!r}: {exc}") from None
    return kwargs


def protocol_options(bot: Any) -> dict[str, tuple[Option, Setting]]:
    """The options of a built bot for ``gostop engine`` (name -> (option, its
    setting)): every live setting of its class's table, the bot's current
    values as defaults."""
    out = {}
    for setting in settings_of(type(bot)):
        option = setting.option(getattr(bot, setting.attribute, None))
        if option is not None:
            out[setting.name] = (option, setting)
    return out


def lobby_bounds(bot_class: type) -> dict[str, Any]:
    """The settings a web lobby may offer for a bot class and what each may
    be (:meth:`Setting.lobby_range`); path settings are left out."""
    out = {}
    for setting in settings_of(bot_class):
        bounds = setting.lobby_range()
        if bounds is not None:
            out[setting.name] = bounds
    return out


def settings_help(kinds: Iterable[tuple[str, type]]) -> str:
    """Lines for a command's help: each bot name with its settings and their
    values, e.g. ``expectimax: depth 1..2, samples 1..1024, ...``."""
    lines = []
    for name, bot_class in kinds:
        table = settings_of(bot_class)
        if table:
            lines.append(f"{name}: " + ", ".join(f"{s.name} {s.bounds_text()}" for s in table))
    return "\n".join(lines)
