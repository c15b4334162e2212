"""The interface every computer player implements, and the loop that lets bots
play a game (:func:`play_game`).  The bottom of :mod:`gostop_core.bots`: it
imports only the game API."""

from __future__ import annotations

from typing import Sequence

from gostop_core.driver import HandDriver, wants_hook
from gostop_core.game import Game, Outcome, PlayerView
from gostop_core.moves import Move

__all__ = ["Bot", "play_game"]


class Bot:
    """The interface of a computer player (docs/bots.md).

    Subclasses set :attr:`name` and implement :meth:`choose`, which receives the
    view of the bot's seat and the legal moves (never empty) and returns one of
    those moves.  :meth:`start_hand` and :meth:`end_hand` are optional hooks
    called at the start and the end of every hand; :meth:`close` is called once
    when the bot is no longer needed."""

    #: A short name shown by the CLI ("random", "greedy", ...).
    name: str = "bot"

    def choose(self, view: PlayerView, legal: list[Move]) -> Move:
        """One of ``legal`` (a non-empty list) for the seat of ``view``."""
        raise NotImplementedError

    def start_hand(self, view: PlayerView) -> None:
        """A hand begins: ``view`` is the seat's view after the deal (its seat,
        the players, the rules and its cards).  Does nothing by default."""

    def observe(self, view: PlayerView, move: Move) -> None:
        """Another seat is playing ``move`` (every move is public); ``view`` is
        this bot's view just before it.  Called only on bots that override it
        (:func:`observers`)."""

    def end_hand(self, view: PlayerView, outcome: Outcome) -> None:
        """The hand is over: ``view`` is the seat's last view and ``outcome``
        how the hand ended.  Does nothing by default."""

    def close(self) -> None:
        """Release what the bot holds (an external bot stops its process).
        Does nothing by default."""

    # the no-op hooks: a loop skips the work of calling them (``wants_hook``)
    start_hand.default_hook = True  # type: ignore[attr-defined]
    observe.default_hook = True  # type: ignore[attr-defined]
    end_hand.default_hook = True  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def observers(bots: Sequence[Bot]) -> list[int]:
    """The seats whose bots want to be shown the other seats' moves."""
    return [s for s, b in enumerate(bots) if b is not None and wants_hook(b, "observe")]


def play_game(game: Game, bots: Sequence[Bot]) -> Outcome:
    """Let ``bots`` (one per seat) play ``game`` to the end; returns the outcome.
    Each bot gets only its seat's view and the legal moves, and every hook
    (:meth:`~Bot.start_hand`, :meth:`~Bot.observe`, :meth:`~Bot.end_hand`) of
    :class:`~gostop_core.driver.HandDriver`, which plays the hand; a bot's
    exception reaches the caller."""
    return HandDriver(game, bots, policy="raise").play()
