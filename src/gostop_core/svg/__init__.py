"""Hwatu cards and Go-Stop boards drawn as SVG, with no dependency and no image file.

In the manner of python-chess's ``chess.svg``: every card design is written once as a
``<symbol>`` inside ``<defs>`` and placed with ``<use href="#...">``; sizes and colours
are parameters, and every function returns the SVG text as a ``str``.

>>> from gostop_core import Game, svg
>>> svg.card("8B").startswith("<svg")
True
>>> svg.card_symbol_id("11D")
'gostop-card-11D'
>>> board = svg.board(Game("casual", players=2, seed=1).view(0))
>>> "gostop-card-back" in board
True

- :func:`card` draws one card, :func:`back` the back of a card;
- :func:`board` draws a table: the field, the hands (only the seat's own for a
  :class:`~gostop_core.view.PlayerView`), every captured pile grouped by kind with its
  count and set progress, the stock as a card back with its count, each seat's score,
  Go count and the multipliers in force, the last move highlighted;
- :func:`card_defs` and :func:`card_symbol_id` let a page embed the designs once
  (``board(..., defs=False)`` then leaves them out of each board).

A board of a view holds only what the view holds: the symbols written into it are
those of the cards shown face up, so the text of the SVG names no card the seat may
not see.

Notebooks: :class:`~gostop_core.game.Game` and :class:`~gostop_core.view.PlayerView`
show as boards (``_repr_svg_``).  The game API sits below this module and never imports
it; this module installs ``_repr_svg_`` on the two classes when it is imported, and
``import gostop_core`` imports it, so the method is there whenever the package is.
"""
from __future__ import annotations

from gostop_core.game import Game
from gostop_core.svg.table import board
from gostop_core.svg.cards import (
    BACK_ID, CARD_HEIGHT, CARD_WIDTH, DEFAULT_COLORS, MAX_SIZE, SvgArgumentError, back, card, card_defs, card_sheet,
    card_symbol, card_symbol_id,
)
from gostop_core.view import PlayerView

__all__ = [
    "CARD_WIDTH", "CARD_HEIGHT", "DEFAULT_COLORS", "BACK_ID", "card", "back", "board",
    "card_defs", "card_sheet", "card_symbol", "card_symbol_id", "SvgArgumentError", "MAX_SIZE",
]


def _game_repr_svg(self) -> str:
    """The board as SVG, for notebooks (every hand face up: a Game knows them)."""
    return board(self)


def _view_repr_svg(self) -> str:
    """The seat's board as SVG, for notebooks."""
    return board(self)


# set from here (the game API never imports the drawing), hence setattr for the checkers
setattr(Game, "_repr_svg_", _game_repr_svg)
setattr(PlayerView, "_repr_svg_", _view_repr_svg)
