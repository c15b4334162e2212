"""The ``gostop`` command: argument parsing only.  Every rule lives in the engine
(:mod:`gostop_core`); the interactive game is in :mod:`gostop_cli.play`."""

from __future__ import annotations

import json
import random
import sys
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import click

from gostop_core import (
    FIELDS, Game, GoStopError, Match, Move, Rules, __version__, preset_names,
    score as score_pile,
)
from gostop_core.bots import BOT_NAMES
from gostop_core.notation import rules_to_token

MAX_SEED = 2 ** 64 - 1


# ---------------------------------------------------------------- errors
class CommandError(click.ClickException):
    """Bad input found by the engine: ``Error: <message>`` on one line, exit 2."""

    exit_code = 2


@contextmanager
def engine_errors(what: str = "") -> Iterator[None]:
    """Turn the engine's own errors into a one-line :class:`CommandError`."""
    try:
        yield
    except (GoStopError, ValueError) as exc:
        message = " ".join(str(exc).split())
        raise CommandError(f"{what}{message}") from None


class GostopGroup(click.Group):
    """A group whose usage errors are one line on stderr (exit 2), never a
    traceback or a multi-line usage dump."""

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
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
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


# ---------------------------------------------------------------- shared options
def _parse_overrides(values: tuple[str, ...]) -> dict[str, int]:
    overrides: dict[str, int] = {}
    for item in values:
        for part in item.split(","):
            key, eq, value = part.strip().partition("=")
            key = key.strip()
            if not eq or not key:
                raise click.BadParameter(f"{part!r} is not FIELD=VALUE (e.g. threshold_2p=5)",
                                         param_hint="'--set'")
            if key not in FIELDS:
                raise click.BadParameter(f"unknown rules field {key!r} (list them with 'gostop rules')",
                                         param_hint="'--set'")
            text = value.strip().lower()
            if text in ("true", "yes", "on"):
                text = "1"
            elif text in ("false", "no", "off"):
                text = "0"
            try:
                overrides[key] = int(text)
            except ValueError:
                raise click.BadParameter(f"{key} needs an integer, got {value!r}",
                                         param_hint="'--set'") from None
    return overrides


def make_rules(preset: str, overrides: tuple[str, ...]) -> Rules:
    values = _parse_overrides(overrides)
    with engine_errors():
        return Rules(preset, **values)


def rules_options(func: Callable[..., Any]) -> Callable[..., Any]:
    func = click.option(
        "--set", "overrides", multiple=True, metavar="FIELD=VALUE",
        help="Override one rules field, e.g. --set threshold_2p=5 (repeatable; "
             "'gostop rules' lists the fields).")(func)
    func = click.option(
        "--rules", "preset", type=click.Choice(preset_names()), default=preset_names()[0],
        show_default=True, help="Rules preset.")(func)
    return func


def seed_option(default_random: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    help_text = ("Deal seed (default: a random seed, printed so the game can be replayed)."
                 if default_random else "Deal seed.")
    return click.option("--seed", type=click.IntRange(0, MAX_SEED),
                        default=None if default_random else 0,
                        show_default=not default_random, help=help_text)


players_option = click.option("--players", type=click.IntRange(2, 4), default=2,
                              show_default=True, help="Number of players, 2-4.")
dealer_option = click.option("--dealer", type=click.IntRange(0, 3), default=0, show_default=True,
                             help="Seat of the dealer, who plays first.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def new_game(rules: Rules, players: int, seed: int, dealer: int) -> Game:
    with engine_errors():
        return Game(rules=rules, players=players, seed=seed, dealer=dealer)


def random_seed() -> int:
    return random.SystemRandom().randrange(2 ** 32)


def dump(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


# ---------------------------------------------------------------- the group
@click.group(cls=GostopGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="gostop",
                      message="%(prog)s %(version)s")
def cli() -> None:
    """Go-Stop (고스톱 / Matgo): play against bots and inspect the engine.

    \b
    Examples:
      gostop play                         # you against a greedy bot
      gostop play --players 3 --seed 7    # two bots, a replayable deal
      gostop deal --seed 7                # the position string of a deal
      gostop perft --seed 7 --depth 4 --divide
      gostop score 1B 3B 8B               # score a captured pile
      gostop rules casual                 # every rules field and its value
    """


# ---------------------------------------------------------------- play
@cli.command(epilog="""\b
Examples:
  gostop play                               # you (seat 0) against a greedy bot
  gostop play --rules traditional --hands 5 # a five-hand match for chips
  gostop play --players 3 --bot greedy,random --seed 42
  gostop play --auto --players 4 --no-pause # bots on every seat, a demo
  gostop play --auto --quiet --rules standard --hands 10
\b
During the game: type the number of a choice or a move (3B, 9R/9A, X2,
bomb9, shake9, fliponly, flip/9A, go, stop); 'b' redraws the board, '?' shows
help, 'q' quits.  End of input or 'q' ends the game with exit code 0, Ctrl-C
with exit code 130.""")
@players_option
@rules_options
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=None,
              help="Match seed: the first-dealer draw and every hand's deal derive from it "
                   "(default: a random seed, printed so the match can be replayed).")
@click.option("--hands", type=click.IntRange(1, 1000), default=1, show_default=True,
              help="Hands in the match: the winner deals next where the rules say, a drawn "
                   "hand doubles the next payment where they say, and a ledger keeps "
                   "every player's chips.")
@click.option("--bot", "--bots", "bots", default="greedy", show_default=True,
              metavar="NAME[,NAME...]",
              help=f"Bots for the other seats ({', '.join(BOT_NAMES)}): one name for all, "
                   "or one per seat in seat order.")
@click.option("--dealer", type=click.IntRange(0, 3), default=None,
              help="Seat of the first dealer, who plays first [default: drawn where the "
                   "rules say so (traditional, standard), else seat 0].")
@click.option("--daytime", is_flag=True,
              help="Night/day draw for the first dealer (standard): draw by day, the "
                   "latest month deals (default: at night, the earliest).")
@click.option("--no-pause", is_flag=True,
              help="Do not wait for Enter after each turn (the report after a hand still waits).")
@click.option("--auto", is_flag=True,
              help="A bot plays seat 0 too (greedy, or the first of --bot when it names "
                   "one bot per seat); implies --no-pause.")
@click.option("--quiet", is_flag=True,
              help="With --auto: print only the first line, one result line per hand and "
                   "the final ledger.")
def play(players: int, preset: str, overrides: tuple[str, ...], seed: int | None, hands: int,
         bots: str, dealer: int | None, daytime: bool, no_pause: bool, auto: bool,
         quiet: bool) -> None:
    """Play Go-Stop in the terminal: you are seat 0, bots hold the others.  One
    hand, or a match of --hands hands with a chip ledger."""
    from gostop_cli.play import run_match

    names = [b.strip().lower() for b in bots.split(",") if b.strip()]
    bad = [b for b in names if b not in BOT_NAMES]
    if bad or not names:
        raise click.BadParameter(
            f"unknown bot {bad[0] if bad else bots!r}; choose from {', '.join(BOT_NAMES)}",
            param_hint="'--bot'")
    if quiet and not auto:
        raise click.UsageError("--quiet only goes with --auto")
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
    rules = make_rules(preset, overrides)
    if dealer is not None and dealer >= players:
        raise click.BadParameter(f"seat {dealer} is not a seat of a {players}-player game",
                                 param_hint="'--dealer'")
    chosen = random_seed() if seed is None else seed
    with engine_errors():
        match = Match(rules, players, chosen, dealer=dealer, daytime=daytime)
    code = run_match(match, seats, hands, pause=not (no_pause or auto), quiet=quiet,
                     seed_given=seed is not None)
    sys.exit(code)


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
  gostop perft --position "gostop/1 rules=casual players=2 ..." --depth 5 --json
  gostop deal --seed 7 | gostop perft --position - --depth 3""")
@click.option("--position", "position", metavar="STRING",
              help="Start from this position string ('-' reads it from stdin) instead of a deal.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=None,
              help="Deal seed [default: 0].")
@click.option("--players", type=click.IntRange(2, 4), default=None,
              help="Number of players, 2-4 [default: 2].")
@click.option("--rules", "preset", type=click.Choice(preset_names()), default=None,
              help=f"Rules preset [default: {preset_names()[0]}].")
@click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
              help="Override one rules field (repeatable).")
@click.option("--dealer", type=click.IntRange(0, 3), default=None,
              help="Seat of the dealer [default: 0].")
@click.option("--depth", type=click.IntRange(0, 64), default=3, show_default=True,
              help="Decisions to look ahead.")
@click.option("--divide", is_flag=True, help="Also print the count below each legal move.")
@click.option("--no-bulk", is_flag=True,
              help="Visit every leaf instead of counting the last ply's moves "
                   "(slower; the counts are the same).")
@json_option
def perft(position: str | None, seed: int | None, players: int | None, preset: str | None,
          overrides: tuple[str, ...], dealer: int | None, depth: int, divide: bool,
          no_bulk: bool, as_json: bool) -> None:
    """Count the decision sequences of exactly --depth moves from a position
    (forced steps such as flips are not moves; a hand that ends sooner counts
    nothing).  Used to check move generation and measure its speed."""
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
    bulk = not no_bulk
    start = time.perf_counter()
    split: list[tuple[str, int]] | None = None
    if divide:
        split = [(str(Move.from_code(code)), count)
                 for code, count in game._core.divide(depth, bulk)]
        nodes = sum(count for _, count in split)
    else:
        nodes = game._core.perft(depth, bulk)
    seconds = time.perf_counter() - start
    if as_json:
        dump({"nodes": nodes, "seconds": round(seconds, 6),
              "nodes_per_second": round(nodes / seconds) if seconds > 0 else None,
              "divide": dict(split) if split is not None else None, "depth": depth})
        return
    if split is not None:
        for move, count in split:
            click.echo(f"{move}: {count}")
        click.echo()
    click.echo(f"Nodes searched: {nodes}")


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


def main() -> None:  # pragma: no cover - for ``python -m gostop_cli.main``
    cli()


if __name__ == "__main__":  # pragma: no cover
    main()
