"""The rules side of the protocol: the legal moves of a player view, and the
view a request describes (a view, or a starting position plus the moves since).

The legal moves of the seat to move depend only on what that seat sees (its
hand, the field, the public facts), not on where the unseen cards are: the
view is completed with the unseen cards dealt in a fixed order (each hidden
hand gets as many as it holds, the rest is the stock) and the moves of that
position are the view's.  Nothing of the filler ever reaches a bot."""

from __future__ import annotations

from gostop_core.errors import GoStopError, PositionError
from gostop_core.game import Game, PlayerView
from gostop_core.movegen import CoreState
from gostop_core.moves import Move

__all__ = ["legal_moves_of_view", "completed_game", "view_to_move", "replay_position"]


def completed_game(view: PlayerView) -> Game:
    """A game whose position agrees with everything ``view`` shows, the unseen
    cards dealt in their code order (hidden hands first, then the stock).
    For move generation only: the filler is arbitrary."""
    fields = dict(view._public)
    seat = view.seat
    unseen = list(view.unseen)
    hands = [0] * view.players
    hands[seat] = fields["hand"]
    need = list(view.hand_counts)
    need[seat] = 0
    # a card whose holder is public (a showdown's win-card) goes to its holder
    owner, card = fields.get("showdown_caller"), fields.get("showdown_card")
    if card is not None and owner is not None and owner != seat and card in unseen:
        unseen.remove(card)
        hands[owner] |= 1 << card
        need[owner] -= 1
    if sum(need) > len(unseen):
        raise PositionError("the view's hidden hands hold more cards than are unseen", "hands")
    for q in range(view.players):
        for _ in range(need[q]):
            hands[q] |= 1 << unseen.pop()
    fields["hands"] = hands
    fields["stock"] = unseen
    return Game._from_core(CoreState.from_fields(view.rules, fields))


def view_to_move(view: PlayerView) -> None:
    """Raise :class:`PositionError` unless ``view``'s seat is the one to move."""
    if view.phase == "over":
        raise PositionError("the hand is over: there is no move to make", "phase")
    if view.to_move != view.seat:
        raise PositionError(f"the view is seat {view.seat}'s, but seat {view.to_move} is to move",
                            "seat")


def legal_moves_of_view(view: PlayerView) -> list[Move]:
    """The legal moves of ``view``'s seat, which must be the one to move, in
    the engine's generation order."""
    view_to_move(view)
    try:
        return list(completed_game(view).legal_moves)
    except GoStopError:
        raise
    except (ValueError, KeyError) as exc:  # a view the core cannot complete
        raise PositionError(f"the view cannot be completed: {exc}", "view") from None


def replay_position(position: str, moves: list[str]) -> PlayerView:
    """The view of the seat to move after ``moves`` (notation) are played from
    the full ``position`` (``gostop-position/1 ...``, docs/notation.md).
    Raises :class:`PositionError` or an
    :class:`~gostop_core.errors.IllegalMoveError` naming the move."""
    game = Game.from_position(position)
    for i, text in enumerate(moves):
        if game.is_over():
            raise PositionError(f"moves: the hand is over before move {i + 1} ({text})", "moves")
        game.push_str(text)
    if game.is_over() or game.turn is None:
        raise PositionError("the hand is over after the moves: there is no move to make",
                            "moves")
    return game.view(game.turn)
