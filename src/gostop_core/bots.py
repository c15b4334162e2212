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

Four bots are provided:

``random``
    :class:`RandomBot` picks a legal move uniformly at random; with a seed its
    choices are reproducible.

``greedy``
    :class:`GreedyBot` plays the move with the best *immediate* gain, judged
    only from visible cards (see the class for the exact rules of thumb).

``expectimax``
    :class:`ExpectimaxBot` searches the game tree from its view with the
    compiled expectimax of :mod:`gostop_core.search` (flips as chance nodes,
    opponents' hands sampled from the unseen cards; docs/search.md).

``ismcts``
    :class:`IsmctsBot` grows an information-set Monte Carlo tree over its own
    later decisions too (:mod:`gostop_core.ismcts`; docs/search.md).

Two more names select expectimax settings: ``best`` the strongest measured
(:data:`BEST_SETTINGS`, docs/strength.md), ``expectimax-v1`` the first
expectimax bot, unchanged, as a baseline (:data:`EXPECTIMAX_V1_SETTINGS`).
"""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass
from typing import Any, Sequence

from gostop_core.cards import CARD_CODES, CardSet, card_kind, card_month
from gostop_core.game import Game, Outcome, PlayerView
from gostop_core.moves import Move
from gostop_core.rules import Rules
from gostop_core.scoring import score
from gostop_core.ismcts import DEFAULT_C, DEFAULT_ITERATIONS
from gostop_core.search import MAX_DEPTH, MAX_PLAN, MAX_SAMPLES

__all__ = ["Bot", "RandomBot", "GreedyBot", "ExpectimaxBot", "IsmctsBot", "RankedMove", "BOT_NAMES",
           "BEST_SETTINGS", "EXPECTIMAX_V1_SETTINGS",
           "make_bot", "make_builtin_bot", "play_game", "visible_capture", "capture_timing"]


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
        this bot's view just before it.  Called only on bots that override it."""

    def end_hand(self, view: PlayerView, outcome: Outcome) -> None:
        """The hand is over: ``view`` is the seat's last view and ``outcome``
        how the hand ended.  Does nothing by default."""

    def close(self) -> None:
        """Release what the bot holds (an external bot stops its process).
        Does nothing by default."""

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


# ---------------------------------------------------------------- the expectimax bot

@dataclass(frozen=True)
class RankedMove:
    """A legal move with its expected value (net points for the seat, by the
    search's model) and its principal line: the move, then the typical
    continuation (``flip:5A`` a card turned from the stock, ``p1:7J1`` a move
    of seat 1, plain moves the seat's own)."""

    move: Move
    value: float
    line: tuple[str, ...]
    #: Deals of the unseen cards the value averages (fewer for a move the
    #: successive halving dropped early).
    samples: int = 0

    def as_dict(self) -> dict:
        return {"move": str(self.move), "value": round(self.value, 4), "line": list(self.line),
                "samples": self.samples}


def _line_entry(seat: int, viewer: int, code: int) -> str:
    from gostop_core.search import CHANCE_SEAT
    if seat == CHANCE_SEAT:
        return f"flip:{CARD_CODES[code]}"
    text = str(Move.from_code(code))
    return text if seat == viewer else f"p{seat}:{text}"


class ExpectimaxBot(Bot):
    """Expectimax search from the bot's view (:mod:`gostop_core.search`, in C).

    The other hands are dealt at random from the unseen cards (``samples``
    deals; every root move is searched on the same deals and its values
    averaged).  Max nodes for the bot's own decisions, a chance node for every
    flip (each stock card equally likely), the other seats playing the greedy
    bot's policy, ``depth`` turns deep (1: the bot's own turn with its flip;
    2: also the next seat's), then the leaf value: with ``leaf="rollout"`` (the
    default) the hand played out to its end by the greedy policy for every
    seat, with ``leaf="estimate"`` a fitted estimate of the net points from each
    seat's score, pile progress and hand size (docs/search.md).  A won hand
    counts ``win_bonus`` more and a lost one ``win_bonus`` less, so that among
    moves of about equal points the bot prefers the one more likely to win.
    The sampling is seeded by ``seed`` and the view itself, so the bot never
    depends on hidden cards and repeats its choices.  A single legal move is
    played without a search.

    Budgets: ``time_ms`` (> 0) stops the sampling after that many milliseconds
    (the result then depends on the machine's speed); ``stop_z`` (> 0) stops
    it once the best move leads every other by ``stop_z`` standard errors
    (deterministic).  ``plan`` (> 0) plans the bot's own later Go/Stop
    decisions inside the playouts with ``plan`` nested playouts per Go, on
    fresh deals of the cards it cannot see there.

    Settings can also be given by name to :func:`make_bot`:
    ``expectimax:depth=2,samples=64,leaf=estimate,win=0,time=200,stop=2.5,plan=4``."""

    name = "expectimax"

    #: Defaults: depth in turns, determinizations per decision, leaf value and
    #: win bonus (measured in docs/strength.md).
    DEPTH = 1
    SAMPLES = 256
    LEAF = "rollout"
    WIN_BONUS = 2.0
    #: Leaf values accepted.
    LEAVES = ("rollout", "estimate")

    def __init__(self, seed: int | None = None, depth: int | None = None,
                 samples: int | None = None, leaf: str | None = None,
                 win_bonus: float | None = None, halving: bool = False,
                 time_ms: float = 0.0, stop_z: float = 0.0, plan: int = 0):
        self.seed = seed
        self.halving = bool(halving)
        self.time_ms = float(time_ms)
        self.stop_z = float(stop_z)
        self.plan = int(plan)
        if not (math.isfinite(self.time_ms) and self.time_ms >= 0):
            raise ValueError(f"expectimax time must be 0 (no limit) or more milliseconds, "
                             f"got {time_ms}")
        if not (math.isfinite(self.stop_z) and self.stop_z >= 0):
            raise ValueError(f"expectimax stop must be 0 (off) or a positive number, got {stop_z}")
        if not 0 <= self.plan <= MAX_PLAN:
            raise ValueError(f"expectimax plan must be 0..{MAX_PLAN}, got {plan}")
        self.depth = self.DEPTH if depth is None else int(depth)
        self.samples = self.SAMPLES if samples is None else int(samples)
        self.leaf = self.LEAF if leaf is None else leaf
        self.win_bonus = self.WIN_BONUS if win_bonus is None else float(win_bonus)
        if not 1 <= self.depth <= MAX_DEPTH:
            raise ValueError(f"expectimax depth must be 1..{MAX_DEPTH}, got {self.depth}")
        if not 1 <= self.samples <= MAX_SAMPLES:
            raise ValueError(f"expectimax samples must be 1..{MAX_SAMPLES}, got {self.samples}")
        if self.leaf not in self.LEAVES:
            raise ValueError(f"expectimax leaf must be one of {', '.join(self.LEAVES)}, "
                             f"got {self.leaf!r}")
        if not math.isfinite(self.win_bonus):
            raise ValueError(f"expectimax win bonus must be a finite number, got {self.win_bonus}")
        self.nodes = 0

    def analyse(self, view: PlayerView | str) -> list[RankedMove]:
        """Every legal move of the view's seat (which must be the one to move),
        best first, with its value and principal line.  ``view`` is a
        :class:`PlayerView` or a player-view string."""
        from gostop_core.notation import parse_view
        from gostop_core.search import search_fields
        text = view if isinstance(view, str) else view.to_str()
        rules, fields = parse_view(text)
        seed = zlib.crc32(text.encode()) ^ ((self.seed or 0) * 0x9E3779B1)
        result = search_fields(rules, fields, self.depth, self.samples, seed,
                               rollout=self.leaf == "rollout", win_bonus=self.win_bonus,
                               halving=self.halving, time_ms=self.time_ms, stop_z=self.stop_z,
                               plan=self.plan, **self.search_options(rules, fields))
        self.last_samples = result["samples"]
        self.last_stopped = result["stopped"]
        self.nodes += result["nodes"]
        seat = fields["seat"]
        ranked = [RankedMove(Move.from_code(code), value,
                             tuple(_line_entry(s, seat, c) for s, c in line), count)
                  for (code, value, line), count in zip(result["moves"], result["counts"])]
        # the moves searched longest first (the halving's survivors), then best
        # first; equal values keep generation order
        return sorted(ranked, key=lambda r: (-r.samples, -r.value))

    def search_options(self, rules: Rules, fields: dict) -> dict[str, Any]:
        """More keyword arguments of ``search_fields`` (a subclass's playout
        model: :class:`gostop_core.learned.LearnedBot`); none here."""
        return {}

    def choose(self, view: PlayerView, legal: list[Move]) -> Move:
        if not legal:
            raise ValueError("no legal move to choose from")
        if len(legal) == 1:
            return legal[0]
        ranked = self.analyse(view)
        allowed = set(legal)
        for r in ranked:
            if r.move in allowed:
                return r.move
        return legal[0]


# ---------------------------------------------------------------- the IS-MCTS bot

class IsmctsBot(Bot):
    """Information-set Monte Carlo tree search from the bot's view
    (:mod:`gostop_core.ismcts`, in C).

    Every iteration deals the unseen cards at random (as the expectimax bot
    samples them) and descends a tree keyed by what the bot has seen: its own
    decisions chosen by UCB (exploration ``c`` times the payoffs' standard
    deviation, counting in how many deals a move was legal), every public
    event (another seat's move, a card turned from the stock) an edge, so the
    bot plans its own later plays, flip choices and Go/Stop calls.  The other
    seats play the greedy policy (``opponents="tree"``: they choose by UCB on
    the bot's negated payoff); ``loop="open"`` keeps only decisions as edges;
    ``prior`` (points) biases a tree decision toward the greedy policy's move
    (``prior / (visits + 1)`` more in its UCB value); ``widen`` W (> 0) lets a
    tree decision try one more move every W visits, the greedy move first.
    One node is added per iteration, then the hand is played out by the greedy
    policy and the payoff (net points, ``win_bonus`` more for a won hand and
    less for a lost one, as the expectimax bot counts it) is backed up.  The
    move played is the one chosen in the most iterations.

    Budgets: ``iterations`` deals per decision, ``time_ms`` (> 0) a time limit
    (the result then depends on the machine's speed), ``nodes`` the size of the
    tree's node pool (it stops growing when full).  The deals are seeded by
    ``seed`` and the view, so the bot repeats its choices and never depends on
    hidden cards.  A single legal move is played without a search.

    Settings can also be given by name to :func:`make_bot`:
    ``ismcts:iterations=20000,c=0.7,time=200,opponents=tree,loop=open,nodes=65536,win=2,prior=5,widen=4``."""

    name = "ismcts"

    #: Defaults (measured in docs/search.md).
    ITERATIONS = DEFAULT_ITERATIONS
    C = DEFAULT_C
    WIN_BONUS = 2.0
    OPPONENTS = ("greedy", "tree")
    LOOPS = ("closed", "open")

    def __init__(self, seed: int | None = None, iterations: int | None = None,
                 c: float | None = None, time_ms: float = 0.0, win_bonus: float | None = None,
                 opponents: str = "greedy", loop: str = "closed", nodes: int | None = None,
                 prior: float = 0.0, widen: float = 0.0):
        from gostop_core.ismcts import DEFAULT_NODES, MAX_ITERATIONS, MAX_NODES, MIN_NODES
        self.seed = seed
        self.iterations = self.ITERATIONS if iterations is None else int(iterations)
        self.c = self.C if c is None else float(c)
        self.time_ms = float(time_ms)
        self.win_bonus = self.WIN_BONUS if win_bonus is None else float(win_bonus)
        self.opponents = opponents
        self.loop = loop
        self.nodes = DEFAULT_NODES if nodes is None else int(nodes)
        self.prior = float(prior)
        self.widen = float(widen)
        if not 1 <= self.iterations <= MAX_ITERATIONS:
            raise ValueError(f"ismcts iterations must be 1..{MAX_ITERATIONS}, got {self.iterations}")
        if not (math.isfinite(self.c) and self.c >= 0):
            raise ValueError(f"ismcts c must be 0 (no exploration) or a positive number, got {c}")
        if not (math.isfinite(self.time_ms) and self.time_ms >= 0):
            raise ValueError(f"ismcts time must be 0 (no limit) or more milliseconds, got {time_ms}")
        if not math.isfinite(self.win_bonus):
            raise ValueError(f"ismcts win bonus must be a finite number, got {self.win_bonus}")
        if not (math.isfinite(self.prior) and self.prior >= 0):
            raise ValueError(f"ismcts prior must be 0 (none) or a positive number, got {prior}")
        if not (math.isfinite(self.widen) and self.widen >= 0):
            raise ValueError(f"ismcts widen must be 0 (off) or a positive number, got {widen}")
        if self.opponents not in self.OPPONENTS:
            raise ValueError(f"ismcts opponents must be one of {', '.join(self.OPPONENTS)}, "
                             f"got {opponents!r}")
        if self.loop not in self.LOOPS:
            raise ValueError(f"ismcts loop must be one of {', '.join(self.LOOPS)}, got {loop!r}")
        if not MIN_NODES <= self.nodes <= MAX_NODES:
            raise ValueError(f"ismcts nodes must be {MIN_NODES}..{MAX_NODES}, got {self.nodes}")
        self.last_iterations = 0

    def analyse(self, view: PlayerView | str) -> list[RankedMove]:
        """Every legal move of the view's seat (which must be the one to move),
        the most chosen first, with its mean payoff (``value``, nan for a move
        never chosen) and the iterations that chose it (``samples``)."""
        from gostop_core.ismcts import ismcts_fields
        from gostop_core.notation import parse_view
        text = view if isinstance(view, str) else view.to_str()
        rules, fields = parse_view(text)
        seed = zlib.crc32(text.encode()) ^ ((self.seed or 0) * 0x9E3779B1)
        result = ismcts_fields(rules, fields, self.iterations, self.c, seed,
                               time_ms=self.time_ms, win_bonus=self.win_bonus,
                               opp_tree=self.opponents == "tree", open_loop=self.loop == "open",
                               nodes=self.nodes, prior=self.prior, widen=self.widen)
        self.last_iterations = result["iterations"]
        ranked = [RankedMove(Move.from_code(code), value, (str(Move.from_code(code)),), visits)
                  for code, visits, value in result["moves"]]
        # most visits first, then the better mean; equal ones keep generation order
        return sorted(ranked, key=lambda r: (-r.samples, -(r.value if r.samples else -math.inf)))

    def choose(self, view: PlayerView, legal: list[Move]) -> Move:
        if not legal:
            raise ValueError("no legal move to choose from")
        if len(legal) == 1:
            return legal[0]
        allowed = set(legal)
        for r in self.analyse(view):
            if r.move in allowed:
                return r.move
        return legal[0]


# ---------------------------------------------------------------- factory and runner

#: Names accepted by :func:`make_bot`.
BOT_NAMES = ("random", "greedy", "expectimax", "expectimax-v1", "best", "ismcts", "learned")
#: Prefixes of the built-in bots that take ``key=value`` settings.
SETTINGS_PREFIXES = ("expectimax:", "best:", "ismcts:", "learned:")

#: ``expectimax-v1``: the expectimax bot as first released (depth 1, 256
#: samples, greedy playouts, win bonus 2), kept as a fixed baseline.
EXPECTIMAX_V1_SETTINGS: dict[str, Any] = {"depth": 1, "samples": 256, "leaf": "rollout",
                                          "win_bonus": 2.0}
#: ``best``: the strongest settings measured (docs/strength.md).  Still those of
#: ``expectimax-v1``: the planned Go/Stop with the early stop
#: (``expectimax:plan=4,stop=2.5``) did not measure stronger.
BEST_SETTINGS: dict[str, Any] = dict(EXPECTIMAX_V1_SETTINGS)


#: Settings of ``expectimax:key=value,...`` and the ExpectimaxBot argument each sets.
_EXPECTIMAX_KEYS = {"depth": "depth", "samples": "samples", "leaf": "leaf", "win": "win_bonus",
                    "halving": "halving", "time": "time_ms", "stop": "stop_z", "plan": "plan"}
#: Settings of ``ismcts:key=value,...`` and the IsmctsBot argument each sets.
_ISMCTS_KEYS = {"iterations": "iterations", "c": "c", "time": "time_ms", "win": "win_bonus",
                "opponents": "opponents", "loop": "loop", "nodes": "nodes", "prior": "prior",
                "widen": "widen"}
#: Settings read as decimal numbers, and as words (the others are whole numbers).
_FLOAT_KEYS = ("win", "time", "stop", "c", "prior", "widen")
_WORD_KEYS = ("leaf", "opponents", "loop")


def _settings_from_spec(kind: str, spec: str, keys: dict[str, str], example: str,
                        base: dict[str, Any] | None = None) -> dict[str, Any]:
    """The keyword arguments of ``key=value`` pairs separated by commas (the
    ``keys`` of bot ``kind``), over the settings ``base``."""
    kwargs: dict[str, Any] = dict(base or {})
    for item in spec.split(","):
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or key not in keys or not value:
            raise ValueError(f"bad {kind} setting {item!r}: use key=value with key one of "
                             f"{', '.join(keys)} (e.g. {example})")
        try:
            kwargs[keys[key]] = value if key in _WORD_KEYS else (
                float(value) if key in _FLOAT_KEYS else int(value))
            if key == "halving" and value not in ("0", "1"):
                raise ValueError
        except ValueError:
            raise ValueError(f"bad {kind} setting {item!r}: {key} needs "
                             f"{'0 or 1' if key == 'halving' else 'a number'}") from None
    return kwargs


def _expectimax_from_spec(spec: str, seed: int | None,
                          base: dict[str, Any] | None = None) -> "ExpectimaxBot":
    """``D`` (a depth) or ``key=value`` pairs separated by commas, over the
    settings ``base`` (default: the ExpectimaxBot defaults)."""
    if spec.isdigit():
        return ExpectimaxBot(seed, **dict(base or {}, depth=int(spec)))
    return ExpectimaxBot(seed, **_settings_from_spec("expectimax", spec, _EXPECTIMAX_KEYS,
                                                     "expectimax:depth=2,samples=64", base))


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name: ``"random"`` (seeded with ``seed``), ``"greedy"``,
    ``"expectimax"`` (its defaults), ``"expectimax-v1"`` (the fixed baseline:
    depth 1, 256 samples, greedy playouts, win bonus 2) or ``"best"`` (the
    strongest bot measured, :data:`BEST_SETTINGS`); ``expectimax:D`` for depth
    D, or ``expectimax:depth=D,samples=N,leaf=rollout|estimate,win=W,halving=0|1,
    time=MS,stop=Z,plan=K`` (any of them); ``best:key=value,...`` changes
    settings of the best bot (``best:time=200``).
    Any other bot specification (``path/to/file.py:Class``,
    ``package.module:Class``, a name registered under the ``gostop.bots`` entry
    points, ``cmd:COMMAND``) is resolved by :func:`gostop_core.plugins.resolve_bot`;
    an unknown one raises :class:`~gostop_core.errors.BotSpecError` (a ValueError)."""
    if not isinstance(name, str):
        raise ValueError(f"unknown bot {name!r}; choose one of: {', '.join(BOT_NAMES)}")
    key = name.strip().lower()
    if key in BOT_NAMES or key.startswith(SETTINGS_PREFIXES):
        return make_builtin_bot(key, seed)
    from gostop_core.plugins import resolve_bot
    return resolve_bot(name).make(seed)


def make_builtin_bot(name: str, seed: int | None = None) -> Bot:
    """A built-in bot by its (lower-case) name, as :func:`make_bot` describes."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    if name == "expectimax":
        return ExpectimaxBot(seed)
    if name == "expectimax-v1":
        return ExpectimaxBot(seed, **EXPECTIMAX_V1_SETTINGS)
    if name == "best":
        return ExpectimaxBot(seed, **BEST_SETTINGS)
    if name.startswith("expectimax:"):
        return _expectimax_from_spec(name[len("expectimax:"):], seed)
    if name.startswith("best:"):
        return _expectimax_from_spec(name[len("best:"):], seed, BEST_SETTINGS)
    if name == "ismcts":
        return IsmctsBot(seed)
    if name.startswith("ismcts:"):
        return IsmctsBot(seed, **_settings_from_spec("ismcts", name[len("ismcts:"):], _ISMCTS_KEYS,
                                                     "ismcts:iterations=4000,c=0.7"))
    if name == "learned" or name.startswith("learned:"):
        from gostop_core.learned import learned_from_spec  # it builds on this module
        return learned_from_spec(name[len("learned:"):], seed)
    raise ValueError(f"unknown bot {name!r}; choose one of: {', '.join(BOT_NAMES)}")


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
