"""Settlement: what each loser pays the winner of a hand, for the chip presets
(traditional, seed 001; standard, seeds 002-004), and the special-event chips.

Each test builds the end of a hand by hand (the winner in the Go/Stop phase with the
captured piles, Go counts, shakes, bombs and nagari stake of the scenario; see
``conftest.stop_game``), says Stop, and checks the chips against numbers derived in the
comments from the quoted seed lines.  The sum of all chips is zero in every case.
"""

from __future__ import annotations

import pytest

from conftest import (
    check_seed_quotes, events_of, game_from, matrix_text, not_first_turn, stop_game,
)
from gostop_core import CardSet, Game, Rules

# Winner piles, each scored by hand:
RIBBONS8 = "1R 2R 3R 6R 9R 10R"       # hongdan 3 + cheongdan 3 + six ribbons 2 = 8
BRIGHTS3 = "1B 3B 8B"                 # three brights without 12B = 3
TEN_JUNK = "1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1 5J2"   # ten junk = 1
NINE_JUNK = "1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1"       # nine junk = 0
SAFE_LOSER = "11B 6J1 6J2 7J1 7J2 8J1 8J2 9J1"        # a bright and seven junk: no bak


def chips(game) -> tuple:
    out = game.outcome()
    assert sum(out.chips) == 0
    return out.chips


def test_seed_quotes_are_verbatim():
    """Seed 001: "The player who" stops "the game is paid chips equal to their score by
    each other player." (meta: every payment test quotes a seed or the matrix)."""
    checked = check_seed_quotes(
        globals(), need=("Seed 001", "Seed 002", "Seed 003", "Seed 004", "Matrix"))
    if matrix_text() is None:
        pytest.skip("seed texts not available")
    assert checked >= 25


# ------------------------------------------------------------------ the worked examples

def test_seed_001_worked_example_pays_28():
    """Seed 001: "Your score is 5 points. You add two chips for the" Go, "making 7. An
    opponent who has only 4" junk "will pay you 28 chips - there is one double for your
    7" animals "and another for fewer than 5" junk.  Matrix: "a winner with 7 animals
    (no godori) and 11 junk who said Go twice has 3 + 2 = 5 points, +2 chips = 7; an
    opponent with 4 junk pays 7 x 2 (mong-bak) x 2 (pi-bak) = 28." """
    # 7 animals without all three birds (no 8A): 5 = 1, +1 each beyond = 3 points;
    # 11 plain junk: 10 = 1, +1 = 2 points; 3 + 2 = 5
    winner = "2A 4A 5A 6A 7A 10A 12A " + TEN_JUNK + " 6J1"
    loser = "7J1 7J2 8J1 8J2"   # 4 junk
    g = stop_game(rules="traditional", captured=[winner, loser], go=[2, 0])
    out = g.outcome()
    assert g.score(0).total == 5
    assert out.points == 5 + 2
    assert out.chips == (28, -28)
    assert out.settlement["multiplier"][1] == 4
    assert set(out.settlement["reasons"][1]) == {"mong_bak", "pi_bak"}
    assert ("  player 1: pays 28 (x4: pi-bak (too little junk), mong-bak (the winner's animals))"
            in out.report())


def test_seed_002_go_bak_gwang_bak_pi_bak_is_times_eight():
    """Seed 002: "the first player is subject to go bak, gwang bak and pi bak. Thus, the
    player's penalty would be doubled three times, or multiplied by eight." (Matrix:
    "a non-winner who called Go pays double")."""
    # seat 1 called Go earlier, holds no bright and 3 junk; seat 0 stops with
    # three brights (3) + 14 junk (5) = 8 points
    seat0 = BRIGHTS3 + " " + TEN_JUNK + " 6J1 6J2 7J1 7J2"
    seat1 = "1R 2R 3R 4R 5R 2A 4A 8A 6A 9J1 9J2 10J1"
    g = stop_game(rules="standard", captured=[seat0, seat1], go=[0, 1])
    assert g.score(0).total == 8
    assert chips(g) == (8 * 2 * 2 * 2, -64)


# ------------------------------------------------------------------ Go schemes

def traditional_go(score, goes):
    """Seed 001: one or two Goes add one or two chips (before any double); three Goes
    pay double, and each Go beyond three doubles again."""
    if goes <= 2:
        return score + goes
    return score * 2 ** (goes - 2)


def standard_go(score, goes):
    """Seed 002: +1 point per Go; the third Go doubles the score; after it the score is
    multiplied by one less than the number of Goes.  002 names the added points only
    for one and two Goes; like docs/rules.md ("(score + Goes), x2 at 3, x(Goes-1)
    beyond") the points of every Go are added before the multiplier."""
    total = score + goes
    if goes == 3:
        return total * 2
    if goes > 3:
        return total * (goes - 1)
    return total


def multiply_go(score, goes):
    """Seed 001 variant: one chip for one Go, then double for two, triple for three..."""
    return score + 1 if goes == 1 else score * max(goes, 1)


@pytest.mark.parametrize("goes", range(6))
def test_traditional_go_chips_then_doubles(goes):
    """Seed 001: "When calculating payments, if the winner said" Go "once or twice, the
    chips for this are added before the doubles are applied." and Seed 001: "the payment
    is doubled again for each" Go beyond three (Matrix: "+1 / +2 chips for 1 / 2 Goes;
    3 Goes x2; x2 again each Go beyond 3; chips added before doubles")."""
    g = stop_game(rules="traditional", captured=[RIBBONS8, SAFE_LOSER], go=[goes, 0])
    expected = traditional_go(8, goes)
    assert expected == [8, 9, 10, 16, 32, 64][goes]
    assert chips(g) == (expected, -expected)
    # the Go chips come before a double: pi-bak on top of two Goes is (8 + 2) x 2
    if goes == 2:
        g = stop_game(rules="traditional", captured=[RIBBONS8 + " " + TEN_JUNK, "6J1"],
                      go=[2, 0])
        assert chips(g) == ((9 + 2) * 2, -22)


@pytest.mark.parametrize("goes", range(6))
def test_standard_go_plus_then_multiplied(goes):
    """Seed 002: "A player who calls" Go "once has one point added to their final score."
    and Seed 002: "the score is multiplied by the number one less than the number of
    times the winner has called" Go (Matrix: "+1, +2; 3rd Go x2; beyond: x(Goes -
    1)")."""
    g = stop_game(rules="standard", captured=[RIBBONS8, SAFE_LOSER], go=[goes, 0])
    expected = standard_go(8, goes)
    assert expected == [8, 9, 10, 22, 36, 52][goes]
    assert chips(g) == (expected, -expected)


@pytest.mark.parametrize("goes", range(6))
def test_go_scheme_three_multiplies_by_the_goes(goes):
    """Seed 001: "Some award one chip to a player who said" Go once, double payment for
    two, triple for three, and so on (Matrix: "Go payment as x(Goes) from the second
    Go")."""
    g = stop_game(rules="traditional+go_scheme=3", captured=[RIBBONS8, SAFE_LOSER],
                  go=[goes, 0])
    expected = multiply_go(8, goes)
    assert expected == [8, 9, 16, 24, 32, 40][goes]
    assert chips(g) == (expected, -expected)


# ------------------------------------------------------------------ gwang-bak

@pytest.mark.parametrize("rules", ["traditional", "standard"])
def test_gwang_bak_doubles_for_an_opponent_without_brights(rules):
    """Seed 001: "then any opponent with no captured" bright "cards must pay double."
    (Matrix: "winner has a bright score, opponent 0 brights: x2")."""
    winner = BRIGHTS3 + " " + RIBBONS8        # 3 + 8 = 11
    no_bright = "6J1 6J2 7J1 7J2 8J1 8J2 9J1"
    assert chips(stop_game(rules=rules, captured=[winner, no_bright])) == (22, -22)
    assert chips(stop_game(rules=rules, captured=[winner, SAFE_LOSER])) == (11, -11)
    # two brights are no bright score: no gwang-bak
    assert chips(stop_game(rules=rules, captured=["1B 3B " + RIBBONS8, no_bright])) == (8, -8)


def test_five_brights_always_bring_gwang_bak():
    """Seed 001: "If the winner captured 5" bright "cards, then the other player(s)
    automatically get kwang-bak." """
    g = stop_game(rules="traditional", players=3,
                  captured=["1B 3B 8B 11B 12B", "6J1 6J2 7J1 7J2 8J1", "9J1 9J2 10J1 10J2 2J1"])
    # five brights 15 points, doubled for both opponents
    assert chips(g) == (60, -30, -30)


def test_gwang_bak_plus_two_chips_option():
    """Seed 001: "Some apply an extra payment of only 2 chips (rather than a double) when
    a player without" brights pays (Matrix: "gwang-bak as +2 chips instead of x2"). The
    2 chips come after the doubles (docs/rules.md decision)."""
    winner = BRIGHTS3 + " " + RIBBONS8        # 11
    no_bright = "6J1 6J2 7J1 7J2 8J1 8J2 9J1"
    g = stop_game(rules="traditional+gwang_bak=2", captured=[winner, no_bright])
    assert chips(g) == (11 + 2, -13)
    assert g.outcome().settlement["reasons"][1] == ["gwang_bak_plus_two"]
    # with pi-bak as well: 11 + 1 (ten junk) = 12 points, x2 for pi-bak, then + 2
    g = stop_game(rules="traditional+gwang_bak=2",
                  captured=[winner + " " + TEN_JUNK, "6J1 6J2"])
    assert chips(g) == (12 * 2 + 2, -26)


# ------------------------------------------------------------------ jokers (001 options)

JOKERS = "traditional+bonus_cards=1,bonus_in_hand=1,bonus_x2_effect=1,bonus_x3_effect=2"


def test_double_joker_doubles_its_owners_win():
    """Seed 001: "Double - the owner collects double chips if he or she wins" (Matrix:
    "double-payment joker")."""
    assert chips(stop_game(rules=JOKERS, captured=[RIBBONS8 + " X2", SAFE_LOSER])) == (16, -16)
    # held by the loser it doubles nothing
    assert chips(stop_game(rules=JOKERS, captured=[RIBBONS8, SAFE_LOSER + " X2"])) == (8, -8)
    # a joker with an effect is no junk: 9 junk + X2 score nothing
    g = stop_game(rules=JOKERS, captured=[RIBBONS8 + " X2 " + NINE_JUNK, SAFE_LOSER])
    assert g.score(0).junk == 9 and g.score(0).junk_points == 0


def test_two_double_jokers_double_twice():
    """Seed 001: "Doubles are cumulative" and each Seed 001: "Double - the owner collects
    double chips if he or she wins": with both bonus cards made double-payment jokers,
    their owner is paid 2 x 2 = 4 times the points."""
    rules = "traditional+bonus_cards=1,bonus_in_hand=1,bonus_x2_effect=1,bonus_x3_effect=1"
    g = stop_game(rules=rules, captured=[RIBBONS8 + " X2 X3", SAFE_LOSER])
    assert chips(g) == (8 * 4, -32)
    assert g.outcome().settlement["multiplier"][1] == 4
    assert chips(stop_game(rules=rules, captured=[RIBBONS8 + " X3", SAFE_LOSER])) == (16, -16)


def test_bright_protection_joker_saves_its_owner_from_gwang_bak():
    """Seed 001: "Bright protection - the owner who has captured no" bright cards "does
    not have to pay double to a winner with a" bright set (Matrix: "bright
    protection")."""
    winner = BRIGHTS3 + " " + RIBBONS8        # 11
    no_bright = "6J1 6J2 7J1 7J2 8J1 8J2 9J1"
    assert chips(stop_game(rules=JOKERS, captured=[winner, no_bright])) == (22, -22)
    assert chips(stop_game(rules=JOKERS, captured=[winner, no_bright + " X3"])) == (11, -11)
    # the same card without its effect (junk, the default) protects nobody
    plain = "traditional+bonus_cards=1,bonus_in_hand=1"
    assert chips(stop_game(rules=plain, captured=[winner, no_bright + " X3"])) == (22, -22)


# ------------------------------------------------------------------ pi-bak

@pytest.mark.parametrize("loser, doubled", [
    ("6J1 6J2 7J1 7J2", True),                  # 4 junk
    ("6J1 6J2 7J1 7J2 8J1", False),             # 5 junk
    ("11D 12D", True),                          # two doubles = 4 junk
    ("11D 12D 6J1", False),                     # 2 + 2 + 1 = 5
    ("6J1 6J2 7J1 7J2 9A", False),              # 4 junk + the sake cup as a junk = 5
    ("11B", True),                              # no junk at all: still fewer than 5
])
def test_traditional_pi_bak_below_five_junk(loser, doubled):
    """Seed 001: "(pi) cards, then any opponent with fewer than 5" junk "cards must pay
    double. (For this purpose, the special" junk cards count double; for a loser the
    best count of a flexible card Matrix: "means the assignment that avoids the
    penalty if one does")."""
    winner = RIBBONS8 + " " + TEN_JUNK   # 8 + 1 = 9 points with a junk score
    pay = 9 * (2 if doubled else 1)
    assert chips(stop_game(rules="traditional", captured=[winner, loser])) == (pay, -pay)


def test_no_pi_bak_without_a_junk_score():
    """Seed 001: "Pi-bak - If the winner has a set of at least 10" junk cards (Matrix:
    "winner has a junk score")."""
    winner = RIBBONS8 + " " + NINE_JUNK    # nine junk: no junk point
    assert chips(stop_game(rules="traditional", captured=[winner, "11B"])) == (8, -8)


def test_two_player_pi_bak_threshold_field():
    """Seed 001: "In the two-player game, some require a player to have 7" junk (Matrix:
    "winner has a junk score, opponent < 5 junk: x2 (2-player variant: < 7)")."""
    rules = "traditional+pi_bak_threshold_2p=7"
    winner = RIBBONS8 + " " + TEN_JUNK   # 9 points
    six = "6J1 6J2 7J1 7J2 8J1 8J2"
    assert chips(stop_game(rules=rules, captured=[winner, six])) == (18, -18)
    assert chips(stop_game(rules=rules, captured=[winner, six + " 9J1"])) == (9, -9)
    # three players keep the general threshold (5): six junk is safe
    g = stop_game(rules=rules, players=3, captured=[winner, six, "9J1 9J2 10J1 10J2 11J1"])
    assert chips(g) == (18, -9, -9)
    # with four junk the third player is doubled
    g = stop_game(rules=rules, players=3, captured=[winner, six, "9J1 9J2 10J1 10J2"])
    assert chips(g) == (27, -9, -18)


@pytest.mark.parametrize("loser, doubled", [
    ("6J1 6J2 7J1 7J2 8J1", True),              # 5 junk
    ("6J1 6J2 7J1 7J2 8J1 8J2", False),         # 6 junk
    ("6J1 6J2 7J1 7J2 5A", False),              # 4 + the bridge as double junk = 6
    ("6J1 6J2 7J1 9A", True),                   # 3 + the cup as double junk = 5
])
def test_standard_pi_bak_below_six_junk(loser, doubled):
    """Seed 002: "Further, if a non-winning player has fewer than six junk cards and the
    winner has accumulated points by collecting junk cards, the non-winning player will
    have their penalty doubled." """
    winner = RIBBONS8 + " " + TEN_JUNK   # 9
    pay = 9 * (2 if doubled else 1)
    assert chips(stop_game(rules="standard", captured=[winner, loser])) == (pay, -pay)


def test_winners_sake_cup_counts_the_way_that_pays_most():
    """Seed 001: "The September" object card "can be used either as an" object "or as
    a" junk card (Matrix: "Flexible cards (9A, 5A where allowed) are always counted the
    way that is best for their owner at the moment of scoring")."""
    # nine junk + 9A: as an animal 8 points and no junk score; as a junk ten junk,
    # 9 points and pi-bak against a loser with 4 junk: 18 is the most
    winner = RIBBONS8 + " " + NINE_JUNK + " 9A"
    assert chips(stop_game(rules="traditional", captured=[winner, "7J1 7J2 8J1 8J2"])) == \
        (18, -18)
    # six animals + 9A and ten junk: as an animal 7 animals (3) + junk (1) = 4, doubled
    # by mong-bak = 8; as a junk 6 animals (2) + 11 junk (2) = 4, no mong-bak
    winner = "2A 4A 5A 6A 7A 10A 9A " + TEN_JUNK
    g = stop_game(rules="traditional", captured=[winner, "6J1 6J2 7J1 7J2 8J1"])
    assert chips(g) == (8, -8)
    assert not g.outcome().settlement["sake_cup_as_junk"]


# ------------------------------------------------------------------ mong-bak

def test_mong_bak_traditional_only():
    """Seed 001: "Mong-tta-bak - If the winner has a set of at least 7" animal cards,
    each opponent pays double (Matrix: "mong-bak | no | winner 7+ animals: x2 | no")."""
    seven = "2A 4A 5A 6A 7A 10A 12A"   # no 8A: no godori; 3 points
    six = "2A 4A 5A 6A 7A 10A"         # 2 points
    assert chips(stop_game(rules="traditional", captured=[seven + " " + RIBBONS8,
                                                          SAFE_LOSER])) == (22, -22)
    assert chips(stop_game(rules="traditional", captured=[six + " " + RIBBONS8,
                                                          SAFE_LOSER])) == (10, -10)
    assert chips(stop_game(rules="standard", captured=[seven + " " + RIBBONS8,
                                                       SAFE_LOSER])) == (11, -11)


# ------------------------------------------------------------------ go-bak

@pytest.mark.parametrize("rules", ["traditional", "standard"])
def test_go_bak_two_players(rules):
    """Seed 001: "Go-bak - If the player that called" Go "fails to score a point and the
    opponent(s) reach(es) the minimum points in the same round, the player must pay
    double." """
    assert chips(stop_game(rules=rules, captured=[RIBBONS8, SAFE_LOSER], go=[0, 1])) == (16, -16)


def test_go_bak_with_three_players_pays_the_third_share():
    """Seed 001: "you have to pay not only your own losses but also those of the third
    player. The third player pays nothing." (Matrix: "with 3 players it also pays the
    third player's share")."""
    seat2 = "10J1 10J2 11J1 11J2 12D 9J2"
    g = stop_game(rules="traditional", players=3, captured=[RIBBONS8, SAFE_LOSER, seat2],
                  go=[0, 1, 0])
    # seat 1's own share 8 doubled by go-bak, plus seat 2's 8
    assert chips(g) == (24, -24, 0)
    assert "pays_third" in g.outcome().settlement["reasons"][1]
    # the third player's share keeps its own multipliers: with three brights the winner
    # has 11 points, seat 2 (no bright) owes 22, seat 1 (11B) 11 x 2 (go-bak)
    g = stop_game(rules="traditional", players=3,
                  captured=[BRIGHTS3 + " " + RIBBONS8, SAFE_LOSER, seat2], go=[0, 1, 0])
    assert chips(g) == (44, -44, 0)
    # both others called Go: each pays its own doubled share
    g = stop_game(rules="traditional", players=3, captured=[RIBBONS8, SAFE_LOSER, seat2],
                  go=[0, 1, 1])
    assert chips(g) == (32, -16, -16)


def test_standard_go_bak_three_players_pays_own_share():
    """Seed 002: "When" Stop "is called, any non-winning players who have called" Go
    "have their penalty (calculated from the winning player's total points) doubled."
    (Matrix: "a non-winner who called Go pays double")."""
    seat2 = "10J1 10J2 11J1 11J2 12D 9J2"
    g = stop_game(rules="standard", players=3, captured=[RIBBONS8, SAFE_LOSER, seat2],
                  go=[0, 1, 0])
    assert chips(g) == (24, -16, -8)


# ------------------------------------------------------------------ shakes, bombs, nagari

def test_traditional_shakes_and_bombs_each_double():
    """Seed 001: "If the winner showed two such sets, two doubles are applied, thus
    quadrupling the payment." (Matrix: "counts as a shake for payment" and Matrix: "a
    month shaken and later bombed is one set, one double")."""
    # a bomb that counts as a shake lists its month among the months shown (`shaken`):
    # the engine writes `shaken=9|- bombs=1,0` after bomb9, with or without a shake9
    cases = {"shaken=9|-": 16, "shaken=4,9|-": 32, "bombs=1,0 shaken=9|-": 16,
             "bombs=1,0 shaken=4,9|-": 32, "bombs=2,0 shaken=4,9|-": 32,
             "shaken=-|9": 8, "bombs=0,1 shaken=-|9": 8}
    for extra, pay in cases.items():
        g = stop_game(rules="traditional", captured=[RIBBONS8, SAFE_LOSER], extra=extra)
        assert chips(g) == (pay, -pay), extra


def test_standard_bomb_is_no_shake():
    """Seed 002: "Each time a player shakes within a single hand, final points are
    doubled in the event that that player wins the hand." (Matrix: "same + steal; up to 2
    flip-only turns the player may choose to use": only traditional counts a bomb as a
    shake)."""
    for extra, pay in {"bombs=1,0": 8, "shaken=9|-": 16, "bombs=1,0 shaken=9|-": 16}.items():
        g = stop_game(rules="standard", captured=[RIBBONS8, SAFE_LOSER], extra=extra)
        assert chips(g) == (pay, -pay), extra


@pytest.mark.parametrize("rules", ["traditional", "standard"])
def test_nagari_stake_doubles_the_next_payment(rules):
    """Seed 001: "If the previous deal ended with no winner (nagari) the payment is
    doubled." (Matrix: "nagari, next payment x2"; consecutive drawn hands double again,
    a docs/rules.md decision)."""
    for stake, pay in ((0, 8), (1, 16), (2, 32)):
        extra = f"stake={stake}" if stake else ""
        g = stop_game(rules=rules, captured=[RIBBONS8, SAFE_LOSER], extra=extra)
        assert chips(g) == (pay, -pay)
        assert g.stake_doublings == stake
    g = stop_game(rules=rules, captured=[RIBBONS8, SAFE_LOSER], extra="stake=1")
    assert "nagari" in g.outcome().settlement["reasons"][1]


def test_every_multiplier_together():
    """Seed 001: "Doubles are cumulative" (Matrix: "each opponent pays the (multiplied)
    score")."""
    # three brights 3 + ten junk 1 + 7 animals (no godori) 3 = 7 points, two Goes: 9;
    # shake x2 (April), bomb x2 (September), nagari x2, gwang-bak x2, pi-bak x2,
    # mong-bak x2, go-bak x2
    winner = BRIGHTS3 + " " + TEN_JUNK + " 2A 4A 5A 6A 7A 10A 12A"
    g = stop_game(rules="traditional", captured=[winner, "6J1"], go=[2, 1],
                  extra="shaken=4,9|- bombs=1,0 stake=1")
    assert g.score(0).total == 7
    assert chips(g) == (9 * 2 ** 7, -9 * 2 ** 7)


# ------------------------------------------------------------------ special-event chips

def _quad_holders(g, players):
    return [p for p in range(players)
            if any(len(g.hand(p) & CardSet.month(m)) == 4 for m in range(1, 13))]


def _deal_with_quads(rules, players, count):
    for seed in range(5000):
        g = Game(rules, players, seed)
        holders = _quad_holders(g, players)
        if len(holders) == count:
            return g, holders
    raise AssertionError("no such deal")  # pragma: no cover


@pytest.mark.parametrize("players", [2, 3])
def test_chongtong_five_chips_from_each_opponent(players):
    """Seed 001: "If a player has four cards of the same month in his hand, he shows
    them and wins the game immediately, collecting 5 chips from each opponent." """
    g, (holder,) = _deal_with_quads("traditional", players, 1)
    expected = [-5] * players
    expected[holder] = 5 * (players - 1)
    assert list(chips(g)) == expected


# With 16 cards in each of three hands (no field, no stock) quads are common: the deal
# serves to test the chongtong payments, which do not depend on the hand size.
BIG_HANDS = dict(hand_3p=16, field_3p=0)


def test_chongtong_two_quads_in_three_players():
    """Seed 001: "In a three-player game, if two players have quads, each collects five
    chips from the third player; if everyone has a quad, the payments cancel and there
    is no score." """
    g, holders = _deal_with_quads(Rules("traditional", **BIG_HANDS), 3, 2)
    (third,) = {0, 1, 2} - set(holders)
    expected = [5, 5, 5]
    expected[third] = -10
    assert list(chips(g)) == expected
    assert g.outcome().reason == "chongtong"


def test_chongtong_three_quads_cancel():
    """Seed 001: "if everyone has a quad, the payments cancel and there is no score." """
    g, holders = _deal_with_quads(Rules("traditional", **BIG_HANDS), 3, 3)
    out = g.outcome()
    assert out.reason == "chongtong" and out.winner is None
    assert list(out.chips) == [0, 0, 0]


def test_standard_chongtong_pays_the_threshold():
    """Seed 002: "Any player who has a set of four cards of the same month can show them
    to the other players and win the hand immediately." (docs/rules.md: with no amount
    named, each opponent pays the Go/Stop threshold: 7 with two players, 3 with
    three)."""
    g, (holder,) = _deal_with_quads("standard", 2, 1)
    assert chips(g)[holder] == 7
    g, holders = _deal_with_quads(Rules("standard", **BIG_HANDS), 3, 2)
    (third,) = {0, 1, 2} - set(holders)
    assert chips(g)[third] == -6 and all(chips(g)[h] == 3 for h in holders)


@pytest.mark.parametrize("players", [2, 3])
def test_first_turn_ppeok_and_third_ppeok_chips(players):
    """Seed 001: "each opponent pays you you money worth 3 points (or could be 3 chips, if
    playing with chips) and play continues." and Seed 001: "If you make a total of three
    ppuk during one hand, the play ends and each opponent pays you 5 chips." """
    hands = ["3B 7A", "1J1 2J1", "4J1 6A"][:players]
    g = game_from(rules="traditional", players=players, field="3R 5J1", hands=hands,
                  stock="3J1 11J1")
    g.push("3B")
    assert [g.chips(p) for p in range(players)] == [3 * (players - 1)] + [-3] * (players - 1)
    zeros = ",".join(["0"] * (players - 1))
    g = game_from(rules="traditional", players=players, field="3R 5J1", hands=hands,
                  stock="3J1 11J1", extra=f"{not_first_turn(players)} ppeoks=2,{zeros}")
    g.push("3B")
    assert list(chips(g)) == [5 * (players - 1)] + [-5] * (players - 1)
    assert g.outcome().points == 5
    # the first ppeok of a hand being also the third (ppeoks carried in): 3 + 5 each
    g = game_from(rules="traditional", players=players, field="3R 5J1", hands=hands,
                  stock="3J1 11J1", extra=f"ppeoks=2,{zeros}")
    g.push("3B")
    assert list(chips(g)) == [8 * (players - 1)] + [-8] * (players - 1)


def test_special_chips_add_to_the_stop_payment():
    """Seed 001: "and play continues." A first-turn ppeok's chips stay when the same
    player wins the hand later (Matrix: "first-turn ppeok | - | each opponent pays 3
    chips")."""
    # seat 0 holds godori 5 + five animals 1 = 6 points
    g = game_from(rules="traditional", field="3R 5J1 7R", hands=["3B 7A", "1J1 12A"],
                  stock="3J1 11J1 12B", captured=["2A 4A 8A 6A 10A", ""])
    g.push("3B")            # 3B onto 3R, the flip 3J1 makes a ppeok on the first turn
    assert (g.chips(0), g.chips(1)) == (3, -3)
    g.push("1J1")           # matches nothing; the flip 11J1 neither
    g.push("7A")            # 7A takes 7R: six animals, 7 points
    assert g.phase == "gostop"
    g.push("stop")
    # 7 points, no bak (no bright or junk score, six animals), plus the 3 chips
    assert chips(g) == (3 + 7, -10)


@pytest.mark.parametrize("capture, field, stock, move", [
    ("ttadak", "3R 3J1 5J1", "3J2 11J1", "3B/3R"),
    ("stack", "3R 3J1 3J2 5J1", "11J1", "3B"),
    ("chok", "5J1 6J1", "3R 11J1", "3B"),
])
def test_first_turn_capture_chips_option(capture, field, stock, move):
    """Seed 001: "some award a payment of 3 chips from each opponent for this, and play
    continues." (Matrix: "first-turn ttadak/stack/chok paid 3 chips")."""
    rules = "traditional+first_turn_capture_chips=3"
    g = game_from(rules=rules, players=3, field=field, hands=["3B 7A", "1J1 2J1", "4J1 6A"],
                  stock=stock)
    ev = g.push(move)
    assert [e.card for e in events_of(ev, "chips")] == ["first_turn_capture"]
    assert [g.chips(p) for p in range(3)] == [6, -3, -3]
    assert not g.is_over()


def test_a_joker_with_an_effect_is_never_given_in_a_steal():
    """Seed 001: "a player who has no ordinary junk cards must surrender a valuable junk
    card if he has one" -- a joker whose effect is not junk is no junk card, so an
    opponent holding only such a joker gives nothing; a plain bonus card is given."""
    def bomb_with_loser_pile(rules, loser_pile):
        g = game_from(rules=rules, field="9J1 1J1", hands=["9A 9R 9J2 2A", "3B 4A"],
                      captured=["-", loser_pile], stock="5A 6A 7A")
        return g, g.push("bomb9")

    g, ev = bomb_with_loser_pile(JOKERS, "X2")
    assert [e for e in ev if e.kind == "stolen"] == [] and "X2" in g.captured(1)
    plain = "traditional+bonus_cards=1,bonus_in_hand=1"
    g, ev = bomb_with_loser_pile(plain, "X2")
    assert [(e.card, e.other) for e in ev if e.kind == "stolen"] == [("X2", 1)]
