"""``gostop serve``: the table in the browser (the ``web`` extra, docs/web.md).
Registered on the ``gostop`` group by :mod:`gostop_cli.main`; gostop_web is
imported only when the command runs, so the rest of the CLI works without the
extra."""

from __future__ import annotations

import click

from gostop_core import GoStopError
from gostop_core.bots.analysis import hint_moves
from gostop_cli.options import CommandError, FloatRange, IntRange

__all__ = ["serve"]

MISSING_EXTRA = ("gostop serve needs the web extra: pip install 'gostop[web]' "
                 "(Starlette, uvicorn, websockets)")


@click.command(epilog="""\b
Examples:
  gostop serve                          # http://127.0.0.1:8000/
  gostop serve --open --port 8080       # and open a browser on it
  gostop serve --bot 'cmd:python mybot.py'   # offer an outside program as a bot
  gostop serve --host 0.0.0.0           # let phones on the local network join
  gostop serve --replay games.jsonl     # step through saved hands""")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (only the loopback interface by default).")
@click.option("--port", type=IntRange(1, 65535), default=8000, show_default=True,
              help="Port to listen on.")
@click.option("--open", "open_browser", is_flag=True, help="Open a browser on the table.")
@click.option("--bot", "bots", multiple=True, metavar="SPEC",
              help="A bot the lobby offers besides the built-in bots and installed plug-ins "
                   "(a cmd: program, a file.py:Class, a module:Class); repeatable.")
@click.option("--replay", "replay_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Serve the gostop-record/1 hands of FILE to step through at /replay.")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Another host name the server answers to (e.g. a name in your LAN's DNS); "
                   "repeatable.  It answers to its own addresses and names already.")
@click.option("--move-delay", type=FloatRange(0, 10), default=0.6, show_default=True,
              help="Seconds a bot waits before each move, so its moves can be followed.")
def serve(host: str, port: int, open_browser: bool, bots: tuple[str, ...],
          replay_file: str | None, move_delay: float, allow_hosts: tuple[str, ...]) -> None:
    """Serve a Go-Stop table in the browser: pick the rules, the players and the
    bots, and play by clicking cards.  Each person's seat has its own link; a
    link without a seat's token only watches."""
    try:
        import gostop_web
    except ImportError:
        raise CommandError(MISSING_EXTRA) from None
    library = None
    if replay_file is not None:
        try:
            library = gostop_web.ReplayLibrary.from_file(replay_file)
        except OSError as exc:
            raise CommandError(f"cannot read {replay_file}: {exc.strerror}") from None
        except GoStopError as exc:
            raise CommandError(f"{replay_file}: {' '.join(str(exc).split())}") from None
    try:
        gostop_web.serve(host, port, hint=hint_moves, bots=bots, replay=library,
                         open_browser=open_browser, move_delay=move_delay,
                         allow_hosts=allow_hosts, echo=lambda line: click.echo(line))
    except OSError as exc:
        raise CommandError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
