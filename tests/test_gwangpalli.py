"""Gwangpalli, four-handed play with one seat sitting out (seed 000 describes it;
an option of every Go/Stop preset, see docs/rules.md)."""

import random

import pytest

from gostop_core import Game, RulesError, Rules
from gostop_core.cards import BRIGHTS

SEED_000 = "one sits out each hand and is paid for the brights in their hand"


def gwangpalli(preset="standard", **extra):
    return Rules(preset, allow_4p=1, gwangpalli=1, **extra)


def test_the_seat_before_the_dealer_sits_out_and_never_plays():
    """Seed 000: "one sits out each hand and is paid for the brights in their hand" """
    rng = random.Random(4)
    for dealer in range(4):
        g = Game(gwangpalli(), players=4, seed=dealer + 10, dealer=dealer)
        assert g.sitter == (dealer + 3) % 4
        held = g.hand(g.sitter)
        assert len(held) == 7 and all(len(g.hand(p)) == 7 for p in range(4))
        assert len(g.field) == 6
        while not g.is_over():
            assert g.turn != g.sitter
            g.push(rng.choice(list(g.legal_moves)))
        # the sitter's hand stays out of play, its pile empty
        assert g.hand(g.sitter) == held and len(g.captured(g.sitter)) == 0


@pytest.mark.parametrize("price", [1, 3])
def test_the_sitter_is_paid_per_bright_by_each_playing_seat(price):
    """Seed 000: "one sits out each hand and is paid for the brights in their hand" """
    for seed in range(60):
        g = Game(gwangpalli(gwangpalli_chips=price), players=4, seed=seed)
        brights = len(g.hand(g.sitter) & BRIGHTS)
        paid = [e for e in g.deal_events() if e.kind == "chips"]
        if brights == 0:
            assert not paid and g.chips(g.sitter) == 0
            continue
        assert paid[0].player == g.sitter and paid[0].other == price * brights
        assert g.chips(g.sitter) == 3 * price * brights
        assert all(g.chips(p) == -price * brights for p in range(4) if p != g.sitter)


def test_three_seats_play_a_three_player_hand():
    """Matrix: "threshold, 2 / 3 / 4 players | 7 / 3 / 3" -- the three playing seats
    use the 3-player threshold, and chips still sum to zero over whole hands."""
    rng = random.Random(9)
    for seed in range(150):
        g = Game(gwangpalli("traditional"), players=4, seed=seed)
        while not g.is_over():
            if g.phase == "gostop":
                assert g.score(g.turn).total >= 3
            g.push(rng.choice(list(g.legal_moves)))
        assert sum(g.outcome().chips) == 0
        assert Game.from_position(g.position()).position() == g.position()


def test_gwangpalli_needs_four_handed_go_stop_rules():
    with pytest.raises(RulesError, match="allow_4p"):
        Rules("standard", gwangpalli=1)
    with pytest.raises(RulesError, match="go_stop"):
        Rules("family", gwangpalli=1)
