"""The bots that judge only what they see now: :class:`RandomBot` and
:class:`GreedyBot`, with the visible consequences of a move they rank by."""

from __future__ import annotations

import random

from gostop_core.bots.base import Bot
from gostop_core.cards import CARD_CODES, CardSet, card_kind, card_month
from gostop_core.game import PlayerView
from gostop_core.moves import Move
from gostop_core.rules import Rules
from gostop_core.scoring import score

__all__ = ["RandomBot", "GreedyBot", "visible_capture", "capture_timing"]


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

def _month_cards(cards: CardSet, month: int) -> list[str]:
    return [c for c in cards.codes() if card_kind(c) != "X" and card_month(c) == month]


def capture_timing(view: PlayerView, move: Move) -> str:
    """When the cards of :func:`visible_capture` are taken, by the rules of the
    view: ``"now"`` (casual: a play takes its pair at once; a flip choice),
    ``"after_flip"`` (the played card is placed on its pair, and both are taken
    once the flip has been turned, unless the flip is of the same month),
    ``"stack"`` (the fourth card of a month takes a stack of three at once),
    ``"bomb"``, or ``"none"`` (the card stays on the field; other moves)."""
    if move.kind == "play" and move.card is not None:
        same = _month_cards(view.field, card_month(move.card))
        if not same:
            return "none"
        if len(same) == 3 and view.rules.field_stacks:
            return "stack"
        return "now" if view.rules.capture_at_play else "after_flip"
    if move.kind == "bomb":
        return "bomb"
    if move.kind == "flip":
        return "now"
    return "none"


def visible_capture(view: PlayerView, move: Move) -> list[str]:
    """The cards a move takes this turn, worked out from the visible field and the
    rules of the view (the flip that follows a play is not guessed; see
    :func:`capture_timing` for *when* they are taken).

    For a play: ``[]`` when no field card has its month; the played card and the
    whole stack when three of its month lie on the field under ``field_stacks``;
    else the played card and the field card it takes (the named target, or the
    only field card of its month): at once under ``capture_at_play``, after the
    flip otherwise.  For a bomb, the four cards of the month; for a flip choice,
    the flipped card and the chosen field card.  Other moves take nothing."""
    if move.kind == "play" and move.card is not None:
        same = _month_cards(view.field, card_month(move.card))
        if not same:
            return []
        if len(same) == 3 and view.rules.field_stacks:
            return [move.card] + same
        if move.target is not None:
            return [move.card, move.target]
        return [move.card, same[0]]
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
# family sets: hongdan, cheongdan, and all four of May, October, December, November
_FAMILY_SETS = (_RIBBON_SETS[0], _RIBBON_SETS[1]) + tuple(
    frozenset(CARD_CODES[(m - 1) * 4 + i] for i in range(4)) for m in (5, 10, 12, 11))


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


def _family_points(rules: Rules, code: str) -> int:
    kind = card_kind(code)
    if kind == "B":
        return int(rules.family_bright)
    if kind == "A":
        return int(rules.family_animal)
    if kind == "R":
        return int(rules.family_ribbon)
    return 0


def _family_set_bonus(rules: Rules, group: frozenset) -> int:
    if group in _RIBBON_SETS:
        return int(rules.family_ribbon_set)
    return int(rules.family_november_set if "11B" in group else rules.family_month_set)


def _codes(cards: CardSet) -> set[str]:
    return set(cards.codes())


def _active_players(view: PlayerView) -> int:
    return view.players - (1 if view.sitter is not None else 0)


class GreedyBot(Bot):
    """Plays the move with the best immediate, visible gain, by the rules of its
    game (the rules object in its view).

    Each candidate is valued from the view alone:

    * **Play a card**: the cards it takes are those of :func:`visible_capture`
      (a pair at once, a pair that waits for the flip, or a whole stack).
      Gain = 4 x (score of the pile after the capture - score before) + the sum
      of the card values (bright 5, rain bright 3.5, godori bird 3, other animal 2,
      sake cup 2.5, ribbon 2, rain ribbon 1, double junk 2, junk 1), + 1.5 for
      each card of a set (godori, hongdan, cheongdan, chodan) the bot already
      holds part of, + 1 per bright already held for a bright, + 2 for taking
      a card an opponent needs to finish a set or reach three brights; a steal
      (stack capture, bomb, ttadak where the rules steal) is worth 1.2 per
      opponent with junk to give.  When the pair waits for the flip, the chance
      that the flip is of the same month (its unseen cards / all unseen cards)
      is weighed in: a ppeok loses the pair, a fourth card (ttadak) takes all
      four.
    * **A card that captures nothing** is left on the field for the others: it
      costs 0.6 x its value (half that if the bot holds another card of its
      month and can take it back), scaled by how many unseen cards of its month
      could take it (0.1 + 0.3 per unseen card, at most 1).
    * **Family rules** (card points, no Go/Stop): a card is worth its card points
      / 5 (bright 4, animal 2, ribbon 1, junk 0), with progress toward the set
      bonuses every other player would pay, and the denial of an opponent's
      nearly complete set (worth the bonus it would cost).
    * **Bomb**: the four cards of the month as above, + the steal, + 2 when the
      bomb doubles the payment like a shake, - 1 for forced flip-only turns.
    * **Shake**: always, when allowed: it only shows three cards, and each shake
      doubles the payment if the bot wins.
    * **Bonus card**: always banked first (it is free and draws a replacement).
    * **Optional flip-only turn**: taken when no play takes anything (it is worth
      0.5, more than any play that captures nothing): it keeps the hand for
      later instead of giving a card away.
    * **Flip choice**: the field card with the best value as above (a pair
      waiting for the flip counts as already taken).
    * **Showdown** (003, ``showdown=1``): never asked (the player whose
      win-card it is refuses, and the asker must lay that card down); a showdown
      is refused when the card shown would bring the bot itself to the
      threshold, else received.
    * **Go or Stop**: Stop when an opponent is within 2 points of the threshold
      (1 with a threshold below 5; one more where a losing Go caller pays
      double, go-bak), or when the bot holds 2 cards or fewer (little chance to
      score again, and a Go that is never followed by a Stop ends in a drawn
      hand); otherwise Go.

    Measured against the random bot (``tests/test_bots.py`` asserts a wide
    margin) and against its casual-only predecessor, whose shakes, flip-only
    turns and risk-scaled discards it improves on.  There is no look-ahead and
    no guess about hidden cards; ties go to the first legal move in generation
    order.
    """

    name = "greedy"

    #: Stop when an opponent has at least ``threshold - STOP_MARGIN`` points
    #: (thresholds of 5 or more; 1 below that), one more with go-bak.
    STOP_MARGIN = 2
    #: Stop when the bot's hand holds this many cards or fewer.
    STOP_HAND = 2
    #: Value of one steal per opponent with junk to give.
    STEAL = 1.2
    #: Value of an optional flip-only turn (above any play that captures nothing).
    FLIP_ONLY = 0.5
    #: Value of a shake (always taken: only a bonus card comes first).
    SHAKE = 900.0
    #: Value of asking for a showdown (below any move).
    SHOWDOWN = -1000.0

    def __init__(self, seed: int | None = None):
        self.seed = seed  # unused: the greedy bot is deterministic
        self._unseen_for: PlayerView | None = None
        self._unseen: dict[int, int] = {}
        self._unseen_total = 0

    # ---- what is still unseen
    def _count_unseen(self, view: PlayerView) -> None:
        if self._unseen_for is view:
            return
        counts: dict[int, int] = {}
        total = 0
        for code in view.unseen.codes():
            total += 1
            if card_kind(code) != "X":
                m = card_month(code)
                counts[m] = counts.get(m, 0) + 1
        self._unseen_for, self._unseen, self._unseen_total = view, counts, total

    def unseen_in_month(self, view: PlayerView, month: int) -> int:
        """Cards of ``month`` the bot has not seen (other hands and the stock)."""
        self._count_unseen(view)
        return self._unseen.get(month, 0)

    def month_chance(self, view: PlayerView, month: int) -> float:
        """The chance that the next flipped card is of ``month``: its unseen cards
        over all unseen cards (the stock is a random part of the unseen cards)."""
        self._count_unseen(view)
        if not self._unseen_total or not view.stock_count:
            return 0.0
        return self._unseen.get(month, 0) / self._unseen_total

    # ---- values
    def card_value(self, view: PlayerView, code: str, pile: set[str]) -> float:
        """The value of adding ``code`` to the bot's ``pile`` (codes), denial included."""
        if view.rules.family_scoring:
            return self._family_card_value(view, code, pile)
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

    def _family_card_value(self, view: PlayerView, code: str, pile: set[str]) -> float:
        rules = view.rules
        others = _active_players(view) - 1
        value = _family_points(rules, code) / 5.0
        for group in _FAMILY_SETS:
            if code not in group:
                continue
            bonus = _family_set_bonus(rules, group) / 5.0
            held = len(group & pile)
            # progress toward a set whose bonus every other player pays
            value += bonus * others * (held + 1) / len(group) / len(group)
            for seat, cards in enumerate(view.captured):
                if seat != view.seat and len(group & _codes(cards)) == len(group) - 1:
                    value += bonus  # denial: the bonus it would cost the bot
        return value

    def capture_value(self, view: PlayerView, cards: list[str]) -> float:
        """Gain of capturing ``cards``: score change and card values."""
        mine = view.captured[view.seat]
        pile = _codes(mine)
        value = 0.0
        if not view.rules.family_scoring:
            before = score(mine, view.rules).total
            after = score(mine | cards, view.rules).total
            value = 4.0 * (after - before)
        for code in cards:
            value += self.card_value(view, code, pile)
            pile.add(code)
        return value

    def steal_value(self, view: PlayerView) -> float:
        """One junk from each opponent that has some."""
        return self.STEAL * sum(
            1 for seat, pile in enumerate(view.captured)
            if seat != view.seat and seat != view.sitter
            and any(card_kind(c) in "JDX" for c in pile.codes()))

    def captures(self, view: PlayerView, move: Move) -> list[str]:
        """The cards a move takes this turn (see :func:`visible_capture`)."""
        return visible_capture(view, move)

    def play_value(self, view: PlayerView, move: Move) -> float:
        rules = view.rules
        card = move.card or ""
        month = card_month(card)
        timing = capture_timing(view, move)
        if timing == "none":
            keep = any(card_month(c) == month for c in view.hand.codes() if c != card)
            cost = (0.3 if keep else 0.6) * self.card_value(view, card, set())
            return -cost * min(1.0, 0.1 + 0.3 * self.unseen_in_month(view, month))
        taken = self.captures(view, move)
        value = self.capture_value(view, taken)
        if timing == "stack":
            return value + (self.steal_value(view) if rules.stack_steal else 0.0)
        if timing == "after_flip":
            q = self.month_chance(view, month)
            same = _month_cards(view.field, month)
            if len(same) == 1:
                # ppeok: the flip is the third of the month and the pair stays
                # (family: the pair is still taken, the flip stays)
                return value - (0.0 if rules.ppeok == 2 else q * value)
            # played onto two: a fourth card flipped (ttadak) takes all four
            bonus = self.capture_value(view, [card] + same) - value
            if rules.ttadak_steal:
                bonus += self.steal_value(view)
            return value + q * bonus
        return value

    def move_value(self, view: PlayerView, move: Move) -> float:
        kind = move.kind
        rules = view.rules
        if kind == "bonus":
            return 1000.0 + _base_value(move.card or "")
        if kind == "shake":
            return self.SHAKE
        if kind == "fliponly":
            return self.FLIP_ONLY
        if kind == "showdown":
            return self.showdown_value(view)
        if kind in ("accept", "refuse"):
            return 1.0 if (kind == "refuse") == self.wants_to_refuse(view) else 0.0
        if kind == "play":
            return self.play_value(view, move)
        if kind == "flip":
            taken = self.captures(view, move)
            if view.played_card and view.played_target:
                # the waiting pair is taken after this choice: count it in the pile
                pending = [view.played_card, view.played_target]
                return (self.capture_value(view, pending + taken)
                        - self.capture_value(view, pending))
            return self.capture_value(view, taken)
        if kind == "bomb":
            value = self.capture_value(view, self.captures(view, move))
            if rules.bomb_steal:
                value += self.steal_value(view)
            if rules.bomb_counts_as_shake:
                value += 2.0
            if rules.bomb_flip_only_turns and not rules.bomb_flip_only_optional:
                value -= 1.0
            return value
        return 0.0

    def showdown_value(self, view: PlayerView) -> float:
        """Never ask for a showdown: the player whose win-card it is refuses it,
        and the asker must then lay that very card down."""
        return self.SHOWDOWN

    def wants_to_refuse(self, view: PlayerView) -> bool:
        """Refuse a showdown when the shown card would bring the bot itself to the
        threshold (then the asker must lay it down); else receive it."""
        card = view.showdown_card
        if card is None:
            return False
        rules = view.rules
        mine = view.captured[view.seat]
        with_card = score(mine | [card], rules).total
        return with_card > score(mine, rules).total and \
            with_card >= rules.threshold(_active_players(view))

    def wants_stop(self, view: PlayerView) -> bool:
        """The Go/Stop rule of thumb (see the class docstring)."""
        rules = view.rules
        threshold = rules.threshold(_active_players(view))
        margin = self.STOP_MARGIN if threshold >= 5 else 1
        if rules.go_bak:
            margin += 1
        for seat, pile in enumerate(view.captured):
            if seat in (view.seat, view.sitter):
                continue
            if score(pile, rules).total >= threshold - margin:
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

