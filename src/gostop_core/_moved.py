"""The module paths of gostop 0.1 that moved in 0.2 (docs/architecture.md):
``import gostop_core.search`` and the like still work, with a
DeprecationWarning naming the new path.

A meta path finder answers for the old names only, and hands back the very
module object of the new path (``gostop_core.plugins is
gostop_core.bots.plugins``), so there is one copy of each module's state.
Nothing in gostop itself imports an old path (the import contract checks it)."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Sequence

#: old module path -> new module path
MOVED = {
    "gostop_core.search": "gostop_core.bots.search",
    "gostop_core.ismcts": "gostop_core.bots.ismcts",
    "gostop_core.plugins": "gostop_core.bots.plugins",
    "gostop_core.protocol": "gostop_core.bots.external",
    "gostop_core.distributed": "gostop_core.arena.ray_backend",
    "gostop_core.selfplay": "gostop_core.arena.selfplay",
    "gostop_core.reference": "gostop_core.testing.reference",
    "gostop_core.lockstep": "gostop_core.testing.lockstep",
    "gostop_core.perft_suite": "gostop_core.testing.perft_suite",
}


class _MovedLoader(importlib.abc.Loader):
    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(f"{spec.name} moved to {self.new}; the old path will be removed in a "
                      "future release", DeprecationWarning, stacklevel=2)
        return importlib.import_module(self.new)

    def exec_module(self, module: ModuleType) -> None:
        """The new module is executed already."""


class _MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _MovedLoader(new))


def install() -> None:
    """Put the finder on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
        sys.meta_path.append(_MovedFinder())
