"""``gostop train-neural``: Deep Monte-Carlo self-play training of the Q network
(:mod:`gostop_core.neural.dmc`).  Registered on the ``gostop`` group by
:mod:`gostop_cli.main`."""

from __future__ import annotations

import shlex
import sys

import click

from gostop_core import GoStopError
from gostop_cli.options import CommandError, FloatRange, IntRange, backend_options

__all__ = ["train_neural"]

_PRESETS = ("casual", "standard")


@click.command("train-neural", epilog="""\b
Examples:
  gostop train-neural --out /work/runs/casual2 --hands 20000000
  gostop train-neural --out /work/runs/casual2 --hands 40000000 --resume
  gostop train-neural --out /tmp/smoke --hands 2000 --games 64 --eval-deals 20
  gostop train-neural --out runs/tuned --init runs/casual2/checkpoint.npz --lr 0.0001
  gostop train-neural --out runs/td --init runs/casual2/checkpoint.npz --td-lambda 0.7
  gostop train-neural --out runs/wide --init runs/casual2/checkpoint.npz --hidden 512 256
  gostop train-neural --out /work/runs/casual2 --backend ray --address auto --resume
\b
The run's directory gets checkpoint.npz (weights, Adam's state, the sampling
RNG, hands and samples seen; replaced atomically every --checkpoint seconds)
and curve.jsonl (one line a checkpoint: hands, samples, loss, the network
against the greedy policy on --eval-deals duplicate deals from seed 500,000).
Ctrl-C writes a last checkpoint; --resume continues from it.  The weights for
the neural bot are the checkpoint itself (gostop play --bot neural:weights=FILE).
With --backend ray the self-play runs in --actors Ray actors, the learner in
this process; the checkpoint is the same, so a run may resume on either backend.""")
@click.option("--out", "out_dir", metavar="DIR", required=True,
              type=click.Path(file_okay=False), help="The run's directory.")
@click.option("--rules", type=click.Choice(_PRESETS), default="casual", show_default=True)
@click.option("--players", type=IntRange(2, 3), default=2, show_default=True)
@click.option("--hands", type=IntRange(1, 10**10), default=20_000_000, show_default=True,
              help="Stop once this many self-play hands are played (over every sitting).")
@click.option("--games", type=IntRange(1, 65536), default=256, show_default=True,
              help="Games stepped side by side (more is not faster: the hidden layer of "
                   "every legal move of 256 games fits in the processor's cache).")
@click.option("--epsilon", type=FloatRange(0, 1), default=0.05, show_default=True)
@click.option("--lr", type=FloatRange(1e-7, 1), default=5e-4, show_default=True)
@click.option("--batch", type=IntRange(16, 65536), default=1024, show_default=True)
@click.option("--ratio", type=FloatRange(0.01, 100), default=0.5, show_default=True,
              help="Training rows per new sample.")
@click.option("--replay", type=IntRange(10_000, 10**8), default=500_000, show_default=True,
              help="Samples kept in the replay buffer.")
@click.option("--hidden", type=(IntRange(1, 1024), IntRange(1, 1024)), default=(256, 128),
              show_default=True, help="Sizes of the two hidden layers.")
@click.option("--greedy-share", type=FloatRange(0, 1), default=0.0, show_default=True,
              help="Share of the games in which the network plays against the greedy "
                   "policy (its seats only are learned from); the rest is self-play.")
@click.option("--td-lambda", type=FloatRange(0, 1), default=1.0, show_default=True,
              help="1: each decision learns the hand's final result (Monte-Carlo); below 1: "
                   "the lambda-return over the values the network gave the seat's later "
                   "choices in the hand (less noise, some bias).")
@click.option("--seed", type=IntRange(0, 999_999), default=0, show_default=True)
@click.option("--checkpoint", "checkpoint_s", type=FloatRange(1, 86400), default=300,
              show_default=True, help="Seconds between checkpoints.")
@click.option("--eval-deals", type=IntRange(0, 100_000), default=200, show_default=True)
@click.option("--resume", is_flag=True, help="Continue from the directory's checkpoint.")
@click.option("--init", "init", metavar="WEIGHTS", default=None,
              type=click.Path(dir_okay=False),
              help="Start a new run from this weights file's network (a checkpoint or "
                   "an average; same --rules and --players) with a fresh optimiser; its "
                   "hands and samples are counted on.  A network smaller than --hidden "
                   "is grown to it with the same Q values.  With --resume a checkpoint "
                   "in --out wins.")
@backend_options
@click.option("--actors", type=IntRange(1, 4096), default=None,
              help="With --backend ray: self-play actor processes, one CPU each (default: the "
                   "cluster's CPUs less one for the learner, at least 1).")
def train_neural(out_dir: str, rules: str, players: int, hands: int, games: int, epsilon: float,
                 lr: float, batch: int, ratio: float, replay: int, hidden: tuple[int, int],
                 greedy_share: float, td_lambda: float, seed: int, checkpoint_s: float, eval_deals: int,
                 resume: bool, init: str | None,
                 backend: str,
                 address: str | None, actors: int | None) -> None:
    """Train the neural bot's Q network by self-play (Deep Monte-Carlo;
    docs/strength.md, round 6)."""
    from gostop_core.neural.dmc import LocalActor, SourceFactory, TrainConfig, train
    if backend != "ray":
        for name, value in (("--address", address), ("--actors", actors)):
            if value is not None:
                raise click.BadParameter(f"{name} needs --backend ray", param_hint=f"'{name}'")
    cfg = TrainConfig(rules=rules, players=players, hands=hands, games=games, epsilon=epsilon,
                      lr=lr, batch=batch, replay=replay, ratio=ratio, hidden1=hidden[0],
                      hidden2=hidden[1], seed=seed, checkpoint_s=checkpoint_s,
                      eval_deals=eval_deals, greedy_share=greedy_share, td_lambda=td_lambda)
    command = " ".join(shlex.quote(a) for a in ["gostop", "train-neural"] + sys.argv[2:]) \
        if len(sys.argv) > 1 and sys.argv[1] == "train-neural" else "gostop train-neural"

    def log(line: str) -> None:
        click.echo(line, err=True)
    try:
        source: SourceFactory = LocalActor
        if backend == "ray":
            from gostop_core.arena.ray_training import RayActors
            source = RayActors(actors, address, log=log)
        train(out_dir, cfg, resume=resume, command=command, log=log, actors=source, init=init)
    except OSError as exc:
        raise CommandError(f"{exc.filename or out_dir}: {exc.strerror or exc}") from None
    except (GoStopError, ValueError) as exc:
        raise CommandError(" ".join(str(exc).split())) from None
