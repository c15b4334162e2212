"""Moves: the decisions a player makes.

A move is one of

========  ===============  ================================================================
kind      string           meaning
========  ===============  ================================================================
play      ``3B``           play 3B from the hand (no choice to make)
play      ``3B/3R``        play 3B and take 3R among the matching field cards
bonus     ``X2``           bank a bonus card from the hand (a free action)
bomb      ``bomb9``        the bomb: three September cards in hand, the fourth on the field
flip      ``flip/9R``      the flipped card takes 9R among the matching field cards
go        ``go``           keep playing for more
stop      ``stop``         end the hand and score
shake     ``shake9``       show three September cards (each shake doubles a win)
fliponly  ``fliponly``     use an optional flip-only turn owed after a bomb (standard)
showdown  ``showdown/3B``  ask for a showdown holding 3B, another player's win-card (003)
accept    ``accept``       receive the showdown (everyone receives: a nagari)
refuse    ``refuse``       refuse it: the asker must lay the win-card down
========  ===============  ================================================================

Forced steps (the flip itself, steals, forced flip-only turns) are not moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from gostop_core.arguments import whole_number
from gostop_core.cards import CARD_CODES, card_index
from gostop_core.errors import CardCodeError, MoveParseError, MoveTypeError
from gostop_core.movegen import (
    KIND_ACCEPT, KIND_BOMB, KIND_BONUS, KIND_FLIP, KIND_FLIP_ONLY, KIND_GO, KIND_PLAY,
    KIND_REFUSE, KIND_SHAKE, KIND_SHOWDOWN, KIND_STOP, NO_CARD, encode_move, move_parts,
)

KIND_NAMES = {KIND_PLAY: "play", KIND_BONUS: "bonus", KIND_BOMB: "bomb",
              KIND_FLIP: "flip", KIND_GO: "go", KIND_STOP: "stop",
              KIND_SHAKE: "shake", KIND_FLIP_ONLY: "fliponly", KIND_SHOWDOWN: "showdown",
              KIND_ACCEPT: "accept", KIND_REFUSE: "refuse"}
_MONTH_KINDS = (KIND_BOMB, KIND_SHAKE)
_KIND_BY_NAME = {v: k for k, v in KIND_NAMES.items()}


class Move:
    """An immutable decision.  ``card`` and ``target`` are card codes or ``None``;
    for a bomb or a shake ``month`` holds the month."""

    __slots__ = ("code",)
    code: int  # the uint16 move code of the core

    def __init__(self, kind: str, card: str | None = None, target: str | None = None,
                 month: int | None = None):
        if not isinstance(kind, str):
            raise MoveTypeError(f"a move kind is a string ({', '.join(_KIND_BY_NAME)}), "
                                f"got {type(kind).__name__} {kind!r}")
        if kind not in _KIND_BY_NAME:
            raise MoveParseError(f"unknown move kind {kind!r}; one of {', '.join(_KIND_BY_NAME)}")
        k = _KIND_BY_NAME[kind]
        c = NO_CARD if card is None else card_index(card)
        t = NO_CARD if target is None else card_index(target)
        if k in _MONTH_KINDS:
            if month is not None:
                month = whole_number(month, f"a {kind}'s month (1-12)", MoveTypeError)
            if month is None or not 1 <= month <= 12:
                raise MoveParseError(f"a {kind} needs a month 1-12")
            c = month
        object.__setattr__(self, "code", encode_move(k, c, t))

    def __setattr__(self, name, value):
        raise AttributeError("Move is immutable")

    @classmethod
    def from_code(cls, code: int) -> "Move":
        """The move of a move code; a code that is no move at all (an unknown kind,
        a card index outside the pack) raises :class:`MoveParseError`."""
        code = whole_number(code, "a move code", MoveTypeError)
        if not 0 <= code <= 0xFFFF:
            raise MoveParseError(f"move code {code} out of range")
        k, c, t = move_parts(code)
        cards_ok = (1 <= c <= 12) if k in _MONTH_KINDS else (c < len(CARD_CODES) or c == NO_CARD)
        if k not in KIND_NAMES or not cards_ok or not (t < len(CARD_CODES) or t == NO_CARD):
            raise MoveParseError(f"move code {code:#06x} is not a move")
        m = object.__new__(cls)
        object.__setattr__(m, "code", code)
        return m

    @classmethod
    def from_str(cls, text: str) -> "Move":
        """Parse ``3B``, ``3B/3R``, ``X2``, ``bomb9``, ``shake9``, ``flip/9R``,
        ``fliponly``, ``go`` or ``stop`` (case-insensitive)."""
        if not isinstance(text, str):
            raise MoveTypeError(f"expected a move string, got {type(text).__name__}")
        t = text.strip().lower()
        if not t:
            raise MoveParseError("empty move")
        if t in ("go", "stop", "fliponly", "accept", "refuse"):
            return cls(t)
        if t.startswith("showdown"):
            rest = text.strip()[8:]
            if not rest.startswith("/") or len(rest) < 2:
                raise MoveParseError(f"bad showdown {_shown(text)}: write showdown/ and the win-card, e.g. showdown/3B")
            return cls("showdown", card=_card(rest[1:], text))
        for kind in ("bomb", "shake"):
            if t.startswith(kind):
                rest = t[len(kind):].strip()
                # ASCII digits only: "²".isdigit() is true but int() refuses it
                if not (rest.isascii() and rest.isdigit() and len(rest) <= 2
                        and 1 <= int(rest) <= 12):
                    raise MoveParseError(
                        f"bad {kind} {_shown(text)}: write {kind} and the month, e.g. {kind}9")
                return cls(kind, month=int(rest))
        if t.startswith("flip"):
            rest = t[4:]
            if not rest.startswith("/") or len(rest) < 2:
                raise MoveParseError(f"bad flip choice {_shown(text)}: write flip/ and a field card, e.g. flip/9R")
            return cls("flip", target=_card(text.strip()[5:], text))
        card, sep, target = text.strip().partition("/")
        if sep and not target:
            raise MoveParseError(f"bad move {_shown(text)}: a field card must follow '/' (e.g. 3B/3R)")
        c = _card(card, text)
        if c in ("X2", "X3"):
            if sep:
                raise MoveParseError(f"bad move {_shown(text)}: a bonus card takes no field card")
            return cls("bonus", card=c)
        return cls("play", card=c, target=_card(target, text) if sep else None)

    @property
    def kind(self) -> str:
        return KIND_NAMES.get(move_parts(self.code)[0], "?")

    @property
    def card(self) -> str | None:
        k, c, _ = move_parts(self.code)
        return None if c == NO_CARD or k in _MONTH_KINDS else CARD_CODES[c]

    @property
    def target(self) -> str | None:
        t = move_parts(self.code)[2]
        return None if t == NO_CARD else CARD_CODES[t]

    @property
    def month(self) -> int | None:
        k, c, _ = move_parts(self.code)
        return c if k in _MONTH_KINDS else None

    def __str__(self) -> str:
        kind = self.kind
        if kind in ("go", "stop", "fliponly", "accept", "refuse"):
            return kind
        if kind == "showdown":
            return f"showdown/{self.card}"
        if kind in ("bomb", "shake"):
            return f"{kind}{self.month}"
        if kind == "flip":
            return f"flip/{self.target}"
        if self.target:
            return f"{self.card}/{self.target}"
        return str(self.card)

    def __repr__(self) -> str:
        return f"Move.from_str({str(self)!r})"

    def __eq__(self, other) -> bool:
        if isinstance(other, Move):
            return self.code == other.code
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.code)

    def __reduce__(self):
        return (Move.from_code, (self.code,))


def _shown(text: str) -> str:
    """A bad move as a message quotes it, cut short (a message never carries a
    hostile string's megabytes)."""
    quoted = repr(text)
    return quoted if len(quoted) <= 40 else quoted[:40] + "..."


def _card(text: str, whole: str) -> str:
    try:
        return CARD_CODES[card_index(text)]
    except CardCodeError as exc:
        raise MoveParseError(f"bad move {_shown(whole)}: {exc}") from None


def coerce_move(move) -> Move:
    """A Move from a Move, a move string or a move code."""
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.from_str(move)
    if isinstance(move, int) and not isinstance(move, bool):
        return Move.from_code(move)
    raise MoveTypeError(f"expected a Move, a move string or a move code, got {type(move).__name__}")


@dataclass(frozen=True)
class RankedMove:
    """A legal move of an analysis with its expected value (net points, in the
    payout's units, for the seat, by the search's model), the deals or
    iterations that value averages (``samples``; fewer for a move a halving
    dropped early, 0 for one never searched, whose value is nan) and its
    principal line: the move, then the continuation the search expects
    (``flip:5A`` a card turned from the stock, ``p1:7J1`` a move of seat 1,
    plain moves the seat's own).  The bots' ``analyse`` and the protocol's
    analysis both rank moves this way."""

    move: Move
    value: float
    line: tuple[str, ...] = ()
    samples: int = 0

    def as_dict(self) -> dict:
        """Plain JSON values (a value never searched is null)."""
        value = None if self.value != self.value else round(self.value, 4)
        return {"move": str(self.move), "value": value, "samples": self.samples,
                "line": list(self.line)}
