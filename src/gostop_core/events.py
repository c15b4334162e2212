"""What happened in a turn: :class:`Event`, made from the core's raw event
tuples (:func:`_event`).  Below both the game API and the compiled game loop
(:mod:`gostop_core.gameloop`), which builds events lazily."""

from __future__ import annotations

from typing import NamedTuple

from gostop_core.cards import CARD_CODES, CardSet
from gostop_core.movegen import CHIP_REASON_NAMES, EVENT_NAMES

__all__ = ["Event"]


class Event(NamedTuple):
    """Something that happened.  ``kind`` is one of ``dealt_bonus``, ``played``,
    ``flipped``, ``captured``, ``stolen``, ``bonus``, ``drawn``, ``bomb``,
    ``flip_only``, ``go``, ``stop``, ``draw``, ``turn_end``.

    ``card`` is a card code (for ``bomb`` the month as a string), ``cards`` the
    cards involved, ``other`` the victim of a steal, the Go count of a ``go``, or
    1 for an automatic ``stop``.  ``drawn`` events are private to ``player``."""

    kind: str
    player: int
    card: str | None
    cards: CardSet
    other: int
    turn: int

    def as_dict(self) -> dict:
        return {"kind": self.kind, "player": self.player, "card": self.card,
                "cards": CardSet(self.cards).codes(), "other": self.other, "turn": self.turn}

    def describe(self, names: list[str] | None = None) -> str:
        who = names[self.player] if names else f"player {self.player}"
        cards = " ".join(self.cards.codes())
        k = self.kind
        if k == "played":
            return f"{who} played {self.card}"
        if k == "flipped":
            return f"{who} flipped {self.card}"
        if k == "captured":
            return f"{who} captured {cards}"
        if k == "stolen":
            victim = names[self.other] if names else f"player {self.other}"
            return f"{who} took {self.card} from {victim}"
        if k == "bonus":
            return f"{who} banked bonus card {self.card}"
        if k == "drawn":
            return f"{who} drew a replacement card"
        if k == "bomb":
            return f"{who} dropped a bomb of month {self.card} ({cards})"
        if k == "flip_only":
            return f"{who} has a flip-only turn"
        if k == "go":
            return f"{who} called Go ({self.other})"
        if k == "stop":
            return f"{who} stopped" + (" (last turn: automatic)" if self.other else "")
        if k == "draw" and self.other:
            return "everyone received the showdown: the hand is drawn (nagari)"
        if k == "draw":
            return "every hand is played out and nobody stopped: the hand is drawn (nagari)"
        if k == "dealt_bonus":
            return f"bonus card {self.card} dealt to the field went to the dealer, {who}"
        if k == "turn_end":
            return f"{who}'s turn ends"
        if k == "ppeok":
            return f"ppeok: the flip matched {who}'s new pair; the month-{self.card} stack stays"
        if k == "ttadak":
            return f"ttadak: {who} took all four of month {self.card}"
        if k == "jjok":
            return f"jjok: {who}'s flip took the card just played"
        if k == "stack":
            return f"{who} took the month-{self.card} stack ({cards})"
        if k == "sseul":
            return f"sseul: {who} swept the field"
        if k == "shake":
            return f"{who} shook month {self.card} ({cards})"
        if k == "chongtong":
            return f"chongtong: {who} holds all four of month {self.card}"
        if k == "redeal":
            return f"four of a month on the field: the deal was void and redealt ({self.other}x)"
        if k == "chips":
            return f"{who} receives {self.other} chip(s) from each opponent ({self.card})"
        if k == "three_ppeok":
            return f"{who} made a third ppeok: the hand ends"
        if k == "hand_end":
            return "the stock is gone: the hand is scored"
        if k == "showdown":
            return f"{who} asks for a showdown: it holds {self.card}, another player's win-card"
        if k == "showdown_answer":
            return f"{who} {'receives' if self.other else 'refuses'} the showdown"
        return k


def _event(t: tuple, turn: int) -> Event:
    kind, player, card, other, cards = t
    name = EVENT_NAMES[kind]
    code: str | None
    if name in _MONTH_EVENTS:
        code = str(card)
    elif name == "chips":
        return Event(name, player, CHIP_REASON_NAMES.get(cards, "?"), CardSet(), other, turn)
    else:
        code = CARD_CODES[card] if card < 50 else None
    return Event(name, player, code, CardSet(cards), other, turn)


# Events whose ``card`` is a month.
_MONTH_EVENTS = ("bomb", "shake", "ppeok", "ttadak", "jjok", "stack", "chongtong")
