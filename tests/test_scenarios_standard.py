"""Scenario tests for the standard preset (seeds 002-004, Korean standard rules).

Each test plays one rule of the rules matrix from a hand-written position (or a seeded
deal found by a bounded search) and quotes the seed sentence it checks (``Seed 002:
"..."``, ``Seed 003: "..."``, ``Seed 004: "..."``) and, where the matrix resolves the
rule, the matrix line.  ``test_seed_quotes_are_verbatim`` checks every quote.

Positions mark every seat as having played a turn already (``played=1,1``).
"""

from __future__ import annotations

import pytest

from conftest import (
    assert_cards_conserved, check_seed_quotes, events_of, game_from, not_first_turn,
    seed_text, stop_game,
)
from gostop_core import CardSet, Game, Rules, score
from gostop_core.errors import RulesError

RULES = "standard"
SEEDS = ("Seed 002", "Seed 003", "Seed 004")


def sgame(players=2, extra="", **kwargs):
    marks = [not_first_turn(players)] + ([extra] if extra else [])
    return game_from(rules=RULES, players=players, extra=" ".join(marks), **kwargs)


def moves(game):
    return {str(m) for m in game.legal_moves}


def month_cards(month):
    return CardSet.month(month)


def test_seed_quotes_are_verbatim():
    """Seed 002: "Play begins with the dealer and continues counterclockwise." (meta:
    every scenario below quotes seed 002, 003 or 004 word for word)."""
    checked = check_seed_quotes(globals(), need=SEEDS)
    if seed_text("002") is None:
        pytest.skip("seed texts not available")
    assert checked >= 35


# ------------------------------------------------------------------ deal

def test_deal_sizes_and_player_counts():
    """Seed 002: "The dealer places four cards face-up on the table then deals five cards
    to their opponent's hand and five cards to their hand." and Seed 002: "The dealer
    places three cards face-up on the table then deals four cards to each player's
    hand" (Matrix: "2, 3 (4: gwangpalli option)"); the pack has the bonus cards X2
    and X3 (Seed 003: "Modern Korean-produced hwatu decks usually includes bonus
    cards")."""
    for players, hand, field in ((2, 10, 8), (3, 7, 6)):
        for seed in range(30):
            g = Game(RULES, players, seed)
            if g.is_over():
                continue
            dealt_bonus = len(events_of(g.deal_events(), "dealt_bonus"))
            assert [len(g.hand(p)) for p in range(players)] == [hand] * players
            assert len(g.field) == field
            assert g.stock_count == 50 - players * hand - field - dealt_bonus
            assert_cards_conserved(g)
    with pytest.raises(RulesError):
        Game(RULES, 4, 0)


def test_bonus_card_dealt_to_the_field_goes_to_the_dealer():
    """Seed 002: "If there is a bonus card on the table during initial deal, the dealer
    collects the bonus card and turns the top card of the draw pile face-up and places
    it on the table." """
    found = 0
    for seed in range(400):
        for dealer in (0, 1):
            g = Game(RULES, 2, seed, dealer=dealer)
            dealt = events_of(g.deal_events(), "dealt_bonus")
            if not dealt:
                continue
            for e in dealt:
                assert e.player == dealer and e.card in g.captured(dealer)
            # the field is topped up to its eight month cards
            assert len(g.field) == 8 and not (g.field & CardSet("X2 X3"))
            found += 1
    assert found >= 10


def test_four_of_a_month_on_the_field_is_redealt():
    """Seed 002: "If there is a set of four cards of the same month on the table, the
    cards are reshuffled and redealt by the same dealer." """
    no_redeal = Rules(RULES, four_on_field_redeal=0)
    found = 0
    for seed in range(5000):
        first = Game(no_redeal, 2, seed, dealer=1)
        if not any(len(first.field & month_cards(m)) == 4 for m in range(1, 13)):
            continue
        g = Game(RULES, 2, seed, dealer=1)
        assert events_of(g.deal_events(), "redeal")
        assert g.dealer == 1
        assert not any(len(g.field & month_cards(m)) == 4 for m in range(1, 13))
        found += 1
        if found == 3:
            break
    assert found == 3


def test_chongtong_wins_the_hand():
    """Seed 002: "Any player who has a set of four cards of the same month can show them
    to the other players and win the hand immediately." (Matrix: "wins the hand"; the
    standard rules name no amount: each opponent pays the Go/Stop threshold, a decision
    of docs/rules.md)."""
    for players in (2, 3):
        for seed in range(20000):
            g = Game(RULES, players, seed)
            holders = [p for p in range(players)
                       if any(len(g.hand(p) & month_cards(m)) == 4 for m in range(1, 13))]
            if len(holders) == 1:
                break
        else:  # pragma: no cover
            raise AssertionError("no chongtong deal found")
        out = g.outcome()
        assert out.reason == "chongtong" and out.winner == holders[0]
        threshold = {2: 7, 3: 3}[players]
        assert out.chips[holders[0]] == threshold * (players - 1)
        assert sum(out.chips) == 0


# ------------------------------------------------------------------ a turn

def test_pair_waits_for_the_flip():
    """Seed 002: "If the player finds a matching card on the table, the player collects
    both cards along with the cards matched in step 2. Otherwise, the drawn card is
    added to the table." (Matrix: "same as traditional")."""
    g = sgame(field="3R 5J1 6J1", hands=["3B 7A", "1J1 2J1"], stock="5J2 11J1")
    ev = g.push("3B")
    kinds = [e.kind for e in ev]
    assert kinds.index("flipped") < kinds.index("captured")
    assert g.captured(0) == CardSet("3B 3R 5J1 5J2")
    g = sgame(field="3R 6J1", hands=["3B 7A", "1J1 2J1"], stock="11J1")
    g.push("3B")
    assert g.captured(0) == CardSet("3B 3R") and "11J1" in g.field


def test_choose_one_of_two():
    """Seed 002: "If there are two cards of the same month already on the table, the
    player may select one of them." """
    g = sgame(field="3R 3J1 6J1", hands=["3B 7A", "1J1 2J1"], stock="11J1")
    assert {"3B/3R", "3B/3J1"} <= moves(g) and "3B" not in moves(g)
    g.push("3B/3R")
    assert g.captured(0) == CardSet("3B 3R") and "3J1" in g.field


def test_stack_captured_with_the_fourth_and_a_steal():
    """Seed 002: "If there is a set of three cards of the same month on the table, they
    are combined into one stack. The player who collects the pile using the fourth card
    of that month will also collect one junk card (pi) from each player's stock pile."
    """
    g = sgame(players=3, field="3R 3J1 3J2 6J1", hands=["3B 7A", "1J1 2J1", "4J1 6A"],
              captured=["", "5J1", "11D"], stock="11J1")
    assert "3B" in moves(g) and not [m for m in moves(g) if m.startswith("3B/")]
    ev = g.push("3B")
    assert events_of(ev, "stack")[0].cards == month_cards(3)
    assert {e.other: e.card for e in events_of(ev, "stolen")} == {1: "5J1", 2: "11D"}


def test_ppeok_stack_stays_and_the_fourth_takes_it():
    """Seed 002: "If the card drawn from the top of the draw pile in step 3 matches the
    two cards matched in step 2, the three cards remain on the table. This is known as
    ppeok" and Seed 003: "The three cards remain until a player collects them using the
    fourth card of the same month." """
    g = sgame(field="3R 5J1", hands=["3B 7A", "3J2 2J1"], captured=["4J1", ""],
              stock="3J1 11J1 12D")
    ev = g.push("3B")
    assert events_of(ev, "ppeok") and not events_of(ev, "captured")
    assert CardSet("3B 3R 3J1").issubset(g.field) and g.chips(0) == 0
    ev = g.push("3J2")
    assert month_cards(3).issubset(g.captured(1))
    assert [e.card for e in events_of(ev, "stolen")] == ["4J1"]


def test_flipped_bonus_stays_with_a_ppeok_stack():
    """Seed 002: "If a player draws a bonus card from the draw pile during their regular
    turn, they will automatically collect it along with any other cards matched during
    that turn, except in the event of a ppeok, in which all four cards (i.e. the three
    cards involved in the ppeok plus the bonus card) must remain on the table." """
    g = sgame(field="3R 5J1", hands=["3B 7A", "3J2 2J1"], captured=["4J1", ""],
              stock="X2 3J1 11J1 12D")
    ev = g.push("3B")
    assert [e.card for e in events_of(ev, "flipped")] == ["X2", "3J1"]
    assert events_of(ev, "ppeok")
    assert CardSet("3B 3R 3J1 X2").issubset(g.field)
    assert "X2" not in g.captured(0)
    assert "stackbonus=X2:3" in g.position()
    assert_cards_conserved(g)
    # the position (a bonus card sitting with a stack) round-trips
    assert Game.from_position(g.position()) == g
    # the fourth card takes the stack and the bonus card with it
    ev = g.push("3J2")
    assert (month_cards(3) | CardSet("X2")).issubset(g.captured(1))
    assert "stackbonus" not in g.position()
    assert [e.card for e in events_of(ev, "stolen")] == ["4J1"]


def test_flipped_bonus_is_banked_with_the_turns_captures():
    """Seed 002: "If a player draws a bonus card from the draw pile during their regular
    turn, they will automatically collect it along with any other cards matched during
    that turn" (Matrix: "banked with the turn's captures")."""
    g = sgame(field="3R 5J1", hands=["3B 7A", "3J2 2J1"], stock="X2 11J1")
    ev = g.push("3B")
    kinds = [e.kind for e in ev]
    assert kinds.index("captured") < kinds.index("bonus")
    assert g.captured(0) == CardSet("3B 3R X2")
    assert "11J1" in g.field  # the next stock card was turned in the bonus card's place


def test_bonus_card_in_hand_is_banked_with_a_replacement():
    """Seed 002: "If a player is dealt a bonus card, they may add it to their stock pile
    at the beginning of any turn and draw a card from the draw pile to replace it in
    their hand." """
    g = sgame(field="5J1", hands=["X3 3B 7A", "3J2 2J1"], stock="11J1 12D")
    assert "X3" in moves(g)
    ev = g.push("X3")
    assert [e.kind for e in ev] == ["bonus", "drawn"]
    assert g.captured(0) == CardSet("X3")
    assert g.hand(0) == CardSet("3B 7A 11J1")
    # banking is not the turn: the same player plays now
    assert g.turn == 0 and g.phase == "play" and "X3" not in moves(g)
    # and it may wait for a later turn: playing a card first keeps it in hand
    g = sgame(field="5J1", hands=["X3 3B 7A", "3J2 2J1"], stock="11J1 12D 6J1")
    g.push("3B")
    g.push("3J2")
    assert g.turn == 0 and "X3" in moves(g)


def test_jjok_captures_and_steals():
    """Seed 002: "If a player draws a card that matches the card discarded in step 2,
    the player collects both cards as well as one junk card (pi) from each opponent's
    stock pile. This is known as jjok" """
    g = sgame(field="5J1 6J1", hands=["3B 7A", "1J1 2J1"], captured=["", "2J2"],
              stock="3R 11J1")
    ev = g.push("3B")
    assert events_of(ev, "jjok")
    assert g.captured(0) == CardSet("3B 3R 2J2")


def test_ttadak_takes_four_and_steals():
    """Seed 002: "If a player plays a card in step 2 for which two matching cards are
    already on the table, and then draws the fourth matching card from the draw pile in
    step 3, the player collects all four cards as well as one junk card (pi) from each
    opponent's stock pile. This is known as ttadak" """
    g = sgame(field="3R 3J1 6J1", hands=["3B 7A", "1J1 2J1"], captured=["", "2J2"],
              stock="3J2 11J1")
    ev = g.push("3B/3J1")
    assert events_of(ev, "ttadak")
    assert g.captured(0) == month_cards(3) | CardSet("2J2")


def test_sweeping_the_field_steals_nothing():
    """Seed 002: "Otherwise, the drawn card is added to the table." The standard texts
    name no sseul (Matrix: "no (not in 002-004)")."""
    g = sgame(field="3R 5J1", hands=["3B 7A", "1J1 2J1"], captured=["", "2J2"],
              stock="5J2 11J1")
    ev = g.push("3B")
    assert g.field == CardSet() and not events_of(ev, "sseul")
    assert not events_of(ev, "stolen") and g.captured(1) == CardSet("2J2")


def test_last_turn_exceptions():
    """Seed 003: "If a player draws a card which matches the card discarded in step 2,
    the player collects both cards as well as one junk card (pi) from each opponent's
    stock pile." (Matrix: "last player's last turn | - | sseul/ttadak/chok steal nothing;
    stack capture still steals | same as traditional")."""
    cases = [("chok", "5J1", "3B", "3R", "3B", False),
             ("ttadak", "3R 3J1 5J1", "3B", "3J2", "3B/3R", False),
             ("stack", "3R 3J1 3J2", "3B", "5J1", "3B", True)]
    for name, field, hand, stock, move, steals in cases:
        g = sgame(field=field, hands=["", hand], turn=1, stock=stock, captured=["1J1", ""])
        ev = g.push(move)
        assert bool(events_of(ev, "stolen")) == steals, name
        assert g.is_over()


def test_bomb_takes_four_steals_and_flip_only_turns_are_optional():
    """Seed 002: "If a player has a set of three cards of the same month in their hand
    and the fourth card of that month is on the table, the player may play all three
    cards in one turn and collect all four cards as well as one junk card (pi) from each
    player's stock pile." and Seed 002: "A player who has played a poktan may then choose
    to skip step 2 above in as many as two turns" """
    g = sgame(field="9J2 5J1", hands=["9A 9R 9J1 7A 7R 6A", "1J1 2J1 4A 4R"],
              captured=["", "2J2"], stock="11J1 12D 6J1 8J1 10J1 1R 1B")
    assert "bomb9" in moves(g)
    ev = g.push("bomb9")
    assert month_cards(9).issubset(g.captured(0)) and "2J2" in g.captured(0)
    assert g.flip_only_turns(0) == 2
    g.push("1J1")
    # choose to play from the hand: the flip-only turns stay owed
    assert "fliponly" in moves(g)
    g.push("7A")
    assert g.flip_only_turns(0) == 2
    g.push("2J1")
    g.push("fliponly")
    g.push("4A")
    g.push("fliponly")
    assert g.flip_only_turns(0) == 0
    g.push("4R")
    assert "fliponly" not in moves(g) and g.hand(0) == CardSet("7R 6A")


def test_bomb_alone_does_not_double_the_payment():
    """Seed 002: "Shaking the cards before playing a poktan is also an option." Only
    traditional counts a bomb like a shake (Matrix: "counts as a shake for payment;
    otherwise as standard")."""
    pile = "1R 2R 3R 6R 9R 10R"  # hongdan 3 + cheongdan 3 + six ribbons 2 = 8 points
    loser = "1B 1J1 1J2 2J1 2J2 3J1 3J2"
    assert stop_game(rules=RULES, captured=[pile, loser],
                     extra="bombs=1,0").outcome().chips == (8, -8)
    assert stop_game(rules=RULES, captured=[pile, loser],
                     extra="bombs=1,0 shaken=9|-").outcome().chips == (16, -16)


def test_shaking_any_turn_before_playing_one_of_them():
    """Seed 002: "Any player who has a set of three cards of the same month in their
    hand can show them to the other players in what is referred to as" (shaking).
    Matrix: "any time before playing one of them; each doubles"."""
    g = sgame(field="5J1 6J1", hands=["9A 9R 9J1 7A 7R", "1J1 2J1 3J1"],
              stock="11J1 12D 1R 2R")
    assert "shake9" in moves(g)
    g.push("7A")          # a first turn without shaking
    g.push("1J1")
    assert "shake9" in moves(g)  # still three in hand: may shake now
    g.push("shake9")
    assert "shake9" not in moves(g) and g.turn == 0
    g.push("9A")
    g.push("2J1")
    assert "shake9" not in moves(g)  # two left


def test_shake_then_bomb_of_the_month_is_the_shake_double_only():
    """Seed 002: "Shaking the cards before playing a poktan is also an option." and
    Seed 002: "Each time a player shakes within a single hand, final points are doubled
    in the event that that player wins the hand." The bomb itself doubles nothing here
    (Matrix: "any time before playing one of them; each doubles")."""
    g = sgame(field="9J2 5J1", hands=["9A 9R 9J1 7A", "1J1 2J1"],
              captured=["1R 2R 3R 4R 5R 7R", "1B 2J2 3J1 3J2 4J1 4J2"], stock="11J1 12D")
    assert g.rules.shake_timing == 0
    g.push("shake9")
    g.push("bomb9")
    # hongdan and chodan 6 + seven ribbons with 9R 3 = 9 points: Go or Stop follows
    assert g.phase == "gostop" and g.score(0).total == 9
    g.push("stop")
    assert g.outcome().chips == (18, -18)
    assert g.outcome().settlement["reasons"][1] == ["shake"]


def test_shake_doubles_each_time():
    """Seed 002: "Each time a player shakes within a single hand, final points are
    doubled in the event that that player wins the hand." """
    pile = "1R 2R 3R 6R 9R 10R"
    loser = "1B 1J1 1J2 2J1 2J2 3J1 3J2"
    pays = [stop_game(rules=RULES, captured=[pile, loser], extra=x).outcome().chips[0]
            for x in ("", "shaken=9|-", "shaken=4,9|-")]
    assert pays == [8, 16, 32]
    # a loser's shake doubles nothing
    assert stop_game(rules=RULES, captured=[pile, loser],
                     extra="shaken=-|9").outcome().chips[0] == 8


# ------------------------------------------------------------------ go, stop and the end

@pytest.mark.parametrize("players, threshold", [(2, 7), (3, 3)])
def test_thresholds(players, threshold):
    """Seed 002: "The object of the game is to create scoring combinations to accumulate
    points up to a score of either three (for three players) or seven (for two players),
    at which point a" (Go or a Stop must be called)."""
    junk = ["1J1", "1J2", "2J1", "2J2", "4J1", "4J2", "5J1", "5J2", "6J1", "6J2",
            "7J1", "7J2", "8J1", "8J2", "9J1", "9J2", "10J1", "10J2"]
    hands = ["3B 7A", "11J1 12A", "4A 6A"][:players]
    # 3B takes 3J1: count + 1 junk score (count + 1) - 10 + 1 = count - 8 points
    for count, asked in ((7 + threshold, False), (8 + threshold, True)):
        g = sgame(players=players, field="3J1 11B", hands=hands, stock="12B",
                  captured=[" ".join(junk[:count])] + [""] * (players - 1))
        g.push("3B")
        assert (g.phase == "gostop") == asked
        assert g.score(0).total == threshold - 1 + asked
        if asked:
            assert moves(g) == {"go", "stop"}


def test_asked_again_only_after_the_score_rose():
    """Seed 002: "once, the player must increase their score by at least one point in
    order to be given another opportunity to call" Go or Stop."""
    pile = "2A 4A 8A 6A 7A 10A 1J1"     # godori 5 + six animals 2 = 7 points
    g = sgame(field="3J1 11B", hands=["3B 7R", "11J1 12A"], stock="12B",
              captured=[pile, ""], go=[1, 0], lastgo=[7, 0])
    g.push("3B")                          # two junk: still 7
    assert g.phase == "play" and g.turn == 1
    g = sgame(field="9A 11B", hands=["9R 7R", "11J1 12A"], stock="12B",
              captured=[pile, ""], go=[1, 0], lastgo=[7, 0])
    g.push("9R")                          # a seventh animal: 8 points
    assert g.phase == "gostop" and g.score(0).total == 8


def test_nagari_when_nobody_stops():
    """Seed 002: "The dealer and play order of the next game remain the same as with the
    Nagari game, and when the game ends, the loser owes the winner double money." """
    g = sgame(field="5J1", hands=["", "3B"], turn=1, stock="6J1", captured=["1J1", "2J1"])
    g.push("3B")
    out = g.outcome()
    assert out.reason == "draw" and out.winner is None and list(out.chips) == [0, 0]
    # the next hand's payment is doubled: a position carrying the nagari stake
    pile = "1R 2R 3R 6R 9R 10R"
    loser = "1B 1J1 1J2 2J1 2J2 3J1 3J2"
    assert stop_game(rules=RULES, captured=[pile, loser],
                     extra="stake=1").outcome().chips == (16, -16)


# ------------------------------------------------------------------ scoring rows of 002

def test_six_ribbons_with_hongdan_and_cheongdan_score_eight():
    """Seed 002: "If a player collects six Ribbon cards, including all three red poetry
    Ribbons and all three blue Ribbons, the player can claim three points for hong dan,
    three points for cheong dan, and an additional two points for having six Ribbon
    cards, for a total of eight points." """
    s = score("1R 2R 3R 6R 9R 10R", RULES)
    assert (s.hongdan_points, s.cheongdan_points, s.ribbon_points) == (3, 3, 2)
    assert s.total == 3 + 3 + 2 == 8


def test_six_animals_with_godori_score_seven():
    """Seed 002: "Thus, if a player collects six Animal cards, including godori, the
    player can claim five points for godori, and two additional points for having six
    Animal cards, for a total of seven points." """
    s = score("2A 4A 8A 6A 7A 10A", RULES)
    assert (s.godori_points, s.animal_points) == (5, 2)
    assert s.total == 5 + 2 == 7


STANDARD_SCORING = [
    # (pile, total) -- each row one line of 002's point system
    ("1B 3B 8B", 3), ("1B 3B 12B", 2),                  # three brights, wet three brights
    ("1B 3B 8B 12B", 4), ("1B 3B 8B 11B", 4),           # four brights, rain or not
    ("1B 3B 8B 11B 12B", 15),                           # five brights (house: 15 to 50)
    ("4R 5R 6R 9R 1R", 1), ("4R 5R 6R 9R 1R 2R", 2),    # five ribbons 1, +1 each beyond
    ("1R 2R 3R", 3), ("6R 9R 10R", 3), ("4R 5R 7R", 3),  # the three sets
    ("4R 5R 12R", 0),                                   # 12R is no chodan card
    ("6A 7A 10A 12A 2A", 1), ("6A 7A 10A 12A 2A 4A", 2),  # five animals 1, +1 beyond
    ("2A 4A 8A", 5), ("2A 4A 12A", 0),                  # godori; 12A is no bird
    ("1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1 5J2", 1),     # ten junk 1
    ("1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1 5J2 6J1", 2),  # +1 each beyond
    ("1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 11D", 1),         # a double junk counts two
    ("1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 9A", 1),          # the cup as double junk
    ("1J1 1J2 2J1 2J2 3J1 X2 X3", 1),                   # X2 and X3 count 2 and 3
]


def test_scoring_rows():
    """Seed 002: "and is worth three points." and Seed 002: "and is worth two points."
    and Seed 002: "It does not matter whether 'bi gwang' is included in" Four Brights and
    Seed 002: "and is worth 15 to 50 points, depending on house rules." and Seed 002: "A
    set of any five Ribbon cards is worth one point, and each additional Ribbon card
    after five is worth one additional point." and Seed 002: "Each of these combinations
    is worth three points." and Seed 002: "A set of any five Animal cards is worth one
    point, and each additional Animal card after five is worth an additional point." and
    Seed 002: "Although the December Animal card has a bird, it is not counted towards
    godori." and Seed 002: "Any set of ten junk cards is worth a point and each
    additional card after ten is worth an additional point." and Seed 002: "which are
    counted as two junk cards." (Matrix: "X2 / X3 | 2 / 3 junk")."""
    for pile, expected in STANDARD_SCORING:
        assert score(pile, RULES).total == expected, pile
    assert score("1B 3B 8B 11B 12B", Rules(RULES, bright5=50)).total == 50


def test_rain_ribbon_is_no_ribbon_and_bridge_is_flexible():
    """Seed 002: "Although there are ten cards with ribbons, the ribbon card for December
    is excluded." and Seed 002: "Two of the Animal cards do not picture animals: May
    (bridge) and September (cup). These two cards may be counted instead as double junk
    cards." """
    assert score("1R 4R 6R 7R 12R", RULES).total == 0   # only four ribbons count
    assert score("1R 4R 6R 7R 12R", "traditional").total == 1
    eight = "1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2"
    assert score(eight + " 5A", RULES).total == 1          # 8 + 2 = 10 junk
    assert score(eight + " 5A", RULES).bridge_as_junk


def test_go_bak_gwang_bak_pi_bak_multiply_by_eight():
    """Seed 002: "the first player is subject to go bak, gwang bak and pi bak. Thus, the
    player's penalty would be doubled three times, or multiplied by eight." """
    # seat 1 called Go with 9 points from ribbons and animals only (five ribbons 1 +
    # hongdan 3 + godori 5; no bright, 3 junk)
    seat1 = "1R 2R 3R 4R 5R 2A 4A 8A 6A 1J1 1J2 2J1"
    # seat 0 stops with brights and junk: three brights 3 + 14 junk 5 = 8 points
    seat0 = ("1B 3B 8B 3J1 3J2 4J1 4J2 5J1 5J2 6J1 6J2 7J1 7J2 9J1 9J2 10J1 10J2")
    out = stop_game(rules=RULES, captured=[seat0, seat1], go=[0, 1]).outcome()
    assert out.settlement["multiplier"][1] == 8
    assert set(out.settlement["reasons"][1]) == {"go_bak", "gwang_bak", "pi_bak"}
    assert out.chips == (8 * 8, -8 * 8)
