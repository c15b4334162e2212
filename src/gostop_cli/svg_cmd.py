"""``gostop svg``: a position or a player view drawn as an SVG board
(:func:`gostop_core.svg.board`).  Registered on the ``gostop`` group by
:mod:`gostop_cli.main`."""

from __future__ import annotations

import sys

import click

from gostop_core import Game, GoStopError, PlayerView
from gostop_core import svg as svg_drawing
from gostop_core.outfiles import write_output
from gostop_cli.options import CommandError, FloatRange, IntRange

__all__ = ["svg_cmd"]


def _source(text: str, seat: int | None) -> Game | PlayerView:
    text = " ".join(text.split())
    if text.startswith("gostop-view/"):
        view = PlayerView.from_str(text)
        if seat is not None and seat != view.seat:
            raise CommandError(f"this is seat {view.seat}'s view: --seat {seat} cannot be shown "
                               "(leave --seat out, or give the position string)")
        return view
    game = Game.from_position(text)
    if seat is not None and not 0 <= seat < game.players:
        raise CommandError(f"--seat {seat}: the position has seats 0-{game.players - 1}")
    return game


@click.command("svg", epilog="""\b
Examples:
  gostop svg "$(gostop deal --seed 7)" --seat 0 -o board.svg
  gostop svg "$(gostop deal --seed 7 --players 3)" -o all-hands.svg
  gostop svg "gostop-view/1 rules=casual players=2 seat=0 ..." --size 1200 -o view.svg
  gostop svg --card 8B -o moon.svg""")
@click.argument("position", required=False, metavar="POSITION_OR_VIEW")
@click.option("--seat", type=IntRange(0, 3), default=None,
              help="Draw what this seat sees (only its own hand face up). Without it a "
                   "position shows every hand face up; a view shows its own seat.")
@click.option("--size", type=FloatRange(16, 20000), default=800.0, show_default=True,
              metavar="PX", help="Width of the picture in pixels.")
@click.option("--lastmove", metavar="MOVE", default=None,
              help="Outline the cards this move names (3B, 3B/3R, bomb9 ...).")
@click.option("--card", "card", metavar="CODE", default=None,
              help="Draw one card (its code: 1B, 11D, X2; 'back' for a card back, 'all' "
                   "for the card sheet) instead of a board.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              default="-", show_default=True, help="File to write ('-': standard output).")
def svg_cmd(position: str | None, seat: int | None, size: float, lastmove: str | None,
            card: str | None, output: str) -> None:
    """Draw POSITION_OR_VIEW (a position string gostop/1 ... or a player-view
    string gostop-view/1 ...) as an SVG board: the field, the hands the seat may
    see, every captured pile grouped by kind with set progress, the stock and the
    hidden hands as card backs with counts, scores, Go counts and multipliers.
    A view never shows more than the seat knows."""
    try:
        if card is not None:
            if position is not None:
                raise CommandError("give either POSITION_OR_VIEW or --card, not both")
            name = card.strip().lower()
            if name == "back":
                text = svg_drawing.back(size=size)
            elif name == "all":
                text = svg_drawing.card_sheet(size=size)
            else:
                text = svg_drawing.card(card.strip(), size=size)
        else:
            if position is None:
                raise CommandError("missing POSITION_OR_VIEW (a gostop/1 or gostop-view/1 "
                                   "string), or --card CODE")
            if position.strip() == "-":
                position = sys.stdin.read()
            source = _source(position, seat)
            text = svg_drawing.board(source, seat=seat if isinstance(source, Game) else None,
                                     lastmove=lastmove, size=size)
    except (GoStopError, ValueError, IndexError) as exc:
        raise CommandError(" ".join(str(exc).split())) from None
    if output == "-":
        click.echo(text)
        return
    try:
        write_output(output, text + "\n")
    except GoStopError as exc:
        raise CommandError(" ".join(str(exc).split())) from None
