"""The interface every computer player implements, and the loop that lets bots
play a game (:func:`play_game`).  The bottom of :mod:`gostop_core.bots`: it
imports only the game API."""

from __future__ import annotations

from typing import Sequence

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

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def observers(bots: Sequence[Bot]) -> list[int]:
    """The seats whose bots want to be shown the other seats' moves."""
    return [s for s, b in enumerate(bots) if type(b).observe is not Bot.observe]


def play_game(game: Game, bots: Sequence[Bot]) -> Outcome:
    """Let ``bots`` (one per seat) play ``game`` to the end; returns the outcome.
    Each bot gets only its seat's view and the legal moves; its
    :meth:`~Bot.start_hand` and :meth:`~Bot.end_hand` hooks are called before the
    first move and after the last."""
    if len(bots) != game.players:
        raise ValueError(f"need {game.players} bots, one per seat, got {len(bots)}")
    for seat, bot in enumerate(bots):
        bot.start_hand(game.view(seat))
    watching = observers(bots)
    while not game.is_over():
        turn = game.turn
        assert turn is not None
        legal = list(game.legal_moves)
        move = bots[turn].choose(game.view(turn), legal)
        for seat in watching:
            if seat != turn:
                bots[seat].observe(game.view(seat), move)
        game.push(move)
    outcome = game.outcome()
    assert outcome is not None
    for seat, bot in enumerate(bots):
        bot.end_hand(game.view(seat), outcome)
    return outcome

