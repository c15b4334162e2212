"""The ``gostop`` command: argument parsing only.  Every rule lives in the engine
(:mod:`gostop_core`); the interactive game is in :mod:`gostop_cli.play`, its board
in :mod:`gostop_cli.board`, the options every command shares in :mod:`gostop_cli.options`."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import click

from gostop_core import FIELDS, Game, GoStopError, Match, Move, Rules, __version__, preset_names
from gostop_core import score as score_pile
from gostop_core.bots import BOT_NAMES, SETTINGS_PREFIXES
from gostop_core.bots.registry import builtin_spec_key, is_builtin_spec
from gostop_core.bots.plugins import resolve_bot
from gostop_core.bots.external import sigterm_closes_bots
from gostop_core.testing.lockstep import EngineDisagreement, reference_game
from gostop_core.notation import rules_to_token
from gostop_core.testing.perft_suite import SuiteEntry, SuiteError, SuiteResult, check_suite, parse_suite
from gostop_cli.analyse import analyse
from gostop_cli.prompt import isatty
from gostop_cli.analysis import arena, hint
from gostop_cli.replay import replay_cmd
from gostop_cli.options import (  # noqa: F401  (re-exported: older imports from main)
    MAX_SEED, CommandError, FloatRange, IntRange, dealer_option, dump, engine_errors, json_option, make_rules,
    move_time_option, new_game, players_option, random_seed, rules_options, seed_option,
)


class GostopGroup(click.Group):
    """A group whose usage errors are one line on stderr (exit 2), never a
    traceback or a multi-line usage dump."""

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        _printable_streams()
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            message = " ".join(exc.format_message().split())
            click.echo(f"Error: {message}{hint}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"Error: {' '.join(exc.format_message().split())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt):
                # Ctrl-C (the C loops of perft, hint and the bots poll for it)
                click.echo("Interrupted", err=True)
                sys.exit(130)
            click.echo("Aborted.", err=True)
            sys.exit(1)
        except KeyboardInterrupt:
            click.echo("\nInterrupted", err=True)
            sys.exit(130)
        except OSError as exc:  # a write that failed: the output on a full disk, ...
            _write_failed(exc)
        try:
            sys.stdout.flush()
        except OSError as exc:
            _write_failed(exc)
        sys.exit(rv if isinstance(rv, int) else 0)


def _printable_streams() -> None:
    """Text no encoding can hold (a lone surrogate in a record's seat name, or
    a character the terminal's code page lacks) is printed as a backslash
    escape rather than ending the command in a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # closed, or a stream that cannot change
                pass


def _write_failed(exc: OSError) -> None:
    """One line and exit code 2 for an output that cannot be written (standard
    output on a full disk, say); what standard output still buffers is dropped,
    so that Python does not fail on it again at exit."""
    try:
        sys.stdout.flush()
    except OSError:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):  # no file descriptor (a test runner)
            pass
    reason = exc.strerror or str(exc)
    where = exc.filename if getattr(exc, "filename", None) else "the output"
    click.echo(f"Error: cannot write {where}: {reason}", err=True)
    sys.exit(2)


# ---------------------------------------------------------------- the group
@click.group(cls=GostopGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="gostop",
                      message="%(prog)s %(version)s")
def cli() -> None:
    """Go-Stop (고스톱 / Matgo): play against bots and inspect the engine.

    \b
    Examples:
      gostop play                         # you against the best bot
      gostop play --players 3 --seed 7    # two bots, a replayable deal
      gostop deal --seed 7                # the position string of a deal
      gostop perft --seed 7 --depth 4 --divide
      gostop score 1B 3B 8B               # score a captured pile
      gostop rules casual                 # every rules field and its value
    """


# ---------------------------------------------------------------- play
def split_bot_names(text: str) -> list[str]:
    """Bot names separated by commas; a ``key=value`` part continues the
    settings of the expectimax name before it (``expectimax:depth=2,samples=8,greedy``
    is two bots)."""
    names: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if is_builtin_spec(part) or part.lower().startswith("expectimax"):
            # built-in names and setting keys are case-insensitive; paths and commands are not
            part = builtin_spec_key(part)
        if ("=" in part and ":" not in part and names
                and names[-1].startswith(SETTINGS_PREFIXES)):
            names[-1] = builtin_spec_key(f"{names[-1]},{part}")
        else:
            names.append(part)
    return names


@cli.command(epilog="""\b
Examples:
  gostop play                               # you (seat 0) against the best bot
  gostop play --rules standard              # Matgo: the full Korean rules
  gostop play --rules traditional --hands 5 # a five-hand match for chips
  gostop play --players 3 --bot greedy,random --seed 42
  gostop play --auto --players 4 --no-pause # bots on every seat, a demo
  gostop play --auto --quiet --rules standard --hands 10
  gostop play --auto --quiet --reference --hands 20  # checked by the reference
  gostop play --practice --korean           # take decisions back, in Korean
  gostop play --hands 3 --save games.jsonl  # keep every hand; see gostop replay
  gostop play --bot my_bot.py:MyBot          # your own Python bot (docs/bots.md)
  gostop play --bot "cmd:python3 mybot.py"   # a bot program (docs/protocol.md)
\b
At a decision: type the number of a choice or a move (3B, 9R/9A, X2, bomb9,
shake9, fliponly, flip/9A, go, stop), or a command:
  ? or hint      rank every legal move by the net points (chips, balance) it should bring
  h or help      this help and the kinds of cards
  b or board     draw the board again
  p or position  print your view string (in practice also the full position)
  u or undo      take back your last decision (practice only)
  q or quit      leave the game (a match asks first)
End of input or quitting ends the game with exit code 0, Ctrl-C with 130.""")
@players_option
@rules_options
@click.option("--seed", type=IntRange(0, MAX_SEED), default=None,
              help="Match seed: the first hand is the deal of 'gostop deal --seed S' (same "
                   "rules, players and dealer); the first-dealer draw and the later hands "
                   "derive from it (default: a random seed, printed so the match can be "
                   "replayed).")
@click.option("--hands", type=IntRange(1, 1000), default=1, show_default=True,
              help="Hands in the match: the winner deals next where the rules say, a drawn "
                   "hand doubles the next payment where they say, and a ledger keeps "
                   "every player's chips.")
@click.option("--bot", "--bots", "bots", default="best", show_default=True,
              metavar="BOT[,BOT...]",
              help=f"Bots for the other seats ({', '.join(BOT_NAMES)}, "
                   "expectimax:depth=D,samples=N,time=MS,...; best:time=MS thinks at most "
                   "MS milliseconds a move; ismcts:iterations=N,c=C,time=MS,...; path/to/file.py:Class, "
                   "package.module:Class, an installed bot, or cmd:COMMAND for a program "
                   "speaking the bot protocol): one for all, or one per seat in seat order. "
                   "'gostop bots' lists every setting.")
@move_time_option("Time per move of a cmd: bot; a slower bot loses by forfeit and the "
                  "match ends.")
@click.option("--dealer", type=IntRange(0, 3), default=None,
              help="Seat of the first dealer, who plays first [default: drawn where the "
                   "rules say so (traditional, standard), else seat 0].")
@click.option("--daytime", is_flag=True,
              help="Night/day draw for the first dealer (standard): draw by day, the "
                   "latest month deals (default: at night, the earliest).")
@click.option("--no-pause", is_flag=True,
              help="Do not wait for Enter after each turn (the report after a hand still waits).")
@click.option("--redraw/--scroll", default=None,
              help="--redraw: no Enter between turns; at each of your moves the screen is "
                   "redrawn: the turns played since your last move, the board, your choices. "
                   "--scroll: each turn is printed as it ends and the game waits for Enter "
                   "(--no-pause skips the waits). Default: --redraw on a terminal, --scroll "
                   "when the input or the output is redirected.")
@click.option("--auto", is_flag=True,
              help="A bot plays seat 0 too (greedy, or the first of --bot when it names "
                   "one bot per seat); implies --no-pause.")
@click.option("--quiet", is_flag=True,
              help="With --auto: print only the first line, one result line per hand and "
                   "the final ledger.")
@click.option("--reference", is_flag=True,
              help="Check the game against the pure-Python reference engine: it replays "
                   "every decision, and both engines must agree on the legal moves, the "
                   "state, the events and the outcome (exit code 1 if they do not).")
@click.option("--practice", is_flag=True,
              help="Practice: 'u' takes back your last decision and 'p' also shows the "
                   "full position (a real game allows neither).")
@click.option("--korean", is_flag=True,
              help="The whole screen in Korean: the board, the prompts, the menus, the events "
                   "and the reports (cards as 8월 광); moves are still typed as codes.")
@click.option("--save", metavar="FILE", type=click.Path(dir_okay=False),
              help="Append each finished hand's record to FILE (JSON Lines, docs/records.md), "
                   "for 'gostop replay' and 'gostop analyse'.")
def play(players: int, preset: str, overrides: tuple[str, ...], seed: int | None, hands: int,
         bots: str, move_time: float, dealer: int | None, daytime: bool, no_pause: bool,
         redraw: bool | None, auto: bool, quiet: bool, reference: bool, practice: bool, korean: bool,
         save: str | None) -> None:
    """Play Go-Stop in the terminal: you are seat 0, bots hold the others.  One
    hand, or a match of --hands hands with a chip ledger."""
    from gostop_cli.play import run_match

    names = split_bot_names(bots)
    if not names:
        raise click.BadParameter(f"no bot named; choose from {', '.join(BOT_NAMES)}",
                                 param_hint="'--bot'")
    for name in names:
        try:
            resolve_bot(name)
        except ValueError as exc:
            raise click.BadParameter(" ".join(str(exc).split()), param_hint="'--bot'") from None
    if quiet and not auto:
        raise click.UsageError("--quiet only goes with --auto")
    if practice and (auto or reference):
        raise click.UsageError(f"--practice cannot be combined with "
                               f"{'--auto' if auto else '--reference'}")
    if len(names) == 1:
        seat_bots: list[str | None] = [names[0]] * (players - 1)
        first = "greedy"
    elif len(names) == players - 1:
        seat_bots = list(names)
        first = "greedy"
    elif auto and len(names) == players:
        seat_bots = list(names[1:])
        first = names[0]
    else:
        raise click.BadParameter(
            f"{len(names)} bots named for {players - 1} bot seat(s)", param_hint="'--bot'")
    seats: list[str | None] = [first if auto else None] + seat_bots
    try:
        rules = make_rules(preset, overrides)
        rules.check_players(players)
    except CommandError as exc:
        raise CommandError(four_player_advice(exc.message, preset, players)) from None
    except GoStopError as exc:
        raise CommandError(four_player_advice(" ".join(str(exc).split()), preset,
                                              players)) from None
    if dealer is not None and dealer >= players:
        raise click.BadParameter(f"seat {dealer} is not a seat of a {players}-player game",
                                 param_hint="'--dealer'")
    chosen = random_seed() if seed is None else seed
    with engine_errors():
        match = Match(rules, players, chosen, dealer=dealer, daytime=daytime)
    if save is not None:
        try:
            open(save, "a", encoding="utf-8").close()
        except OSError as exc:
            raise CommandError(f"cannot write {save}: {exc.strerror or exc}") from None
    try:
        with sigterm_closes_bots():
            code = run_match(match, seats, hands, pause=not (no_pause or auto), quiet=quiet,
                             seed_given=seed is not None, reference=reference,
                             practice=practice, korean=korean, move_time=move_time, save=save,
                             redraw=on_a_terminal() and not auto if redraw is None else redraw)
    except EngineDisagreement as exc:
        raise click.ClickException(str(exc)) from None  # exit code 1
    except (GoStopError, ValueError) as exc:  # a match the engine cannot go on with
        raise CommandError(" ".join(str(exc).split())) from None
    sys.exit(code)


def on_a_terminal() -> bool:
    """Whether the person plays at a terminal: input and output both are one."""
    return isatty(sys.stdin) and isatty(sys.stdout)


def four_player_advice(message: str, preset: str, players: int) -> str:
    """An error about four players or gwangpalli, with what to set: the presets for two
    and three play four-handed only as gwangpalli (the seat before the dealer sits out)."""
    if "gwangpalli" in message and "allow_4p" in message:
        return f"{message}; set both: --set allow_4p=1 --set gwangpalli=1"
    if players == 4 and "not allowed" in message:
        return (f"{message}; four players play {preset} as gwangpalli, the seat before the "
                "dealer sitting out each hand: --set allow_4p=1 --set gwangpalli=1 "
                "(casual and family seat four as they are)")
    return message


# ---------------------------------------------------------------- deal
@cli.command(epilog="""\b
Examples:
  gostop deal --seed 7
  gostop deal --seed 7 --players 3 --dealer 1 --json
  gostop deal --seed 7 | gostop perft --position - --depth 3""")
@seed_option(default_random=True)
@players_option
@rules_options
@dealer_option
@json_option
def deal(seed: int | None, players: int, preset: str, overrides: tuple[str, ...], dealer: int,
         as_json: bool) -> None:
    """Print the position string of a seeded deal (the full state, stock order
    included).  Without --seed a random seed is used and, in text mode, named on
    stderr."""
    rules = make_rules(preset, overrides)
    chosen = random_seed() if seed is None else seed
    game = new_game(rules, players, chosen, dealer)
    if as_json:
        dump({"position": game.position(), "seed": chosen, "players": players,
              "rules": rules_to_token(rules), "dealer": dealer})
        return
    if seed is None:
        click.echo(f"# seed {chosen}", err=True)
    click.echo(game.position())


# ---------------------------------------------------------------- perft
@cli.command(epilog="""\b
Examples:
  gostop perft --seed 7 --depth 4
  gostop perft --seed 7 --players 3 --depth 3 --divide
  gostop perft --seed 7 --depth 3 --reference     # count with the reference engine
  gostop perft --position "gostop/1 rules=casual players=2 ..." --depth 5 --json
  gostop deal --seed 7 | gostop perft --position - --depth 3
  gostop perft --suite tests/perft/deals.perft --max-depth 4
  gostop perft --suite tests/perft/tricky.perft --reference --max-depth 3
\b
With --suite the exit code is 0 when every count matches, 1 when any does
not, 2 when the file is malformed.""")
@click.option("--position", "position", metavar="STRING",
              help="Start from this position string ('-' reads it from stdin) instead of a deal.")
@click.option("--seed", type=IntRange(0, MAX_SEED), default=None,
              help="Deal seed [default: 0].")
@click.option("--players", type=IntRange(2, 4), default=None,
              help="Number of players, 2-4 [default: 2].")
@click.option("--rules", "preset", type=click.Choice(preset_names()), default=None,
              help=f"Rules preset [default: {preset_names()[0]}].")
@click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
              help="Override one rules field (repeatable).")
@click.option("--dealer", type=IntRange(0, 3), default=None,
              help="Seat of the dealer [default: 0].")
@click.option("--depth", type=IntRange(0, 64), default=None,
              help="Decisions to look ahead [default: 3].")
@click.option("--divide", is_flag=True, help="Also print the count below each legal move.")
@click.option("--no-bulk", is_flag=True,
              help="Visit every leaf instead of counting the last ply's moves "
                   "(slower; the counts are the same).")
@click.option("--reference", is_flag=True,
              help="Count with the pure-Python reference engine instead of the compiled "
                   "core (much slower); with --suite, count with both.")
@click.option("--suite", "suite", metavar="FILE",
              type=click.Path(exists=True, dir_okay=False, allow_dash=True),
              help="Check every count of a perft suite file ('-' reads stdin) instead of "
                   "counting one position; exit code 1 if any count differs.")
@click.option("--max-depth", type=IntRange(0, 64), default=None,
              help="With --suite: skip the counts deeper than this.")
@json_option
def perft(position: str | None, seed: int | None, players: int | None, preset: str | None,
          overrides: tuple[str, ...], dealer: int | None, depth: int | None, divide: bool,
          no_bulk: bool, reference: bool, suite: str | None, max_depth: int | None,
          as_json: bool) -> None:
    """Count the decision sequences of exactly --depth moves from a position
    (forced steps such as flips are not moves; a hand that ends sooner counts
    nothing).  Used to check move generation and measure its speed.  --suite
    checks a file of positions and their counts (docs/perft.md)."""
    bulk = not no_bulk
    if suite is not None:
        given = [name for name, value in (("--position", position), ("--seed", seed),
                                          ("--players", players), ("--rules", preset),
                                          ("--dealer", dealer), ("--depth", depth))
                 if value is not None]
        given += (["--set"] if overrides else []) + (["--divide"] if divide else [])
        if given:
            raise click.UsageError(f"--suite cannot be combined with {', '.join(given)}")
        sys.exit(run_suite(suite, reference, max_depth, bulk, as_json))
    if max_depth is not None:
        raise click.UsageError("--max-depth only goes with --suite")
    depth = 3 if depth is None else depth
    if position is not None:
        given = [name for name, value in (("--seed", seed), ("--players", players),
                                          ("--rules", preset), ("--dealer", dealer))
                 if value is not None] + (["--set"] if overrides else [])
        if given:
            raise click.UsageError(f"--position cannot be combined with {', '.join(given)}")
        text = sys.stdin.read() if position == "-" else position
        text = " ".join(text.split())
        with engine_errors():
            game = Game.from_position(text)
    else:
        rules = make_rules(preset or preset_names()[0], overrides)
        game = new_game(rules, players or 2, seed or 0, dealer or 0)
    if divide and depth < 1:
        raise click.BadParameter("--divide needs a depth of 1 or more", param_hint="'--depth'")
    engine = "reference" if reference else "core"
    start = time.perf_counter()
    split: list[tuple[str, int]] | None = None
    if reference:
        with engine_errors():
            ref = reference_game(game)
        if divide:
            split = list(ref.divide(depth, bulk).items())
            nodes = sum(count for _, count in split)
        else:
            nodes = ref.perft(depth, bulk)
    elif divide:
        split = [(str(Move.from_code(code)), count)
                 for code, count in game.core_state.divide(depth, bulk)]
        nodes = sum(count for _, count in split)
    else:
        nodes = game.core_state.perft(depth, bulk)
    seconds = time.perf_counter() - start
    if as_json:
        dump({"nodes": nodes, "seconds": round(seconds, 6),
              "nodes_per_second": round(nodes / seconds) if seconds > 0 else None,
              "divide": dict(split) if split is not None else None, "depth": depth,
              "engine": engine})
        return
    if split is not None:
        for move, count in split:
            click.echo(f"{move}: {count}")
        click.echo()
    click.echo(f"Nodes searched: {nodes}")


def _read_suite(path: str) -> list[SuiteEntry]:
    """The entries of a suite file; a malformed or unreadable file is a
    one-line error with exit code 2."""
    name = "<stdin>" if path == "-" else Path(path).name
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {name}: {exc}") from None
    try:
        entries = parse_suite(text, name)
    except SuiteError as exc:
        raise CommandError(" ".join(str(exc).split())) from None
    if not any(e.counts for e in entries):  # "all ok" would check nothing
        raise CommandError(f"{name}: no perft count in the file (docs/perft.md)")
    return entries


def _divide_rows(result: SuiteResult) -> list[str]:
    """Both engines' divide side by side, the differing moves marked."""
    core = result.divide_core or {}
    ref = result.divide_reference or {}
    moves = list(core) + [m for m in ref if m not in core]
    width = max([len(m) for m in moves] + [4])
    rows = [f"    {'move':<{width}}  {'core':>10}  {'reference':>10}"]
    for move in moves:
        a, b = core.get(move), ref.get(move)
        mark = "  <- differs" if a != b else ""
        rows.append(f"    {move:<{width}}  {'-' if a is None else a:>10}  "
                    f"{'-' if b is None else b:>10}{mark}")
    return rows


def run_suite(path: str, reference: bool, max_depth: int | None, bulk: bool,
              as_json: bool) -> int:
    """``gostop perft --suite``: check every (entry, depth) of a suite file and
    return the exit code (0 all match, 1 a mismatch)."""
    entries = _read_suite(path)
    name = "<stdin>" if path == "-" else Path(path).name
    if max_depth is not None and not any(d <= max_depth for e in entries for d, _ in e.counts):
        raise CommandError(f"{name}: no perft count at depth {max_depth} or less to check")
    width = max([len(e.id) for e in entries] + [2])
    results: list[tuple[SuiteResult, float]] = []
    begin = time.perf_counter()
    for entry in entries:
        for depth, expected in entry.counts:
            if max_depth is not None and depth > max_depth:
                continue
            one = SuiteEntry(entry.id, entry.position, [(depth, expected)], entry.line)
            start = time.perf_counter()
            with engine_errors(f"{name}:{entry.line}: "):
                (result,) = check_suite([one], reference=reference, bulk=bulk)
            seconds = time.perf_counter() - start
            results.append((result, seconds))
            if as_json:
                continue
            head = f"{'ok' if result.ok else 'MISMATCH':<8}  {entry.id:<{width}}  depth {depth:>2}"
            if result.ok:
                counts = f"{expected:>10}"
            else:
                counts = f"expected {expected}, core {result.core}"
                if result.reference is not None:
                    counts += f", reference {result.reference}"
            click.echo(f"{head}  {counts}  {seconds:7.3f} s")
            if not result.ok:
                first = result.first_difference()
                click.echo(f"    first move where the engines differ: {first}" if first else
                           "    the engines' divides agree: the count in the file is wrong "
                           "(or both engines are)")
                for row in _divide_rows(result):
                    click.echo(row)
    total = time.perf_counter() - begin
    bad = [r for r, _ in results if not r.ok]
    engines = "core and the reference engine" if reference else "core"
    if as_json:
        dump({
            "suite": name, "engine": "core+reference" if reference else "core",
            "max_depth": max_depth,
            "entries": len(entries), "checks": len(results), "mismatches": len(bad),
            "seconds": round(total, 6),
            "results": [{
                "id": r.entry.id, "depth": r.depth, "expected": r.expected, "core": r.core,
                "reference": r.reference, "ok": r.ok, "seconds": round(sec, 6),
                "first_difference": r.first_difference(),
                "divide_core": r.divide_core, "divide_reference": r.divide_reference,
            } for r, sec in results],
        })
    else:
        verdict = "all ok" if not bad else f"{len(bad)} MISMATCH{'ES' if len(bad) > 1 else ''}"
        click.echo(f"{name}: {len(results)} count{'s' if len(results) != 1 else ''} of "
                   f"{len(entries)} entr{'ies' if len(entries) != 1 else 'y'} checked with the "
                   f"{engines}: {verdict} ({total:.2f} s)")
    return 1 if bad else 0


# ---------------------------------------------------------------- score
@cli.command(epilog="""\b
Examples:
  gostop score 1B 3B 8B                 # 3 brights = 3 points
  gostop score "1R,2R,3R" --json
  gostop score 2A 4A 8A 9A --rules standard""")
@click.argument("cards", nargs=-1, required=True)
@rules_options
@json_option
def score(cards: tuple[str, ...], preset: str, overrides: tuple[str, ...], as_json: bool) -> None:
    """Score a captured pile: CARDS are card codes (1B 2A 3R 9J1 11D ... X2),
    as separate arguments or one string separated by commas or spaces."""
    rules = make_rules(preset, overrides)
    text = " ".join(cards).replace(",", " ")
    if not text.split():
        raise click.BadParameter("no card given", param_hint="'CARDS'")
    with engine_errors():
        result = score_pile(text, rules)
    if as_json:
        dump(result.as_dict())
        return
    click.echo(f"Cards ({len(result.cards)}): {result.cards}")
    for line in result.lines():
        click.echo(line)


# ---------------------------------------------------------------- rules
SECTIONS = ("deal", "turn", "scoring", "go", "payment")


@cli.command("rules", epilog="""\b
Examples:
  gostop rules                    # the casual preset
  gostop rules traditional --changed
  gostop rules standard --json
  gostop rules casual --set godori=3 --changed""")
@click.argument("preset", type=click.Choice(preset_names()), default=preset_names()[0], metavar="[PRESET]",
                required=False)
@click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
              help="Override one rules field (repeatable).")
@click.option("--changed", is_flag=True,
              help=f"Only the fields that differ from the {preset_names()[0]} preset.")
@json_option
def rules_cmd(preset: str, overrides: tuple[str, ...], changed: bool, as_json: bool) -> None:
    """List every rules field of a preset with its value, range and meaning."""
    rules = make_rules(preset, overrides)
    values = rules.as_dict()
    base = Rules(preset_names()[0]).as_dict()
    names = [n for n in FIELDS if not changed or values[n] != base[n]]
    try:
        rules.check_engine_support()
        unsupported = ""
    except GoStopError as exc:
        unsupported = str(exc)
    if as_json:
        dump({
            "preset": rules_to_token(rules),
            "playable": not unsupported,
            "fields": {n: {"value": values[n], "min": FIELDS[n][0], "max": FIELDS[n][1],
                           "section": FIELDS[n][2], "description": FIELDS[n][3]}
                       for n in names},
        })
        return
    click.echo(f"Rules: {rules_to_token(rules)}")
    width = max((len(n) for n in names), default=10)
    for section in SECTIONS:
        rows = [n for n in names if FIELDS[n][2] == section]
        if not rows:
            continue
        click.echo(f"\n[{section}]")
        for n in rows:
            lo, hi, _, doc = FIELDS[n]
            span = f"({lo}..{hi})"
            click.echo(f"  {n:<{width}}  {values[n]:>3}  {span:<9}  {doc}")
    click.echo()
    if unsupported:
        click.echo(f"Not playable yet: {unsupported}")
    else:
        click.echo("Playable: the engine implements every value above.")


@cli.command(epilog="""\b
Examples:
  gostop bench                 one minute, every figure against its target
  gostop bench --seconds 10 --json""")
@click.option("--seconds", type=FloatRange(0.01, 3600), default=60.0, show_default=True,
              help="Time budget for the whole run.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as a JSON object.")
def bench(seconds: float, as_json: bool) -> None:
    """Measure the engine's speed (see docs/performance.md)."""
    from gostop_core.bench import format_report, run_bench
    figures = run_bench(seconds, progress=None if as_json else
                        (lambda msg: click.echo(f"... {msg}", err=True)))
    if as_json:
        dump(figures)
    else:
        click.echo("\n".join(format_report(figures)))


@cli.command("bots", epilog="""\b
Examples:
  gostop bots                  every built-in bot and its settings
  gostop bots ismcts           one bot's settings
  gostop bots --json           the same as JSON (name, kind, default, bounds, help)""")
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def bots_cmd(name: str | None, as_json: bool) -> None:
    """List the built-in bots and the settings each takes (NAME:key=value,...)."""
    from gostop_core.bots.registry import BOT_DEFAULTS, builtin_classes
    from gostop_core.bots.settings import settings_of
    BOT_CLASSES = builtin_classes()
    names = list(BOT_CLASSES)
    if name is not None:
        key = name.strip().lower()
        if key not in BOT_CLASSES:
            raise CommandError(f"no built-in bot {name!r}: choose from {', '.join(names)}")
        names = [key]
    # a name without a settings prefix (expectimax-v1, the fixed baseline) takes none
    table = {n: [{"name": s.name, "kind": s.kind,
                  "default": BOT_DEFAULTS.get(n, {}).get(s.attribute, s.default),
                  "values": s.bounds_text(), "help": s.help}
                 for s in settings_of(BOT_CLASSES[n])] if f"{n}:" in SETTINGS_PREFIXES else []
             for n in names}
    if as_json:
        dump(table)
        return
    for n in names:
        rows = table[n]
        click.echo(f"{n}" + ("" if rows else "  (no settings)"))
        for row in rows:
            default = "" if row["default"] is None else f" (default {row['default']})"
            click.echo(f"  {row['name']:<11} {row['values']:<22} {row['help']}{default}")


# ---------------------------------------------------------------- other commands
cli.add_command(hint)
cli.add_command(arena)
cli.add_command(replay_cmd)
cli.add_command(analyse)
from gostop_cli.engine import engine  # noqa: E402
cli.add_command(engine)
from gostop_cli.selfplay import selfplay  # noqa: E402
cli.add_command(selfplay)
from gostop_cli.serve import serve  # noqa: E402
cli.add_command(serve)
from gostop_cli.svg_cmd import svg_cmd  # noqa: E402
cli.add_command(svg_cmd)
from gostop_cli.train import train  # noqa: E402
cli.add_command(train)
from gostop_cli.train_neural import train_neural  # noqa: E402
cli.add_command(train_neural)

from gostop_cli.compare import compare  # noqa: E402
cli.add_command(compare)
from gostop_cli.protocol_test import protocol_test  # noqa: E402
cli.add_command(protocol_test)


def main() -> None:  # pragma: no cover - for ``python -m gostop_cli.main``
    cli()


if __name__ == "__main__":  # pragma: no cover
    main()
