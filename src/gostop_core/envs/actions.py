"""The action table shared by every learning environment.

One fixed table of :data:`NUM_ACTIONS` integer actions covers every decision
of every preset; cards are named by their place in the hand, so the table stays
small (a mask over it is a few dozen bytes per game):

=========  =====================================================================
index      action
=========  =====================================================================
0-29       play hand slot ``s`` taking field choice ``c``: index ``3 * s + c``.
           Slot ``s`` is the s-th month card of the hand in card order
           (``1B`` < ``1R`` < ... < ``12J``; bonus cards are not slotted).
           ``c`` is the rank, in card order, of the field card taken among the
           cards of the month; a play with nothing to choose is ``c = 0``.
30-32      the flipped card takes field choice ``c`` (``30 + c``)
33, 34     bank bonus card X2, X3
35-46      bomb of month ``m`` (``34 + m``)
47-58      shake month ``m`` (``46 + m``)
59         go
60         stop
61         use an optional flip-only turn
62-71      ask for a showdown with the win-card in hand slot ``s`` (``62 + s``)
72         accept the showdown
73         refuse it
=========  =====================================================================

Every legal move has exactly one action and two legal moves never share one
(checked by the tests over every preset and player count).  The C batched
environment (:class:`gostop_core.envs.VectorGame`) computes the same indices.
"""

from __future__ import annotations

import functools
from typing import Iterable

import numpy as np

from gostop_core.cards import CARD_CODES, card_index
from gostop_core.movegen import (
    KIND_ACCEPT, KIND_BOMB, KIND_BONUS, KIND_FLIP, KIND_FLIP_ONLY, KIND_GO, KIND_PLAY,
    KIND_REFUSE, KIND_SHAKE, KIND_SHOWDOWN, KIND_STOP, NO_CARD, move_parts,
)
from gostop_core.moves import Move, coerce_move

#: Hand slots (the most month cards a hand of any preset holds).
HAND_SLOTS = 10
#: Field choices for one play or flip (three cards of a month on the field).
CHOICES = 3

PLAY = 0
FLIP = PLAY + HAND_SLOTS * CHOICES          # 30
BONUS = FLIP + CHOICES                      # 33
BOMB = BONUS + 2                            # 35
SHAKE = BOMB + 12                           # 47
GO = SHAKE + 12                             # 59
STOP = GO + 1                               # 60
FLIP_ONLY = STOP + 1                        # 61
SHOWDOWN = FLIP_ONLY + 1                    # 62
ACCEPT = SHOWDOWN + HAND_SLOTS              # 72
REFUSE = ACCEPT + 1                         # 73
#: Size of the action space.
NUM_ACTIONS = REFUSE + 1                    # 74

_X2 = card_index("X2")


def _indices(cards) -> list[int]:
    return [c if isinstance(c, int) else card_index(c) for c in cards]


def _month_slots(hand_cards) -> list[int]:
    return sorted(i for i in _indices(hand_cards) if i < 48)


def _rank_in_month(card: int, among: Iterable[int]) -> int:
    return sum(1 for c in among if c // 4 == card // 4 and c < card)


def check_rules(rules, players: int) -> None:
    """Raise :class:`~gostop_core.RulesError` when hands under ``rules`` with
    ``players`` hold more cards than the table has hand slots (custom rules only:
    every preset fits)."""
    from gostop_core.errors import RulesError
    if rules.hand_size(players) > HAND_SLOTS:
        raise RulesError(f"the action table has {HAND_SLOTS} hand slots: hands of "
                         f"{rules.hand_size(players)} cards do not fit")


def action_name(action: int) -> str:
    """A short readable name of an action index (e.g. ``play slot 2 choice 0``)."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
    if a < FLIP:
        return f"play slot {a // CHOICES} choice {a % CHOICES}"
    if a < BONUS:
        return f"flip choice {a - FLIP}"
    if a < BOMB:
        return f"bonus {CARD_CODES[_X2 + a - BONUS]}"
    if a < SHAKE:
        return f"bomb{a - BOMB + 1}"
    if a < GO:
        return f"shake{a - SHAKE + 1}"
    if a < SHOWDOWN:
        return ("go", "stop", "fliponly")[a - GO]
    if a < ACCEPT:
        return f"showdown slot {a - SHOWDOWN}"
    return ("accept", "refuse")[a - ACCEPT]


#: The name of every action, by index.
ACTION_NAMES = tuple(action_name(a) for a in range(NUM_ACTIONS))


def move_to_action(move, hand: Iterable[str], field: Iterable[str],
                   flip_card: str | None = None) -> int:
    """The action index of ``move`` (a Move, a move string or code) for a seat
    holding ``hand`` with ``field`` on the table (card codes or indices; a
    :class:`~gostop_core.PlayerView`'s ``hand`` and ``field`` will do).
    ``flip_card`` is unused: a flip choice is ranked among the field cards."""
    m = coerce_move(move)
    kind, card, target = move_parts(m.code)
    if kind in (KIND_PLAY, KIND_SHOWDOWN):
        slots = _month_slots(hand)
        if card not in slots:
            raise ValueError(f"{m} plays {m.card}, which is not a month card of the hand")
        slot = slots.index(card)
        if kind == KIND_SHOWDOWN:
            return SHOWDOWN + slot
        choice = 0 if target == NO_CARD else _rank_in_month(target, _indices(field))
        return PLAY + CHOICES * slot + choice
    if kind == KIND_FLIP:
        return FLIP + _rank_in_month(target, _indices(field))
    if kind == KIND_BONUS:
        return BONUS + card - _X2
    if kind == KIND_BOMB:
        return BOMB + card - 1   # the card field of a bomb or shake is its month
    if kind == KIND_SHAKE:
        return SHAKE + card - 1
    return {KIND_GO: GO, KIND_STOP: STOP, KIND_FLIP_ONLY: FLIP_ONLY,
            KIND_ACCEPT: ACCEPT, KIND_REFUSE: REFUSE}[kind]


def legal_actions(game) -> dict[int, Move]:
    """``{action: move}`` for the legal moves of the seat to move in ``game``
    (empty once the hand is over)."""
    if game.is_over():
        return {}
    view = game.view(game.turn)
    hand, field = list(view.hand), list(view.field)
    return {move_to_action(m, hand, field): m for m in game.legal_moves}


def action_mask(game) -> np.ndarray:
    """An int8 vector of :data:`NUM_ACTIONS` entries, 1 where the action is legal
    for the seat to move."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for a in legal_actions(game):
        mask[a] = 1
    return mask


def action_to_move(game, action: int) -> Move | None:
    """The legal move that ``action`` stands for in ``game``, or ``None`` when
    the action is not legal there."""
    return legal_actions(game).get(int(action))


def random_actions(mask, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``mask`` (shape
    ``(num_games, NUM_ACTIONS)``, every row with a legal action), drawn with
    numpy alone: a batch's random policy, e.g. for :class:`VectorGame`."""
    m = np.asarray(mask)
    n, k = m.shape
    idx = np.flatnonzero(m)
    # where each row's legal actions start in idx, and so how many each row has
    # (one binary search per row instead of a second pass over the whole mask)
    row_starts = np.arange(0, n * k, k, dtype=np.int64)
    starts = np.searchsorted(idx, row_starts)
    counts = np.diff(starts, append=len(idx))
    if not counts.all():
        raise ValueError("a row of the mask has no legal action")
    pick = starts + (rng.random(n) * counts).astype(np.int64)
    return idx[pick] - row_starts


def random_legal(legal, legal_count, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per game from :class:`VectorGame`'s
    lists of legal actions (``vg.legal``, ``vg.legal_count``): no scan of the
    mask, a few numpy operations on ``num_games`` entries."""
    count = np.asarray(legal_count)
    lists = np.asarray(legal)
    if not count.all():
        raise ValueError("a game has no legal action")
    n, width = lists.shape
    # single precision: half the generator's work, and exact enough to pick
    # among at most 74 actions
    draw = rng.random((n,), dtype=np.float32)
    draw *= count
    pick = draw.astype(np.intp)
    # one flat read: each game's pick offset to its row
    pick += _row_offsets(n, width)
    return lists.reshape(-1).take(pick).astype(np.int64)


@functools.lru_cache(maxsize=16)
def _row_offsets(rows: int, width: int) -> np.ndarray:
    """0, width, 2 width, ...: where each row starts in a flat (rows, width)
    array (kept, read-only: random_legal needs it at every step)."""
    offsets = np.arange(0, rows * width, width, dtype=np.intp)
    offsets.flags.writeable = False
    return offsets


__all__ = ["NUM_ACTIONS", "check_rules", "random_actions", "random_legal", "HAND_SLOTS", "CHOICES", "ACTION_NAMES", "action_name",
           "move_to_action", "action_to_move", "legal_actions", "action_mask",
           "PLAY", "FLIP", "BONUS", "BOMB", "SHAKE", "GO", "STOP", "FLIP_ONLY",
           "SHOWDOWN", "ACCEPT", "REFUSE"]
