"""``gostop engine``: one of gostop's bots speaking the bot protocol
(docs/protocol.md) on standard input and output, so that another program (a
tournament manager, a GUI, another engine's arena) can play against it.
Registered on the ``gostop`` group by :mod:`gostop_cli.main`."""

from __future__ import annotations

import sys

import click

from gostop_cli.options import IntRange

__all__ = ["engine"]


class _Error(click.ClickException):
    exit_code = 2


@click.command(epilog="""\b
Examples:
  gostop engine --bot expectimax
  gostop engine --bot greedy < messages.jsonl
  gostop arena "cmd:gostop engine --bot expectimax" greedy --deals 10
\b
Each line of input is one JSON message (docs/protocol.md): hello (answered
by ready, naming the protocol version and the options), isready (readyok),
request (move), analyse (info lines, then analysis), stop, setoption,
newhand, end, quit.  A request with an id that cannot be served is answered
by {"type": "error", "id": ..., "message": "..."}.""")
@click.option("--bot", "spec", default="greedy", show_default=True, metavar="BOT",
              help="The bot to offer: random, greedy, expectimax, expectimax:depth=D,..., "
                   "ismcts, ismcts:iterations=N,..., "
                   "path/to/file.py:Class, package.module:Class or an installed bot.")
@click.option("--seed", type=IntRange(0, 2 ** 64 - 1), default=0, show_default=True,
              help="Seed of the bot (the random bot's choices, the expectimax sampling).")
def engine(spec: str, seed: int) -> None:
    """Serve one bot over the gostop bot protocol: JSON messages on standard
    input, one answer line per request on standard output (flushed).  Ends at
    quit or at the end of input."""
    from gostop_core.bots.external import serve, sigterm_closes_bots
    from gostop_core.bots.plugins import resolve_bot
    from gostop_core.protocol.wire import blocks_of
    try:
        resolved = resolve_bot(spec)
        bot = resolved.make(seed)
    except ValueError as exc:
        raise _Error(" ".join(str(exc).split())) from None

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def log(text: str) -> None:
        sys.stderr.write(f"gostop engine: {text}\n")
        sys.stderr.flush()

    # this process is the engine alone: a short switch interval lets the
    # deadline thread and the reader take the interpreter from a search within
    # a fraction of a millisecond (the default, 5 ms, is a quarter of a 20 ms move)
    sys.setswitchinterval(0.0005)
    try:
        with sigterm_closes_bots():
            # the input in blocks of whole lines, so that a control line behind a
            # flood is found without parsing the flood; a line over the cap is
            # skipped, never held whole
            serve(bot, blocks_of(sys.stdin), write, name=resolved.text, log=log)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)  # the driving program went away
    finally:
        bot.close()
