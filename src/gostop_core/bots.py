"""Simple computer players.

A bot sees exactly what a person in its seat would see: the
:class:`~gostop_core.game.PlayerView` of its seat (its own hand, the field, every
captured pile, counts for the hidden hands and the stock) and the list of legal
moves.  It never sees the other hands or the stock order.

>>> from gostop_core import Game
>>> from gostop_core.bots import make_bot, play_game
>>> g = Game(players=2, seed=3)
>>> outcome = play_game(g, [make_bot("greedy"), make_bot("random", seed=1)])
>>> g.is_over()
True

Two bots are provided:

``random``
    :class:`RandomBot` picks a legal move uniformly at random; with a seed its
    choices are reproducible.

``greedy``
    :class:`GreedyBot` plays the move with the best *immediate* gain, judged
    only from visible cards (see the class for the exact rules of thumb).
"""

from __future__ import annotations

import random
from typing import Sequence

from gostop_core.cards import CARD_CODES, CardSet, card_kind, card_month
from gostop_core.game import Game, Outcome, PlayerView
from gostop_core.moves import Move
from gostop_core.scoring import score

__all__ = ["Bot", "RandomBot", "GreedyBot", "BOT_NAMES", "make_bot", "play_game",
           "visible_capture"]


class Bot:
    """The interface of a computer player.

    Subclasses set :attr:`name` and implement :meth:`choose`, which receives the
    view of the bot's seat and the legal moves (never empty) and returns one of
    those moves."""

    #: A short name shown by the CLI ("random", "greedy", ...).
    name: str = "bot"

    def choose(self, view: PlayerView, legal: list[Move]) -> Move:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class RandomBot(Bot):
    """Chooses uniformly among the legal moves.  The same seed and the same
    sequence of decisions give the same choices."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView, legal: list[Move]) -> Move:
        if not legal:
            raise ValueError("no legal move to choose from")
        return legal[self._rng.randrange(len(legal))]


# ---------------------------------------------------------------- visible consequences

def visible_capture(view: PlayerView, move: Move) -> list[str]:
    """The cards a move takes before the stock is flipped, worked out from the
    visible field only: for a play, the played card and the field card it takes
    (the named target, or the only field card of its month), or ``[]`` when it
    matches nothing; for a bomb, the four cards of the month; for a flip choice,
    the flipped card and the chosen field card.  Other moves take nothing."""
    if move.kind == "play" and move.card is not None:
        if move.target is not None:
            return [move.card, move.target]
        month = card_month(move.card)
        same = [c for c in view.field.codes() if card_month(c) == month]
        return [move.card] + same if same else []
    if move.kind == "bomb" and move.month is not None:
        return [CARD_CODES[(move.month - 1) * 4 + i] for i in range(4)]
    if move.kind == "flip" and move.target is not None:
        return [view.flip_card, move.target] if view.flip_card else [move.target]
    return []


# ---------------------------------------------------------------- the greedy bot

_GODORI = frozenset(("2A", "4A", "8A"))
_RIBBON_SETS = (frozenset(("1R", "2R", "3R")),   # hongdan
                frozenset(("6R", "9R", "10R")),  # cheongdan
                frozenset(("4R", "5R", "7R")))   # chodan
_SETS = (_GODORI,) + _RIBBON_SETS


def _base_value(code: str) -> float:
    """How much a card is worth in a captured pile, before any set bonus."""
    if code == "X2":
        return 2.0
    if code == "X3":
        return 3.0
    if code == "12B":
        return 3.5
    if code == "9A":
        return 2.5  # an animal or two junk, whichever scores more
    kind = card_kind(code)
    if kind == "B":
        return 5.0
    if kind == "A":
        return 3.0 if code in _GODORI else 2.0
    if kind == "R":
        return 1.0 if code == "12R" else 2.0
    if kind == "D":
        return 2.0
    return 1.0


def _codes(cards: CardSet) -> set[str]:
    return set(cards.codes())


class GreedyBot(Bot):
    """Plays the move with the best immediate, visible gain.

    Each candidate is valued from the view alone:

    * **Play a card**: the cards it captures are the played card plus the field
      card it takes (the named target, or the only field card of its month).
      Gain = 4 x (score of the pile after the capture - score before) + the sum
      of the card values (bright 5, rain bright 3.5, godori bird 3, other animal 2,
      sake cup 2.5, ribbon 2, rain ribbon 1, double junk 2, junk 1), + 1.5 for
      each card of a set (godori, hongdan, cheongdan, chodan) the bot already
      holds part of, + 1 per bright already held for a bright, + 2 for taking
      a card an opponent needs to finish a set or reach three brights.
      A card that captures nothing is left on the field for the others:
      it costs 0.6 x its value (half that if the bot holds another card of its
      month and can take it back).
    * **Bomb**: the four cards of the month as above, + 1 per opponent who has
      junk to give, - 1 for the two flip-only turns that follow.
    * **Bonus card**: always banked first (it is free and draws a replacement).
    * **Flip choice**: the field card with the best value as above.
    * **Go or Stop**: Stop when an opponent is within 2 points of the threshold
      or the bot holds 2 cards or fewer (little chance to score again, and a Go
      that is never followed by a Stop ends in a drawn hand); otherwise Go.

    There is no look-ahead and no guess about hidden cards; ties go to the
    first legal move in generation order.
    """

    name = "greedy"

    #: Stop when an opponent has at least ``threshold - STOP_MARGIN`` points.
    STOP_MARGIN = 2
    #: Stop when the bot's hand holds this many cards or fewer.
    STOP_HAND = 2

    def __init__(self, seed: int | None = None):
        self.seed = seed  # unused: the greedy bot is deterministic

    # ---- values
    def card_value(self, view: PlayerView, code: str, pile: set[str]) -> float:
        """The value of adding ``code`` to the bot's ``pile`` (codes), denial included."""
        value = _base_value(code)
        for group in _SETS:
            if code in group:
                value += 1.5 * len(group & pile)
        if card_kind(code) == "B":
            value += 1.0 * sum(1 for c in pile if card_kind(c) == "B")
        # denial: an opponent one card short of a set or of three brights
        for seat, cards in enumerate(view.captured):
            if seat == view.seat:
                continue
            theirs = _codes(cards)
            for group in _SETS:
                if code in group and len(group & theirs) == 2:
                    value += 2.0
            if card_kind(code) == "B" and sum(1 for c in theirs if card_kind(c) == "B") == 2:
                value += 2.0
        return value

    def capture_value(self, view: PlayerView, cards: list[str]) -> float:
        """Gain of capturing ``cards``: score change and card values."""
        mine = view.captured[view.seat]
        before = score(mine, view.rules).total
        after = score(mine | cards, view.rules).total
        pile = _codes(mine)
        value = 4.0 * (after - before)
        for code in cards:
            value += self.card_value(view, code, pile)
            pile.add(code)
        return value

    def captures(self, view: PlayerView, move: Move) -> list[str]:
        """The cards a move takes at once (see :func:`visible_capture`)."""
        return visible_capture(view, move)

    def move_value(self, view: PlayerView, move: Move) -> float:
        kind = move.kind
        card = move.card or ""
        if kind == "bonus":
            return 1000.0 + _base_value(card)
        if kind in ("play", "flip", "bomb"):
            taken = self.captures(view, move)
            if taken:
                value = self.capture_value(view, taken)
            else:
                value = 0.0
            if kind == "play" and not taken:
                month = card_month(card)
                keep = any(card_month(c) == month for c in view.hand.codes() if c != card)
                value -= (0.3 if keep else 0.6) * _base_value(card)
            if kind == "bomb":
                opponents_with_junk = sum(
                    1 for seat, pile in enumerate(view.captured)
                    if seat != view.seat and any(card_kind(c) in "JDX" for c in pile.codes()))
                value += opponents_with_junk - 1.0
            return value
        return 0.0

    def wants_stop(self, view: PlayerView) -> bool:
        """The Go/Stop rule of thumb (see the class docstring)."""
        threshold = view.rules.threshold(view.players)
        for seat, pile in enumerate(view.captured):
            if seat != view.seat and score(pile, view.rules).total >= threshold - self.STOP_MARGIN:
                return True
        return view.hand_counts[view.seat] <= self.STOP_HAND

    def choose(self, view: PlayerView, legal: list[Move]) -> Move:
        if not legal:
            raise ValueError("no legal move to choose from")
        kinds = {m.kind for m in legal}
        if kinds == {"go", "stop"}:
            wanted = "stop" if self.wants_stop(view) else "go"
            return next(m for m in legal if m.kind == wanted)
        best = legal[0]
        best_value = self.move_value(view, best)
        for move in legal[1:]:
            v = self.move_value(view, move)
            if v > best_value:
                best, best_value = move, v
        return best


# ---------------------------------------------------------------- factory and runner

#: Names accepted by :func:`make_bot`.
BOT_NAMES = ("random", "greedy")


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name: ``"random"`` (seeded with ``seed``) or ``"greedy"``."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key == "random":
        return RandomBot(seed)
    if key == "greedy":
        return GreedyBot(seed)
    raise ValueError(f"unknown bot {name!r}; choose one of: {', '.join(BOT_NAMES)}")


def play_game(game: Game, bots: Sequence[Bot]) -> Outcome:
    """Let ``bots`` (one per seat) play ``game`` to the end; returns the outcome.
    Each bot gets only its seat's view and the legal moves."""
    if len(bots) != game.players:
        raise ValueError(f"need {game.players} bots, one per seat, got {len(bots)}")
    while not game.is_over():
        seat = game.turn
        assert seat is not None
        legal = list(game.legal_moves)
        move = bots[seat].choose(game.view(seat), legal)
        game.push(move)
    outcome = game.outcome()
    assert outcome is not None
    return outcome
