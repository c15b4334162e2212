"""``gostop engine``: one of gostop's bots speaking the bot protocol
(docs/protocol.md) on standard input and output, so that another program (a
tournament manager, a GUI, another engine's arena) can play against it.
Registered on the ``gostop`` group by :mod:`gostop_cli.main`."""

from __future__ import annotations

import sys

import click

__all__ = ["engine"]


class _Error(click.ClickException):
    exit_code = 2


@click.command(epilog="""\b
Examples:
  gostop engine --bot expectimax
  gostop engine --bot greedy < messages.jsonl
  gostop arena "cmd:gostop engine --bot expectimax" greedy --deals 10
\b
Each line of input is one JSON message: hello (answered by a ready line),
newhand, request (answered by {"move": "..."}), end, quit.  A message that
cannot be served is answered by {"type": "error", "message": "..."}.""")
@click.option("--bot", "spec", default="greedy", show_default=True, metavar="BOT",
              help="The bot to offer: random, greedy, expectimax, expectimax:depth=D,..., "
                   "ismcts, ismcts:iterations=N,..., "
                   "path/to/file.py:Class, package.module:Class or an installed bot.")
@click.option("--seed", type=click.IntRange(0, 2 ** 64 - 1), default=0, show_default=True,
              help="Seed of the bot (the random bot's choices, the expectimax sampling).")
def engine(spec: str, seed: int) -> None:
    """Serve one bot over the gostop bot protocol: JSON messages on standard
    input, one answer line per request on standard output (flushed).  Ends at
    quit or at the end of input."""
    from gostop_core.bots.plugins import resolve_bot
    from gostop_core.bots.external import serve, sigterm_closes_bots
    try:
        resolved = resolve_bot(spec)
        bot = resolved.make(seed)
    except ValueError as exc:
        raise _Error(" ".join(str(exc).split())) from None

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    try:
        with sigterm_closes_bots():
            serve(bot, sys.stdin, write, name=resolved.text)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)  # the driving program went away
    finally:
        bot.close()
