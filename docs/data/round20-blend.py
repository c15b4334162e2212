"""Prototype: the search's root values blended with the network's Q, with one
weight for the Go/Stop decision and another for every other decision."""
from gostop_core.bots.neural import NeuralBot, NeuralSearchBot
from gostop_core.bots.registry import NEURAL_SEARCH_SETTINGS


class _KindBlend:
    # not "gostop": neural-search has a setting of that name (a word, not a weight)
    card = 0.5
    gostop_weight = 0.5

    def choose(self, view, legal):
        if len(legal) == 1:
            return legal[0]
        ranked = self.analyse(view)
        if not hasattr(self, "_net"):
            self._net = NeuralBot()
        q = dict(self._net.q_values(view))
        allowed = set(legal)
        alpha = (self.gostop_weight if any(m.kind in ("go", "stop") for m in legal)
                 else self.card)
        best, best_v = None, -1e300
        for r in ranked:
            if r.move not in allowed or r.move not in q:
                continue
            v = (1 - alpha) * r.value + alpha * q[r.move]
            if v > best_v:
                best, best_v = r.move, v
        return best if best is not None else ranked[0].move


def _bot(base, name, **weights):
    """A factory of ``base`` (a blend class) with ``weights`` over its class
    attributes, on neural-search's settings."""
    cls = type(base.__name__.lstrip("_"), (base, NeuralSearchBot), {"name": name, **weights})
    def make(seed=None):
        return cls(seed, **NEURAL_SEARCH_SETTINGS)
    return make


def _make(card, gostop):
    return _bot(_KindBlend, f"blend-c{card}-g{gostop}", card=card, gostop_weight=gostop)

c50_g0 = _make(0.5, 0.0)
c0_g50 = _make(0.0, 0.5)
c50_g100 = _make(0.5, 1.0)
c50_g25 = _make(0.5, 0.25)
c50_g75 = _make(0.5, 0.75)
c50_g50 = _make(0.5, 0.5)
c75_g0 = _make(0.75, 0.0)
c25_g0 = _make(0.25, 0.0)


class _StageBlend(_KindBlend):
    """The card-play weight by the stage of the hand: ``early`` while the
    stock holds more than ``split`` cards, ``late`` after; Go/Stop unblended."""
    early = 0.5
    late = 0.5
    split = 10
    gostop_weight = 0.0

    def choose(self, view, legal):
        from gostop_core.notation import parse_view
        _, fields = parse_view(view.to_str())
        self.card = self.early if fields["stock_count"] > self.split else self.late
        return super().choose(view, legal)


def _make_stage(early, late):
    return _bot(_StageBlend, f"blend-e{early}-l{late}", early=early, late=late)

e75_l25 = _make_stage(0.75, 0.25)
e25_l75 = _make_stage(0.25, 0.75)
