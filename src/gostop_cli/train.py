"""``gostop train``: self-play games of a searching bot, then the learned
playout policy and value fitted to them (:mod:`gostop_core.bots.training`).
Registered on the ``gostop`` group by :mod:`gostop_cli.main`."""

from __future__ import annotations

import json
import shlex
import sys

import click

from gostop_core import GoStopError
from gostop_cli.options import CommandError, FloatRange, IntRange

__all__ = ["train"]


@click.command(epilog="""\b
Examples:
  gostop train --expert expectimax-v1 --games 300 --data iter1.jsonl --out learned.json
  gostop train --expert learned:weights=learned.json --games 300 --seed 300 \\
      --data iter2.jsonl --data iter1.jsonl --out learned2.json
\b
Game G of the run is the deal of seed SEED+G (2 players, casual), the expert on
every seat; every decision with a choice is recorded (the view, the legal moves,
the expert's values and its move) with the game's net points, one JSON line per
game, appended to the first --data file (games already in it are skipped, so
an interrupted run resumes).  Then the policy (softmax regression imitating
the expert's moves) and the value (ridge regression of the net points) are fitted
on every --data file with numpy, and the weights file is written with the
command, the seed range and the library versions in its header.  Seeds stay
below 1,000,000 (those from it are kept for reporting strength).  The same
command gives the same file.""")
@click.option("--expert", default="expectimax-v1", show_default=True, metavar="BOT",
              help="The searching bot whose choices are imitated (a bot name).")
@click.option("--games", type=IntRange(0, 999_999), default=300, show_default=True,
              help="Self-play games to add (0: fit on the data as it is).")
@click.option("--seed", type=IntRange(0, 999_999), default=0, show_default=True,
              help="Seed of the first game.")
@click.option("--data", "data", metavar="FILE", multiple=True, required=True,
              type=click.Path(dir_okay=False),
              help="Self-play data (JSON Lines); the games are added to the first. Repeatable.")
@click.option("--out", metavar="FILE", required=True, type=click.Path(dir_okay=False),
              help="The weights file to write.")
@click.option("--l2", type=FloatRange(0, 100), default=1e-3, show_default=True,
              help="L2 penalty of the policy fit.")
@click.option("--temperature", type=FloatRange(0.01, 100), default=1.0,
              show_default=True, help="Softmax temperature of the opponent model.")
@click.option("--json", "as_json", is_flag=True, help="Print the fit's figures as JSON.")
def train(expert: str, games: int, seed: int, data: tuple[str, ...], out: str, l2: float,
          temperature: float, as_json: bool) -> None:
    """Self-play games of --expert, then the learned policy and value fitted
    to them and written to --out (docs/strength.md, "learned policy")."""
    from gostop_core.bots.plugins import resolve_bot
    from gostop_core.bots.training import generate, train as fit
    try:
        resolve_bot(expert)
    except ValueError as exc:
        raise click.BadParameter(" ".join(str(exc).split()), param_hint="'--expert'") from None
    command = ["gostop", "train", "--expert", expert, "--games", str(games), "--seed", str(seed)]
    for path in data:
        command += ["--data", path]
    command += ["--out", out, "--l2", f"{l2:g}", "--temperature", f"{temperature:g}"]
    try:
        if games:
            written = generate(expert, seed, games, data[0],
                               progress=None if as_json else
                               lambda n: click.echo(f"\r{n} game(s) played", nl=False, err=True))
            if written and not as_json:
                click.echo("", err=True)
        doc = fit(list(data), out, " ".join(shlex.quote(c) for c in command), l2=l2,
                  temperature=temperature)
    except (GoStopError, ValueError) as exc:  # OutputFileError names its path already
        raise CommandError(" ".join(str(exc).split())) from None
    except OSError as exc:
        raise CommandError(f"{exc.filename or out}: {exc.strerror or exc}") from None
    except KeyboardInterrupt:
        click.echo(f"\nInterrupted: the games played so far are in {data[0]}; run the same "
                   "command again to resume.", err=True)
        sys.exit(130)
    header = doc["header"]
    if as_json:
        click.echo(json.dumps({"out": out, "games": header["games"], "seeds": header["seeds"],
                               "fit": header["fit"]}, indent=2))
        return
    fitted = header["fit"]
    click.echo(f"{out}: {header['games']} games (seeds {header['seeds'][0]}-{header['seeds'][1]}), "
               f"{fitted['policy']['decisions']} decisions; the policy picks the expert's move "
               f"in {100 * fitted['policy']['accuracy']:.1f}% of them; value RMSE "
               f"{fitted['value']['rmse']:.2f} points (the mean alone: "
               f"{fitted['value']['baseline_rmse']:.2f})")
