"""Bots by specification: built-in names, Python classes, installed plug-ins and
outside programs (docs/bots.md).

A *bot specification* is one of

``random``, ``greedy``, ``best``, ``expectimax:samples=64``, ``ismcts:iterations=4000``
    the built-in bots and their settings (:mod:`gostop_core.bots`);
``path/to/file.py:ClassName``
    a class in a Python file;
``package.module:ClassName``
    a class in an importable module;
``NAME``
    a bot an installed package registers under the entry-point group
    ``gostop.bots`` (``[project.entry-points."gostop.bots"] NAME = "pkg.mod:Class"``);
``cmd:COMMAND``
    an outside program speaking the line protocol of docs/protocol.md
    (:class:`gostop_core.bots.external.ExternalBot`), split like a shell would split it
    (no shell runs it).

A class (or an entry point) must be a :class:`~gostop_core.bots.Bot` subclass, or
any callable returning a Bot; it is called with ``seed=`` when it accepts that
keyword, else with no argument.

>>> from gostop_core.bots.plugins import resolve_bot
>>> spec = resolve_bot("greedy")
>>> spec.kind, spec.make(seed=1).name
('builtin', 'greedy')
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import inspect
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from typing import Any, Callable

from gostop_core.bots.base import Bot
from gostop_core.bots.external import ExternalBot
from gostop_core.bots.registry import BOT_NAMES, builtin_spec_key, is_builtin_spec, make_builtin_bot
from gostop_core.errors import BotSpecError

__all__ = ["BotSpec", "ENTRY_POINT_GROUP", "make_bot", "resolve_bot", "registered_bots",
           "split_command"]

#: The entry-point group installed packages register their bots under.
ENTRY_POINT_GROUP = "gostop.bots"

_BUILTIN = BOT_NAMES
# classes loaded from files, by absolute path: loaded once per process
_FILE_MODULES: dict[str, Any] = {}


@dataclass(frozen=True)
class BotSpec:
    """A resolved bot specification.  ``kind`` is ``builtin``, ``file``,
    ``module``, ``entry_point`` or ``command``; ``text`` the specification as
    written (lower-cased for a built-in name); :meth:`make` builds a new bot.
    ``command`` is the argument vector of a ``cmd:`` bot."""

    text: str
    kind: str
    factory: Callable[..., Any]
    command: tuple[str, ...] = ()

    @property
    def trusted(self) -> bool:
        """True for the built-in bots (their errors are engine bugs, not forfeits)."""
        return self.kind == "builtin"

    @property
    def external(self) -> bool:
        """True for a ``cmd:`` bot (an outside program)."""
        return self.kind == "command"

    def make(self, seed: int | None = None) -> Any:
        """A new bot of this specification (seeded with ``seed`` where it takes one)."""
        bot = self.factory(seed)
        if not isinstance(bot, Bot):
            raise BotSpecError(f"bot {self.text!r} made a {type(bot).__name__}, "
                               "not a gostop_core.bots.Bot")
        return bot


def split_command(command: str) -> tuple[str, ...]:
    """The argument vector of ``cmd:COMMAND`` (shell-like quoting, no shell);
    the program must exist (a path, or a name on ``PATH``)."""
    try:
        argv = tuple(shlex.split(command))
    except ValueError as exc:
        raise BotSpecError(f"bad command {command!r}: {exc}") from None
    if not argv:
        raise BotSpecError("cmd: needs a command, e.g. cmd:python3 mybot.py")
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            raise BotSpecError(f"bot program {program!r} is not an executable file")
    elif shutil.which(program) is None:
        raise BotSpecError(f"bot program {program!r} is not on PATH")
    return argv


def _caller(obj: Any, text: str) -> Callable[[int | None], Any]:
    """A factory ``seed -> bot`` for a class or callable found at ``text``."""
    if not callable(obj):
        raise BotSpecError(f"{text!r} is a {type(obj).__name__}, not a bot class")
    try:
        params = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        params = {}  # type: ignore[assignment]
    takes_seed = "seed" in params or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    if inspect.isclass(obj):
        if not issubclass(obj, Bot):
            raise BotSpecError(f"{text!r} is not a subclass of gostop_core.bots.Bot")
    if takes_seed:
        return lambda seed: obj(seed=seed)
    return lambda seed: obj()


def _load_file(path: str, text: str) -> Any:
    full = os.path.abspath(path)
    if full in _FILE_MODULES:
        return _FILE_MODULES[full]
    if not os.path.isfile(full):
        raise BotSpecError(f"no bot file {path!r}")
    name = "gostop_bot_" + "".join(c if c.isalnum() else "_" for c in full)
    spec = importlib.util.spec_from_file_location(name, full)
    if spec is None or spec.loader is None:
        raise BotSpecError(f"cannot load {path!r} as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look the module up
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise BotSpecError(f"loading {text!r} failed: {type(exc).__name__}: {exc}") from None
    _FILE_MODULES[full] = module
    return module


def _attribute(module: Any, attr: str, text: str) -> Any:
    obj = module
    for part in attr.split("."):
        if not part.isidentifier() or not hasattr(obj, part):
            raise BotSpecError(f"{text!r}: no {attr!r} in {getattr(module, '__name__', module)}")
        obj = getattr(obj, part)
    return obj


def registered_bots() -> dict[str, Any]:
    """The entry points of the ``gostop.bots`` group, by name."""
    try:
        eps = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # a broken installed distribution must not break the CLI
        return {}
    return {ep.name: ep for ep in eps}


def _is_module_path(text: str) -> bool:
    return bool(text) and all(part.isidentifier() for part in text.split("."))


def resolve_bot(spec: str) -> BotSpec:
    """Resolve a bot specification (see the module docstring) into a
    :class:`BotSpec`.  Loads a file or module (running its top level), but never
    starts a program.  Raises :class:`~gostop_core.errors.BotSpecError` with a
    one-line message for anything that names no bot."""
    if not isinstance(spec, str):
        raise BotSpecError(f"a bot specification is a string, got {type(spec).__name__}")
    text = spec.strip()
    key = builtin_spec_key(text)
    if is_builtin_spec(key):
        make_builtin_bot(key)  # validates the settings now
        return BotSpec(key, "builtin", lambda seed: make_builtin_bot(key, seed))
    if text.lower().startswith("cmd:"):
        argv = split_command(text[4:])
        return BotSpec(text, "command", lambda seed: ExternalBot(argv, name=text), argv)
    where, sep, attr = text.rpartition(":")
    if sep and where and attr:
        if where.endswith(".py") or os.sep in where or (os.altsep and os.altsep in where):
            module = _load_file(where, text)
            return BotSpec(text, "file", _caller(_attribute(module, attr, text), text))
        if _is_module_path(where):
            try:
                module = importlib.import_module(where)
            except ImportError as exc:
                raise BotSpecError(f"cannot import {where!r} for bot {text!r}: {exc}") from None
            except Exception as exc:
                raise BotSpecError(f"importing {where!r} failed: {type(exc).__name__}: {exc}"
                                   ) from None
            return BotSpec(text, "module", _caller(_attribute(module, attr, text), text))
    if text and not sep:
        eps = registered_bots()
        if text in eps:
            try:
                obj = eps[text].load()
            except Exception as exc:
                raise BotSpecError(f"loading the installed bot {text!r} failed: "
                                   f"{type(exc).__name__}: {exc}") from None
            return BotSpec(text, "entry_point", _caller(obj, text))
    installed = sorted(registered_bots())
    more = f"; installed: {', '.join(installed)}" if installed else ""
    raise BotSpecError(
        f"unknown bot {spec!r}; choose one of: {', '.join(_BUILTIN)}{more}, "
        "or path/to/file.py:Class, package.module:Class, cmd:COMMAND")

def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name: ``"random"`` (seeded with ``seed``), ``"greedy"``,
    ``"expectimax"`` (its defaults), ``"expectimax-v1"`` (the fixed baseline:
    depth 1, 256 samples, greedy playouts, win bonus 2) or ``"best"`` (the
    strongest bot measured, :data:`BEST_SETTINGS`); ``expectimax:D`` for depth
    D, or ``expectimax:depth=D,samples=N,leaf=rollout|estimate,win=W,halving=0|1|2,
    time=MS,stop=Z,plan=K,consistent=0|1`` (any of them); ``best:key=value,...`` changes
    settings of the best bot (``best:time=200``).
    Any other bot specification (``path/to/file.py:Class``,
    ``package.module:Class``, a name registered under the ``gostop.bots`` entry
    points, ``cmd:COMMAND``) is resolved by :func:`resolve_bot`;
    an unknown one raises :class:`~gostop_core.errors.BotSpecError` (a ValueError)."""
    if not isinstance(name, str):
        raise ValueError(f"unknown bot {name!r}; choose one of: {', '.join(BOT_NAMES)}")
    key = builtin_spec_key(name)
    if is_builtin_spec(key):
        return make_builtin_bot(key, seed)

    return resolve_bot(name).make(seed)
