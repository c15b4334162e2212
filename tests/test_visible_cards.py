"""Which cards a seat sees: one definition (``seen_by`` in gamestate.pxd, its
Python twin ``gostop_core.notation.visible_mask``), which every view, sample
and observation starts from, checked against the pure-Python reference engine
at every decision of random hands in every preset and player count, the flip
phase under ``flipped_bonus=1`` included (a flipped bonus card waits there for
the turn's captures, face up: every seat sees it).

Seed 000: "A bonus card turned up from the stock during your flip banks the same
way, and another is turned up behind it." (``flipped_bonus=0``; under
``flipped_bonus=1`` it waits, face up, for the turn's captures: docs/rules.md)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gostop_core import Game, Rules
from gostop_core.cards import CARD_CODES, CardSet
from gostop_core.notation import visible_mask
from gostop_core.testing.lockstep import Lockstep
from gostop_core.view import ARRAY_PLANES, seat_fields

#: Every preset with the player counts it allows, and the bonus-card rule
#: under which a flipped bonus card waits for the turn's captures.
CASES = [("casual", 2), ("casual", 3), ("casual", 4), ("traditional", 2), ("traditional", 3),
         ("standard", 2), ("standard", 3), ("family", 2), ("family", 3), ("family", 4),
         (Rules("casual", flipped_bonus=1), 2), (Rules("standard", flipped_bonus=1), 3)]


def reference_seen(ref, seat: int) -> int:
    """The cards ``seat`` sees in the reference engine's own state: the field,
    its hand, every pile, the flipped card, the bonus cards of the turn."""
    s = ref.s
    cards = set(s.field) | set(s.seats[seat].hand) | set(s.turn_bonus)
    for other in s.seats:
        cards |= other.pile
    if s.flip_card is not None:
        cards.add(s.flip_card)
    return sum(1 << CARD_CODES.index(c) for c in cards)


def check_every_seat(game: Game, ref) -> bool:
    """The core, the Python twin, the view and the observation agree with the
    reference for every seat; returns whether a flipped bonus card was waiting."""
    pack = (1 << (50 if game.rules.bonus_cards else 48)) - 1
    fields = game.core_state.to_fields()
    for seat in range(game.players):
        expected = reference_seen(ref, seat)
        assert game.core_state.seen_by(seat) == expected
        assert visible_mask(seat_fields(fields, seat)) == expected
        view = game.view(seat)
        assert int(view.unseen) == pack & ~expected
        unseen_plane = view.to_array()[50 * ARRAY_PLANES.index("unseen"):][:50]
        assert [int(b) for b in unseen_plane] == [pack >> c & ~expected >> c & 1
                                                  for c in range(50)]
    return bool(fields["turn_bonus"])


def waiting_bonus_seeds(rules, players: int, want: int = 3, tries: int = 600) -> list[int]:
    """Seeds of random hands (moves drawn from ``random.Random(seed)``) that reach a
    decision while a flipped bonus card waits: rare (about one hand in 40)."""
    found = []
    for seed in range(tries):
        game = Game(rules, players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            if game.core_state.to_fields()["turn_bonus"]:
                found.append(seed)
                break
            game.push(rng.choice(list(game.legal_moves)))
        if len(found) == want:
            break
    return found


@pytest.mark.parametrize("rules,players", CASES, ids=lambda x: getattr(x, "token", x))
def test_every_seat_sees_what_the_reference_says(rules, players):
    waiting = 0
    seeds = list(range(6))
    if isinstance(rules, Rules) and rules.flipped_bonus == 1:
        seeds += waiting_bonus_seeds(rules, players)
    for seed in seeds:
        game = Game(rules, players, seed=seed)
        both = Lockstep(game)
        rng = random.Random(seed)
        waiting += check_every_seat(game, both.reference)
        while not game.is_over():
            both.push(rng.choice(list(game.legal_moves)))
            waiting += check_every_seat(game, both.reference)
    if isinstance(rules, Rules) and rules.flipped_bonus == 1:
        # the rule's point: some decision came while a flipped bonus card waited
        assert waiting > 0


def test_a_waiting_bonus_card_is_seen_and_never_sampled():
    """A flip choice with a flipped bonus card waiting (flipped_bonus=1): every
    seat sees the bonus card; the search never deals it to a hidden hand."""
    from gostop_core.bots.search import chance_distribution
    from gostop_core.notation import parse_view
    rules = Rules("casual", flipped_bonus=1)
    for seed in range(400):
        game = Game(rules, 2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over() and not (game.phase == "flip"
                                          and game.core_state.to_fields()["turn_bonus"]):
            game.push(rng.choice(list(game.legal_moves)))
        if not game.is_over():
            break
    else:
        pytest.skip("no flip choice with a waiting bonus card in 400 hands")
    bonus = game.core_state.to_fields()["turn_bonus"]
    for seat in range(2):
        assert game.core_state.seen_by(seat) & bonus == bonus
        assert not int(game.view(seat).unseen) & bonus
    view = game.view(game.turn)
    _, fields = parse_view(view.to_str())
    if game.core_state.to_fields()["stock"]:
        probs = chance_distribution(view.rules, fields, samples=20, seed=1)
        assert not any(bonus >> c & 1 for c in probs)
