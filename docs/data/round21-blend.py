"""Round 21's prototypes (docs/strength.md): the card play's blend weight by
the search's own spread, the Go/Stop decision's samples and offset, the cut, and
the network as a model of the opponent; every variant blends the card play half
and half and decides Go or Stop on the search's values (round 20's `c50_g0`,
which `const50` repeats move for move).  ``SPREAD_LOG=FILE`` writes each card
decision's moves with the search's value, Q and the two spreads."""
import json, math, os
from gostop_core.bots.neural import NeuralBot, NeuralSearchBot
from gostop_core.bots.registry import NEURAL_SEARCH_SETTINGS

LOG = os.environ.get("SPREAD_LOG")


class _SpreadBlend:
    mode = "const"   # const | abs | rel
    weight = 0.5     # the constant weight (mode const), or the mean weight's scale
    tau = 1.0        # Q's assumed error in points (modes abs, rel)
    gostop_samples = 0  # samples of a Go/Stop decision's search (0: the bot's own)
    go_bonus = 0.0      # points added to the search's value of a Go

    def choose(self, view, legal):
        if len(legal) == 1:
            return legal[0]
        gostop = any(m.kind in ("go", "stop") for m in legal)
        if gostop and self.gostop_samples:
            kept, self.samples = self.samples, self.gostop_samples
            try:
                ranked = self.analyse(view)
            finally:
                self.samples = kept
        else:
            ranked = self.analyse(view)
        if gostop:
            allowed = set(legal)
            pick, pick_v = None, -1e300
            for r in ranked:
                if r.move in allowed:
                    v = r.value + (self.go_bonus if r.move.kind == "go" else 0.0)
                    if v > pick_v:
                        pick, pick_v = r.move, v
            return pick if pick is not None else legal[0]
        if not hasattr(self, "_net"):
            self._net = NeuralBot()
        q = dict(self._net.q_values(view))
        allowed = set(legal)
        result = self.last_result
        spreads = {code: (sp, rel) for (code, _, _), sp, rel
                   in zip(result["moves"], result["spreads"], result["relative_spreads"])}
        rows = []
        for r in ranked:
            if r.move not in allowed or r.move not in q:
                continue
            sp, rel = spreads.get(r.move.code, (float("nan"),) * 2)
            rows.append((r.move, r.value, q[r.move], sp, rel))
        if LOG:
            with open(LOG, "a") as f:
                f.write(json.dumps([[str(m), s, qq, sp, rel] for m, s, qq, sp, rel in rows]) + "\n")
        # Q on the search's level: with weights that differ by move, the two
        # estimates' offset (about 2 points) would otherwise rank the moves
        shift = (sum(r[1] for r in rows) - sum(r[2] for r in rows)) / len(rows) if rows else 0.0
        best, best_v = None, -1e300
        for m, s, qq, sp, rel in rows:
            qq += shift
            if self.mode == "const":
                a = self.weight
            else:
                e = sp if self.mode == "abs" else rel
                a = 0.5 if e != e else e * e / (e * e + self.tau * self.tau)
            v = (1 - a) * s + a * qq
            if v > best_v:
                best, best_v = m, v
        return best if best is not None else ranked[0].move


def _bot(name, settings=None, **attrs):
    cls = type("SpreadBlend", (_SpreadBlend, NeuralSearchBot), {"name": name, **attrs})
    def make(seed=None):
        return cls(seed, **NEURAL_SEARCH_SETTINGS, **(settings or {}))
    return make

const50 = _bot("spread-const50")

rel17 = _bot("spread-rel17", mode="rel", tau=0.17)
abs45 = _bot("spread-abs45", mode="abs", tau=0.45)
gs512 = _bot("spread-gs512", gostop_samples=512)
gs1024 = _bot("spread-gs1024", gostop_samples=1024)
cut2 = _bot("spread-cut2", settings={"cut": 2})
cut3 = _bot("spread-cut3", settings={"cut": 3})
go05 = _bot("spread-go05", go_bonus=0.5)
go10 = _bot("spread-go10", go_bonus=1.0)
gom05 = _bot("spread-gom05", go_bonus=-0.5)
gom10 = _bot("spread-gom10", go_bonus=-1.0)


# ------------------------------------------------ the network as opponent model
# The runs of round 21 used a prototype class here; `neural-search` now takes the
# opponent model as settings (`worlds`, `temp`) and repeats those runs move for
# move, so the variants are the built-in bot with the card play blended and Go/Stop
# on the search's values. (A class attribute `worlds` here would be shadowed by
# neural-search's setting of that name: round 21's first runs at 720,000 were lost so.)


def _opp(name, worlds, temperature):
    cls = type("OpponentBlend", (_SpreadBlend, NeuralSearchBot), {"name": name})
    def make(seed=None):
        return cls(seed, **NEURAL_SEARCH_SETTINGS, worlds=worlds, temperature=temperature)
    return make

w4t4 = _opp("opp-w4t4", 4, 4.0)
w8t4 = _opp("opp-w8t4", 8, 4.0)
w8t8 = _opp("opp-w8t8", 8, 8.0)
