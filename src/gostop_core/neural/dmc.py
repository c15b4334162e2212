"""Deep Monte-Carlo training of the Q network by self-play (``gostop train-neural``).

The actor (:class:`~gostop_core.neural.selfplay.SelfPlay`, thousands of games
in C, epsilon-greedy on the current network) fills a replay buffer with (state,
action, final result) samples, and the learner regresses Q on them (mean
squared error, Adam, numpy).  By default both take turns in one process
(:class:`LocalActor`); ``train(..., actors=RayActors(...))``
(``gostop_core.arena.ray_training``) plays the games in Ray actors instead.
Every ``checkpoint_s`` seconds the run writes ``checkpoint.npz`` in its
directory (the weights, Adam's moments, the sampling RNG, hands and samples
seen; written to a temporary file and renamed), evaluates the network against
the greedy policy on fixed deals and appends a line to ``curve.jsonl``.  ``resume`` picks the run up from its last
checkpoint (the replay buffer is refilled by the actor: it is not saved).
"""

from __future__ import annotations

import json
import math
import platform
import signal
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Protocol

import numpy as np

from gostop_core.errors import GoStopError
from gostop_core.neural.network import (
    INPUTS, RETURN_SCALE, Adam, Network, NeuralWeightsError, input_scale, load_network,
    save_network,
)
from gostop_core.neural.selfplay import NUM_ACTION_FEATURES, NUM_STATE_FEATURES, SelfPlay
from gostop_core.rules import Rules

__all__ = ["TrainConfig", "train", "evaluate_vs_greedy", "ActorsLostError", "LocalActor",
           "SampleSource", "SourceFactory", "selfplay_seed"]

#: Evaluation deals start here: tuning seeds stay below 1,000,000.
EVAL_SEED = 500_000


@dataclass
class TrainConfig:
    rules: str = "casual"
    players: int = 2
    hands: int = 20_000_000       # stop after this many self-play hands
    games: int = 256              # games stepped side by side (their rows stay in cache)
    epsilon: float = 0.05
    lr: float = 3e-4
    batch: int = 1024
    replay: int = 500_000         # samples kept
    ratio: float = 0.5            # training rows per new sample
    hidden1: int = 256
    hidden2: int = 128
    seed: int = 0
    checkpoint_s: float = 300.0
    eval_deals: int = 200
    sync_batches: int = 20        # learner steps between copies of the weights to the actor
    greedy_share: float = 0.0     # share of the games the network plays against greedy seats
    td_lambda: float = 1.0        # 1: targets are the final results; below: lambda-returns


def _versions() -> dict[str, str]:
    from gostop_core import __version__
    return {"gostop": __version__, "numpy": np.__version__, "python": platform.python_version()}


def evaluate_vs_greedy(net: Network, rules: str | Rules = "casual", players: int = 2,
                       deals: int = 200, seed: int = EVAL_SEED) -> dict:
    """The network (argmax Q) against the greedy policy on ``deals`` duplicate
    deals (each played from every seat): mean points a game, a 95% interval
    over deals, and the share of decided games won."""
    sp = SelfPlay(deals * players, rules, players, seed=seed, weights=net.play_weights(),
                  greedy_seats=True, record=False)
    while True:
        h1 = sp.prepare()
        if h1.shape[0] == 0:
            break
        sp.advance(net.head(h1), 0.0)
    res = np.asarray(sp.results, dtype=np.float64)
    per_deal = res.reshape(deals, players).mean(axis=1)
    mean = float(per_deal.mean())
    half = 1.96 * float(per_deal.std(ddof=1)) / math.sqrt(deals) if deals > 1 else float("nan")
    decided = res != 0
    return {"points": mean, "low": mean - half, "high": mean + half,
            "win_rate": float((res > 0).sum() / max(1, decided.sum())), "deals": deals}


class _Replay:
    def __init__(self, capacity: int):
        self.s = np.zeros((capacity, NUM_STATE_FEATURES), dtype=np.uint8)
        self.a = np.zeros((capacity, NUM_ACTION_FEATURES), dtype=np.uint8)
        self.r = np.zeros(capacity, dtype=np.float32)
        self.size = 0
        self.at = 0

    def add(self, s: np.ndarray, a: np.ndarray, r: np.ndarray) -> None:
        cap = self.r.shape[0]
        n = r.shape[0]
        if n > cap:
            s, a, r, n = s[-cap:], a[-cap:], r[-cap:], cap
        end = self.at + n
        first = min(n, cap - self.at)
        self.s[self.at:self.at + first] = s[:first]
        self.a[self.at:self.at + first] = a[:first]
        self.r[self.at:self.at + first] = r[:first]
        if first < n:
            self.s[:n - first] = s[first:]
            self.a[:n - first] = a[first:]
            self.r[:n - first] = r[first:]
        self.at = end % cap
        self.size = min(cap, self.size + n)

    def batch(self, rng: np.random.Generator, n: int, scale: np.ndarray):
        idx = rng.integers(0, self.size, n)
        x = np.empty((n, INPUTS), dtype=np.float32)
        x[:, :NUM_STATE_FEATURES] = self.s[idx]
        x[:, NUM_STATE_FEATURES:] = self.a[idx]
        x *= scale
        return x, self.r[idx] / RETURN_SCALE


def _save(path: Path, net: Network, opt: Adam, rng: np.random.Generator, cfg: TrainConfig,
          progress: dict, command: str) -> str:
    extra = {f"adam_m_{k}": v for k, v in opt.m.items()}
    extra.update({f"adam_v_{k}": v for k, v in opt.v.items()})
    extra["adam_t"] = np.array([opt.t], dtype=np.int64)
    extra["rng"] = np.frombuffer(json.dumps(rng.bit_generator.state).encode(), dtype=np.uint8)
    header = {"command": command, "config": asdict(cfg), "versions": _versions(),
              "seeds": {"selfplay": cfg.seed, "eval": EVAL_SEED}, **progress}
    return save_network(path, net, extra, header)


class ActorsLostError(GoStopError, RuntimeError):
    """The self-play actors of a run stopped (a Ray actor process or its node
    died): the run writes its checkpoint and ends with this error."""


class SampleSource(Protocol):
    """Where a run's self-play happens: :class:`LocalActor` (one
    :class:`~gostop_core.neural.selfplay.SelfPlay` in this process) or Ray
    actors (``gostop_core.arena.ray_training``)."""

    def collect(self) -> tuple[int, tuple[np.ndarray, np.ndarray, np.ndarray] | None]:
        """Play on: the hands finished, and a batch of finished samples
        ``(states, actions, returns)`` or None while there is none yet."""

    def sync(self, learned: bool) -> None:
        """The network changed: every ``sync_batches`` learner steps
        (``learned`` False) and once the learner is done with a batch of
        samples (``learned`` True)."""

    def close(self) -> None:
        """Stop the self-play (and whatever it started)."""


#: A function that starts a run's self-play: (network, config, hands already
#: played) -> SampleSource.
SourceFactory = Callable[[Network, TrainConfig, int], SampleSource]

#: The local actor hands its samples to the learner once this many are finished.
DRAIN_SAMPLES = 8192


def selfplay_seed(cfg: TrainConfig, hands: int, actor: int | None = None) -> int:
    """The self-play seed of a sitting that starts after ``hands`` hands: the
    local actor's, or that of Ray actor number ``actor`` (each sitting's deals
    continue from the hands already seen; the actor index keeps the actors'
    deals apart, above every local seed)."""
    seed = cfg.seed * 1_000_003 + hands
    return seed if actor is None else seed + ((actor + 1) << 42)


class LocalActor:
    """The self-play in this process, taking its turns with the learner."""

    def __init__(self, net: Network, cfg: TrainConfig, hands: int):
        self.net = net
        self.epsilon = cfg.epsilon
        self.actor = SelfPlay(cfg.games, cfg.rules, cfg.players, seed=selfplay_seed(cfg, hands),
                              weights=net.play_weights(), greedy_share=cfg.greedy_share,
                              td_lambda=cfg.td_lambda)

    def collect(self) -> tuple[int, tuple[np.ndarray, np.ndarray, np.ndarray] | None]:
        before = self.actor.hands
        h1 = self.actor.prepare()
        self.actor.advance(self.net.head(h1), self.epsilon)
        samples = self.actor.drain() if self.actor.pending_samples >= DRAIN_SAMPLES else None
        return self.actor.hands - before, samples

    def sync(self, learned: bool) -> None:
        self.actor.set_weights(self.net.play_weights())

    def close(self) -> None:
        pass


class _Learner:
    """The replay buffer and the training ratio: ``ratio`` training rows per
    new sample, in batches of ``batch`` once the buffer holds four of them."""

    def __init__(self, net: Network, opt: Adam, rng: np.random.Generator, cfg: TrainConfig,
                 progress: dict):
        self.net, self.opt, self.rng, self.cfg, self.progress = net, opt, rng, cfg, progress
        self.replay = _Replay(cfg.replay)
        self.scale = input_scale()
        self.credit = 0.0
        self.losses: list[float] = []

    def learn(self, s: np.ndarray, a: np.ndarray, r: np.ndarray, source: SampleSource) -> None:
        cfg, progress = self.cfg, self.progress
        self.replay.add(s, a, r)
        progress["samples"] += len(r)
        self.credit += cfg.ratio * len(r)
        while self.credit >= cfg.batch and self.replay.size >= 4 * cfg.batch:
            x, y = self.replay.batch(self.rng, cfg.batch, self.scale)
            self.losses.append(self.opt.step(x, y))
            self.credit -= cfg.batch
            progress["batches"] += 1
            if progress["batches"] % cfg.sync_batches == 0:
                source.sync(False)
        source.sync(True)


def _open_run(out: Path, ckpt: Path, cfg: TrainConfig, resume: bool,
              log: Callable[[str], None], init: str | Path | None = None,
              ) -> tuple[Network, Adam, np.random.Generator, dict]:
    """The network, Adam and the sampling RNG of a new run (from ``init``'s
    weights when given), or of the run in ``ckpt`` with its progress."""
    progress: dict[str, Any] = {"hands": 0, "samples": 0, "batches": 0, "seconds": 0.0}
    if resume and ckpt.exists():
        net, extra = load_network(ckpt, with_extra=True)
        saved = net.header.get("config", {})
        for key in ("rules", "players", "hidden1", "hidden2"):
            if saved.get(key) != getattr(cfg, key):
                raise NeuralWeightsError(f"{ckpt}: the run has {key}={saved.get(key)!r}, "
                                         f"not {getattr(cfg, key)!r}")
        opt = Adam(net, cfg.lr)
        opt.m = {k: extra[f"adam_m_{k}"] for k in net.params}
        opt.v = {k: extra[f"adam_v_{k}"] for k in net.params}
        opt.t = int(extra["adam_t"][0])
        rng = np.random.default_rng()
        rng.bit_generator.state = json.loads(extra["rng"].tobytes().decode())
        progress = {k: net.header.get(k, v) for k, v in progress.items()}
        log(f"resumed {ckpt}: {progress['hands']:,} hands, {progress['samples']:,} samples")
    else:
        if resume:
            log(f"no checkpoint in {out}: starting a new run")
        if init is None:
            net = Network.initial((cfg.hidden1, cfg.hidden2), cfg.seed)
        else:
            net, progress = _warm_start(Path(init), cfg, progress)
            log(f"started from {init}: {progress['hands']:,} hands, "
                f"{progress['samples']:,} samples before")
        opt = Adam(net, cfg.lr)
        rng = np.random.default_rng(cfg.seed)
    return net, opt, rng, progress


def _warm_start(init: Path, cfg: TrainConfig, progress: dict) -> tuple[Network, dict]:
    """A new run's network from a weights file (a checkpoint, or an average of
    checkpoints): its weights, with a fresh optimiser.  The hands and samples
    the file has seen are counted on, so that self-play deals go on past the
    ones it learned from (:func:`selfplay_seed`) and the curve's axis stays
    the total; the header names the file."""
    source = load_network(init)
    if source.hidden[0] > cfg.hidden1 or source.hidden[1] > cfg.hidden2:
        raise NeuralWeightsError(f"{init}: the network has hidden sizes {source.hidden}, "
                                 f"larger than {(cfg.hidden1, cfg.hidden2)}")
    saved = source.header.get("config", {})
    for key in ("rules", "players"):
        if isinstance(saved, dict) and key in saved and saved[key] != getattr(cfg, key):
            raise NeuralWeightsError(f"{init}: the network was trained with {key}="
                                     f"{saved[key]!r}, not {getattr(cfg, key)!r}")
    grown_from = None
    if source.hidden != (cfg.hidden1, cfg.hidden2):
        # A larger --hidden grows the network with the same Q (Network.widened).
        grown_from = list(source.hidden)
        source = source.widened((cfg.hidden1, cfg.hidden2), seed=cfg.seed)
    progress = dict(progress)
    for key in ("hands", "samples"):
        value = source.header.get(key, 0)
        progress[key] = value if isinstance(value, int) and not isinstance(value, bool) \
            and value >= 0 else 0
    digest = source.header.get("sha256")
    net = Network(source.params, {"init": {"path": str(init), "hands": progress["hands"],
                                           "samples": progress["samples"],
                                           "sha256": digest if isinstance(digest, str) else None,
                                           "command": source.header.get("command"),
                                           "widened_from": grown_from}})
    return net, progress


def train(out_dir: str | Path, cfg: TrainConfig, resume: bool = False, command: str = "",
          log: Callable[[str], None] = print, stop_after_s: float | None = None,
          actors: SourceFactory = LocalActor, init: str | Path | None = None) -> Network:
    """Run (or, with ``resume``, continue) a training run in ``out_dir``.

    ``init`` (a weights file) starts a new run from that network instead of
    random weights; with ``resume`` and a checkpoint in ``out_dir`` the
    checkpoint wins.

    ``actors`` starts the self-play: by default :class:`LocalActor`, in this
    process; ``gostop_core.arena.ray_training.RayActors(...)`` plays it in Ray
    actors.  The checkpoint is the same either way, so a run may change
    where it plays when it resumes."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ckpt = out / "checkpoint.npz"
    net, opt, rng, progress = _open_run(out, ckpt, cfg, resume, log, init)
    learner = _Learner(net, opt, rng, cfg, progress)
    stop = {"now": False}

    def _stop(signum, frame):
        stop["now"] = True
    # the handlers come first: a Ctrl-C while the actors start (a Ray cluster can
    # take seconds) stops the run with its checkpoint instead of unwinding
    # through the cluster's start-up
    old = {sig: signal.signal(sig, _stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        source = actors(net, cfg, int(progress["hands"]))
    except BaseException:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        raise
    start = time.monotonic()
    seconds0 = progress["seconds"]
    last_ckpt = start
    lost: ActorsLostError | None = None
    try:
        while progress["hands"] < cfg.hands and not stop["now"]:
            try:
                hands, samples = source.collect()
            except ActorsLostError as exc:
                if not stop["now"]:  # not the actors' share of a Ctrl-C
                    lost = exc
                break
            progress["hands"] += hands
            if samples is not None:
                learner.learn(*samples, source)
            now = time.monotonic()
            if stop_after_s is not None and now - start >= stop_after_s:
                break
            if now - last_ckpt >= cfg.checkpoint_s:
                _checkpoint(out, ckpt, net, opt, rng, cfg, progress, command, learner.losses,
                            log, seconds0 + now - start)
                learner.losses = []
                last_ckpt = time.monotonic()
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        source.close()  # the actors end before the last checkpoint's evaluation
    _checkpoint(out, ckpt, net, opt, rng, cfg, progress, command, learner.losses, log,
                seconds0 + time.monotonic() - start)
    if lost is not None:
        raise lost
    return net


def _checkpoint(out: Path, ckpt: Path, net: Network, opt: Adam, rng: np.random.Generator,
                cfg: TrainConfig, progress: dict, command: str, losses: list[float],
                log: Callable[[str], None], seconds: float) -> None:
    progress["seconds"] = round(seconds, 1)
    digest = _save(ckpt, net, opt, rng, cfg, progress, command)
    point = dict(progress, loss=float(np.mean(losses)) if losses else None, sha256=digest)
    if cfg.eval_deals > 0:
        point["vs_greedy"] = evaluate_vs_greedy(net, cfg.rules, cfg.players, cfg.eval_deals)
    with open(out / "curve.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps(point, sort_keys=True) + "\n")
    ev = point.get("vs_greedy")
    log(f"{progress['hands']:,} hands, {progress['samples']:,} samples, loss "
        f"{point['loss'] if point['loss'] is None else round(point['loss'], 4)}"
        + (f", vs greedy {ev['points']:+.2f} [{ev['low']:+.2f}, {ev['high']:+.2f}]" if ev else ""))
