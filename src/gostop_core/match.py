"""Matches: hand after hand with a moving dealer, nagari doubling and a chip ledger."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable, Sequence

from gostop_core.cards import CARD_CODES
from gostop_core.arguments import rules_of, whole_number
from gostop_core.driver import HandDriver
from gostop_core.errors import ArgumentTypeError, GoStopError, RulesError
from gostop_core.game import Game, Outcome
from gostop_core.moves import Move
from gostop_core.rules import Rules

DEALER_FIXED, DEALER_DRAW_THEN_WINNER, DEALER_NIGHT_DAY = 0, 1, 2

#: The most nagari doublings a hand's stake carries (x1024).  The rules say the
#: next payment doubles after a drawn hand and that doubling is cumulative, but
#: not where it ends; a match goes on doubling up to this cap, then the stake
#: stays at x1024 however many hands in a row are drawn (see docs/rules.md).
MAX_STAKE_DOUBLINGS = 10


def hand_seed(match_seed: int, index: int) -> int:
    """The deal seed of hand ``index`` of a match.  The first hand (index 0) is
    dealt from the match seed itself, so that ``gostop play --seed S`` starts with
    the deal of ``gostop deal --seed S``; every other hand (and the first-dealer
    draw, negative indexes) from a 64-bit hash of both, the same on every machine."""
    if index == 0:
        return match_seed
    digest = hashlib.blake2b(f"gostop-match:{match_seed}:{index}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "little")


def _draw_rank(card: int, night: bool) -> tuple[int, int]:
    """Sort key of a drawn card for choosing the first dealer: the month decides
    (highest, or earliest at night), then the card's place in its month
    (bright, animal, ribbon, junk: the first listed ranks highest)."""
    month, slot = card // 4 + 1, card % 4
    return (-month if night else month, -slot)


@dataclass(frozen=True)
class HandRecord:
    """One finished hand of a match."""

    index: int
    seed: int
    dealer: int
    stake_doublings: int
    outcome: Outcome
    moves: tuple[str, ...]


class Match:
    """Hands played one after another.

    The first dealer is ``dealer`` if given, else chosen as the rules say
    (``dealer_rule``: fixed seat 0; a draw where the highest month deals, 001; the
    night/day draw of 003/004, earliest month at night, latest by day).  After a
    hand the winner deals; after a drawn hand (nagari) the same dealer deals again
    and, where ``nagari_doubling`` is set, the next payment doubles (cumulatively,
    up to :data:`MAX_STAKE_DOUBLINGS` doublings).  ``ledger`` holds each seat's
    chips (casual: points won).  ``seed`` is any whole number.

    ``hands`` lists the finished hands (:class:`HandRecord`); ``history`` (a
    whole number) keeps only that many of the latest, for a match that runs
    for ever (a server's table), while :attr:`hands_played` goes on counting
    and the deals are the same as with the whole list.
    """

    def __init__(self, rules: Rules | str = "casual", players: int = 2, seed: int = 0,
                 dealer: int | None = None, daytime: bool = False,
                 history: int | None = None):
        self.rules = rules_of(rules)
        players = whole_number(players, "players")
        seed = whole_number(seed, "seed")
        if not isinstance(daytime, bool):
            raise ArgumentTypeError(f"daytime must be a bool, got {type(daytime).__name__} {daytime!r}")
        self.rules.check_players(players)
        self.players = players
        self.seed = seed
        self.daytime = daytime
        if history is not None:
            history = whole_number(history, "history")
            if history < 0:
                raise RulesError(f"history must be 0 or more hands, got {history}")
        self.history = history
        self.ledger = [0] * players
        self.hands: list[HandRecord] = []
        #: Finished hands booked so far (all of them, whatever ``history`` keeps).
        self.hands_played = 0
        self.nagari_streak = 0
        self.dealer_draw: list[str] = []
        if dealer is not None:
            dealer = whole_number(dealer, "dealer")
            if not 0 <= dealer < players:
                raise RulesError(f"dealer {dealer} is not a seat of a {players}-player game")
            self.dealer = dealer
        else:
            self.dealer = self._choose_first_dealer()
        self._current: Game | None = None

    def _choose_first_dealer(self) -> int:
        rule = self.rules.dealer_rule
        if rule == DEALER_FIXED:
            return 0
        # each player draws a card from a seeded shuffle of the 48 month cards
        order = sorted(range(48), key=lambda c: hand_seed(self.seed, -1 - c))
        drawn = order[: self.players]
        self.dealer_draw = [CARD_CODES[c] for c in drawn]
        night = rule == DEALER_NIGHT_DAY and not self.daytime
        ranks = [_draw_rank(c, night) for c in drawn]
        return max(range(self.players), key=lambda p: ranks[p])

    @property
    def stake_doublings(self) -> int:
        """Nagari doublings the next hand carries: the drawn hands in a row just
        before it, at most :data:`MAX_STAKE_DOUBLINGS` (0 without ``nagari_doubling``)."""
        return min(self.nagari_streak, MAX_STAKE_DOUBLINGS) if self.rules.nagari_doubling else 0

    def new_hand(self) -> Game:
        """Deal the next hand (the previous one must be finished and recorded)."""
        if self._current is not None and not self._current.is_over():
            raise GoStopError("the current hand is not finished")
        if self._current is not None:
            self.record(self._current)
        game = Game(self.rules, self.players, hand_seed(self.seed, self.hands_played),
                    self.dealer, self.stake_doublings)
        self._current = game
        return game

    def record(self, game: Game) -> HandRecord:
        """Book a finished hand: the ledger, the next dealer, the nagari streak."""
        if game is not self._current:
            raise GoStopError("only the match's current hand can be recorded")
        outcome = game.outcome()
        if outcome is None:
            raise GoStopError("the hand is not finished")
        rec = HandRecord(self.hands_played, game.seed or 0, game.dealer, game.stake_doublings,
                         outcome, tuple(str(m) for m in game.move_stack))
        self.hands.append(rec)
        self.hands_played += 1
        if self.history is not None and len(self.hands) > self.history:
            del self.hands[:len(self.hands) - self.history]
        for p, chips in enumerate(outcome.chips):
            self.ledger[p] += chips
        if outcome.reason == "draw":
            self.nagari_streak += 1
        else:
            self.nagari_streak = 0
            if outcome.winner is not None and self.rules.dealer_rule != DEALER_FIXED:
                self.dealer = outcome.winner
        self._current = None
        return rec

    def play(self, hands: int, choose: Callable[[Game], Move],
             on_hand_end: Callable[[HandRecord], None] | None = None) -> list[int]:
        """Play ``hands`` hands, asking ``choose(game)`` for every decision;
        returns the ledger."""
        for _ in range(whole_number(hands, "hands")):
            game = self.new_hand()
            while not game.is_over():
                game.push(choose(game))
            rec = self.record(game)
            if on_hand_end:
                on_hand_end(rec)
        return list(self.ledger)

    def standings(self) -> list[tuple[int, int]]:
        """(seat, chips) from the best to the worst."""
        return sorted(enumerate(self.ledger), key=lambda item: -item[1])


def play_with_bots(match: Match, bots: Sequence, hands: int) -> list[int]:
    """Play a match where seat ``p`` is ``bots[p]`` (objects with ``choose(view,
    legal)`` and, when they have them, the hand hooks): every hand is played by
    :class:`~gostop_core.driver.HandDriver`, so each bot gets ``start_hand``,
    ``observe`` and ``end_hand`` as everywhere else; a bot's exception reaches
    the caller.  Returns the ledger."""
    for _ in range(whole_number(hands, "hands")):
        game = match.new_hand()
        HandDriver(game, bots, policy="raise").play()
        match.record(game)
    return list(match.ledger)
