"""Exceptions raised by the gostop engine.  All derive from :class:`GoStopError`."""

from __future__ import annotations


class GoStopError(Exception):
    """Base class of every error the engine raises on purpose."""


class CardCodeError(GoStopError, ValueError):
    """A card code could not be parsed (``"13B"``, ``"1J"``, a duplicate card, ...)."""


class RulesError(GoStopError, ValueError):
    """An impossible rules setting: unknown preset or field, value out of range,
    or a player count the preset does not allow."""


class UnsupportedRuleError(RulesError):
    """A rules value that is valid but not implemented by this engine version yet."""


class IllegalMoveError(GoStopError, ValueError):
    """A move that is not legal in the current position.  The state is unchanged."""


class GameOverError(IllegalMoveError):
    """A move was pushed after the hand had ended."""


class EmptyHistoryError(GoStopError, IndexError):
    """``pop()`` was called with no move to take back."""


class PositionError(GoStopError, ValueError):
    """A malformed position or view string.

    ``field`` names the part of the string that is wrong (``"hands"``, ``"stock"``...)
    and the message says why.
    """

    def __init__(self, message: str, field: str | None = None):
        self.field = field
        super().__init__(f"{field}: {message}" if field else message)


class MoveParseError(IllegalMoveError):
    """A move string that is not a move at all (``"play"``, ``"3B/"``, ``"bomb13"``)."""


class ArgumentTypeError(GoStopError, TypeError):
    """An argument of the wrong type at the public API: a float, a string or a
    bool where a whole number is wanted (``Game(players=2.0)``, ``perft(1.5)``,
    ``Match(seed="x")``), bytes where card codes are wanted, and so on.  Nothing
    is changed.  The specific errors below are also instances of the older
    error a caller may already catch."""


class RulesTypeError(RulesError, ArgumentTypeError):
    """A rules preset or field of the wrong type (``Rules(5)``, ``godori="5"``)."""


class CardTypeError(CardCodeError, ArgumentTypeError):
    """Something that is no card code or card collection (``score(b"1")``, ``1.5``)."""


class MoveTypeError(MoveParseError, ArgumentTypeError):
    """Something that is no move, move string or move code (``push(None)``, ``1.5``)."""


class BotSpecError(GoStopError, ValueError):
    """A bot specification that names no bot: an unknown name, a file or module
    that cannot be loaded, a class that is not a bot, a command that does not exist."""


class BotError(GoStopError, RuntimeError):
    """A bot misbehaved.  In an arena the bot loses the game by forfeit; the
    subclass says why (:attr:`reason` is the short label of the report)."""

    reason = "error"


class BotTerminatedError(BotError):
    """An external bot's process ended (crashed or quit) while it was needed.
    ``returncode`` is its exit status when known."""

    reason = "crash"

    def __init__(self, message: str, returncode: int | None = None):
        self.returncode = returncode
        super().__init__(message)


class BotTimeoutError(BotError, TimeoutError):
    """A bot did not answer within its time per move."""

    reason = "timeout"


class BotProtocolError(BotError):
    """A bot answered something it may not: a line that is no move, an illegal
    move, a line too long or too much output."""

    reason = "protocol"


class IllegalBotMoveError(BotProtocolError):
    """A bot answered a move that is not one of the legal moves it was given."""

    reason = "illegal"
