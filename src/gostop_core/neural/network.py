"""The Q network: a multilayer perceptron on (state, action) bytes, in numpy.

``Q(s, a) = w3 . relu(W2 relu(W1 [s; a] * scale + b1) + b2) + b3``, in units
of :data:`RETURN_SCALE` points.  The input scale (1 for the card planes, 1/10
for the counts) is folded into ``W1`` for playing (:func:`play_weights`), so
the C first layer reads the bytes as they are.  Weights files are ``.npz``
holding the arrays and a JSON header (format, sizes, command, seeds, hands
seen, library versions); :func:`load_network` validates every field.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from gostop_core.errors import GoStopError
from gostop_core.outfiles import write_output
from gostop_core.neural.inputs import INPUT_LAYOUTS, THREATS_PER_SEAT_BYTES, THREATS_START
from gostop_core.neural.selfplay import NUM_ACTION_FEATURES, NUM_STATE_FEATURES

__all__ = ["NeuralWeightsError", "Network", "RETURN_SCALE", "NETWORK_FORMAT",
           "input_scale", "load_network", "read_npz", "save_network", "DEFAULT_WEIGHTS",
           "NEURAL_WEIGHTS", "neural_weights",
           "SHIPPED_WEIGHTS", "shipped_weights"]

#: Q is learned in units of this many points (keeps the targets near 1).
RETURN_SCALE = 10.0
NETWORK_FORMAT = "gostop-dmc-1"
INPUTS = NUM_STATE_FEATURES + NUM_ACTION_FEATURES
#: The weights shipped with the package (2 players, casual).
DEFAULT_WEIGHTS = Path(__file__).with_name("casual2.npz")
#: The networks shipped, keyed by preset name and player count.  A table of exactly
#: that preset and count gets its own; any other table gets DEFAULT_WEIGHTS
#: (docs/strength.md, rounds 6 and 13).
SHIPPED_WEIGHTS = {("casual", 2): DEFAULT_WEIGHTS,
                   ("casual", 3): Path(__file__).with_name("casual3.npz"),
                   ("standard", 2): Path(__file__).with_name("standard2.npz")}


#: The networks ``neural`` plays instead, keyed as SHIPPED_WEIGHTS: at each
#: shipped table, that table's network fitted to ``best``'s blended values, the
#: stronger alone on fresh deals; the searches keep their own (at 2- and 3-player
#: casual the fitted one was no stronger inside them; docs/strength.md, rounds
#: 22, 23 and 25).
NEURAL_WEIGHTS = {("casual", 2): Path(__file__).with_name("casual2-neural.npz"),
                  ("casual", 3): Path(__file__).with_name("casual3-neural.npz"),
                  ("standard", 2): Path(__file__).with_name("standard2-neural.npz")}


def shipped_weights(rules: Any, players: int) -> Path:
    """The shipped network for a table of ``rules`` (a :class:`~gostop_core.rules.Rules`)
    and ``players``: its preset's own when the rules are the preset unchanged, else
    :data:`DEFAULT_WEIGHTS`."""
    from gostop_core.rules import unchanged_preset
    preset = unchanged_preset(rules)
    return DEFAULT_WEIGHTS if preset is None else SHIPPED_WEIGHTS.get((preset, players),
                                                                      DEFAULT_WEIGHTS)


def neural_weights(rules: Any, players: int) -> Path:
    """The shipped network the ``neural`` bot plays at a table of ``rules`` and
    ``players``: :data:`NEURAL_WEIGHTS`'s where the rules are its preset unchanged,
    else :func:`shipped_weights`'s (the one the searches play)."""
    from gostop_core.rules import unchanged_preset
    preset = unchanged_preset(rules)
    own = None if preset is None else NEURAL_WEIGHTS.get((preset, players))
    return own or shipped_weights(rules, players)
_PARAMS = ("w1", "b1", "w2", "b2", "w3", "b3")


class NeuralWeightsError(GoStopError, ValueError):
    """A network weights file that cannot be used (named field, reason)."""


def input_scale() -> np.ndarray:
    """The factor of each input byte: 1 for card planes and one-hot flags,
    1/10 for counts and scores."""
    scale = np.ones(INPUTS, dtype=np.float32)
    scale[350:NUM_STATE_FEATURES] = 0.1
    # the threats' where-is-the-card flags learn at the planes' rate; each seat's
    # points short of the threshold is a count
    threats = scale[THREATS_START:NUM_STATE_FEATURES].reshape(-1, THREATS_PER_SEAT_BYTES)
    threats[:, :-1] = 1.0
    scale[NUM_STATE_FEATURES + 162:NUM_STATE_FEATURES + 168] = 0.1   # the move's gains
    scale[NUM_STATE_FEATURES + 218:] = 0.1   # the exposure counts (the open plane stays 1)
    return scale


class Network:
    """The parameters (float32) and the forward pass over many rows."""

    def __init__(self, params: dict[str, np.ndarray], header: dict[str, Any] | None = None):
        self.params = {k: np.ascontiguousarray(params[k], dtype=np.float32) for k in _PARAMS}
        self.header = dict(header or {})
        self._play: dict[str, np.ndarray] | None = None

    @classmethod
    def initial(cls, hidden: tuple[int, int] = (256, 128), seed: int = 0) -> "Network":
        rng = np.random.default_rng(seed)
        h1, h2 = hidden
        params = {
            "w1": rng.normal(0, np.sqrt(2.0 / 60), (INPUTS, h1)),   # ~60 non-zero inputs
            "b1": np.zeros(h1),
            "w2": rng.normal(0, np.sqrt(2.0 / h1), (h1, h2)),
            "b2": np.zeros(h2),
            "w3": rng.normal(0, np.sqrt(1.0 / h2), (h2,)) * 0.1,
            "b3": np.zeros(1),
        }
        return cls(params)

    def widened(self, hidden: tuple[int, int], seed: int = 0, noise: float = 0.01) -> "Network":
        """The same Q with wider hidden layers (function-preserving growth, as
        Net2Net): each new unit copies a random unit of its layer, and the
        outgoing weights of a unit and its copies are divided among them, so
        every Q is unchanged.  ``noise`` (a share of each copied column's
        standard deviation) is added to the copies' incoming weights so that
        training can tell them apart; with ``noise=0`` the Q values are the
        same up to rounding."""
        h1, h2 = self.hidden
        n1, n2 = hidden
        if n1 < h1 or n2 < h2:
            raise NeuralWeightsError(f"cannot widen hidden sizes {(h1, h2)} to {(n1, n2)}: "
                                     f"a layer would shrink")
        rng = np.random.default_rng(seed)
        p = {k: v.astype(np.float64) for k, v in self.params.items()}

        def grow(w_in: np.ndarray, b_in: np.ndarray, w_out: np.ndarray, old: int, new: int):
            src = np.concatenate([np.arange(old), rng.integers(0, old, new - old)])
            copies = np.bincount(src, minlength=old).astype(np.float64)
            w_in2, b_in2 = w_in[:, src].copy(), b_in[src].copy()
            if new > old and noise > 0:
                scale = w_in[:, src[old:]].std(axis=0, keepdims=True) * noise
                w_in2[:, old:] += rng.normal(0.0, 1.0, (w_in.shape[0], new - old)) * scale
            w_out2 = w_out[src] / (copies[src][:, None] if w_out.ndim == 2 else copies[src])
            return w_in2, b_in2, w_out2

        w1, b1, w2 = grow(p["w1"], p["b1"], p["w2"], h1, n1)
        w2, b2, w3 = grow(w2, p["b2"], p["w3"], h2, n2)
        params = {"w1": w1, "b1": b1, "w2": w2, "b2": b2, "w3": w3, "b3": p["b3"]}
        return Network(params, dict(self.header))

    @property
    def return_scale(self) -> float:
        """Points per unit of the network's output (:data:`RETURN_SCALE`)."""
        return RETURN_SCALE

    @property
    def hidden(self) -> tuple[int, int]:
        return self.params["w1"].shape[1], self.params["w2"].shape[1]

    def play_weights(self) -> dict[str, np.ndarray]:
        """The first layer with the input scale folded in (for the C layer)."""
        if self._play is None:
            self._play = {"w1": self.params["w1"] * input_scale()[:, None], "b1": self.params["b1"]}
        return self._play

    def changed(self) -> None:
        self._play = None

    def head(self, h1: np.ndarray) -> np.ndarray:
        """Q in points of rows whose first hidden layer (after ReLU) is ``h1``."""
        p = self.params
        h2 = h1 @ p["w2"]
        h2 += p["b2"]
        np.maximum(h2, 0, out=h2)
        return (h2 @ p["w3"] + p["b3"][0]) * RETURN_SCALE

    def q_values(self, state: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """Q in points of each action row (uint8 (n, ACTION_FEATURES)) in
        ``state`` (uint8 (STATE_FEATURES,)), with the first layer split; a
        state per row (uint8 (n, STATE_FEATURES)) scores rows of many decisions."""
        w = self.play_weights()
        s = state.astype(np.float32) @ w["w1"][:NUM_STATE_FEATURES] + w["b1"]
        h1 = actions.astype(np.float32) @ w["w1"][NUM_STATE_FEATURES:] + s
        np.maximum(h1, 0, out=h1)
        return self.head(h1)


class Adam:
    """Adam on the network's parameters, with its state kept for checkpoints."""

    def __init__(self, net: Network, lr: float = 3e-4, beta1: float = 0.9, beta2: float = 0.999):
        self.net = net
        self.lr, self.beta1, self.beta2 = lr, beta1, beta2
        self.t = 0
        self.m = {k: np.zeros_like(v) for k, v in net.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in net.params.items()}

    def step(self, x: np.ndarray, target: np.ndarray,
             groups: np.ndarray | None = None) -> float:
        """One step of mean squared error on scaled inputs ``x`` (float32
        (n, INPUTS)) and targets in RETURN_SCALE units; returns the loss.
        ``groups`` (int (n,), the numbers 0..k-1: the decision of each row)
        counts each row's error less the mean error of its decision, so that
        only the differences between one decision's moves are learned."""
        p = self.net.params
        n = x.shape[0]
        z1 = x @ p["w1"] + p["b1"]
        a1 = np.maximum(z1, 0)
        z2 = a1 @ p["w2"] + p["b2"]
        a2 = np.maximum(z2, 0)
        q = a2 @ p["w3"] + p["b3"][0]
        err = q - target
        if groups is not None:
            # the centring is a projection: the gradient of |P e|^2 is 2 P e
            err = err - (np.bincount(groups, weights=err) / np.bincount(groups))[groups]
        loss = float(np.mean(err * err))
        g = (2.0 / n) * err.astype(np.float32)
        grads = {"w3": a2.T @ g, "b3": np.array([g.sum()], dtype=np.float32)}
        d2 = np.outer(g, p["w3"])
        d2 *= z2 > 0
        grads["w2"] = a1.T @ d2
        grads["b2"] = d2.sum(axis=0)
        d1 = d2 @ p["w2"].T
        d1 *= z1 > 0
        grads["w1"] = x.T @ d1
        grads["b1"] = d1.sum(axis=0)
        self.t += 1
        c1 = 1 - self.beta1 ** self.t
        c2 = 1 - self.beta2 ** self.t
        for k, gk in grads.items():
            m, v = self.m[k], self.v[k]
            m *= self.beta1
            m += (1 - self.beta1) * gk
            v *= self.beta2
            v += (1 - self.beta2) * (gk * gk)
            p[k] -= (self.lr / c1) * m / (np.sqrt(v / c2) + 1e-8)
        self.net.changed()
        return loss


def _arrays_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)  # type: ignore[arg-type]
    return buf.getvalue()


def save_network(path: str | os.PathLike, net: Network, extra: dict[str, np.ndarray] | None = None,
                 header: dict[str, Any] | None = None) -> str:
    """Write ``net`` (and ``extra`` arrays, e.g. the optimiser's) to ``path``
    by :mod:`gostop_core.outfiles`'s rules (a regular file is replaced at once,
    by a temporary file renamed over it); returns the sha256 of the
    parameters, also stored in the header. ``header`` adds to ``net.header``;
    the fields that describe the parameters (format, sizes, sha256) are always
    the saved network's own."""
    path = Path(path)
    if path.exists() and not path.is_file():
        raise NeuralWeightsError(f"{path}: not a regular file")
    digest = hashlib.sha256(_arrays_bytes(net.params)).hexdigest()
    # The fields that describe these parameters are always this file's own, so a
    # header copied from another network (its sha256, its hidden sizes) cannot mislabel them.
    head = {**net.header, **(header or {}), "format": NETWORK_FORMAT,
            "hidden": list(net.hidden), "inputs": [NUM_STATE_FEATURES, NUM_ACTION_FEATURES],
            "return_scale": RETURN_SCALE, "sha256": digest}
    arrays = dict(net.params, **(extra or {}))
    arrays["header"] = np.frombuffer(json.dumps(head, sort_keys=True).encode(), dtype=np.uint8)
    write_output(str(path), _arrays_bytes(arrays))   # a temporary file renamed over it
    net.header = head
    return digest


def read_npz(path: str | os.PathLike, error: type[Exception], what: str
             ) -> tuple[dict[str, np.ndarray], Any]:
    """The arrays of an ``.npz`` file (no pickles) and its JSON ``header`` array,
    read: ``error`` naming the file for one that is not ``what`` or has no
    readable header (the caller checks the header's fields)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError, EOFError) as exc:
        raise error(f"{path}: not {what} ({exc})") from None
    try:
        header = json.loads(arrays.pop("header").tobytes().decode())
    except (KeyError, ValueError, UnicodeDecodeError):
        raise error(f"{path}: no readable header") from None
    return arrays, header


def _padded_rows(a: np.ndarray, layout: tuple[int, int], width: int) -> np.ndarray:
    """A first-layer array (or its Adam moments) of an older ``layout`` with
    zero rows where the latest inputs added theirs: after the state bytes and
    after the action bytes."""
    s, n = layout
    if a.ndim != 2 or a.shape != (s + n, width) or a.dtype.kind != "f":
        return a
    return np.concatenate([a[:s], np.zeros((NUM_STATE_FEATURES - s, width), a.dtype),
                           a[s:], np.zeros((NUM_ACTION_FEATURES - n, width), a.dtype)])


def load_network(path: str | os.PathLike | None = None, with_extra: bool = False):
    """The network of ``path`` (default: the shipped weights), validated;
    with ``with_extra``, ``(network, {other arrays})``."""
    path = Path(DEFAULT_WEIGHTS if path is None else path)
    arrays, header = read_npz(path, NeuralWeightsError, "a network weights file")
    if not isinstance(header, dict) or header.get("format") != NETWORK_FORMAT:
        raise NeuralWeightsError(f"{path}: format {header.get('format') if isinstance(header, dict) else None!r}, "
                                 f"expected {NETWORK_FORMAT!r}")
    for k in _PARAMS:
        if k not in arrays:
            raise NeuralWeightsError(f"{path}: no array {k!r}")
        if arrays[k].dtype.kind != "f" or not np.all(np.isfinite(arrays[k])):
            raise NeuralWeightsError(f"{path}: {k} is not an array of finite numbers")
    layout = header.get("inputs", list(INPUT_LAYOUTS[0]))
    if arrays["w1"].ndim == 2 and isinstance(layout, list) \
            and tuple(layout) in INPUT_LAYOUTS[:-1] and arrays["w1"].shape[0] == sum(layout):
        # Written before the latest inputs: the new rows start at zero, every Q as
        # before (Adam's moments of w1 in a checkpoint likewise).
        arrays = {k: _padded_rows(a, tuple(layout), arrays["w1"].shape[1]) for k, a in arrays.items()}
        header = dict(header, inputs=[NUM_STATE_FEATURES, NUM_ACTION_FEATURES],
                      inputs_padded_from=list(layout))
    h1 = arrays["w1"].shape[1] if arrays["w1"].ndim == 2 else -1
    h2 = arrays["w2"].shape[1] if arrays["w2"].ndim == 2 else -1
    shapes = {"w1": (INPUTS, h1), "b1": (h1,), "w2": (h1, h2), "b2": (h2,), "w3": (h2,), "b3": (1,)}
    for k, shape in shapes.items():
        if arrays[k].shape != shape or not 1 <= h1 <= 1024 or not 1 <= h2 <= 1024:
            raise NeuralWeightsError(f"{path}: {k} has shape {arrays[k].shape}, expected {shape}")
    net = Network({k: arrays.pop(k) for k in _PARAMS}, header)
    return (net, arrays) if with_extra else net
