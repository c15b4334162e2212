"""Prototype: the search's root values blended with the network's Q."""
from gostop_core.bots.expectimax import ExpectimaxBot
from gostop_core.bots.neural import NeuralBot, NeuralSearchBot
from gostop_core.bots.registry import EXPECTIMAX_V1_SETTINGS, NEURAL_SEARCH_SETTINGS


class _Blend:
    alpha = 0.5

    def choose(self, view, legal):
        if len(legal) == 1:
            return legal[0]
        ranked = self.analyse(view)
        if not hasattr(self, "_net"):
            self._net = NeuralBot()
        q = dict(self._net.q_values(view))
        allowed = set(legal)
        best, best_v = None, -1e300
        for r in ranked:
            if r.move not in allowed or r.move not in q:
                continue
            v = (1 - self.alpha) * r.value + self.alpha * q[r.move]
            if v > best_v:
                best, best_v = r.move, v
        return best if best is not None else ranked[0].move


def _make(base, settings, alpha):
    cls = type("Blend", (_Blend, base), {"alpha": alpha, "name": f"blend{alpha}"})
    def make(seed=None):
        return cls(seed, **settings)
    return make

v1_25 = _make(ExpectimaxBot, EXPECTIMAX_V1_SETTINGS, 0.25)
v1_50 = _make(ExpectimaxBot, EXPECTIMAX_V1_SETTINGS, 0.5)
ns_25 = _make(NeuralSearchBot, NEURAL_SEARCH_SETTINGS, 0.25)
ns_50 = _make(NeuralSearchBot, NEURAL_SEARCH_SETTINGS, 0.5)
ns_75 = _make(NeuralSearchBot, NEURAL_SEARCH_SETTINGS, 0.75)
