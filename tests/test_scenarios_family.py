"""Scenario tests for the family preset (the point-counting variant at the end of seed 004).

Each test quotes the seed 004 sentence it checks (``Seed 004: "..."``) and, where the
matrix resolves the rule, the matrix line; ``test_seed_quotes_are_verbatim`` checks
every quote word for word.  Balances are checked against :func:`family_balances`, an
oracle written from the seed text alone (card letters, the four named sets, 240 /
players).
"""

from __future__ import annotations

import random

import pytest

from conftest import (
    card_points, check_seed_quotes, events_of, family_balances, game_from, seed_text,
    set_bonus,
)
from gostop_core import CardSet, Game
from gostop_core.cards import CARD_CODES

RULES = "family"


def fgame(**kwargs):
    return game_from(rules=RULES, **kwargs)


def moves(game):
    return {str(m) for m in game.legal_moves}


# ------------------------------------------------------------------ the oracle
# card_points, set_bonus and family_balances (conftest) are written from the seed
# text alone: the kind letter of each card, the six named sets, 240 / players.


def test_oracle_counts_240_points():
    """Seed 004: "Bright cards are each individually worth 20 points." With ribbon 5 and
    animal 10 the pack holds 5 x 20 + 10 x 5 + 9 x 10 (Matrix: "The deck holds 240
    points, so the target (break-even) is 240 / players: 120, 80, 60")."""
    assert card_points(CARD_CODES[:48]) == 5 * 20 + 10 * 5 + 9 * 10 == 240
    assert set_bonus(CARD_CODES[:48]) == 30 + 30 + 20 + 20 + 20 + 40


def test_seed_quotes_are_verbatim():
    """Seed 004: "This version is playable by 2-4 players." (meta: every scenario below
    quotes seed 004 word for word)."""
    checked = check_seed_quotes(globals(), need="Seed 004")
    if seed_text("004") is None:
        pytest.skip("seed 004 text not available")
    assert checked >= 20


# ------------------------------------------------------------------ deal

@pytest.mark.parametrize("players, hand, field", [(2, 10, 8), (3, 7, 6), (4, 5, 8)])
def test_deal_for_two_to_four_players(players, hand, field):
    """Seed 004: "So, both players have 10 cards, with 8 face up on the table." and
    Seed 004: "So, all players have 7 cards with 6 face up on the table." and Seed 004:
    "So, all players have 5 cards with 8 face up on the table." """
    for seed in range(20):
        g = Game(RULES, players, seed)
        assert [len(g.hand(p)) for p in range(players)] == [hand] * players
        assert len(g.field) == field
        assert g.stock_count == 48 - players * hand - field   # no bonus cards
        assert not g.is_over()


def test_four_of_a_month_in_a_hand_is_no_chongtong():
    """Seed 004: "Rules 1-3 are the same as in" Go-Stop (Matrix: "wins the hand | no
    special rule": the family column of the chongtong row)."""
    found = 0
    for seed in range(3000):
        g = Game(RULES, 2, seed)
        if any(len(g.hand(p) & CardSet.month(m)) == 4 for p in (0, 1) for m in range(1, 13)):
            assert not g.is_over() and not events_of(g.deal_events(), "chongtong")
            found += 1
    assert found >= 5


# ------------------------------------------------------------------ a turn

def test_pair_waits_for_the_flip_and_choose_one_of_two():
    """Seed 004: "If there are two cards of the same month already on the table, the
    player may select one of them." and Seed 004: "If the player locates a matching card
    on the table, the player collects both cards along with the cards matched in step
    2." """
    g = fgame(field="3R 3J1 5J1", hands=["3B 7A", "1J1 2J1"], stock="5J2 11J1")
    assert {"3B/3R", "3B/3J1"} <= moves(g) and "3B" not in moves(g)
    ev = g.push("3B/3R")
    kinds = [e.kind for e in ev]
    assert kinds.index("flipped") < kinds.index("captured")
    assert g.captured(0) == CardSet("3B 3R 5J1 5J2") and "3J1" in g.field


def test_ppeok_pair_is_captured_and_the_flip_stays():
    """Seed 004: "If the card drawn from the top of the draw pile in step 3 matches the
    two cards matched in step 2, the player collects the two cards and adds the drawn
    card on the table." (Matrix: "flip card stays; pair is captured")."""
    g = fgame(field="3R 5J1", hands=["3B 7A", "3J2 2J1"], captured=["", "4J1 4J2"],
              stock="3J1 11J1 12D")
    ev = g.push("3B")
    assert g.captured(0) == CardSet("3B 3R")
    assert "3J1" in g.field and not (CardSet("3B 3R") & g.field)
    assert not events_of(ev, "stolen") and g.chips(0) == 0
    # the flip left on the field is a single card: the fourth takes it as a pair
    g.push("3J2")
    assert CardSet("3J1 3J2").issubset(g.captured(1))


def test_jjok_captures_without_a_steal():
    """Seed 004: "If a player draws a card which matches the card discarded in step 2,
    the player collects both cards." (Matrix: "capture, no steal")."""
    g = fgame(field="5J1 6J1", hands=["3B 7A", "1J1 2J1"], captured=["", "4J1 4J2"],
              stock="3R 11J1")
    ev = g.push("3B")
    assert g.captured(0) == CardSet("3B 3R")
    assert not events_of(ev, "stolen") and g.captured(1) == CardSet("4J1 4J2")


def test_ttadak_takes_four_without_a_steal():
    """Seed 004: "If a player plays a card in step 2 for which two matching cards are
    already on the table, and then draws the fourth matching card from the draw pile in
    step 3, the player collects all four cards." (Matrix: "all four + steal | all four")."""
    g = fgame(field="3R 3J1 5J1", hands=["3B 7A", "1J1 2J1"], captured=["", "4J1 4J2"],
              stock="3J2 11J1")
    ev = g.push("3B/3R")
    assert g.captured(0) == CardSet.month(3)
    assert not events_of(ev, "stolen") and g.captured(1) == CardSet("4J1 4J2")


def test_stack_of_three_is_captured_whole_without_a_steal():
    """Seed 004: "If there is a set of three cards of the same month on the table, they
    are combined into one stack." (Matrix: "capture all four")."""
    g = fgame(field="3R 3J1 3J2 5J1", hands=["3B 7A", "1J1 2J1"], captured=["", "4J1 4J2"],
              stock="11J1")
    assert "3B" in moves(g) and not [m for m in moves(g) if m.startswith("3B/")]
    ev = g.push("3B")
    assert g.captured(0) == CardSet.month(3)
    assert not events_of(ev, "stolen")


def test_sweeping_the_field_steals_nothing():
    """Seed 004: "If the player locates a matching card on the table, the player collects
    both cards along with the cards matched in step 2." and nothing more (Matrix: "sseul:
    exactly two field cards of different months, both captured, field left empty (001's
    wording; not any emptied field) | no | steal | no (not in 002-004) | no")."""
    g = fgame(field="3R 5J1", hands=["3B 7A", "1J1 2J1"], captured=["", "4J1 4J2"],
              stock="5J2 11J1")
    ev = g.push("3B")
    assert g.field == CardSet() and g.captured(0) == CardSet("3B 3R 5J1 5J2")
    assert not events_of(ev, "stolen") and not events_of(ev, "sseul")


def test_no_bomb_no_shake_no_go_stop():
    """Seed 004: "Rules 1-3 are the same as in" Go-Stop; the family game has no Go or
    Stop (Matrix: "No Go/Stop, no ppeok, no ttadak steals. Play until the stock is
    gone.")."""
    # three of a month in hand with the fourth on the field: only plain plays
    g = fgame(field="9J2 5J1", hands=["9A 9R 9J1 7A", "1J1 2J1"], stock="11J1 12D",
              captured=["1B 1R 3B 3R 8B 8A 11B 11D 2A 2R 4A 4R", ""])
    assert moves(g) == {"9A", "9R", "9J1", "7A"}
    g.push("7A")
    # a pile worth far more than any threshold asks nothing
    assert g.phase == "play" and g.turn == 1


# ------------------------------------------------------------------ the end of the hand

def _last_turn(players, piles):
    """The last player's last turn: seat ``players - 1`` plays 7A onto 7R and flips 4J2
    onto 4J1, emptying the field; ``piles`` hold every other card, each month two or
    four at a time as in a real hand (docs/notation.md, "months").  (Months 4 and 7 are
    in no family set.)"""
    hands = [""] * (players - 1) + ["7A"]
    g = fgame(players=players, field="7R 4J1", hands=hands, stock="4J2", turn=players - 1,
              captured=piles)
    g.push("7A")
    return g


LAST_TURN_CARDS = {"7A", "7R", "4J1", "4J2"}


def test_hand_ends_when_the_stock_is_gone():
    """Seed 004: "A round is played until the deck has run out." """
    g = Game(RULES, 3, 5)
    rng = random.Random(5)
    while not g.is_over():
        assert g.phase == "play"
        g.push(rng.choice(list(g.legal_moves)))
    out = g.outcome()
    assert out.reason == "family" and g.stock_count == 0
    assert all(len(g.hand(p)) == 0 for p in range(3))
    assert g.field == CardSet()  # every card was won


def test_card_points_and_set_bonuses_paid_by_each_other_player():
    """Seed 004: "Ribbon cards are worth 5 points individually, however if a player
    collects either three red ribbon cards with poetry or three blue ribbon cards, then
    each other player owes that player 30 points at the end of the game." and Seed 004:
    "Animal cards are worth 10 points each." and Seed 004: "Junk cards, and the November
    and December Double Junk cards are worth nothing on their own." """
    # seat 0: hongdan + all of November; seat 1: half of May + cheongdan; seat 2 the rest
    seat0 = "1R 1J1 2R 2J1 3R 3J1 11B 11D 11J1 11J2"
    seat1 = "5A 5R 6R 6J1 9R 9J1 10R 10J1"
    placed = set((seat0 + " " + seat1).split()) | LAST_TURN_CARDS
    seat2 = " ".join(c for c in CARD_CODES[:48] if c not in placed)
    g = _last_turn(3, [seat0, seat1, seat2])
    out = g.outcome()
    assert g.is_over() and out.reason == "family"
    piles = [g.captured(p).codes() for p in range(3)]
    assert set(piles[2]) >= LAST_TURN_CARDS
    # by hand: seat 0 has 1R 2R 3R (15) + 11B (20) = 35 points, hongdan 30 + November 40
    # = 70 from each of two others; seat 1: 5A (10) + 5R 6R 9R 10R (20) = 30 points,
    # cheongdan 30 (May is split: 5J1 and 5J2 are seat 2's); seat 2: 240 - 35 - 30 = 175
    # points and all of December 20 (October is split: 10R and 10J1 are seat 1's).
    assert [card_points(p) for p in piles] == [35, 30, 175]
    assert [set_bonus(p) for p in piles] == [70, 30, 20]
    # balances: 35 + 2 x 70 - (30 + 20) - 80 = 45; 30 + 2 x 30 - (70 + 20) - 80 = -80;
    # 175 + 2 x 20 - (70 + 30) - 80 = 35
    assert list(out.chips) == [45, -80, 35] == family_balances(piles)
    assert sum(out.chips) == 0
    assert out.winner == 0 and out.points == 45


def test_all_four_of_may_october_december_pay_twenty_november_forty():
    """Seed 004: "Players who have collected all four May, October, or December cards are
    given 20 points by each other player, who deduct 20 points from their totals." and
    Seed 004: "The player who is lucky enough to collect all four November cards are
    given 40 points by each other player who deduct 40 points from their totals." """
    for month, bonus in ((5, 20), (10, 20), (12, 20), (11, 40)):
        mine = CardSet.month(month).codes()
        placed = set(mine) | LAST_TURN_CARDS
        rest = [c for c in CARD_CODES[:48] if c not in placed]
        g = _last_turn(2, [" ".join(mine), " ".join(rest)])
        piles = [g.captured(p).codes() for p in range(2)]
        assert set_bonus(piles[0]) == bonus
        assert list(g.outcome().chips) == family_balances(piles)
        # seat 0 holds only the month: its card points and 120 to break even
        assert g.outcome().chips[0] == card_points(mine) + bonus - set_bonus(piles[1]) - 120


@pytest.mark.parametrize("players, target", [(2, 120), (3, 80), (4, 60)])
def test_break_even_target_and_zero_sum(players, target):
    """Seed 004: "For two players, this number is 120. For three players, this number is
    80. For four players, this number is 60." and Seed 004: "If all the players'
    balances add up to 0, the scoring has been done correctly." """
    # seat 0 wins exactly the target in card points and no set; the last seat the rest
    # 120 = 4 brights (80) + 4 animals (40); 80 = 4 brights; 60 = 3 brights; each with a
    # junk of its month (a pile holds months in pairs), none completing a set
    seat0 = {120: "1B 1J1 8B 8J1 11B 11J1 12B 12D 2A 2J1 5A 5J1 6A 6J1 9A 9J1",
             80: "1B 1J1 8B 8J1 11B 11J1 12B 12D", 60: "1B 1J1 8B 8J1 11B 11J1"}[target]
    assert card_points(seat0.split()) == target
    placed = set(seat0.split()) | LAST_TURN_CARDS
    rest = [c for c in CARD_CODES[:48] if c not in placed]
    g = _last_turn(players, [seat0] + [""] * (players - 2) + [" ".join(rest)])
    out = g.outcome()
    piles_now = [g.captured(p).codes() for p in range(players)]
    assert g.field == CardSet()
    assert sum(card_points(p) for p in piles_now) == 240
    assert list(out.chips) == family_balances(piles_now)
    assert sum(out.chips) == 0
    # seat 0 has the target and no set: it breaks even before the others' bonuses
    assert out.chips[0] == -sum(set_bonus(p) for p in piles_now[1:])
