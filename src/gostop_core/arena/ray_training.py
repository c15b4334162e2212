"""Deep Monte-Carlo self-play in Ray actors (``gostop train-neural --backend ray``).

The learner stays in the driver (:func:`gostop_core.neural.dmc.train`, with
``actors=RayActors(...)``); the self-play moves out to ``N`` Ray actors.  Each
actor (:class:`SelfPlayActor`, one CPU) holds a
:class:`~gostop_core.neural.selfplay.SelfPlay` and a copy of the network; a
request plays a fixed number of batch steps on the weights it was last sent
and returns the finished samples (state, action, result) and the hands it
finished.  Every actor has one request in flight.  The driver takes the
results in a fixed round-robin order (actor 0, 1, ..., 0, ...), sends that
actor its next request at once (with the newest weights, if it has not had
them yet), then learns from the samples: with one actor the learner trains
while the actor plays, and the run depends only on its seed and settings,
never on which actor happened to finish first.  The weights go into Ray's
object store once per update (``ray.put``), whatever the number of actors.

A request still in flight when the run stops is dropped, so the hands and
samples a checkpoint counts are exactly those the learner saw.  Each actor's
deals come from the run's seed, the hands played before the sitting and the
actor's index (:func:`~gostop_core.neural.dmc.selfplay_seed`).  The checkpoint
is the local backend's, so a run may go on with either backend.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable

import numpy as np

from gostop_core.arena.ray_backend import connect, require_ray
from gostop_core.errors import GoStopError
from gostop_core.neural.dmc import DRAIN_SAMPLES, ActorsLostError, TrainConfig, selfplay_seed
from gostop_core.neural.network import Network
from gostop_core.neural.selfplay import SelfPlay

__all__ = ["RayActors", "SelfPlayActor", "default_actors", "default_steps"]

#: A request that takes this long (seconds) is said in the log: an actor the
#: cluster has no CPU for never starts, and the run would wait in silence.
SLOW_REQUEST_S = 60.0


def default_steps(games: int) -> int:
    """Batch steps per request: about as many samples as the local actor hands
    over at a time (:data:`~gostop_core.neural.dmc.DRAIN_SAMPLES`)."""
    return max(1, math.ceil(DRAIN_SAMPLES / games))


def default_actors(cpus: float) -> int:
    """The cluster's CPUs less one for the learner, at least one."""
    return max(1, int(cpus) - 1)


class SelfPlayActor:
    """A Ray actor's state: the games in C and the network that plays them."""

    def __init__(self, settings: dict[str, Any], seed: int, params: dict[str, np.ndarray],
                 steps: int):
        self.steps = steps
        self.epsilon = settings["epsilon"]
        self.net = Network(_writable(params))
        self.games = SelfPlay(settings["games"], settings["rules"], settings["players"],
                              seed=seed, weights=self.net.play_weights(),
                              greedy_share=settings.get("greedy_share", 0.0),
                              td_lambda=settings.get("td_lambda", 1.0))

    def play(self, params: dict[str, np.ndarray] | None = None
             ) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
        """``steps`` batch steps (on ``params`` when given, else on the weights
        it has); returns the hands finished and their samples."""
        if params is not None:
            self.net = Network(_writable(params))
            self.games.set_weights(self.net.play_weights())
        before = self.games.hands
        for _ in range(self.steps):
            h1 = self.games.prepare()
            self.games.advance(self.net.head(h1), self.epsilon)
        states, actions, returns = self.games.drain()
        return self.games.hands - before, states, actions, returns


def _writable(params: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    # arrays from Ray's object store are read-only views; SelfPlay copies from writable buffers
    return {k: np.array(v) for k, v in params.items()}


class RayActors:
    """The ``actors`` of :func:`gostop_core.neural.dmc.train` on Ray: ``actors``
    actor processes (default :func:`default_actors` of the cluster's CPUs),
    ``steps`` batch steps a request (default :func:`default_steps`).  Without
    ``address`` a local cluster (127.0.0.1, ``actors`` + 1 CPUs, or every core)
    is started for the run and shut down after it; with one the run joins that
    cluster and leaves it running.  Raises :class:`GoStopError` at once when
    Ray is not installed."""

    def __init__(self, actors: int | None = None, address: str | None = None,
                 steps: int | None = None, log: Callable[[str], None] | None = None,
                 poll: float = 0.2):
        require_ray()
        if actors is not None and actors < 1:
            raise GoStopError(f"actors must be at least 1, got {actors}")
        if steps is not None and steps < 1:
            raise GoStopError(f"steps must be at least 1, got {steps}")
        self.actors, self.address, self.steps = actors, address, steps
        self.log = log or (lambda line: None)
        self.poll = poll

    def __call__(self, net: Network, cfg: TrainConfig, hands: int) -> "_RaySource":
        return _RaySource(self, net, cfg, hands)


class _RaySource:
    """The running actors of one sitting (a :class:`~gostop_core.neural.dmc.SampleSource`)."""

    def __init__(self, opts: RayActors, net: Network, cfg: TrainConfig, hands: int):
        self.ray = ray = require_ray()
        self.net = net
        self.poll = opts.poll
        self.log = opts.log
        self.waiting_since: float | None = None
        self.handles: list[Any] = []
        self.pending: list[Any] = []
        self.closed = False
        self.started = connect(opts.address, None if opts.actors is None else opts.actors + 1)
        try:
            cpus = int(ray.cluster_resources().get("CPU", 0))
            count = opts.actors or default_actors(cpus)
            if count > cpus:
                raise GoStopError(f"the Ray cluster has {cpus} CPU(s): at most {cpus} actors "
                                  f"(one CPU each), not {count}")
            steps = opts.steps or default_steps(cfg.games)
            settings = {"rules": cfg.rules, "players": cfg.players, "games": cfg.games,
                        "greedy_share": cfg.greedy_share, "td_lambda": cfg.td_lambda,
                        "epsilon": cfg.epsilon}
            actor_class = ray.remote(num_cpus=1, max_restarts=0)(SelfPlayActor)
            self.weights = ray.put(net.params)
            self.version = 0
            for index in range(count):
                self.handles.append(actor_class.remote(settings, selfplay_seed(cfg, hands, index),
                                                       self.weights, steps))
            self.sent = [0] * count
            self.pending = [actor.play.remote() for actor in self.handles]
            self.next = 0
            where = (f"the Ray cluster at {opts.address}" if opts.address else
                     f"a local Ray cluster of {cpus} CPU(s)" if self.started else "Ray")
            opts.log(f"{count} self-play actor(s) on {where}, {steps} step(s) of "
                     f"{cfg.games} games a request")
        except BaseException:
            self.close()
            raise

    def collect(self) -> tuple[int, tuple[np.ndarray, np.ndarray, np.ndarray] | None]:
        from ray.exceptions import RayActorError, RayTaskError
        ray, at = self.ray, self.next
        ready, _ = ray.wait([self.pending[at]], timeout=self.poll)
        if not ready:  # the caller looks at the clock and the stop signal
            now = time.monotonic()
            if self.waiting_since is None:
                self.waiting_since = now
            elif now - self.waiting_since >= SLOW_REQUEST_S:
                self.log(f"waiting {now - self.waiting_since:.0f} s for self-play actor {at}: "
                         "does the cluster have a free CPU for it?")
                self.waiting_since = now
            return 0, None
        self.waiting_since = None
        try:
            hands, states, actions, returns = ray.get(ready[0])
        except RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, Exception):
                raise cause from None  # the actor's own error: a bug, not a lost actor
            raise ActorsLostError(f"self-play actor {at} was interrupted") from None
        except RayActorError as exc:
            init = exc.args[0] if getattr(exc, "actor_init_failed", False) and exc.args else None
            cause = getattr(init, "cause", None)
            if isinstance(cause, Exception):
                raise cause from None  # its __init__ failed: the settings, or a bug
            raise ActorsLostError(f"self-play actor {at} died ({type(exc).__name__}); "
                                  "--resume continues from the checkpoint") from None
        # its next request goes out before the learner trains on this one
        fresh = self.sent[at] != self.version
        self.pending[at] = self.handles[at].play.remote(self.weights if fresh else None)
        self.sent[at] = self.version
        self.next = (at + 1) % len(self.handles)
        return hands, (states, actions, returns) if len(returns) else None

    def sync(self, learned: bool) -> None:
        # once per batch of samples learned, not every sync_batches steps: an
        # actor takes new weights only with its next request anyway
        if learned:
            self.weights = self.ray.put(self.net.params)
            self.version += 1

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            for actor in self.handles:
                try:
                    self.ray.kill(actor, no_restart=True)
                except Exception:  # pragma: no cover - already gone
                    pass
        finally:
            self.pending = []
            self.handles = []
            if self.started:
                self.ray.shutdown()
