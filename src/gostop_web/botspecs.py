"""Which bots a page may seat.  A page names a bot of the registry
(:data:`gostop_core.bots.BOT_NAMES`) with settings inside the caps below; no
setting names a file.  Anything else (an outside ``cmd:`` program, a Python
file, a module, a plug-in, larger settings) is seated only when whoever
started the server named that exact specification with ``--bot``."""

from __future__ import annotations

from typing import Iterable

from gostop_core.bots import BOT_NAMES
from gostop_core.bots.registry import SETTINGS_PREFIXES, builtin_classes
from gostop_core.bots.settings import Setting, settings_of

__all__ = ["PAGE_BOTS", "PAGE_PREFIXES", "page_settings", "BotPolicy", "BotRefused"]

#: The bots a page may name (the registry's names).
PAGE_BOTS = tuple(BOT_NAMES)
#: The bots a page may give settings to (``NAME:key=value``): the registry's,
#: within the caps of each class's settings table (``Setting.cap``, which keeps
#: one move of a page's bot to a few seconds on a slow machine).
PAGE_PREFIXES = tuple(p.rstrip(":") for p in SETTINGS_PREFIXES)
#: At depth 2 (about 60 times depth 1 per sample) a page may ask for at most
#: this many samples.
DEPTH2_SAMPLES = 128


def page_settings(prefix: str) -> dict[str, Setting]:
    """The settings a page may give bot ``prefix``: its class's table less
    every setting that names a file."""
    return {s.name: s for s in settings_of(builtin_classes()[prefix]) if s.kind != "path"}


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
        if not sep or prefix not in PAGE_PREFIXES:
            raise BotRefused(f"bot {spec!r} is not offered by this server: choose one of "
                             f"{', '.join(self.offered())} (a program, a file or a plug-in "
                             "plays only when the server is started with --bot SPEC)")
        table = page_settings(prefix)
        values: dict[str, float] = {}
        for item in settings.split(","):
            key, eq, value = (part.strip() for part in item.partition("="))
            if not eq or not value:
                raise BotRefused(f"bad setting {item!r}: use key=value")
            if key not in table:
                raise BotRefused(f"{prefix} setting {key!r} is not offered by this server: "
                                 f"one of {', '.join(table)}")
            setting = table[key]
            try:
                parsed = setting.from_text(value)
            except ValueError as exc:
                raise BotRefused(str(exc)) from None
            if setting.kind in ("int", "float"):
                low, most = setting.lobby_range()  # type: ignore[misc]
                if most is not None and parsed > most:
                    raise BotRefused(f"{key} is at most {most:g} on this server "
                                     f"(and at least {low:g}); start it with --bot to allow more")
                values[key] = parsed
        if values.get("depth", 1) >= 2 and values.get("samples", 256) > DEPTH2_SAMPLES:
            raise BotRefused(f"at depth 2 samples is at most {DEPTH2_SAMPLES} on this server")
        return f"{prefix}:{settings.strip()}"
