"""``gostop selfplay``: one bot on every seat, many games, their records written
as JSON Lines shards with a manifest (:mod:`gostop_core.arena.selfplay`).  Registered
on the ``gostop`` group by :mod:`gostop_cli.main`."""

from __future__ import annotations

import json
import sys

import click

from gostop_core import GoStopError
from gostop_cli.options import (
    CommandError, backend_options, make_rules, move_time_option, players_option, rules_options,
    workers_option,
)

__all__ = ["selfplay"]


@click.command(epilog="""\b
Examples:
  gostop selfplay --bot greedy --games 10000 --out data/greedy
  gostop selfplay --bot expectimax:depth=2 --players 3 --games 500 --out data/em3
  gostop selfplay --bot expectimax --games 100000 --out data/em --backend ray --address auto
\b
Game G is the deal of seed SEED+G (dealer 0), the bot on every seat.  DIR gets
shard-00000.jsonl, shard-00001.jsonl, ... (records, docs/records.md; 'gostop
replay' reads them) and manifest.json (the settings, the engine version and each
finished shard).  Running the same command again resumes: finished shards are
skipped.  Ctrl-C keeps every finished shard.""")
@click.option("--bot", default="greedy", show_default=True, metavar="BOT",
              help="The bot on every seat (a bot specification, as in 'gostop arena').")
@players_option
@rules_options
@click.option("--games", type=click.IntRange(1, 10 ** 9), required=True, help="Games to play.")
@click.option("--out", "out", metavar="DIR", required=True,
              type=click.Path(file_okay=False), help="Output directory (created if missing).")
@click.option("--seed", type=click.IntRange(0, 2 ** 40), default=0, show_default=True,
              help="Seed of game 0 (game G uses seed + G).")
@click.option("--shard-size", type=click.IntRange(1, 10 ** 7), default=1000, show_default=True,
              help="Games per shard file (and per task).")
@workers_option("Processes, or CPUs of a local Ray cluster (default: every core).")
@move_time_option("Time per move of a bot gostop did not write; a slower answer forfeits.")
@backend_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON (and no progress bar).")
def selfplay(bot: str, players: int, preset: str, overrides: tuple[str, ...], games: int,
             out: str, seed: int, shard_size: int, workers: int | None, move_time: float,
             backend: str, address: str | None, as_json: bool) -> None:
    """Self-play: BOT on every seat for --games games, every game's record
    written to DIR in shards, with a manifest; resumable."""
    from rich.console import Console
    from rich.progress import (
        BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn,
    )

    from gostop_core.bots.plugins import resolve_bot
    from gostop_core.arena.selfplay import run_selfplay
    rules = make_rules(preset, overrides)
    try:
        resolve_bot(bot)
    except ValueError as exc:
        raise click.BadParameter(" ".join(str(exc).split()), param_hint="'--bot'") from None
    if address and backend != "ray":
        raise click.BadParameter("--address needs --backend ray", param_hint="'--address'")
    console = Console(stderr=True)
    try:
        with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console, transient=True,
                      disable=as_json or not console.is_terminal) as bar:
            task = bar.add_task("games", total=games)
            result = run_selfplay(bot, games, out, players=players, rules=rules, seed=seed,
                                  shard_size=shard_size, backend=backend, workers=workers,
                                  address=address, move_time=move_time,
                                  on_games=lambda done: bar.update(task, completed=done))
    except OSError as exc:
        raise CommandError(f"cannot write to {out}: {exc.strerror or exc}") from None
    except (GoStopError, ValueError) as exc:
        raise CommandError(" ".join(str(exc).split())) from None
    except KeyboardInterrupt:
        click.echo(f"Interrupted: the finished shards are in {out}; run the same command "
                   "again to resume.", err=True)
        sys.exit(130)
    if as_json:
        click.echo(json.dumps(result.as_dict(), indent=2))
        return
    rate = f", {result.played / result.seconds:.1f} games/s" if result.played else ""
    click.echo(f"{games} games of {result.manifest['bot']} in {result.shards} shard(s) in {out}: "
               f"{result.written} written now, {result.skipped} finished before; "
               f"{result.forfeits} forfeit(s); {result.seconds:.1f} s{rate}")
