"""The action table of the learning environments (gostop_core.envs.actions)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gostop_core import Game, Move, Rules, RulesError
from gostop_core.envs import actions as A

PRESET_PLAYERS = [(p, n) for p in ("casual", "traditional", "standard", "family")
                  for n in (2, 3, 4) if n in Rules(p).allowed_players()]


def test_table_layout_is_contiguous_and_named():
    starts = [A.PLAY, A.FLIP, A.BONUS, A.BOMB, A.SHAKE, A.GO, A.STOP, A.FLIP_ONLY,
              A.SHOWDOWN, A.ACCEPT, A.REFUSE, A.NUM_ACTIONS]
    sizes = [A.HAND_SLOTS * A.CHOICES, A.CHOICES, 2, 12, 12, 1, 1, 1, A.HAND_SLOTS, 1, 1]
    assert [b - a for a, b in zip(starts, starts[1:])] == sizes
    assert len(set(A.ACTION_NAMES)) == A.NUM_ACTIONS
    with pytest.raises(ValueError):
        A.action_name(A.NUM_ACTIONS)


@pytest.mark.parametrize("move, hand, field, expected", [
    # 3B is the third month card of the hand (slot 2); 3J1 is the second
    # March card on the field (choice 1): 3 * 2 + 1
    ("3B/3J1", "1B 1R 3B", "3R 3J1", 3 * 2 + 1),
    # a play with nothing to choose is choice 0; X2 in the hand takes no slot
    ("1R", "X2 1B 1R", "5B", 3 * 1 + 0),
    ("flip/9R", "1B", "9A 9R", A.FLIP + 1),
    ("X3", "X3", "", A.BONUS + 1),
    ("bomb9", "9A 9R 9J1", "9J2", A.BOMB + 8),
    ("shake12", "12B", "", A.SHAKE + 11),
    ("go", "", "", A.GO), ("stop", "", "", A.STOP), ("fliponly", "", "", A.FLIP_ONLY),
    ("showdown/3B", "1B 3B", "", A.SHOWDOWN + 1),
    ("accept", "", "", A.ACCEPT), ("refuse", "", "", A.REFUSE),
])
def test_move_to_action_examples(move, hand, field, expected):
    assert A.move_to_action(move, hand.split(), field.split()) == expected


def test_a_card_outside_the_hand_has_no_action():
    with pytest.raises(ValueError):
        A.move_to_action("3B", ["1B"], [])


@pytest.mark.parametrize("preset, players", PRESET_PLAYERS)
def test_every_legal_move_has_its_own_action(preset, players):
    rng = random.Random(7)
    for seed in range(12):
        g = Game(preset, players, seed=seed)
        while not g.is_over():
            legal = list(g.legal_moves)
            table = A.legal_actions(g)
            assert len(table) == len(legal) and set(table.values()) == set(legal)
            assert all(0 <= a < A.NUM_ACTIONS for a in table)
            mask = A.action_mask(g)
            assert mask.dtype == np.int8 and set(np.flatnonzero(mask)) == set(table)
            a = rng.choice(sorted(table))
            assert A.action_to_move(g, a) == table[a]
            g.push(table[a])
        assert A.legal_actions(g) == {} and not A.action_mask(g).any()


def test_illegal_action_maps_to_none():
    g = Game("casual", 2, seed=3)
    assert A.action_to_move(g, A.GO) is None  # the first decision is a play
    assert isinstance(A.action_to_move(g, next(iter(A.legal_actions(g)))), Move)


def test_hands_larger_than_the_slots_are_refused():
    A.check_rules(Rules("casual"), 2)
    with pytest.raises(RulesError):
        A.check_rules(Rules("casual", hand_2p=12), 2)
