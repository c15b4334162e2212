"""``gostop protocol-test``: the conformance test of a bot program
(docs/protocol.md).  Registered on the ``gostop`` group by :mod:`gostop_cli.main`."""

from __future__ import annotations

import json
import shlex
import sys

import click

from gostop_cli.options import FloatRange, IntRange

__all__ = ["protocol_test"]


class _UsageError(click.ClickException):
    exit_code = 2


@click.command("protocol-test", epilog="""\b
Examples:
  gostop protocol-test "cmd:gostop engine --bot best"
  gostop protocol-test "cmd:python3 examples/protocol/first_move.py" --json
  gostop protocol-test "cmd:node examples/protocol/last_move.js" --presets casual
\b
Checks the handshake, isready, a whole hand of every preset and player count
(every answer legal and within --time-ms), the clock, the error replies and
the caps, analyse, stop, setoption, and that quit leaves no process behind.
Exit status: 0 every check passed, 1 a check failed, 2 bad usage.""")
@click.argument("spec", metavar="cmd:PROGRAM")
@click.option("--time-ms", type=IntRange(10, 600_000), default=100, show_default=True,
              help="The time per move the hands are played with; every answer must come "
                   "within it.")
@click.option("--timeout", type=FloatRange(0.5, 600), default=5.0, show_default=True,
              help="Seconds any other answer (ready, readyok, an error) may take.")
@click.option("--presets", default=None, metavar="P1,P2",
              help="The presets whose hands are played (default: every preset).")
@click.option("--seed", type=IntRange(0, 2 ** 32 - 1), default=1, show_default=True,
              help="Seed of the deals.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--log", "show_log", is_flag=True,
              help="Write every line exchanged to standard error.")
def protocol_test(spec: str, time_ms: int, timeout: float, presets: str | None, seed: int,
                  as_json: bool, show_log: bool) -> None:
    """Test that the bot program PROGRAM speaks the gostop bot protocol: a
    clear pass or fail for each check, with the reason."""
    from gostop_core.protocol.conformance import run_conformance
    from gostop_core.rules import preset_names
    if not spec.startswith("cmd:") or not spec[4:].strip():
        raise _UsageError(f"expected cmd:PROGRAM (e.g. \"cmd:gostop engine\"), got {spec!r}")
    try:
        command = shlex.split(spec[4:])
    except ValueError as exc:
        raise _UsageError(f"cannot split the command {spec[4:]!r}: {exc}") from None
    chosen = None
    if presets is not None:
        chosen = [p.strip() for p in presets.split(",") if p.strip()]
        unknown = [p for p in chosen if p not in preset_names()]
        if unknown or not chosen:
            raise _UsageError(f"unknown preset(s) {', '.join(unknown) or '(none)'}; choose "
                              f"from {', '.join(preset_names())}")

    def log(direction: str, line: str) -> None:
        sys.stderr.write(f"{direction} {line[:300]}\n")

    try:
        report = run_conformance(command, time_ms=time_ms, timeout=timeout, seed=seed,
                                 presets=chosen, log=log if show_log else None)
    except KeyboardInterrupt:
        sys.exit(130)
    if as_json:
        click.echo(json.dumps(report.as_dict(), indent=2))
    else:
        click.echo("\n".join(report.lines()))
    sys.exit(0 if report.passed else 1)
