"""``gostop analyse``: every decision of a saved hand judged by the expectimax
bot, from the deciding seat's view at that moment (never the hidden cards).

For each decision with a choice, the search values every legal move in the
seat's expected net points (no win bonus: plain points); the loss is the best
value minus the value of the move played.  Marks follow the chess tools'
inaccuracy / mistake / blunder at :data:`THRESHOLDS`.  Registered on the
``gostop`` group by :mod:`gostop_cli.main`."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Callable

import click

from gostop_core import Game, Move
from gostop_core.bots import ExpectimaxBot
from gostop_core.records import Decision, Record, RecordVisitor, replay
from gostop_core.bots.search import MAX_DEPTH, MAX_SAMPLES

from gostop_cli.options import CommandError
from gostop_cli.replay import check_seat, open_records, record_file_options

__all__ = ["analyse", "Review", "Reviewer", "review_record", "THRESHOLDS", "mark_of"]

#: Loss (expected points) from which a decision is marked, worst first.
THRESHOLDS = (("blunder", 3.0), ("mistake", 1.5), ("inaccuracy", 0.5))


def mark_of(loss: float) -> str | None:
    """``blunder``, ``mistake``, ``inaccuracy`` or ``None`` for a loss."""
    for name, at in THRESHOLDS:
        if loss >= at:
            return name
    return None


@dataclass(frozen=True)
class Review:
    """One judged decision: ``index`` (0-based: the decisions before it, so that
    ``gostop replay --position-at INDEX`` shows where it was decided), the seat,
    the move played and the search's best, their values and the loss."""

    game: int
    index: int
    seat: int
    move: str
    best: str
    value_played: float
    value_best: float
    loss: float
    mark: str | None

    def as_dict(self) -> dict:
        return asdict(self)


class Reviewer(RecordVisitor):
    """Judges the decisions of ``seats`` (all when ``None``) that had a choice;
    ``on_decision()`` is called after each decision of those seats."""

    def __init__(self, bot: ExpectimaxBot, number: int, seats: set[int] | None = None,
                 on_decision: Callable[[], None] | None = None):
        self.bot = bot
        self.number = number
        self.seats = seats
        self.on_decision = on_decision
        self.reviews: list[Review] = []

    def before_decision(self, game: Game, index: int, decision: Decision) -> None:
        if self.seats is not None and decision.seat not in self.seats:
            return
        if game.legal_moves.count() > 1:
            played = Move.from_str(decision.move)
            ranked = self.bot.analyse(game.view(decision.seat))  # the seat's view only
            best = max(ranked, key=lambda r: r.value)
            value = next(r.value for r in ranked if r.move == played)
            loss = max(0.0, best.value - value)
            self.reviews.append(Review(self.number, index, decision.seat, decision.move,
                                       str(best.move), round(value, 3), round(best.value, 3),
                                       round(loss, 3), mark_of(loss)))
        if self.on_decision:
            self.on_decision()

    def result(self) -> list[Review]:
        return self.reviews


def review_record(record: Record, number: int = 1, seats: set[int] | None = None,
                  depth: int | None = None, samples: int | None = None, seed: int = 0,
                  on_decision: Callable[[], None] | None = None) -> list[Review]:
    """The reviews of a record's decisions (see :class:`Reviewer`)."""
    bot = ExpectimaxBot(seed, depth=depth, samples=samples, win_bonus=0.0)
    return replay(record, Reviewer(bot, number, seats, on_decision))


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
@click.option("--seat", type=click.IntRange(0, 3), default=None,
              help="Only this seat's decisions [default: every seat's].")
@click.option("--depth", type=click.IntRange(1, MAX_DEPTH), default=ExpectimaxBot.DEPTH,
              show_default=True, help="Search depth in turns.")
@click.option("--samples", type=click.IntRange(1, MAX_SAMPLES), default=ExpectimaxBot.SAMPLES,
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
