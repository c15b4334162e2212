"""``gostop hint`` and ``gostop arena``: the expectimax bot's ranking of a
position, and bots against each other on duplicate deals.  Registered on the
``gostop`` group by :mod:`gostop_cli.main`."""

from __future__ import annotations

import json
import os
import time
from typing import Any

import click

from gostop_core import GoStopError, Game, PlayerView, preset_names
from gostop_core.moves import RankedMove
from gostop_core.cards import format_mask
from gostop_core.notation import parse_view
from gostop_core.records import RecordWriteError, RecordWriter
from gostop_core.bots import BEST_SETTINGS, ExpectimaxBot
from gostop_core.bots.analysis import HINT_TIME_MS, hint_moves, payout_unit, public_line
from gostop_core.bots.search import MAX_DEPTH, MAX_SAMPLES
from gostop_cli.options import (CommandError, FloatRange, IntRange, backend_options, make_rules, move_time_option,
                                workers_option)

__all__ = ["hint", "arena", "hint_moves", "public_line", "payout_unit"]


def _view_text(position: str) -> tuple[str, int]:
    """The player-view string of the seat to move, from a position or view string."""
    text = " ".join(position.split())
    if text.startswith("gostop-view/1"):
        _, fields = parse_view(text)
        if fields["phase"] == 3:
            raise CommandError("the hand is over: there is no move to hint")
        if fields["seat"] != fields["to_move"]:
            raise CommandError(f"this is seat {fields['seat']}'s view but seat {fields['to_move']} "
                         "is to move: hint needs the view of the seat to move")
        return text, fields["seat"]
    game = Game.from_position(text)
    if game.is_over():
        raise CommandError("the hand is over: there is no move to hint")
    seat = game.turn
    assert seat is not None
    return game.view(seat).to_str(), seat


def neural_hint_moves(view: str | PlayerView, bot: str = "neural") -> list[RankedMove]:
    """Every legal move of the view's seat ranked by the ``neural`` bot's Q
    (``bot``: ``neural`` or ``neural:weights=PATH``), best first, in the payout's
    units from this decision on (chips already paid this hand left out); no
    search, so no line."""
    from gostop_core.bots.neural import neural_from_spec
    text = view if isinstance(view, str) else view.to_str()
    _, fields = parse_view(text)
    booked = fields["chips"][fields["seat"]]
    net = neural_from_spec(bot[len("neural:"):] if bot.startswith("neural:") else "", None)
    scored = net.q_values(text)
    order = sorted(range(len(scored)), key=lambda i: -scored[i][1])
    return [RankedMove(scored[i][0], scored[i][1] - booked, ()) for i in order]


@click.command(epilog="""\b
Examples:
  gostop hint "$(gostop deal --seed 7)"
  gostop hint "gostop-view/1 rules=casual players=2 seat=0 ..." --json
  gostop hint "$(gostop deal --seed 7)" --depth 2 --samples 32
  gostop hint "$(gostop deal --seed 7)" --time 3000    # a longer look
  gostop hint "$(gostop deal --seed 7)" --bot neural   # the network's Q, no search""")
@click.argument("position")
@click.option("--bot", default="best", show_default=True, metavar="BOT",
              help="best: the search; neural (or neural:weights=FILE): the network's Q of "
                   "each move, no search (instant).")
@click.option("--depth", type=IntRange(1, MAX_DEPTH), default=BEST_SETTINGS["depth"],
              show_default=True,
              help="Search depth in turns (1: this turn; 2: and the next seat's).")
@click.option("--samples", type=IntRange(1, MAX_SAMPLES), default=BEST_SETTINGS["samples"],
              show_default=True,
              help="Most deals of the unseen cards searched and averaged (fewer once the "
                   "best move is clear, or when the time is up).")
@click.option("--time", "time_ms", type=FloatRange(0, 3_600_000), default=HINT_TIME_MS,
              show_default=True, metavar="MS",
              help="Time budget in milliseconds (0: none); the search stops sampling there.")
@click.option("--leaf", type=click.Choice(ExpectimaxBot.LEAVES), default=BEST_SETTINGS["leaf"],
              show_default=True,
              help="Value past the depth: the hand played out by the greedy policy, or the "
                   "fitted estimate.")
@click.option("--seed", type=IntRange(0, 2 ** 32 - 1), default=0, show_default=True,
              help="Seed of the sampling.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def hint(position: str, bot: str, depth: int, samples: int, time_ms: float, leaf: str, seed: int,
         as_json: bool) -> None:
    """Rank every legal move of POSITION with its expected value and principal line.

    POSITION is a position string (gostop/1 ..., the seat to move is advised and
    only its view is used) or the player-view string (gostop-view/1 ...) of the
    seat to move.  Values are in the payout's units: the net points (chips
    under chip rules, balance under family rules) the hand is expected to bring
    that seat from this decision on, by the search's model (docs/search.md); a
    Stop is worth what it pays.
    The line shows the seat's own moves; "flip" is a card turned from the
    stock and p1, p2... another seat's move, since those cards are unknown
    (--json gives the line of one sampled deal with its cards)."""
    started = time.perf_counter()
    try:
        if bot != "best" and bot != "neural" and not bot.startswith("neural:"):
            raise click.BadParameter(f"{bot!r}: use best, neural or neural:weights=FILE",
                                     param_hint="'--bot'")
        view, seat = _view_text(position)
        ranked = (neural_hint_moves(view, bot) if bot != "best"
                  else hint_moves(view, depth, samples, seed, leaf, time_ms))
    except (GoStopError, ValueError) as exc:
        raise CommandError(" ".join(str(exc).split())) from None
    ms = (time.perf_counter() - started) * 1000
    rules, fields = parse_view(view)
    unit = payout_unit(rules)
    known = format_mask(fields["hand"] | fields["field"]).split()
    if bot != "best":
        if as_json:
            click.echo(json.dumps({"seat": seat, "bot": bot, "ms": round(ms, 1), "unit": unit,
                                   "best": str(ranked[0].move),
                                   "moves": [r.as_dict() for r in ranked]}, indent=2))
            return
        click.echo(f"Seat {seat} to move; {bot}: the network's Q, no search ({ms:.1f} ms); "
                   f"values: expected net {unit} from here")
        width = max(len(str(r.move)) for r in ranked)
        for i, r in enumerate(ranked, 1):
            click.echo(f"{i:>2}. {str(r.move):<{width}}  {r.value:+8.3f}")
        return
    if as_json:
        click.echo(json.dumps({
            "seat": seat, "depth": depth, "samples": max(r.samples for r in ranked),
            "leaf": leaf, "ms": round(ms, 1),
            "unit": unit, "best": str(ranked[0].move),
            "moves": [dict(r.as_dict(), public_line=public_line(r.line, known=known))
                      for r in ranked],
        }, indent=2))
        return
    click.echo(f"Seat {seat} to move; expectimax depth {depth}, "
               f"{max(r.samples for r in ranked)} samples, "
               f"{leaf} leaves ({ms:.0f} ms); values: expected net {unit} from here")
    width = max(len(str(r.move)) for r in ranked)
    for i, r in enumerate(ranked, 1):
        click.echo(f"{i:>2}. {str(r.move):<{width}}  {r.value:+8.3f}   "
                   f"{' '.join(public_line(r.line, known=known))}")


class OrderedRecords:
    """Writes the arena's game records to ``handle`` (a
    :class:`~gostop_core.records.RecordWriter`) in deal and rotation order as
    the games finish (in any order): a deal waits only until the deals before it
    are written, so the memory holds the deals in flight, not the arena."""

    def __init__(self, handle: Any, rotations: int):
        self.handle = handle
        self.rotations = rotations
        self.next_deal = 0
        self.waiting: dict[int, dict[int, Any]] = {}

    def add(self, game: Any) -> None:
        """Take one :class:`~gostop_core.arena.GameRecord` (with its record)."""
        self.waiting.setdefault(game.deal, {})[game.rotation] = game.record
        while len(self.waiting.get(self.next_deal, ())) == self.rotations:
            deal = self.waiting.pop(self.next_deal)
            for rotation in sorted(deal):
                self.handle.write(deal[rotation])
            self.next_deal += 1

    def close(self) -> None:
        """Close the file (the deals of an interrupted arena that did not follow
        every deal before them are left out)."""
        self.handle.close()


@click.command(epilog="""\b
Examples:
  gostop arena best expectimax-v1 --deals 200 --seed 1000000
  gostop arena expectimax:time=100 greedy --deals 100 --json
  gostop arena ismcts:iterations=4000 expectimax-v1 --deals 100 --json
  gostop arena expectimax random --deals 100 --json
  gostop arena expectimax greedy greedy --players 3 --rules traditional
  gostop arena greedy random --deals 50 --records games.jsonl
  gostop arena expectimax greedy --deals 2000 --backend ray --address auto
  gostop arena my_bot.py:MyBot greedy --deals 50
  gostop arena "cmd:python3 mybot.py" greedy --move-time 2
\b
A bot is a built-in name (random, greedy, expectimax, expectimax:depth=2,...,
ismcts, ismcts:iterations=4000,...),
path/to/file.py:Class, package.module:Class, a bot an installed package
registers (entry points "gostop.bots"), or cmd:COMMAND, a program speaking the
line protocol (docs/protocol.md).  A bot that crashes, exceeds --move-time,
answers garbage or an illegal move, or floods its output loses that game by
forfeit and pays each opponent the Stop threshold; a program is restarted for
its next game.""")
@click.argument("bots", nargs=-1)
@click.option("--deals", type=IntRange(1, 10 ** 7), default=100, show_default=True,
              help="Duplicate deals; each is played once per seat rotation.")
@click.option("--players", type=IntRange(2, 4), default=2, show_default=True,
              help="Number of players, 2-4.")
@click.option("--rules", "preset", type=click.Choice(preset_names()), default=preset_names()[0],
              show_default=True, help="Rules preset.")
@click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
              help="Override one rules field (repeatable).")
@click.option("--seed", type=IntRange(0, 2 ** 40), default=0, show_default=True,
              help="Seed of the first deal (deal d uses seed + d).")
@workers_option("Processes (default: every core).")
@move_time_option("Time per move of the bots gostop did not write; a slower answer forfeits "
                  "the game.")
@click.option("--records", "records_path", metavar="FILE", type=click.Path(dir_okay=False),
              help="Write every game's record to FILE (JSON Lines, docs/records.md), in deal "
                   "and rotation order; 'gostop replay FILE' and 'gostop analyse FILE' read it.")
@backend_options
@click.option("--batch", type=IntRange(1, 10 ** 6), default=None, metavar="N",
              help="With --backend ray: deals per task (default: up to 64, fewer when "
                   "there are few deals per CPU; docs/scale.md).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (and no progress bar).")
def arena(bots: tuple[str, ...], deals: int, players: int, preset: str,
          overrides: tuple[str, ...], seed: int, workers: int | None, move_time: float,
          records_path: str | None, backend: str, address: str | None, batch: int | None,
          as_json: bool) -> None:
    """Bots against each other on duplicate deals (BOTS: one per seat, fewer are
    completed with the last; default: best greedy).  Each deal is replayed
    with the seats rotated.  Reports each bot's mean net points per game with a
    95% confidence interval (over deals), its win rate, its games lost by
    forfeit, and the draw rate."""
    import sys

    from gostop_core.arena import run_arena
    from gostop_core.bots.plugins import resolve_bot
    rules = make_rules(preset, overrides)
    names = list(bots) or ["best", "greedy"]
    for name in names:
        try:
            resolve_bot(name)
        except ValueError as exc:
            raise click.BadParameter(" ".join(str(exc).split()), param_hint="'BOTS'") from None
    if len(names) > players:
        raise click.BadParameter(f"{len(names)} bots for {players} seats", param_hint="'BOTS'")
    if address and backend != "ray":
        raise click.BadParameter("--address needs --backend ray", param_hint="'--address'")
    if batch and backend != "ray":
        raise click.BadParameter("--batch needs --backend ray", param_hint="'--batch'")
    workers = min(workers or os.cpu_count() or 1, deals)
    where = f"{workers} worker(s)" if backend == "local" else (
        f"Ray cluster at {address}" if address else f"local Ray cluster, {workers} CPU(s)")
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    console = Console(stderr=True)
    sink = None
    if records_path is not None:
        try:
            sink = OrderedRecords(RecordWriter(records_path), players)
        except RecordWriteError as exc:
            raise CommandError(str(exc)) from None
    started = time.perf_counter()
    try:
        with Progress(TextColumn("deals"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=console, transient=True,
                      disable=as_json or not console.is_terminal) as bar:
            task = bar.add_task("deals", total=deals)
            result = run_arena(names, deals=deals, players=players, rules=rules, seed=seed,
                               workers=workers, move_time=move_time, keep_records=False,
                               game_records=sink is not None,
                               on_record=None if sink is None else sink.add,
                               on_deal=lambda done: bar.update(task, completed=done),
                               backend=backend, address=address, batch=batch)
    except RecordWriteError as exc:  # a full disk: the file holds the records before
        written = sink.handle.written if sink is not None else 0
        raise CommandError(f"{exc} (it holds the {written} complete record(s) written "
                           "before)") from None
    except (GoStopError, ValueError) as exc:
        raise CommandError(" ".join(str(exc).split())) from None
    except OSError as exc:
        raise CommandError(f"cannot write {records_path}: {exc.strerror or exc}") from None
    except KeyboardInterrupt:
        click.echo("Interrupted: the arena is abandoned.", err=True)
        sys.exit(130)
    finally:
        if sink is not None:
            try:
                sink.close()
            except RecordWriteError:
                pass  # already reported, or about to be
    seconds = time.perf_counter() - started
    if as_json:
        data: dict[str, Any] = result.as_dict()
        data["seconds"] = round(seconds, 1)
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{result.games} games ({deals} deals x {players} rotations), {players} players, "
               f"{result.preset} rules, {where}, {seconds:.1f} s")
    labels = [result.label(i) for i in range(len(result.bots))]
    width = max(len(b) for b in labels)
    for i, b in enumerate(labels):
        lo, hi = result.ci95[i]
        click.echo(f"  {i}. {b:<{width}}  {result.mean_points[i]:+8.3f} points/game "
                   f"[{lo:+.3f}, {hi:+.3f}]  wins {100 * result.win_rate[i]:5.1f}% "
                   f"({100 * result.decided_win_rate[i]:5.1f}% of decided games)  "
                   f"forfeits {result.forfeits[i]}")
    click.echo(f"  draws {100 * result.draw_rate:.1f}%")
    if len(result.bots) > 2:  # with two, the lead is twice entry 0's own figure
        for i, lead in enumerate(result.lead[1:], 1):
            assert lead is not None  # only entry 0's is None
            click.echo(f"  0. ahead of {i}.: {lead[0]:+.3f} points/game [{lead[1]:+.3f}, "
                       f"{lead[2]:+.3f}] (paired deal by deal)")
    for f in result.forfeit_games[:5]:
        click.echo(f"  forfeit: deal {f['deal']} rotation {f['rotation']}, "
                   f"{labels[f['bot']]}: {f['reason']}")
    more = sum(result.forfeits) - min(5, len(result.forfeit_games))
    if more > 0:
        click.echo(f"  ... and {more} more forfeit(s) (--json lists up to 100)")
