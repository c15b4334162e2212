"""What every ``gostop`` command shares: the one-line :class:`CommandError`,
the rules, seed, players, dealer and ``--json`` options, and small helpers.

Command modules (:mod:`gostop_cli.main`, :mod:`gostop_cli.analysis`, and any
new one) import these from here, never from :mod:`gostop_cli.main`, so that the
group can import every command module without an import circle."""

from __future__ import annotations

import json
import math
import random
import re
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import click

from gostop_core import FIELDS, Game, GoStopError, Rules, preset_names

__all__ = ["MAX_SEED", "CommandError", "engine_errors", "make_rules", "rules_options",
           "seed_option", "players_option", "dealer_option", "json_option", "new_game",
           "random_seed", "dump", "backend_options", "move_time_option", "IntRange",
           "FloatRange"]

MAX_SEED = 2 ** 64 - 1


# ---------------------------------------------------------------- errors
def one_line(text: str) -> str:
    """A message on one line: every run of whitespace, line breaks included, one space."""
    return " ".join(str(text).split())


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


# ---------------------------------------------------------------- number options
# What a number option takes: ASCII digits as written, no spaces, no thousands of
# digits.  int() and float() would also take '٣' (an Arabic-Indic three), ' 5',
# '1_000' and 'nan'.
_INTEGER = re.compile(r"[+-]?[0-9]{1,30}")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})(?:[eE][+-]?[0-9]{1,3})?")


class IntRange(click.IntRange):
    """``click.IntRange`` that takes only a plain decimal integer."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not _INTEGER.fullmatch(value):
            self.fail(f"{value[:30]!r} is not a whole number (digits 0-9)", param, ctx)
        return super().convert(value, param, ctx)


class FloatRange(click.FloatRange):
    """``click.FloatRange`` that takes only a plain decimal number (no nan, no
    inf, no spaces)."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not _DECIMAL.fullmatch(value):
            self.fail(f"{value[:30]!r} is not a number (digits 0-9, e.g. 2.5)", param, ctx)
        if isinstance(value, float) and not math.isfinite(value):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return super().convert(value, param, ctx)


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
            text = value.lower()  # no spaces inside FIELD=VALUE: " 5" is no number
            if text in ("true", "yes", "on"):
                text = "1"
            elif text in ("false", "no", "off"):
                text = "0"
            if not _INTEGER.fullmatch(text):
                raise click.BadParameter(f"{key} needs an integer, got {value[:30]!r}",
                                         param_hint="'--set'")
            overrides[key] = int(text)
    return overrides


def make_rules(preset: str, overrides: tuple[str, ...]) -> Rules:
    values = _parse_overrides(overrides)
    with engine_errors():
        return Rules(preset, **values)


#: The presets in a few words, for --help.
PRESETS_HELP = ("Rules preset: casual (quick screen rules), traditional (chips, 2-3 players), "
                "standard (the full Korean rules, Matgo), family (card points, no Go/Stop).")


def rules_options(func: Callable[..., Any]) -> Callable[..., Any]:
    func = click.option(
        "--set", "overrides", multiple=True, metavar="FIELD=VALUE",
        help="Override one rules field, e.g. --set threshold_2p=5 (repeatable; "
             "'gostop rules' lists the fields).")(func)
    func = click.option(
        "--rules", "preset", type=click.Choice(preset_names()), default=preset_names()[0],
        show_default=True, help=PRESETS_HELP)(func)
    return func


def seed_option(default_random: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    help_text = ("Deal seed (default: a random seed, printed so the game can be replayed)."
                 if default_random else "Deal seed.")
    return click.option("--seed", type=IntRange(0, MAX_SEED),
                        default=None if default_random else 0,
                        show_default=not default_random, help=help_text)


players_option = click.option("--players", type=IntRange(2, 4), default=2,
                              show_default=True, help="Number of players, 2-4.")
dealer_option = click.option("--dealer", type=IntRange(0, 3), default=0, show_default=True,
                             help="Seat of the dealer, who plays first.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def new_game(rules: Rules, players: int, seed: int, dealer: int) -> Game:
    with engine_errors():
        return Game(rules=rules, players=players, seed=seed, dealer=dealer)


def random_seed() -> int:
    return random.SystemRandom().randrange(2 ** 32)


def dump(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def backend_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--backend local|ray`` and ``--address ADDR`` (docs/scale.md)."""
    func = click.option(
        "--address", metavar="ADDR",
        help="With --backend ray: join the Ray cluster at ADDR (e.g. 10.0.0.5:6379, or "
             "'auto' for the one this machine belongs to) instead of starting a local one "
             "on 127.0.0.1.")(func)
    func = click.option(
        "--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
        help="local: processes on this machine; ray: tasks on a Ray cluster "
             "(pip install 'gostop[ray]').")(func)
    return func


def workers_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--workers N``: processes for arena and selfplay (one range and default;
    ``help_text`` says what they are there)."""
    return click.option("--workers", type=IntRange(1, 256), default=None, help=help_text)


def move_time_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--move-time SECONDS``: the time per move of a bot gostop did not write
    (one range and default for play, arena and selfplay; ``help_text`` says what
    a slower answer costs there)."""
    return click.option("--move-time", type=FloatRange(0.01, 3600), default=5.0,
                        show_default=True, metavar="SECONDS", help=help_text)
