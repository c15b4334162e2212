"""Scenario tests: each casual rule of seed 000, played from a hand-written position.

Every test quotes the seed 000 sentence it checks (``Seed 000: "..."`` in its
docstring); ``test_seed_quotes_are_verbatim`` makes sure each quote really is
seed text.  Where seed 000 is silent, the test also names the rules-matrix line.
"""

from __future__ import annotations

import pytest

from conftest import (
    assert_cards_conserved, check_seed_quotes, game_from, make_position, seed_000_text,
)
from gostop_core import CardSet, Game, Move, score
from gostop_core.cards import CARD_CODES


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def moves(game):
    return {str(m) for m in game.legal_moves}


def test_seed_quotes_are_verbatim():
    """Seed 000: "Play a card from your hand onto the field." (meta: every
    scenario below quotes seed 000 word for word)."""
    checked = check_seed_quotes(globals())
    if seed_000_text() is None:
        pytest.skip("seed 000 text not available")
    assert checked >= 30


# ------------------------------------------------------------------ play a card

def test_play_captures_single_match():
    """Seed 000: "If it matches the month of a card already on the field, you
    capture both." """
    g = game_from(field="3R 5J1", hands=["3B 7A", "1J1 2J1"], stock="11J1")
    assert "3B" in moves(g) and "3B/3R" not in moves(g)
    ev = g.push("3B")
    cap = kinds(ev, "captured")
    assert cap[0].cards == CardSet("3B 3R") and cap[0].player == 0
    assert {"3B", "3R"} <= set(g.captured(0).codes())
    assert "3R" not in g.field and "3B" not in g.field
    assert "3B" not in g.hand(0)
    assert_cards_conserved(g)


@pytest.mark.parametrize("take, leave", [("3R", "3J1"), ("3J1", "3R")])
def test_play_choice_between_two_field_cards(take, leave):
    """Seed 000: "If the field holds more than one card of that month, you choose
    which one to take." """
    g = game_from(field="3R 3J1 5J1", hands=["3B 7A", "1J1 2J1"], stock="11J1")
    assert {"3B/3R", "3B/3J1"} <= moves(g)
    assert "3B" not in moves(g)  # a choice must be named
    g.push(f"3B/{take}")
    assert CardSet(f"3B {take}").issubset(g.captured(0))
    assert leave in g.field and leave not in g.captured(0)


def test_play_choice_among_three_field_cards():
    """Seed 000: "If the field holds more than one card of that month, you choose
    which one to take." (Matrix: "matches 3 (a stack) | choose one of them
    (no stacks)")."""
    g = game_from(field="3R 3J1 3J2", hands=["3B 7A", "1J1 2J1"], stock="11J1")
    assert {m for m in moves(g) if m.startswith("3B")} == {"3B/3R", "3B/3J1", "3B/3J2"}
    g.push("3B/3J2")
    assert g.captured(0) == CardSet("3B 3J2")
    assert CardSet("3R 3J1").issubset(g.field)


def test_unmatched_play_stays_on_field():
    """Seed 000: "If nothing matches, your card simply stays on the field." """
    g = game_from(field="5J1 6J1", hands=["3B 7A", "1J1 2J1"], stock="11J1")
    ev = g.push("3B")
    assert "3B" in g.field
    assert not kinds(ev, "captured")
    assert g.captured(0) == CardSet()
    assert g.turn == 1


def test_turn_passes_after_play_and_flip():
    """Seed 000: "Pass the turn." """
    g = game_from(field="5J1 6J1", hands=["3B 7A", "1J1 2J1"], stock="11J1 12D")
    ev = g.push("3B")
    assert [e.kind for e in ev] == ["played", "flipped", "turn_end"]
    assert g.turn == 1 and g.turns == 1 and g.phase == "play"


# ------------------------------------------------------------------ the flip

def test_flip_captures_a_match():
    """Seed 000: "Flip the top card of the draw pile onto the field. If it matches a
    field card by month, you capture both." """
    g = game_from(field="5J1 6J1", hands=["3B 7A", "1J1 2J1"], stock="5J2 11J1")
    ev = g.push("3B")
    flipped = kinds(ev, "flipped")
    assert [e.card for e in flipped] == ["5J2"] and flipped[0].player == 0
    assert kinds(ev, "captured")[0].cards == CardSet("5J1 5J2")
    assert g.captured(0) == CardSet("5J1 5J2")
    assert g.stock()[0] == "11J1"


def test_flip_without_match_stays_on_field():
    """Seed 000: "Flip the top card of the draw pile onto the field." """
    g = game_from(field="5J1 6J1", hands=["3B 7A", "1J1 2J1"], stock="11J1")
    g.push("3B")
    assert "11J1" in g.field and g.captured(0) == CardSet()


@pytest.mark.parametrize("take, leave", [("5R", "5J1"), ("5J1", "5R")])
def test_flip_choice_between_two(take, leave):
    """Seed 000: "If it matches a field card by month, you capture both." (Matrix: "flip matches a
    field card | capture pair (choose among 2)")."""
    g = game_from(field="5R 5J1 6J1", hands=["3B 7A", "1J1 2J1"], stock="5J2 11J1")
    g.push("3B")
    assert g.phase == "flip" and g.turn == 0 and g.flip_card == "5J2"
    assert moves(g) == {"flip/5R", "flip/5J1"}
    assert_cards_conserved(g)
    ev = g.push(f"flip/{take}")
    assert kinds(ev, "captured")[0].cards == CardSet(f"5J2 {take}")
    assert leave in g.field
    assert g.phase == "play" and g.turn == 1


def test_flip_choice_after_a_capture_at_play():
    """Seed 000: "If it matches a field card by month, you capture both." """
    g = game_from(field="3R 5R 5J1", hands=["3B 7A", "1J1 2J1"], stock="5J2 11J1")
    g.push("3B")
    assert g.captured(0) == CardSet("3B 3R")
    assert g.phase == "flip" and moves(g) == {"flip/5R", "flip/5J1"}
    g.push("flip/5R")
    assert g.captured(0) == CardSet("3B 3R 5R 5J2")


def test_flip_matches_card_just_played_is_plain_capture():
    """Seed 000: "If nothing matches, your card simply stays on the field." and
    "If it matches a field card by month, you capture both." (Matrix: "jjok/chok:
    flip matches your own unmatched played card | plain capture": no steal)."""
    g = game_from(field="5J1 6J1", hands=["3B 7A", "1J1 2J1"], captured=["-", "8J1 8J2 11D"],
                  stock="3R 11J1")
    ev = g.push("3B")
    assert kinds(ev, "captured")[0].cards == CardSet("3B 3R")
    assert not kinds(ev, "stolen")
    assert g.captured(1) == CardSet("8J1 8J2 11D")
    assert "3B" not in g.field


def test_no_ppeok_the_pair_is_already_taken():
    """Seed 000: "If it matches the month of a card already on the field, you capture
    both." (Matrix: "ppeok: flip matches the pair just made | impossible (pair already
    taken)")"""
    g = game_from(field="3R 5J1", hands=["3B 7A", "1J1 2J1"], captured=["-", "8J1"],
                  stock="3J1 11J1")
    ev = g.push("3B")
    assert g.captured(0) == CardSet("3B 3R")
    assert "3J1" in g.field  # the flipped March card finds nothing: it stays
    assert not kinds(ev, "stolen") and g.turn == 1


def test_no_ttadak_the_flip_takes_the_card_left_behind():
    """Seed 000: "If the field holds more than one card of that month, you choose which
    one to take." (Matrix: "ttadak: played onto 2, flip is the fourth | not possible
    (pair taken at play)")"""
    g = game_from(field="3R 3J1", hands=["3B 7A", "1J1 2J1"], captured=["-", "8J1"],
                  stock="3J2 11J1")
    ev = g.push("3B/3R")
    assert [e.cards for e in kinds(ev, "captured")] == [CardSet("3B 3R"), CardSet("3J1 3J2")]
    assert not kinds(ev, "stolen") and g.captured(1) == CardSet("8J1")


def test_empty_stock_means_no_flip():
    """Seed 000: "Flip the top card of the draw pile onto the field." (with four
    players the stock runs out before the hands: then there is nothing to flip)"""
    g = game_from(players=4, field="5J1", hands=["3B 7A", "1J1", "2J1", "4J1"], stock="-",
                  fill="captured3")
    ev = g.push("3B")
    assert not kinds(ev, "flipped") and "3B" in g.field and g.turn == 1


# ------------------------------------------------------------------ bonus cards

def test_bonus_in_hand_is_banked_and_replaced_same_player_plays():
    """Seed 000: "Playing one banks it straight into your junk pile, you draw a
    replacement from the stock, and you still play a card that turn — banking a
    bonus is free, not your move." """
    g = game_from(field="5J1 6J1", hands=["X2 3B 7A", "1J1 2J1"], stock="7J1 11J1")
    assert "X2" in moves(g)
    ev = g.push("X2")
    assert [e.kind for e in ev] == ["bonus", "drawn"]
    assert "X2" in g.captured(0) and "X2" not in g.hand(0)
    assert g.hand(0) == CardSet("3B 7A 7J1")          # the replacement is the top card
    assert g.stock()[0] == "11J1"
    assert g.turn == 0 and g.phase == "play" and g.turns == 0  # still the same turn
    assert score(g.captured(0)).junk == 2
    ev = g.push("3B")
    assert kinds(ev, "turn_end") and g.turn == 1 and g.turns == 1


def test_two_bonus_cards_in_hand_both_free():
    """Seed 000: "banking a bonus is free, not your move." """
    g = game_from(field="5J1 6J1", hands=["X2 X3 3B", "1J1 2J1"], stock="7J1 7J2 11J1")
    g.push("X3")
    g.push("X2")
    assert g.turn == 0 and g.turns == 0
    assert g.hand(0) == CardSet("3B 7J1 7J2")
    assert score(g.captured(0)).junk == 5


def test_drawn_replacement_bonus_can_be_banked_again():
    """Seed 000: "you draw a replacement from the stock, and you still play a card
    that turn" """
    g = game_from(field="5J1 6J1", hands=["X2 3B", "1J1 2J1"], stock="X3 11J1 12D")
    g.push("X2")
    assert "X3" in g.hand(0) and "X3" in moves(g)
    g.push("X3")
    assert g.hand(0) == CardSet("3B 11J1") and g.turn == 0


def test_bonus_in_hand_with_empty_stock_is_the_turn():
    """Seed 000: "(If the stock is empty there is nothing to draw, so the banking is
    the turn.)" """
    g = game_from(field="5J1 6J1", hands=["X2 3B", "1J1 2J1"], stock="-", fill="captured1")
    assert g.stock_count == 0
    ev = g.push("X2")
    assert "X2" in g.captured(0)
    assert not kinds(ev, "drawn")
    assert kinds(ev, "turn_end")
    assert g.hand(0) == CardSet("3B")
    assert g.turn == 1 and g.turns == 1


def test_flipped_bonus_is_banked_and_another_card_flipped():
    """Seed 000: "A bonus card turned up from the stock during your flip banks the
    same way, and another is turned up behind it." """
    g = game_from(field="5J1 6J1", hands=["3B 7A", "1J1 2J1"], stock="X3 5J2 11J1")
    ev = g.push("3B")
    assert [e.kind for e in ev] == ["played", "flipped", "bonus", "flipped", "captured", "turn_end"]
    assert [e.card for e in kinds(ev, "flipped")] == ["X3", "5J2"]
    assert g.captured(0) == CardSet("X3 5J1 5J2")
    assert "X3" not in g.field
    assert g.stock()[0] == "11J1"


def test_two_flipped_bonus_cards_in_a_row():
    """Seed 000: "A bonus card turned up from the stock during your flip banks the
    same way, and another is turned up behind it." """
    g = game_from(field="5J1 6J1", hands=["3B 7A", "1J1 2J1"], stock="X2 X3 11J1 12D")
    g.push("3B")
    assert g.captured(0) == CardSet("X2 X3")
    assert "11J1" in g.field and g.stock()[0] == "12D"
    assert score(g.captured(0)).junk == 5


def _seed_with_dealt_bonus(players, dealer=0):
    for s in range(2000):
        g = Game(players=players, seed=s, dealer=dealer)
        if g.deal_events():
            return g
    raise AssertionError("no deal put a bonus card on the field")


@pytest.mark.parametrize("players, dealer", [(2, 0), (2, 1), (3, 2), (4, 3)])
def test_bonus_dealt_to_field_goes_to_dealer(players, dealer):
    """Seed 000: "A bonus card dealt face-up to the field could never be captured, so
    it is given to the dealer and the field is topped up, as at a real table." """
    g = _seed_with_dealt_bonus(players, dealer)
    given = g.deal_events()
    assert all(e.kind == "dealt_bonus" and e.player == dealer for e in given)
    bonus = CardSet([e.card for e in given])
    assert bonus.issubset(CardSet("X2 X3"))
    assert g.captured(dealer) == bonus
    assert all(g.captured(p) == CardSet() for p in range(players) if p != dealer)
    assert not (g.field & CardSet("X2 X3"))
    field_size = {2: 8, 3: 6, 4: 6}[players]
    hand_size = {2: 10, 3: 7, 4: 7}[players]
    assert len(g.field) == field_size  # topped up
    assert g.stock_count == 50 - players * hand_size - field_size - len(bonus)
    assert_cards_conserved(g)


# ------------------------------------------------------------------ the bomb

BOMB_HAND = "9J1 9J2 9R 3B 4A 6A"


def test_bomb_takes_all_four_and_one_junk_from_each_opponent():
    """Seed 000: "If you hold three cards of one month and the fourth is on the
    field, you may drop a bomb: play all three at once, take all four cards, and take
    one junk card from every opponent." """
    g = game_from(players=4, field="9A 1J1", hands=[BOMB_HAND, "1B", "2A", "7A"],
                  captured=["-", "2J1 2J2 11D", "12D X3", "X2 1R"], stock="11J1 12A")
    assert "bomb9" in moves(g)
    ev = g.push("bomb9")
    bomb = kinds(ev, "bomb")[0]
    assert bomb.card == "9" and bomb.cards == CardSet("9J1 9J2 9R")
    assert CardSet("9A 9R 9J1 9J2").issubset(g.captured(0))
    assert not (g.hand(0) & CardSet.month(9))
    stolen = {e.other: e.card for e in kinds(ev, "stolen")}
    # least valuable first: a single junk, then a double junk, then a bonus card
    assert stolen[1] in ("2J1", "2J2")
    assert stolen[2] == "12D"
    assert stolen[3] == "X2"
    assert g.captured(2) == CardSet("X3")
    assert g.captured(3) == CardSet("1R")
    assert kinds(ev, "flipped")  # the bomb is a turn: the stock is flipped
    assert_cards_conserved(g)


def test_bomb_steal_picks_single_junk_over_double_and_bonus():
    """Seed 000: "take one junk card from every opponent." (Matrix: "the
    opponent gives its least valuable junk (a single junk; if none, a double junk;
    bonus cards last)")."""
    g = game_from(field="9A 1J1", hands=[BOMB_HAND, "1B 2A"],
                  captured=["-", "X3 X2 12D 11J2"], stock="11J1 12A")
    g.push("bomb9")
    assert "11J2" in g.captured(0)
    assert g.captured(1) == CardSet("X2 X3 12D")


def test_bomb_steal_bonus_cards_last_smaller_first():
    """Seed 000: "take one junk card from every opponent." (Matrix: "bonus
    cards last")."""
    g = game_from(field="9A 1J1", hands=[BOMB_HAND, "1B 2A"],
                  captured=["-", "X3 X2 1R"], stock="11J1 12A")
    g.push("bomb9")
    assert "X2" in g.captured(0) and g.captured(1) == CardSet("X3 1R")


def test_bomb_opponent_without_junk_gives_nothing():
    """Seed 000: "take one junk card from every opponent." (Matrix: "An
    opponent with no junk gives nothing.")"""
    g = game_from(players=3, field="9A 1J1", hands=[BOMB_HAND, "1B", "2A"],
                  captured=["-", "3R 8B", "4J1"], stock="11J1 12A")
    ev = g.push("bomb9")
    assert g.captured(1) == CardSet("3R 8B")
    assert g.captured(2) == CardSet()
    assert {e.other for e in kinds(ev, "stolen")} == {2}


def test_bomb_needs_the_fourth_on_the_field():
    """Seed 000: "If you hold three cards of one month and the fourth is on the
    field, you may drop a bomb" """
    g = game_from(field="1J1", hands=[BOMB_HAND, "1B 2A"], captured=["-", "9A"], stock="11J1")
    assert not any(m.startswith("bomb") for m in moves(g))
    assert "9J1" in moves(g)
    with pytest.raises(Exception):
        g.push("bomb9")


def test_bomb_is_optional():
    """Seed 000: "the bomb is never forced: click a bomb-capable card (it is outlined
    in gold) and choose Drop the bomb, or click the matching field card to capture
    with a single card as usual." """
    g = game_from(field="9A 1J1", hands=[BOMB_HAND, "1B 2A"], stock="11J1 12A")
    assert {"bomb9", "9J1", "9J2", "9R"} <= moves(g)
    g.push("9R")
    assert g.captured(0) == CardSet("9R 9A")
    assert g.hand(0) & CardSet.month(9) == CardSet("9J1 9J2")
    assert g.flip_only_turns(0) == 0
    assert g.turn == 1


def test_bomb_next_two_turns_are_flip_only():
    """Seed 000: "Three cards left your hand in a single turn, so your next two turns
    only flip the deck — you play nothing from hand until the hands are level
    again." """
    g = game_from(field="9A 1J1", hands=[BOMB_HAND, "1B 2J1 5J1 7J1 10J1 11J2"],
                  stock="11J1 12A 8J1 4J1 6J1 3J1 5R")
    g.push("bomb9")
    assert g.flip_only_turns(0) == 2
    hand0 = g.hand(0)
    assert len(hand0) == 3 and len(g.hand(1)) == 6
    deciders = []
    flip_only_seen = 0
    for card in ("2J1", "5J1"):
        assert g.turn == 1
        deciders.append(g.turn)
        ev = g.push(card)
        # the bomber's flip-only turn ran inside this push: no decision for seat 0
        fo = [e for e in ev if e.kind == "flip_only"]
        assert len(fo) == 1 and fo[0].player == 0
        flip_only_seen += 1
        bomber_flips = [e for e in ev if e.kind == "flipped" and e.player == 0]
        assert len(bomber_flips) == 1
        assert not [e for e in ev if e.kind == "played" and e.player == 0]
        assert g.hand(0) == hand0  # nothing played from the hand
        assert g.turn == 1
    assert flip_only_seen == 2 and g.flip_only_turns(0) == 0
    # the hands are level again: the bomber decides once more
    g.push("7J1")
    assert g.turn == 0 and len(g.hand(0)) == len(g.hand(1)) == 3
    assert g.phase == "play"
    assert_cards_conserved(g)


def test_flip_only_turn_counts_as_a_turn():
    """Seed 000: "your next two turns only flip the deck" """
    g = game_from(field="9A 1J1", hands=[BOMB_HAND, "1B 2J1 5J1 7J1 10J1"],
                  stock="11J1 12A 8J1 4J1 6J1 3J1 5R")
    g.push("bomb9")
    assert g.turns == 1
    g.push("2J1")  # seat 1's turn, then seat 0's flip-only turn
    assert g.turns == 3
    log = g.turn_log()
    assert [t.player for t in log] == [0, 1, 0]
    assert [e.kind for e in log[2].events][:2] == ["flip_only", "flipped"]


def test_flip_only_turn_with_a_flip_choice_asks_the_bomber():
    """Seed 000: "your next two turns only flip the deck" and "If it matches a field
    card by month, you capture both." """
    # seat 1 plays 2J1 (no match); seat 0's flip-only turn then flips 3J1 onto a
    # field with two March cards
    g = game_from(field="9A 3R 3J2", hands=[BOMB_HAND, "1B 2J1 5J1"],
                  stock="11J1 12A 3J1 4J1")
    g.push("bomb9")
    g.push("2J1")
    assert g.phase == "flip" and g.turn == 0 and g.flip_card == "3J1"
    assert moves(g) == {"flip/3R", "flip/3J2"}
    g.push("flip/3R")
    assert g.turn == 1 and "3R" in g.captured(0)


def test_flip_only_turn_with_nothing_to_flip_and_no_hand_is_no_turn():
    """Seed 000: "your next two turns only flip the deck" (with an empty hand and an
    empty stock there is nothing to flip: the seat is passed over)"""
    g = game_from(players=4, field="5J1", hands=["-", "1J1 6J1", "2J1 6J2", "4J1 7J1"],
                  turn=3, stock="-", fill="captured0", fliponly=[2, 0, 0, 0],
                  go=[1, 0, 0, 0], lastgo=[1000, 0, 0, 0])
    ev = g.push("4J1")
    assert not kinds(ev, "flip_only")
    assert g.turn == 1 and g.turns == 1


def test_flip_only_turns_owed_with_an_empty_stock_flip_nothing():
    """Seed 000: "Three cards left your hand in a single turn, so your next two turns
    only flip the deck — you play nothing from hand until the hands are level
    again." With the stock gone the owed turns still come, and flip nothing (Matrix:
    "with an empty stock still taken, flipping nothing, until the hands are level")."""
    g = game_from(players=4, field="5J1", hands=["3B", "1J1 6J1 8J1", "2J1 6J2 8J2", "4J1 7J1 10J1"],
                  turn=3, stock="-", fill="captured0", fliponly=[2, 0, 0, 0],
                  go=[1, 0, 0, 0], lastgo=[1000, 0, 0, 0])
    for expected_owed, round_moves in ((1, ["4J1"]), (0, ["1J1", "2J1", "7J1"])):
        for card in round_moves:
            ev = g.push(card)
        # the bomber's turn ran inside the last push: no decision, no flip, no play
        assert [e.kind for e in ev if e.player == 0] == ["flip_only", "turn_end"]
        assert g.turn == 1 and g.flip_only_turns(0) == expected_owed
        assert g.hand(0) == CardSet("3B")
    g.push("6J1")
    g.push("6J2")
    g.push("10J1")
    # the hands are level: one card each for seats 0-2, and the bomber plays again
    assert g.turn == 0 and [len(g.hand(p)) for p in range(4)] == [1, 1, 1, 0]
    assert "3B" in moves(g)
    assert_cards_conserved(g)


def test_bomb_in_three_player_game():
    """Seed 000: "take one junk card from every opponent." """
    g = game_from(players=3, field="9A 1J1", hands=[BOMB_HAND, "1B 2A", "7A 8A"],
                  captured=["-", "11D", "11J1 12D"], stock="4J1 12A")
    ev = g.push("bomb9")
    stolen = sorted((e.other, e.card) for e in kinds(ev, "stolen"))
    assert stolen == [(1, "11D"), (2, "11J1")]
    assert g.flip_only_turns(0) == 2


# ------------------------------------------------------------------ go and stop

# Seat 0 holds 3 brights (3), five animals (1) and two hongdan ribbons: 4 points.
# Capturing 3R completes hongdan (+3): exactly 7.
GO_PILE = "1B 3B 8B 1R 2R 4A 5A 6A 7A 10A"


def _go_game():
    # Flips 9J1, 10J1, 11J1, 5J1, 6J1 never match; seat 1 plays 4J1 then 7J1 onto
    # an empty month.  Seat 0: 3R takes 3J1 (7 points), 2J1 takes 2J2 (still 7),
    # 12A takes 12D (a sixth animal: 8).
    return game_from(field="3J1 2J2 12D", hands=["3R 2J1 12A 1J1", "4J1 7J1 1J2 4J2"],
                     captured=[GO_PILE, "-"], stock="9J1 10J1 11J1 5J1 6J1 7J2")


def test_go_stop_offered_at_threshold_two_players():
    """Seed 000: "The moment your score reaches the threshold, you must choose:"
    (Matrix: "threshold, 2 / 3 / 4 players | 7 / 3 / 3")."""
    g = _go_game()
    assert g.threshold() == 7
    assert g.score(0).total == 4
    ev = g.push("3R")
    assert g.score(0).total == 7
    assert g.phase == "gostop" and g.turn == 0
    assert moves(g) == {"go", "stop"}
    assert not kinds(ev, "turn_end")  # the turn waits for the decision


def test_no_go_stop_below_threshold():
    """Seed 000: "The moment your score reaches the threshold, you must choose:" """
    g = game_from(field="3J1 2J2 12D", hands=["3R 2J1 12A 1J1", "4J1 7J1 1J2 4J2"],
                  captured=["1B 3B 8B 1R 2R 4A 5A 6A 7A", "-"], stock="9J1 10J1 11J1")
    g.push("3R")
    assert g.score(0).total == 6
    assert g.phase == "play" and g.turn == 1


@pytest.mark.parametrize("players, offered", [(2, False), (3, True), (4, True)])
def test_threshold_by_player_count(players, offered):
    """Seed 000: "Be the first player to reach the point threshold and call Stop."
    (Matrix: "threshold, 2 / 3 / 4 players | 7 / 3 / 3 (000 silent)")."""
    hands = ["8B 4J1", "1J1 2J1", "6J1 7J1", "12A 12R"][:players]
    g = game_from(players=players, field="8J1 5J1", hands=hands,
                  captured=["1B 3B"] + ["-"] * (players - 1), stock="11J1 10J1")
    g.push("8B")
    assert g.score(0).total == 3
    assert g.threshold() == (7 if players == 2 else 3)
    assert (g.phase == "gostop") == offered
    assert g.turn == (0 if offered else 1)


def test_stop_ends_the_hand_and_the_player_wins():
    """Seed 000: "Stop — the hand ends immediately and you bank your score. You
    win." """
    g = _go_game()
    g.push("3R")
    ev = g.push("stop")
    assert g.is_over() and g.turn is None and g.phase == "over"
    assert g.legal_moves.count() == 0
    out = g.outcome()
    assert out.winner == 0 and out.reason == "stop"
    assert out.points == g.score(0).total == 7
    assert out.go_counts == (0, 0)
    assert kinds(ev, "stop")[0].player == 0
    # cards are left where they were: no more flips
    assert_cards_conserved(g)


def test_go_continues_and_is_asked_again_only_after_score_rose():
    """Seed 000: "You are only asked again once your score has actually gone up since
    your last Go." """
    g = _go_game()
    g.push("3R")
    ev = g.push("go")
    assert kinds(ev, "go")[0].other == 1 and g.go_count(0) == 1
    assert g.phase == "play" and g.turn == 1
    g.push("4J1")
    # a capture that leaves the score at 7: not asked again
    g.push("2J1")
    assert CardSet("2J1 2J2").issubset(g.captured(0))
    assert g.score(0).total == 7
    assert g.phase == "play" and g.turn == 1
    g.push("7J1")
    # a sixth animal: 8 points, asked again
    g.push("12A")
    assert g.score(0).total == 8
    assert g.phase == "gostop" and g.turn == 0
    g.push("stop")
    out = g.outcome()
    assert out.winner == 0 and out.go_counts == (1, 0)
    assert out.points == 8 + 1  # the score plus one for the Go


def test_go_not_asked_when_score_stays_equal_even_after_a_capture():
    """Seed 000: "You are only asked again once your score has actually gone up since
    your last Go." """
    text = make_position(field="2J2 5J1", hands=["2J1 1J1", "4J1 7J1"], captured=[
        "1B 3B 8B 1R 2R 3R 4A 5A 6A 7A 10A", "-"], stock="9J1 10J1", go=[1, 0], lastgo=[7, 0])
    g = Game.from_position(text)
    assert g.score(0).total == 7
    g.push("2J1")
    assert g.score(0).total == 7 and g.phase == "play" and g.turn == 1


@pytest.mark.parametrize("gos, expected", [
    (0, 8),            # the score alone
    (1, 8 + 1),        # +1 per Go
    (2, 8 + 2),
    (3, 8 + 3),
    (4, (8 + 4) * 2),  # from the fourth Go the whole total doubles
    (5, (8 + 5) * 4),  # ... at each Go
    (6, (8 + 6) * 8),
])
def test_go_value_in_outcome_points(gos, expected):
    """Seed 000: "Each Go adds +1 point to your eventual score, and from the fourth
    Go onward your whole total doubles." """
    # 3 brights (3) + 6 animals (2) + hongdan (3) = 8, in the Go/Stop phase.
    text = make_position(phase="gostop", field="5J1", hands=["1J1", "4J1"], captured=[
        "1B 3B 8B 1R 2R 3R 4A 5A 6A 7A 10A 12A", "-"], stock="9J1",
        go=[gos, 0], lastgo=[7 if gos else 0, 0])
    g = Game.from_position(text)
    assert g.score(0).total == 8
    g.push("stop")
    assert g.outcome().points == expected


def test_four_goes_through_play_double_the_total():
    """Seed 000: "from the fourth Go onward your whole total doubles." """
    # Seat 0 has called Go three times and is asked again at 9 points: 3 brights (3),
    # hongdan (3), seven animals (3).  It calls a fourth Go, then 8A brings an eighth
    # animal (4) and the three godori birds (5): 15 points, and it stops.
    pile = "1B 3B 8B 1R 2R 3R 4A 5A 6A 7A 10A 12A 2A"
    g = Game.from_position(make_position(
        phase="gostop", field="8A 5J1", hands=["8J1 1J1", "4J1 7J1"], captured=[pile, "-"],
        stock="9J1 10J1 11J1", go=[3, 0], lastgo=[8, 0]))
    assert g.score(0).total == 9
    g.push("go")
    assert g.go_count(0) == 4
    g.push("4J1")
    g.push("8J1")  # takes 8A: one more animal and the three godori birds
    assert g.score(0).total == 15 and g.phase == "gostop"
    g.push("stop")
    assert g.outcome().points == (15 + 4) * 2


def test_opponent_stop_makes_the_go_worth_nothing():
    """Seed 000: "if an opponent reaches the threshold and calls Stop first, they take
    the hand and your Go is worth nothing." """
    g = Game.from_position(make_position(
        field="8J1 5J1", hands=["1J1 2J1", "8B 4J1"], turn=1,
        captured=["1R 2R 3R 4A 5A 6A 7A 10A 2A 12A 9A", "1B 3B 7R 9R 10R 4R 5R"],
        stock="11B 10J1", go=[2, 0], lastgo=[7, 0]))
    assert g.score(0).total == 7  # seat 0 went twice at 7
    g.push("8B")  # seat 1: three brights (3), five ribbons (1) and chodan (3)
    assert g.score(1).total == 7
    assert g.phase == "gostop" and g.turn == 1
    g.push("stop")
    out = g.outcome()
    assert out.winner == 1 and out.points == g.score(1).total
    assert out.go_counts[0] == 2


# ------------------------------------------------------------------ the end of the hand

def test_draw_when_every_hand_is_played_out():
    """Seed 000: "Every hand is played out and nobody called Stop — the hand is drawn,
    with no score." """
    g = game_from(field="5J1 6J1", hands=["3B", "4J1"], stock="11J1 10J1")
    g.push("3B")
    assert not g.is_over()
    ev = g.push("4J1")
    assert g.is_over() and kinds(ev, "draw")
    out = g.outcome()
    assert out.winner is None and out.points == 0 and out.reason == "draw"
    assert g.legal_moves.count() == 0


def test_draw_when_last_player_already_went_at_that_score():
    """Seed 000: "Every hand is played out and nobody called Stop — the hand is drawn,
    with no score." and "You are only asked again once your score has actually gone
    up since your last Go." """
    g = Game.from_position(make_position(
        field="2J2 5J1", hands=["-", "2J1"], turn=1,
        captured=["-", "1B 3B 8B 1R 2R 3R 4A 5A 6A 7A 10A"],
        stock="9J1", go=[0, 1], lastgo=[0, 7]))
    g.push("2J1")
    out = g.outcome()
    assert out.winner is None and out.reason == "draw"


def test_last_turn_threshold_stops_automatically():
    """Seed 000: "Every hand is played out and nobody called Stop — the hand is drawn,
    with no score." (engine decision: reaching the threshold on the very last turn
    stops at once, because a Go could only lead to a drawn hand)."""
    g = Game.from_position(make_position(
        field="3J1 5J1", hands=["-", "3R"], turn=1,
        captured=["-", GO_PILE], stock="9J1"))
    ev = g.push("3R")
    assert g.is_over()
    out = g.outcome()
    assert out.winner == 1 and out.reason == "last_turn_stop" and out.points == 7
    stop = kinds(ev, "stop")[0]
    assert stop.other == 1 and stop.player == 1


def test_threshold_before_the_last_turn_is_a_real_choice():
    """Seed 000: "The moment your score reaches the threshold, you must choose:" """
    g = Game.from_position(make_position(
        field="3J1 5J1", hands=["4J1", "3R"], turn=1,
        captured=["-", GO_PILE], stock="9J1 10J1"))
    g.push("3R")
    assert g.phase == "gostop" and not g.is_over()


# ------------------------------------------------------------------ the deal

@pytest.mark.parametrize("players, hand, field", [(2, 10, 8), (3, 7, 6), (4, 7, 6)])
def test_deal_sizes(players, hand, field):
    """Seed 000: "The deal changes with the number of players:" and "all four players
    are dealt in and play every hand, using the same 7-card deal and 6-card field as
    the three-player game." (Matrix: "hand / field, 2 players | 10 / 8"; Matrix: "hand / field, 3 players |
    7 / 6"; Matrix: "hand / field, 4 players | 7 / 6, all four play")."""
    for seed in range(40):
        g = Game(players=players, seed=seed)
        bonus = len(g.deal_events())
        hands = [g.hand(p) for p in range(players)]
        assert all(len(h) == hand for h in hands)
        assert len(g.field) == field
        assert g.stock_count == 50 - players * hand - field - bonus
        assert_cards_conserved(g)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dealer_moves_first(players):
    """Seed 000: "The dealer wears a D on their seat." (Matrix: "dealer | fixed
    for the single hand"; the dealer leads)."""
    for dealer in range(players):
        g = Game(players=players, seed=11, dealer=dealer)
        assert g.dealer == dealer and g.turn == dealer and g.phase == "play"
        first = next(m for m in g.legal_moves if m.kind == "play")
        g.push(first)
        assert g.turn_log()[0].player == dealer
        while g.phase == "flip":
            g.push(next(iter(g.legal_moves)))
        assert g.turn == (dealer + 1) % players


def test_play_order_goes_round_the_table():
    """Seed 000: "all four players are dealt in and play every hand" """
    g = Game(players=4, seed=5, dealer=2)
    seen = []
    while len(seen) < 8:
        if g.phase == "play":
            seen.append(g.turn)
        # play a hand card (a bonus card would be a free action, not a turn)
        g.push(next(m for m in g.legal_moves if m.kind in ("play", "flip", "go")))
    assert seen == [2, 3, 0, 1, 2, 3, 0, 1]


def test_captured_piles_feed_the_score():
    """Seed 000: "Captured cards go into your four piles — brights, animals, ribbons
    and junk — which is how you read your score." """
    g = game_from(field="8J1 5J1", hands=["8B 4J1", "1J1 2J1"], captured=["1B 3B", "-"],
                  stock="11J1")
    g.push("8B")
    s = g.score(0)
    assert s.brights == 3 and s.bright_points == 3 and s.junk == 1
    assert s.total == 3
