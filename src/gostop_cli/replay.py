"""``gostop replay``: step through a saved hand on the board of ``gostop play``,
print the position after K decisions, or every decision with its events as JSON.

Records come from ``gostop play --save``, ``gostop arena --records`` or
``record_from_game()`` (docs/records.md).  Reading is strict: a bad record is one
line on stderr and exit code 2, unless ``--skip-bad`` names each bad line and
goes on with the good records.  Registered on the ``gostop`` group by
:mod:`gostop_cli.main`."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import click
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from gostop_core import Event, Game, Move
from gostop_core.records import (
    SKIP, Decision, Record, RecordError, RecordVisitor, iter_records, open_record_file,
    replay,
)

from gostop_cli.options import CommandError, IntRange, one_line

__all__ = ["replay_cmd", "open_records", "record_file_options", "Step", "collect_steps", "PositionAt", "JsonLog"]


# ---------------------------------------------------------------- reading (shared with analyse)
#: How many bad records a reading names (on stderr with --skip-bad, in the error
#: without it); the rest are counted, not kept, so memory stays bounded.
SHOWN_ERRORS = 5


def open_records(path: str, game: int | None, skip_bad: bool,
                 first_only: bool = False) -> list[tuple[int, Record]]:
    """The records of ``path`` to work on, as ``(number, record)`` with the
    record's 1-based number in the file.  Every record is replayed once to check
    it, the file read one record at a time.  A bad record raises
    :class:`CommandError` (exit 2) naming its line, unless ``skip_bad``: then
    the first bad lines are named on stderr, the others counted, and skipped.
    ``game`` picks one record by its number; ``first_only`` keeps only the
    first good one (the others are still checked)."""
    name = "<stdin>" if path == "-" else path
    good: list[tuple[int, Record]] = []
    shown: list[RecordError] = []
    bad = total = 0
    chosen: Record | RecordError | None = None
    try:
        with open_record_file(path) as handle:
            for total, entry in enumerate(iter_records(handle, strict=False, verify=True), 1):
                if isinstance(entry, RecordError):
                    bad += 1
                    if len(shown) < SHOWN_ERRORS:
                        shown.append(entry)
                    if game == total:
                        chosen = entry
                    continue
                if game == total:
                    chosen = entry
                elif game is None and not (first_only and good):
                    good.append((total, entry))
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    except RecordError as exc:  # not UTF-8: the reading cannot go on
        raise CommandError(f"cannot read {name}: {one_line(str(exc))}") from None
    if not total:
        raise CommandError(f"{name}: no record in the file")
    if bad and not skip_bad:
        notes = [f"{bad - 1} more bad record(s)"] if bad > 1 else []
        if bad < total:
            notes.append("--skip-bad replays the good ones")
        more = f" ({'; '.join(notes)})" if notes else ""
        raise CommandError(f"{name}: {one_line(str(shown[0]))}{more}")
    for e in shown:
        click.echo(f"{name}: skipped {one_line(str(e))}", err=True)
    if bad > len(shown):
        click.echo(f"{name}: skipped {bad - len(shown)} more bad record(s)", err=True)
    if game is not None:
        if chosen is None:
            raise CommandError(f"{name}: no game {game}: the file holds {total} "
                               f"record(s)")
        if isinstance(chosen, RecordError):
            raise CommandError(f"{name}: game {game} is a bad record: {one_line(str(chosen))}")
        return [(game, chosen)]
    if not good:
        raise CommandError(f"{name}: no good record in the file")
    return good


def check_seat(record: Record, seat: int | None) -> None:
    if seat is not None and not 0 <= seat < record.players:
        raise CommandError(f"no seat {seat} in a {record.players}-player game")


# ---------------------------------------------------------------- visitors
class PositionAt(RecordVisitor):
    """The position string (or ``seat``'s view string) after ``k`` decisions."""

    def __init__(self, k: int, seat: int | None = None):
        self.k = k
        self.seat = seat
        self.text: str | None = None

    def _take(self, game: Game) -> None:
        self.text = game.position() if self.seat is None else game.view(self.seat).to_str()

    def begin_game(self, game: Game) -> Any:
        if self.k == 0:
            self._take(game)
            return SKIP
        return None

    def visit_decision(self, game: Game, index: int, decision: Decision, events) -> Any:
        if index + 1 == self.k:
            self._take(game)
            return SKIP
        return None

    def result(self) -> str | None:
        return self.text


def _event_dict(ev: Event, seat: int | None) -> dict:
    d = ev.as_dict()
    if seat is not None and ev.kind == "drawn" and ev.player != seat:
        d["card"] = None  # another seat's replacement card stays hidden
        d["cards"] = []
    return d


class JsonLog(RecordVisitor):
    """Every decision with its events and the position (or ``seat``'s view)
    after it."""

    def __init__(self, seat: int | None = None):
        self.seat = seat
        self.start: str | None = None
        self.rows: list[dict] = []

    def _state(self, game: Game) -> str:
        return game.position() if self.seat is None else game.view(self.seat).to_str()

    def begin_game(self, game: Game) -> None:
        self.start = self._state(game)

    def visit_decision(self, game: Game, index: int, decision: Decision, events) -> None:
        key = "position" if self.seat is None else "view"
        self.rows.append({"index": index, "seat": decision.seat, "move": decision.move,
                          "events": [_event_dict(e, self.seat) for e in events],
                          key: self._state(game)})

    def result(self) -> dict:
        return {"start": self.start, "decisions": self.rows}


@dataclass
class Step:
    """The hand after ``index`` decisions: a copy of the game, the decision that
    led here and what it did, in sentences."""

    index: int
    game: Game
    decision: Decision | None = None
    lines: list[str] = field(default_factory=list)


class _Stepper(RecordVisitor):
    def __init__(self, names: Sequence[str], viewer: int):
        self.names = list(names)
        self.viewer = viewer
        self.steps: list[Step] = []
        self.narrator: Any = None

    def begin_game(self, game: Game) -> None:
        from gostop_cli.narration import Narrator
        self.narrator = Narrator(game, self.names, self.viewer)
        lines = [e.describe(self.names) for e in game.deal_events()]
        self.steps.append(Step(0, game.copy(), None, lines))

    def before_decision(self, game: Game, index: int, decision: Decision) -> None:
        self.narrator.game = game
        self.narrator.note_move(Move.from_str(decision.move))

    def visit_decision(self, game: Game, index: int, decision: Decision, events) -> None:
        lines = self.narrator.event_lines(list(events))
        self.steps.append(Step(index + 1, game.copy(), decision, lines))

    def result(self) -> list[Step]:
        return self.steps


def collect_steps(record: Record, viewer: int = 0) -> list[Step]:
    """Every state of the hand, from the start to the last decision."""
    return replay(record, _Stepper(record.names, viewer))


# ---------------------------------------------------------------- the interactive board
def _screen(record: Record, number: int, steps: list[Step], i: int,
            seat: int | None) -> RenderableType:
    from gostop_cli.board import render_board, report_renderables
    from gostop_cli.narration import verb
    step = steps[i]
    names = record.names
    board = render_board(step.game, seat=seat if seat is not None else 0,
                         open_hands=seat is None, names=names, seed=record.seed)
    total = len(steps) - 1
    parts: list[RenderableType] = []
    if step.decision is None:
        head = f"Game {number}: the start ({total} decisions)"
    else:
        d = step.decision
        head = f"Decision {step.index} of {total}: {names[d.seat]} {verb(names[d.seat], 'play')} {d.move}"
    parts.append(Text(head, style="bold"))
    if step.lines:
        parts.append(Text("\n".join(step.lines)))
    parts.append(board)
    outcome = step.game.outcome()
    if outcome is not None:
        parts.append(Panel(Group(*report_renderables(step.game, outcome, names, True)),
                           title=Text(" Hand over ", style="bold"), title_align="left",
                           border_style="green"))
    return Group(*parts)


def step_through(console: Console, record: Record, number: int, seat: int | None,
                 echo: bool) -> int:
    """Enter: next decision; ``b``: back; ``q``: quit (also at the end of input)."""
    from gostop_cli.prompt import EndOfInput, ask
    steps = collect_steps(record, 0 if seat is None else seat)
    who = "every hand open" if seat is None else f"seat {seat}'s view"
    console.print(Text(f"Replay of game {number} · {record.rules} · {record.players} players · "
                       f"{who}.  Enter: next · b: back · q: quit", style="dim"))
    i = 0
    console.print(_screen(record, number, steps, i, seat))
    while True:
        last = i == len(steps) - 1
        prompt = ("End of the record (b back, q quit) " if last
                  else "[Enter] next · b back · q quit ")
        try:
            text = ask(console, prompt, echo).strip().lower()
        except EndOfInput:
            return 0
        if text in ("q", "quit", "exit"):
            return 0
        if text in ("b", "back"):
            if i == 0:
                console.print(Text("This is the start of the hand.", style="red"))
                continue
            i -= 1
        elif text == "":
            if last:
                return 0
            i += 1
        else:
            console.print(Text("Enter: next decision · b: back · q: quit", style="red"))
            continue
        console.print(_screen(record, number, steps, i, seat))


# ---------------------------------------------------------------- the command
def record_file_options(default_game: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The FILE argument, ``--game`` and ``--skip-bad`` of a command that reads
    records (``gostop replay``, ``gostop analyse``)."""
    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        func = click.option(
            "--skip-bad", is_flag=True,
            help="Name each bad record on stderr and go on with the good ones (default: "
                 "a bad record is an error).")(func)
        func = click.option(
            "--game", type=IntRange(1), default=None,
            help="Only this record of the file (1 is the first, counting bad records "
                 f"too) [default: {default_game}].")(func)
        return click.argument("path", metavar="FILE",
                              type=click.Path(dir_okay=False, allow_dash=True))(func)
    return decorate


@click.command("replay", epilog="""\b
Examples:
  gostop replay games.jsonl                  # step through the first game
  gostop replay games.jsonl --game 3 --seat 1
  gostop hint "$(gostop replay games.jsonl --position-at 10)"
  gostop replay games.jsonl --game 2 --json
  gostop replay arena.jsonl --skip-bad --game 5
\b
On the board: Enter shows the next decision, 'b' goes back one, 'q' quits.""")
@record_file_options("the first good one")
@click.option("--seat", type=IntRange(0, 3), default=None,
              help="Show only what this seat saw (its view) instead of every hand open.")
@click.option("--position-at", "position_at", type=IntRange(0), default=None,
              metavar="K",
              help="Print the position string after K decisions (0: the start) and exit; "
                   "with --seat, that seat's view string.")
@click.option("--json", "as_json", is_flag=True,
              help="Print every decision with its events and the position after it.")
def replay_cmd(path: str, game: int | None, seat: int | None, position_at: int | None,
               skip_bad: bool, as_json: bool) -> None:
    """Replay a saved hand (FILE: records of 'gostop play --save', 'gostop arena
    --records' or record_from_game(); docs/records.md) on the board of 'gostop
    play', decision by decision, every hand open or one seat's view."""
    if as_json and position_at is not None:
        raise click.UsageError("--json and --position-at do not go together")
    number, record = open_records(path, game, skip_bad, first_only=True)[0]
    check_seat(record, seat)
    try:
        if position_at is not None:
            if position_at > len(record.decisions):
                raise CommandError(f"game {number} has {len(record.decisions)} decisions: "
                                   f"no position after {position_at}")
            click.echo(replay(record, PositionAt(position_at, seat)))
            return
        if as_json:
            log = replay(record, JsonLog(seat))
            click.echo(json.dumps({
                "game": number, "format": record.format, "rules": record.rules,
                "players": record.players, "dealer": record.dealer, "seed": record.seed,
                "seats": [s._asdict() for s in record.seats], "seat": seat,
                **log, "outcome": record.outcome}, ensure_ascii=False, indent=2))
            return
    except RecordError as exc:  # pragma: no cover - open_records replayed it already
        raise CommandError(one_line(str(exc))) from None
    from gostop_cli.prompt import isatty
    console = Console(highlight=False)
    try:
        code = step_through(console, record, number, seat, echo=not isatty(sys.stdin))
    except KeyboardInterrupt:
        console.print()
        code = 130
    sys.exit(code)
