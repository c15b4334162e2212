"""gostop: a fast, faithful Go-Stop (고스톱 / Matgo) engine.

The rules engine lives in the compiled modules ``cards``, ``rules``, ``scoring``
and ``movegen``; :mod:`gostop_core.game` is the Python API over them.

>>> from gostop_core import Game
>>> g = Game(rules="casual", players=2, seed=7)
>>> g.legal_moves.count() > 0
True
"""

from gostop_core.cards import CardSet, card_code, card_index, card_name
from gostop_core.errors import (
    ArgumentTypeError, BotError, BotProtocolError, BotSpecError, BotTerminatedError,
    BotTimeoutError, CardCodeError, CardTypeError, EmptyHistoryError, GameOverError,
    GoStopError, IllegalBotMoveError, IllegalMoveError, MoveParseError, MoveTypeError,
    PositionError, RulesError, RulesTypeError, UnsupportedRuleError,
)
from gostop_core.game import Event, Game, LegalMoves, Outcome, PlayerView, Turn
from gostop_core.match import HandRecord, Match
from gostop_core.moves import Move
from gostop_core.records import (
    Decision, MatchRecord, Record, RecordError, Seat, read_records, write_records,
)
from gostop_core.notation import parse_position, parse_view
from gostop_core.rules import FIELDS, PRESETS, Rules, preset_names
from gostop_core.scoring import Score, score
# installs Game._repr_svg_ and PlayerView._repr_svg_ (notebook boards); game.py stays
# free of any import of the drawing
from gostop_core import svg  # noqa: E402,F401

from gostop_core._version import __version__
from gostop_core import _moved

_moved.install()  # the module paths of 0.1 keep working (docs/architecture.md)


def get_include() -> str:
    """The directory holding gostop's ``.pxd`` files and ``gostop_cards.h``, for
    building a Cython extension that cimports :mod:`gostop_core.core`
    (docs/cython.md): pass it as ``include_dirs`` to the C compiler, and its
    parent as Cython's ``include_path``.

    >>> import os, gostop_core
    >>> os.path.exists(os.path.join(gostop_core.get_include(), "core.pxd"))
    True
    """
    import os
    return os.path.dirname(os.path.abspath(__file__))


__all__ = [
    "CardSet", "card_code", "card_index", "card_name",
    "ArgumentTypeError", "CardCodeError", "CardTypeError", "EmptyHistoryError", "GameOverError",
    "GoStopError", "IllegalMoveError", "MoveParseError", "MoveTypeError", "PositionError",
    "RulesError", "RulesTypeError", "UnsupportedRuleError",
    "BotError", "BotProtocolError", "BotSpecError", "BotTerminatedError", "BotTimeoutError",
    "IllegalBotMoveError",
    "Event", "Game", "LegalMoves", "Outcome", "PlayerView", "Turn", "Move", "Match", "HandRecord",
    "parse_position", "parse_view", "FIELDS", "PRESETS", "Rules", "preset_names",
    "Score", "score", "__version__", "get_include",
    "Decision", "MatchRecord", "Record", "RecordError", "Seat", "read_records", "write_records",
]
