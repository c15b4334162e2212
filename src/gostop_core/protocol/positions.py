"""The rules side of the protocol: the legal moves of a player view, and the
view a request describes (a view, or a starting position plus the moves since).

The legal moves of the seat to move depend only on what that seat sees (its
hand, the field, the public facts), not on where the unseen cards are: the
view is completed with the unseen cards dealt in a fixed order (each hidden
hand gets as many as it holds, the rest is the stock) and the moves of that
position are the view's.  Nothing of the filler ever reaches a bot."""

from __future__ import annotations

from dataclasses import dataclass

from gostop_core.errors import GoStopError, PositionError
from gostop_core.game import Game, Outcome, PlayerView
from gostop_core.state import CoreState
from gostop_core.moves import Move

__all__ = ["legal_moves_of_view", "completed_game", "view_to_move", "replay_position",
           "replay_view", "HandState", "state_of_position", "state_of_view"]


def completed_game(view: PlayerView) -> Game:
    """A game whose position agrees with everything ``view`` shows, the unseen
    cards dealt in their code order (hidden hands first, then the stock;
    :meth:`PlayerView.completed_fields`).  For move generation only: the
    filler is arbitrary."""
    return Game.from_core_state(CoreState.from_fields(view.rules, view.completed_fields()))


def view_to_move(view: PlayerView) -> None:
    """Raise :class:`PositionError` unless ``view``'s seat is the one to move."""
    if view.phase == "over":
        raise PositionError("the hand is over, no move to make: phase=over", "phase")
    if view.to_move != view.seat:
        raise PositionError(f"the view's seat {view.seat} is not to move: turn={view.to_move}",
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


def _played_position(position: str, moves: list[str]) -> tuple[Game, list[tuple[str, int]]]:
    """The game after ``moves`` from ``position``, and the cards taken from the
    stock on the way (card, the seat that drew it, -1 for a card turned)."""
    game = Game.from_position(position)
    taken: list[tuple[str, int]] = []
    for i, text in enumerate(moves):
        if game.is_over():
            raise PositionError(f"the hand is over before move {i + 1}: {text}", "moves")
        for event in game.push(Move.from_str(text)):
            if event.kind == "flipped":
                taken.append((str(event.card), -1))
            elif event.kind == "drawn":
                taken.append((str(event.card), event.player))
    return game, taken


def replay_position(position: str, moves: list[str]) -> PlayerView:
    """The view of the seat to move after ``moves`` (notation) are played from
    the full ``position`` (``gostop-position/1 ...``, docs/notation.md).
    Raises :class:`PositionError` or an
    :class:`~gostop_core.errors.IllegalMoveError` naming the move."""
    game, _ = _played_position(position, moves)
    if game.is_over() or game.turn is None:
        raise PositionError("the hand is over after the moves: no move to make",
                            "moves")
    return game.view(game.turn)


def _cards_needed(game: Game, move: Move, seat: int, mover: int,
                  named: set[int]) -> list[int]:
    """The hidden cards ``move`` of another seat must find in its hand: the
    card played, or for a bomb or a shake three cards of the month (those the
    filler gave it first), never one seen by the seat or named in the stock."""
    from gostop_core.cards import CardSet, card_index, card_month
    if move.kind in ("play", "bonus", "showdown") and move.card is not None:
        return [card_index(move.card)]
    if move.kind in ("bomb", "shake") and move.month is not None:
        view = game.view(seat)
        visible = set(view.field) | set(view.hand) | {c for pile in view.captured for c in pile}
        hand = game.core_state.to_fields()["hands"][mover]
        month = [c for c in CardSet(range(50)) if card_month(c) == move.month and
                 c not in visible and c not in named and c < 48]
        month.sort(key=lambda c: not hand >> c & 1)
        return month[:3]
    return []


def replay_view(start: str, moves: list[str], stock: list[str | None]) -> PlayerView:
    game, seat = _played_view(start, moves, stock)
    if game.is_over() or game.turn != seat:
        raise PositionError(f"after the moves seat {game.turn} is to move, not the "
                            f"view's seat: {seat}", "moves")
    return game.view(seat)


def _played_view(start: str, moves: list[str], stock: list[str | None]) -> tuple[Game, int]:
    """The view of ``start``'s seat after ``moves`` (notation, every seat's,
    in order) are played from the player-view string ``start``.  ``stock``
    names the cards taken from the stock since, in order (each flip, and each
    replacement card drawn for a bonus card), ``None`` for one the seat did not
    see (another seat's replacement card); the flips and the seat's own draws
    must be named.  The other hands' cards come from their moves; nothing
    else of the filler reaches the view.  The seat of ``start`` must be the
    one to move after the moves.  Raises :class:`PositionError` or an
    :class:`~gostop_core.errors.IllegalMoveError`."""
    from gostop_core.cards import card_index
    view = PlayerView.from_str(start)
    seat = view.seat
    codes: list[int | None] = []
    for text in stock:
        if text is None:
            codes.append(None)
            continue
        try:
            card = card_index(text)
        except (ValueError, TypeError):
            raise PositionError(f"no such card: {str(text)[:20]!r}", "stock") from None
        if card not in view.unseen:
            raise PositionError(f"not a card the seat cannot see: {text}", "stock")
        if card in codes:
            raise PositionError(f"a card named twice: {text}", "stock")
        codes.append(card)
    fields = view.completed_fields(codes)
    game = Game.from_core_state(CoreState.from_fields(view.rules, fields))
    taken = 0
    for i, text in enumerate(moves):
        if game.is_over():
            raise PositionError(f"the hand is over before move {i + 1} ({text})", "moves")
        move = Move.from_str(text)
        mover = game.turn
        if mover is not None and mover != seat:
            named = {c for c in codes if c is not None}
            game = _with_cards(game, mover, seat, _cards_needed(game, move, seat, mover, named),
                               taken, codes)
        for event in game.push(move):
            if event.kind not in ("flipped", "drawn"):
                continue
            if taken >= len(codes):
                raise PositionError(f"move {i + 1} takes a stock card stock does "
                                    f"not name: card {taken + 1}", "stock")
            if codes[taken] is None and (event.kind == "flipped" or event.player == seat):
                raise PositionError(f"card {taken + 1} was "
                                    f"{'turned' if event.kind == 'flipped' else 'drawn by the seat'}"
                                    ": it must be named", "stock")
            taken += 1
    if taken < len(codes):
        raise PositionError(f"the moves take {taken} stock cards, but stock names "
                            f"{len(codes)}", "stock")
    return game, seat


def _with_cards(game: Game, mover: int, seat: int, cards: list[int], taken: int,
                stock: list[int | None]) -> Game:
    """``game`` with ``cards`` moved into seat ``mover``'s hidden hand, each
    swapped with a card of that hand not needed (from another hidden hand,
    or an unnamed place of the stock not yet taken)."""
    fields = game.core_state.to_fields()
    hands = list(fields["hands"])
    order = list(fields["stock"])
    changed = False
    for card in cards:
        if hands[mover] >> card & 1:
            continue
        spare = [c for c in range(50) if hands[mover] >> c & 1 and c not in cards]
        if not spare:
            return game  # the move is not possible: push reports it
        swap = spare[0]
        for q in range(len(hands)):
            if q not in (mover, seat) and hands[q] >> card & 1:
                hands[q] = (hands[q] & ~(1 << card)) | (1 << swap)
                break
        else:
            # the remaining stock's place j is place taken + j of the named list
            places = [j for j, c in enumerate(order) if c == card and not (
                taken + j < len(stock) and stock[taken + j] is not None)]
            if not places:
                return game  # a card named in the stock, or seen: push reports it
            order[places[0]] = swap
        hands[mover] = (hands[mover] & ~(1 << swap)) | (1 << card)
        changed = True
    if not changed:
        return game
    fields["hands"] = hands
    fields["stock"] = order
    return Game.from_core_state(CoreState.from_fields(game.rules, fields))


@dataclass(frozen=True)
class HandState:
    """What a driver without rules code needs after some moves: the seat to
    move (None when none), the phase, that seat's legal moves (only when it is
    the seat whose view is asked for, or the driver holds the whole
    position), whether the hand is over and its outcome, the view of the seat
    asked for, and the stock cards taken on the way as that seat saw them
    (each turned card, its own draws; None for another seat's draw)."""

    to_move: int | None
    phase: str
    legal: list[Move]
    over: bool
    outcome: Outcome | None
    view: PlayerView
    stock: list[str | None]


def _state(game: Game, seat: int, may_see_legal: bool, stock: list[str | None]) -> HandState:
    over = game.is_over()
    to_move = None if over else game.turn
    legal = list(game.legal_moves) if to_move is not None and may_see_legal else []
    return HandState(to_move, game.phase, legal, over, game.outcome(), game.view(seat), stock)


def state_of_position(position: str, moves: list[str], seat: int | None) -> HandState:
    """The state after ``moves`` from the full ``position``, seen by ``seat``
    (None: the seat to move, or seat 0 once the hand is over)."""
    game, taken = _played_position(position, moves)
    if seat is None:
        seat = 0 if game.is_over() or game.turn is None else game.turn
    if not 0 <= seat < game.players:
        raise PositionError(f"no such seat in a {game.players}-player hand: {seat}",
                            "seat")
    stock = [card if drawer in (-1, seat) else None for card, drawer in taken]
    return _state(game, seat, True, stock)


def state_of_view(start: str, moves: list[str], stock: list[str | None],
                  seat: int | None) -> HandState:
    """The state after ``moves`` from the view ``start`` (as :func:`replay_view`),
    seen by the view's seat (``seat``, when given, must be that seat); the
    legal moves are given only when that seat is to move."""
    game, own = _played_view(start, moves, stock)
    if seat is not None and seat != own:
        raise PositionError(f"a view shows only its own seat {own}: {seat}", "seat")
    state = _state(game, own, game.turn == own, list(stock))
    return state
