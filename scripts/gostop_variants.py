"""``expectimax-v1`` with another Go/Stop decision: the plugins behind the Go/Stop
table of docs/strength.md (round 9).  Cards, flips, banks and bombs are
``expectimax-v1``'s; only a Go-or-Stop choice is asked of another bot.

    gostop arena scripts/gostop_variants.py:NetGoStop expectimax-v1 --deals 500 --seed 200000 --workers 1 --json
    gostop arena scripts/gostop_variants.py:DeepGoStop expectimax-v1 --deals 500 --seed 200000 --workers 1 --json
"""
from __future__ import annotations

from gostop_core.bots import make_bot
from gostop_core.bots.base import Bot


class _GoStopBy(Bot):
    #: The bot that decides Go or Stop (each variant names its own).
    gostop_spec: str

    def __init__(self, seed: int | None = None):
        self.search = make_bot("expectimax-v1", seed=seed)
        self.gostop = make_bot(self.gostop_spec, seed=seed)

    def choose(self, view, legal):
        if any(m.kind in ("go", "stop") for m in legal):
            return self.gostop.choose(view, legal)
        return self.search.choose(view, legal)


class NetGoStop(_GoStopBy):
    """Go or Stop by the network's Q."""
    name = "v1+net-gostop"
    gostop_spec = "neural"


class DeepGoStop(_GoStopBy):
    """Go or Stop by a deeper search: four times the samples, Go planned inside
    the playouts, one choice per information set."""
    name = "v1+deep-gostop"
    gostop_spec = "expectimax:samples=1024,plan=8,consistent=1"
