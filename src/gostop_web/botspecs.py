"""Which bots a page may seat.  A page names a bot of the registry
(:data:`gostop_core.bots.BOT_NAMES`) with settings inside the caps below; no
setting names a file.  Anything else (an outside ``cmd:`` program, a Python
file, a module, a plug-in, larger settings) is seated only when whoever
started the server named that exact specification with ``--bot``."""

from __future__ import annotations

from typing import Iterable

from gostop_core.bots import BOT_NAMES

__all__ = ["PAGE_BOTS", "SETTING_CAPS", "BotPolicy", "BotRefused"]

#: The bots a page may name (the registry's names).
PAGE_BOTS = tuple(BOT_NAMES)
#: Settings a page may give, by bot prefix: key -> (lowest, highest).  The caps
#: keep one move of a page's bot to a few seconds on a slow machine: depth 2
#: costs about 60 times depth 1 per sample, so it is allowed fewer samples.
SETTING_CAPS: dict[str, dict[str, tuple[float, float]]] = {
    "expectimax": {"depth": (1, 2), "samples": (1, 1024), "win": (0, 100),
                   "time": (0, 3000), "halving": (0, 2), "consistent": (0, 1)},
    "best": {"depth": (1, 2), "samples": (1, 1024), "win": (0, 100),
             "time": (0, 3000), "halving": (0, 2), "consistent": (0, 1)},
    "ismcts": {"iterations": (1, 100_000), "c": (0, 10), "win": (0, 100),
               "time": (0, 3000)},
}
#: At depth 2 a page may ask for at most this many samples.
DEPTH2_SAMPLES = 128
#: Word-valued settings a page may give, and their values.
SETTING_WORDS = {"leaf": ("rollout", "estimate")}


class BotRefused(ValueError):
    """A bot specification a page may not seat (its text says why)."""


class BotPolicy:
    """The lobby's rule for bot specifications; ``approved`` are the exact
    specifications given with ``gostop serve --bot``."""

    def __init__(self, approved: Iterable[str] = ()):
        self.approved = tuple(dict.fromkeys(b.strip() for b in approved if b.strip()))

    def offered(self) -> list[str]:
        """The names the lobby lists."""
        return list(PAGE_BOTS) + [b for b in self.approved if b not in PAGE_BOTS]

    def check(self, spec: str) -> str:
        """``spec`` as it will be made (stripped), or :class:`BotRefused`."""
        spec = spec.strip()
        if spec in self.approved or spec.lower() in PAGE_BOTS:
            return spec if spec in self.approved else spec.lower()
        prefix, sep, settings = spec.partition(":")
        prefix = prefix.lower()
        if not sep or prefix not in SETTING_CAPS:
            raise BotRefused(f"bot {spec!r} is not offered by this server: choose one of "
                             f"{', '.join(self.offered())} (a program, a file or a plug-in "
                             "plays only when the server is started with --bot SPEC)")
        caps = SETTING_CAPS[prefix]
        values: dict[str, float] = {}
        for item in settings.split(","):
            key, eq, value = (part.strip() for part in item.partition("="))
            if not eq or not value:
                raise BotRefused(f"bad setting {item!r}: use key=value")
            if key in SETTING_WORDS and prefix != "ismcts":
                if value not in SETTING_WORDS[key]:
                    raise BotRefused(f"{key} is one of {', '.join(SETTING_WORDS[key])}")
                continue
            if key not in caps:
                allowed = sorted(caps) + (sorted(SETTING_WORDS) if prefix != "ismcts" else [])
                raise BotRefused(f"{prefix} setting {key!r} is not offered by this server: "
                                 f"one of {', '.join(allowed)}")
            try:
                number = float(value)
            except ValueError:
                raise BotRefused(f"{key} needs a number") from None
            low, high = caps[key]
            if not low <= number <= high:
                raise BotRefused(f"{key} is at most {high:g} on this server "
                                 f"(and at least {low:g}); start it with --bot to allow more")
            values[key] = number
        if values.get("depth", 1) >= 2 and values.get("samples", 256) > DEPTH2_SAMPLES:
            raise BotRefused(f"at depth 2 samples is at most {DEPTH2_SAMPLES} on this server")
        return f"{prefix}:{settings.strip()}"
