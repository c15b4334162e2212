"""``gostop analyse``: every decision of a saved hand judged by the expectimax
bot, from the deciding seat's view at that moment (never the hidden cards).

For each decision with a choice, the search values every legal move in the
seat's expected net points (no win bonus: plain points); the loss is the best
value minus the value of the move played.  Marks follow the chess tools'
inaccuracy / mistake / blunder at :data:`THRESHOLDS`.  Registered on the
``gostop`` group by :mod:`gostop_cli.main`."""

from __future__ import annotations

import json
from typing import Any

import click

from gostop_core.bots import ExpectimaxBot
from gostop_core.bots.analysis import (
    THRESHOLDS, Review, Reviewer, mark_of, review_record,
)
from gostop_core.bots.search import MAX_DEPTH, MAX_SAMPLES

from gostop_cli.options import CommandError, IntRange
from gostop_cli.replay import check_seat, open_records, record_file_options

__all__ = ["analyse", "Review", "Reviewer", "review_record", "THRESHOLDS", "mark_of"]

def _summary(reviews: list[Review], seat: int) -> str:
    mine = [r for r in reviews if r.seat == seat]
    total = sum(r.loss for r in mine)
    counts = [(name, sum(1 for r in mine if r.mark == name)) for name, _ in THRESHOLDS]
    plural = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}
    marks = ", ".join(f"{n} {name if n == 1 else plural[name]}" for name, n in counts if n) \
        or "nothing marked"
    return (f"seat {seat}: {len(mine)} decision(s) with a choice, total expected loss "
            f"{total:.2f} ({marks})")


@click.command("analyse", epilog="""\b
Examples:
  gostop analyse games.jsonl                 # every seat of every game
  gostop analyse games.jsonl --game 2 --seat 0
  gostop analyse games.jsonl --seat 0 --json
  gostop analyse arena.jsonl --samples 64 --skip-bad
\b
Marks: inaccuracy from a loss of 0.5 expected points, mistake from 1.5,
blunder from 3.0.""")
@record_file_options("every good one")
@click.option("--seat", type=IntRange(0, 3), default=None,
              help="Only this seat's decisions [default: every seat's].")
@click.option("--depth", type=IntRange(1, MAX_DEPTH), default=ExpectimaxBot.DEPTH,
              show_default=True, help="Search depth in turns.")
@click.option("--samples", type=IntRange(1, MAX_SAMPLES), default=ExpectimaxBot.SAMPLES,
              show_default=True, help="Deals of the unseen cards searched per decision.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def analyse(path: str, game: int | None, seat: int | None, depth: int, samples: int,
            skip_bad: bool, as_json: bool) -> None:
    """Judge every decision of saved hands (FILE: records, docs/records.md) with
    the expectimax bot, from the deciding seat's view at that moment: the value
    of the move played and of the best move in expected points, the loss, and
    marks for the worst decisions; then each seat's total expected loss."""
    chosen = open_records(path, game, skip_bad)
    for _, record in chosen:
        check_seat(record, seat)
    seats = None if seat is None else {seat}
    total = sum(1 for _, r in chosen for d in r.decisions if seats is None or d.seat in seats)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.progress import TimeRemainingColumn
    console = Console(stderr=True)
    reviews: list[Review] = []
    with Progress(TextColumn("decisions"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True,
                  disable=not console.is_terminal) as bar:
        task = bar.add_task("decisions", total=total)
        for number, record in chosen:
            try:
                reviews += review_record(record, number, seats, depth, samples,
                                         on_decision=lambda: bar.advance(task))
            except ValueError as exc:  # pragma: no cover - the record replayed once already
                raise CommandError(" ".join(str(exc).split())) from None
    by_seat: dict[int, float] = {}
    for r in reviews:
        by_seat[r.seat] = round(by_seat.get(r.seat, 0.0) + r.loss, 3)
    if as_json:
        data: dict[str, Any] = {
            "depth": depth, "samples": samples,
            "thresholds": {name: at for name, at in THRESHOLDS},
            "decisions": [r.as_dict() for r in reviews],
            "total_loss": round(sum(r.loss for r in reviews), 3),
            "total_loss_by_seat": {str(s): v for s, v in sorted(by_seat.items())},
        }
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"expectimax depth {depth}, {samples} samples; values in expected points for "
               "the deciding seat, from its view")
    click.echo("marks: " + ", ".join(f"{name} >= {at}" for name, at in reversed(THRESHOLDS)))
    for number, record in chosen:
        mine = [r for r in reviews if r.game == number]
        names = record.names
        seed = f" · seed {record.seed}" if record.seed is not None else ""
        click.echo(f"\nGame {number} · {record.rules} · {record.players} players{seed}")
        if not mine:
            click.echo("  no decision with a choice")
            continue
        width = max([len(r.move) for r in mine] + [6])
        bwidth = max([len(r.best) for r in mine] + [4])
        nwidth = min(16, max([len(names[r.seat]) for r in mine] + [6]))
        click.echo(f"  {'#':>3}  {'seat':>4}  {'player':<{nwidth}}  {'played':<{width}}  "
                   f"{'best':<{bwidth}}  {'value':>7}  {'best':>7}  {'loss':>6}")
        for r in mine:
            who = names[r.seat][:nwidth]
            click.echo(f"  {r.index + 1:>3}  {r.seat:>4}  {who:<{nwidth}}  {r.move:<{width}}  "
                       f"{r.best:<{bwidth}}  {r.value_played:+7.2f}  {r.value_best:+7.2f}  "
                       f"{r.loss:6.2f}{'  ' + r.mark if r.mark else ''}")
        for s in sorted({r.seat for r in mine}):
            click.echo("  " + _summary(mine, s))
    if len(chosen) > 1:
        click.echo("\nAll games: " + "; ".join(f"seat {s} total expected loss {v:.2f}"
                                               for s, v in sorted(by_seat.items())))
