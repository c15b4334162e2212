"""What one seat may see: :class:`PlayerView`, built from the seat's part of a
position alone (:func:`seat_fields`), and its array form for learning tools
(:data:`ARRAY_PLANES`, :data:`ARRAY_SCALARS`).  Every bot, observation, hint
and drawing of a seat's board starts from a view."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from gostop_core.cards import CARD_CODES, CardSet
from gostop_core.movegen import PHASE_NAMES
from gostop_core.state import CoreState
from gostop_core.notation import format_view, parse_view, visible_mask
from gostop_core.rules import Rules
from gostop_core.scoring import score as score_pile

if TYPE_CHECKING:  # pragma: no cover
    from gostop_core.game import Game

__all__ = ["PlayerView", "seat_fields", "ARRAY_PLANES", "ARRAY_SCALARS", "ARRAY_LENGTH"]


# Layout of PlayerView.to_array(): card planes, then scalar features.
ARRAY_PLANES = ("own_hand", "field", "flip_card", "captured_self", "captured_next",
                "captured_next2", "captured_next3", "unseen")
ARRAY_SCALARS = ("hand_count_self", "hand_count_next", "hand_count_next2", "hand_count_next3",
                 "go_self", "go_next", "go_next2", "go_next3",
                 "flip_only_self", "flip_only_next", "flip_only_next2", "flip_only_next3",
                 "stock_count", "to_move_is_self", "is_dealer",
                 "phase_play", "phase_flip", "phase_gostop", "phase_over", "phase_showdown")
ARRAY_LENGTH = 50 * len(ARRAY_PLANES) + len(ARRAY_SCALARS)


#: Keys of a position's fields (``CoreState.to_fields()``) that a seat may not see
#: whole: the hands (the seat sees its own, and counts) and the stock (a count).
_HIDDEN_KEYS = ("hands", "stock")


def seat_fields(fields: dict, seat: int) -> dict:
    """What ``seat`` may know of a position's fields (``CoreState.to_fields()``), in
    the shape :func:`gostop_core.notation.parse_view` returns: the seat's own
    ``hand``, ``hand_counts`` for every hand and ``stock_count`` in place of the
    hands and the stock; every other field is public."""
    out = {k: v for k, v in fields.items() if k not in _HIDDEN_KEYS}
    out["seat"] = seat
    out["hand"] = fields["hands"][seat]
    out["hand_counts"] = [bin(h).count("1") for h in fields["hands"]]
    out["stock_count"] = len(fields["stock"])
    return out


class PlayerView:
    """Only what one seat may see: its own hand, the field, every captured pile,
    Go counts, and counts for the hidden hands and the stock; also the public
    facts of the hand: shaken months, bombs, ppeoks and chips of every seat, the
    nagari stake (``stake_doublings``), a played card waiting on the field for the
    flip (``played_card``, and ``played_target``, the card it was placed on), and
    in the Go/Stop phase what a Stop would bring (``stop_value``).

    A view holds nothing else: no game, no other hand, no stock order.  It is built
    from the seat's part of the position alone (:func:`seat_fields`), so two
    positions that differ only in cards the seat cannot see give equal views, with
    equal :meth:`to_str`, :meth:`to_array` and pickles.  ``PlayerView.from_str``
    reads a player-view string back; views compare, hash and pickle by that string.
    """

    def __init__(self, game: Game, seat: int):
        self._build(game.rules, seat_fields(game._core.to_fields(), seat))

    @classmethod
    def from_str(cls, text: str) -> "PlayerView":
        """The view a player-view string (``gostop-view/1 ...``) describes; raises
        :class:`~gostop_core.errors.PositionError` for a malformed one."""
        rules, fields = parse_view(text)
        view = cls.__new__(cls)
        view._build(rules, fields)
        return view

    def _build(self, rules: Rules, f: dict) -> None:
        seat = f["seat"]
        self._public = f
        self.seat = seat
        self.rules = rules
        self.players = f["nplayers"]
        self.dealer = f["dealer"]
        self.to_move = f["to_move"]
        self.phase = PHASE_NAMES[f["phase"]]
        self.turns = f["turns"]
        self.flip_card = None if f["flip_card"] is None else CARD_CODES[f["flip_card"]]
        self.field = CardSet(f["field"])
        self.hand = CardSet(f["hand"])
        self.hand_counts = tuple(f["hand_counts"])
        self.captured = tuple(CardSet(c) for c in f["captured"])
        self.stock_count = f["stock_count"]
        self.go_counts = tuple(f["go_counts"])
        #: Each seat's score when it last called Go (it is asked again only above it).
        self.last_go_scores = tuple(f["last_go_scores"])
        self.flip_only = tuple(f["flip_only"])
        # public facts of the hand: shown shakes, bombs, ppeoks, chips paid so far,
        # the nagari stake, and this turn's played card still waiting on the field
        self.shaken = tuple(tuple(m for m in range(1, 13) if mask & (1 << m))
                            for mask in f["shaken"])
        self.bombs = tuple(f["bombs"])
        self.ppeoks = tuple(f["ppeoks"])
        #: Turns each seat has played (a seat at 0 has not played yet).
        self.turns_played = tuple(f["turns_played"])
        self.chips = tuple(f["chips"])
        self.stake_doublings = f["stake_doublings"]
        self.sitter = f.get("sitter")
        self.played_card = None if f["played_card"] is None else CARD_CODES[f["played_card"]]
        self.played_target = (None if f["played_target"] is None
                              else CARD_CODES[f["played_target"]])
        #: A showdown asked (003): the seat that asked and the win-card it showed, else None.
        self.showdown_caller = f.get("showdown_caller")
        card = f.get("showdown_card")
        self.showdown_card = None if card is None else CARD_CODES[card]
        #: Bonus cards lying with a stack on the field (a ppeok stack keeps them): code -> month.
        self.stack_bonus = {code: month for code, month in zip(("X2", "X3"), f["stack_bonus"])
                            if month}
        #: With ``phase == "over"``: the winning seat (None for a drawn hand) and its points.
        self.winner = f["winner"]
        self.points = f["points"]
        #: What a Stop now would bring (see :meth:`Game.stop_value`) when this seat
        #: decides Go or Stop; it depends only on public facts.  Else ``None``.
        self.stop_value = (self._public_core().settlement(seat)
                           if self.phase == "gostop" and self.to_move == seat else None)
        pack = 50 if rules.bonus_cards else 48
        #: The cards this seat cannot see (the pack less ``visible_mask``).
        self.unseen = CardSet(((1 << pack) - 1) & ~visible_mask(f))

    def public_fields(self) -> dict:
        """The view's fields (``parse_view``'s form: the seat's hand, the field,
        every public fact and count), a copy the caller may change."""
        f = dict(self._public)
        for key, value in f.items():
            if isinstance(value, list):
                f[key] = list(value)
        return f

    def known_hands(self, unseen: list[int]) -> tuple[list[int], list[int]]:
        """Each hand as far as this view knows it (its own; a showdown's
        win-card with its public holder, taken out of ``unseen``, a list of
        card indices the caller deals from) and how many cards each hand still
        needs from the unseen ones."""
        f = self._public
        hands = [0] * self.players
        hands[self.seat] = f["hand"]
        need = list(self.hand_counts)
        need[self.seat] = 0
        owner, card = f.get("showdown_caller"), f.get("showdown_card")
        if card is not None and owner is not None and owner != self.seat and card in unseen:
            unseen.remove(card)
            hands[owner] |= 1 << card
            need[owner] -= 1
        return hands, need

    def completed_fields(self, stock: list[int | None] | None = None) -> dict:
        """The fields of a whole position that agrees with everything this view
        shows: the other hands dealt from the unseen cards (highest code
        first), then the stock: with ``stock`` (card indices, ``None`` for a
        place not named) its known cards in their places and the unseen cards
        left in the others, without it the unseen cards left in code order.  For move generation and replays: the filler is
        arbitrary, and nothing of it may reach a bot.  Raises
        :class:`~gostop_core.errors.PositionError` when the cards do not fit."""
        from gostop_core.errors import PositionError
        fields = self.public_fields()
        reserved = {c for c in stock or () if c is not None}
        unseen = [c for c in self.unseen if c not in reserved]
        hands, need = self.known_hands(unseen)
        if sum(need) > len(unseen):
            if stock is not None:
                raise PositionError("stock: more cards named than the stock can hold", "stock")
            raise PositionError("the view's hidden hands hold more cards than are unseen",
                                "hands")
        for q in range(self.players):
            for _ in range(need[q]):
                hands[q] |= 1 << unseen.pop()
        if stock is None:  # the rest, in code order
            order = unseen
        else:
            order = []
            for i in range(self.stock_count):
                if i < len(stock) and stock[i] is not None:
                    order.append(stock[i])  # type: ignore[arg-type]
                elif unseen:
                    order.append(unseen.pop())
                else:
                    raise PositionError("stock: more cards named than the stock can hold",
                                        "stock")
        fields["hands"] = hands
        fields["stock"] = order
        return fields

    def _public_core(self) -> CoreState:
        """A core state holding the public facts and this seat's hand, the other
        hands and the stock left empty: enough for what depends on public facts
        only (the settlement of a Stop)."""
        f = dict(self._public)
        f["hands"] = [f["hand"] if q == self.seat else 0 for q in range(self.players)]
        f["stock"] = []
        return CoreState.from_fields(self.rules, f)

    @property
    def scores(self) -> tuple[int, ...]:
        """Every seat's score, from its captured pile."""
        return tuple(score_pile(c, self.rules).total for c in self.captured)

    def to_str(self) -> str:
        """The player-view string (``gostop-view/1 ...``, docs/notation.md)."""
        return format_view(self.rules, self._public, self.seat)

    __str__ = to_str

    def __repr__(self) -> str:
        return f"PlayerView.from_str({self.to_str()!r})"

    def __eq__(self, other) -> bool:
        if not isinstance(other, PlayerView):
            return NotImplemented
        return self.to_str() == other.to_str()

    def __hash__(self) -> int:
        return hash(self.to_str())

    def __reduce__(self):
        return (PlayerView.from_str, (self.to_str(),))

    def to_array(self) -> np.ndarray:
        """A float32 vector of length :data:`ARRAY_LENGTH`: the card planes of
        :data:`ARRAY_PLANES` (50 entries each, 1.0 where the card is there; seats
        counted from this one), then :data:`ARRAY_SCALARS`."""
        n = self.players
        out = np.zeros(ARRAY_LENGTH, dtype=np.float32)
        planes = [self.hand, self.field,
                  CardSet([self.flip_card]) if self.flip_card else CardSet()]
        planes += [self.captured[(self.seat + k) % n] if k < n else CardSet() for k in range(4)]
        planes.append(self.unseen)
        for i, cards in enumerate(planes):
            for c in cards:
                out[i * 50 + c] = 1.0
        base = 50 * len(ARRAY_PLANES)
        for k in range(min(n, 4)):
            q = (self.seat + k) % n
            out[base + k] = self.hand_counts[q]
            out[base + 4 + k] = self.go_counts[q]
            out[base + 8 + k] = self.flip_only[q]
        out[base + 12] = self.stock_count
        out[base + 13] = 1.0 if self.to_move == self.seat else 0.0
        out[base + 14] = 1.0 if self.dealer == self.seat else 0.0
        out[base + 15 + PHASE_NAMES.index(self.phase)] = 1.0
        return out
