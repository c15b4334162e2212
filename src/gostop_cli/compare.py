"""``gostop compare``: two arena runs on the same deals, compared deal by deal
(:mod:`gostop_core.arena.compare`); this module only opens the files and prints."""

from __future__ import annotations

import json

import click

from gostop_core.arena.compare import ComparisonError, PairedComparison, compare_runs
from gostop_core.records import open_record_file
from gostop_cli.options import CommandError, IntRange, one_line


def _shown(name: str, width: int = 80) -> str:
    """A bot's name from a file as printed: characters a terminal would act on
    (escape sequences, line breaks) as backslash escapes, cut to ``width``."""
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in name[:width + 1])
    return text if len(text) <= width else text[:width] + "..."


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def _forfeits(count: int) -> str:
    """A run's forfeits, said only when there are some (a bot that failed)."""
    return f", {count} lost by forfeit" if count else ""


def format_comparison(r: PairedComparison) -> str:
    """The comparison as the lines the command prints."""
    opponents = ", ".join(_shown(o) for o in r.opponents)
    lines = [
        f"{r.deals} deals, {r.games} games ({r.preset}, {r.players} players; "
        f"entry {r.entry} against {opponents})",
        f"  A  {_shown(r.bots[0])}: {_signed(r.mean_points[0])} points a game, "
        f"{100 * r.decided_win_rate[0]:.1f}% of decided games won{_forfeits(r.forfeits[0])}",
        f"  B  {_shown(r.bots[1])}: {_signed(r.mean_points[1])} points a game, "
        f"{100 * r.decided_win_rate[1]:.1f}% of decided games won{_forfeits(r.forfeits[1])}",
        f"  A - B: {_signed(r.difference)} [{_signed(r.ci95[0])}, {_signed(r.ci95[1])}] "
        "(95 %, paired over the deals)",
        f"  games whose moves differ: {r.games_differ} of {r.games}",
    ]
    return "\n".join(lines)


@click.command("compare", epilog="""\b
Examples:
  gostop arena neural-search:blend=0.5 expectimax-v1 --deals 400 --seed 700000 --records a.jsonl
  gostop arena neural-search expectimax-v1 --deals 400 --seed 700000 --records b.jsonl
  gostop compare a.jsonl b.jsonl
  gostop compare a.jsonl b.jsonl --json
\b
The bots are deterministic per deal and seat, so a game where the two entries
decide alike is the same game in both runs and adds nothing to the difference:
the paired interval is narrower than either run's own, the more so the fewer
games differ.""")
@click.argument("run_a", metavar="RUN_A", type=click.Path(dir_okay=False, allow_dash=True))
@click.argument("run_b", metavar="RUN_B", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--entry", type=IntRange(0, 3), default=0, show_default=True,
              help="The arena entry compared (0: the bot named first); every other entry "
                   "must be the same bot in both runs.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def compare(run_a: str, run_b: str, entry: int, as_json: bool) -> None:
    """Compare two 'gostop arena --records' runs on the same deals: the mean
    points a game of one entry in each, and their difference with a 95%
    interval over the deals, paired deal by deal (docs/cli.md).  Every
    record is replayed; both runs must hold the same games in the same order
    against the same opponents."""
    if run_a == "-" and run_b == "-":
        raise click.UsageError("only one of RUN_A and RUN_B can be standard input")
    try:
        with open_record_file(run_a) as handle_a, open_record_file(run_b) as handle_b:
            result = compare_runs(handle_a, handle_b, entry)
    except OSError as exc:
        path = exc.filename if isinstance(exc.filename, str) else f"{run_a} or {run_b}"
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ComparisonError as exc:
        text = _shown(one_line(exc.reason), 300)
        if exc.run is not None:
            path = (run_a, run_b)[exc.run]
            line = "" if exc.line is None else f"line {exc.line}: "
            text = f"{'<stdin>' if path == '-' else path}: {line}{text}"
        raise CommandError(text) from None
    if as_json:
        # ASCII: a name from the file reaches the terminal escaped
        click.echo(json.dumps(result.as_dict(), indent=2))
    else:
        click.echo(format_comparison(result))
