"""Scoring: the seed 000 scoring lines, the other presets' rows of the rules matrix,
and properties checked against an independent pure-Python scorer.

Every test quotes the seed 000 sentence (``Seed 000: "..."``) or the rules-matrix
line (``Matrix: "..."``) it checks; ``test_quotes_are_verbatim`` verifies them.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from conftest import check_seed_quotes, matrix_text
from gostop_core import CardCodeError, CardSet, Rules, score
from gostop_core.cards import CARD_CODES
from gostop_core.scoring import score_mask


# ------------------------------------------------------------------ an independent oracle
# Written from the card codes alone (kind letter + month), not from the engine's masks.

GODORI_BIRDS = {"2A", "4A", "8A"}
HONGDAN = {"1R", "2R", "3R"}
CHEONGDAN = {"6R", "9R", "10R"}
CHODAN = {"4R", "5R", "7R"}


def _kind(code: str) -> str:
    return "X" if code.startswith("X") else code.rstrip("0123456789")[-1]


def oracle(pile, *, rain_ribbon=True, sake_junk=2, bridge_junk=0, x2=2, x3=3,
           bright4_rain=4):
    """Best total of a pile over the flexible-card choices, and the best choice as
    (sake_as_junk, bridge_as_junk).  Ties keep a card an animal."""
    pile = set(pile)
    options = []
    for sake in ([False, True] if sake_junk and "9A" in pile else [False]):
        for bridge in ([False, True] if bridge_junk and "5A" in pile else [False]):
            options.append((_oracle_assignment(pile, sake, bridge, rain_ribbon, sake_junk,
                                               bridge_junk, x2, x3, bright4_rain), sake, bridge))
    best = options[0]
    for opt in options[1:]:
        if opt[0] > best[0]:
            best = opt
    return best[0], (best[1], best[2]), [o[0] for o in options]


def _oracle_assignment(pile, sake, bridge, rain_ribbon, sake_junk, bridge_junk, x2, x3,
                       bright4_rain):
    total = 0
    brights = [c for c in pile if _kind(c) == "B"]
    if len(brights) == 5:
        total += 15
    elif len(brights) == 4:
        total += bright4_rain if "12B" in brights else 4
    elif len(brights) == 3:
        total += 2 if "12B" in brights else 3
    ribbons = [c for c in pile if _kind(c) == "R" and (rain_ribbon or c != "12R")]
    if len(ribbons) >= 5:
        total += len(ribbons) - 4
    for ribbon_set in (HONGDAN, CHEONGDAN, CHODAN):
        if ribbon_set <= pile:
            total += 3
    animals = [c for c in pile if _kind(c) == "A"]
    junk = 0
    for c in pile:
        k = _kind(c)
        if k == "J":
            junk += 1
        elif k == "D":
            junk += 2
    junk += (x2 if "X2" in pile else 0) + (x3 if "X3" in pile else 0)
    if sake:
        animals.remove("9A")
        junk += sake_junk
    if bridge:
        animals.remove("5A")
        junk += bridge_junk
    if len(animals) >= 5:
        total += len(animals) - 4
    if GODORI_BIRDS <= pile:
        total += 5
    if junk >= 10:
        total += junk - 9
    return total


def total(cards, rules=None):
    return score(cards, rules).total


def test_quotes_are_verbatim():
    """Matrix: "Flexible cards (9A, 5A where allowed) are always counted the way that
    is best for their owner at the moment of scoring" (meta: every test quotes its
    source word for word)."""
    assert check_seed_quotes(globals(), need_seed=False) >= 20 or matrix_text() is None


# ------------------------------------------------------------------ brights

def test_three_brights_three_points():
    """Seed 000: "3 brights = 3 points" """
    s = score("1B 3B 8B")
    assert s.brights == 3 and s.bright_points == 3 and s.total == 3


def test_three_brights_with_rain_two_points():
    """Seed 000: "3 brights = 3 points — but only 2 if one of them is the December
    Rain bright" """
    assert score("1B 3B 12B").bright_points == 2
    assert total("8B 11B 12B") == 2
    assert total("8B 11B 3B") == 3


def test_two_brights_score_nothing():
    """Seed 000: "3 brights = 3 points" """
    assert total("1B 3B") == 0
    assert total("1B 12B") == 0


def test_four_brights_four_points():
    """Matrix: "4 brights | 4 (000 silent: from 001)" """
    assert total("1B 3B 8B 11B") == 4
    assert total("1B 3B 8B 12B") == 4  # the rain bright makes no difference at four


def test_five_brights_fifteen_points():
    """Matrix: "5 brights | 15 (000 silent: from 001)" """
    assert total("1B 3B 8B 11B 12B") == 15


def test_traditional_four_brights_rain_variant_is_a_parameter():
    """Matrix: "4 brights | 4 (000 silent: from 001) | 4 (variant: 3 if with 12B)" """
    r = Rules("traditional", bright4_rain=3)
    assert total("1B 3B 8B 12B", r) == 3
    assert total("1B 3B 8B 11B", r) == 4


# ------------------------------------------------------------------ ribbons

@pytest.mark.parametrize("cards, points", [
    ("1R 2R 4R 6R", 0),
    ("1R 2R 4R 6R 9R", 1),
    ("1R 2R 4R 6R 9R 5R", 2),
])
def test_ribbon_count(cards, points):
    """Seed 000: "5 ribbons = 1 point, plus 1 for each ribbon beyond the fifth" """
    s = score(cards)
    assert s.ribbon_points == points and s.total == points


def test_all_ten_ribbons():
    """Seed 000: "5 ribbons = 1 point, plus 1 for each ribbon beyond the fifth" and
    "Each completed ribbon set (hongdan, cheongdan, chodan) = 3 points" """
    s = score([c for c in CARD_CODES if _kind(c) == "R"])
    assert s.ribbons == 10 and s.ribbon_points == 6
    assert s.total == 6 + 3 * 3


@pytest.mark.parametrize("name, cards", [
    ("hongdan", "1R 2R 3R"), ("cheongdan", "6R 9R 10R"), ("chodan", "4R 5R 7R")])
def test_each_ribbon_set_three_points(name, cards):
    """Seed 000: "Each completed ribbon set (hongdan, cheongdan, chodan) = 3 points" """
    s = score(cards)
    assert getattr(s, name + "_points") == 3
    assert s.total == 3
    # any two of the set score nothing
    two = cards.split()[:2]
    assert total(two) == 0


def test_ribbon_sets_need_their_own_ribbons():
    """Seed 000: "Ribbons come in three sets: hongdan (홍단, red poetry — months 1, 2,
    3), cheongdan (청단, blue poetry — 6, 9, 10) and chodan (초단, plain — 4, 5,
    7). December's ribbon belongs to no set." """
    for wrong in ("1R 2R 12R", "6R 9R 12R", "4R 5R 12R", "1R 6R 4R", "3R 10R 7R"):
        assert total(wrong) == 0, wrong


def test_rain_ribbon_counts_toward_five_in_casual():
    """Seed 000: "December's ribbon belongs to no set." (Matrix: "12R counts toward
    the 5 ribbons | yes | yes | no (002: nine ribbon cards)")"""
    assert total("1R 2R 4R 6R 12R") == 1
    assert total("1R 2R 4R 6R 12R", "traditional") == 1
    assert total("1R 2R 4R 6R 12R", "standard") == 0
    assert total("1R 2R 4R 6R 12R 9R", "standard") == 1


def test_two_sets_and_count_add_up():
    """Seed 000: "Each completed ribbon set (hongdan, cheongdan, chodan) = 3 points" """
    # 6 ribbons (2) + hongdan (3) + cheongdan (3)
    assert total("1R 2R 3R 6R 9R 10R") == 8


# ------------------------------------------------------------------ animals

@pytest.mark.parametrize("cards, points", [
    ("5A 6A 7A 10A", 0), ("5A 6A 7A 10A 12A", 1), ("5A 6A 7A 10A 12A 2A", 2)])
def test_animal_count(cards, points):
    """Seed 000: "5 animals = 1 point, plus 1 for each animal beyond the fifth" """
    s = score(cards)
    assert s.animal_points == points and s.total == points


def test_godori_five_points():
    """Seed 000: "All three godori birds = 5 points" """
    s = score("2A 4A 8A")
    assert s.godori_points == 5 and s.total == 5


def test_godori_plus_animal_count():
    """Seed 000: "The three godori birds are the February bush warbler, the April
    cuckoo and the August geese." """
    # 5 animals (1) + godori (5)
    assert total("2A 4A 8A 6A 7A") == 6


def test_rain_swallow_is_not_a_godori_bird():
    """Seed 000: "The three godori birds are the February bush warbler, the April
    cuckoo and the August geese." (Matrix: "12A not a godori bird")"""
    assert total("2A 4A 12A") == 0
    assert total("2A 8A 12A") == 0
    assert total("4A 8A 12A") == 0


def test_traditional_godori_variant_three():
    """Matrix: "godori (2A 4A 8A) | 5 | 5 (variant 3) | 5" """
    assert total("2A 4A 8A", Rules("traditional", godori=3)) == 3
    assert total("2A 4A 8A", "traditional") == 5


# ------------------------------------------------------------------ junk

SINGLES = [c for c in CARD_CODES if _kind(c) == "J"]


@pytest.mark.parametrize("n, points", [(9, 0), (10, 1), (11, 2), (15, 6)])
def test_junk_count(n, points):
    """Seed 000: "10 junk = 1 point, plus 1 for each beyond the tenth" """
    s = score(SINGLES[:n])
    assert s.junk == n and s.junk_points == points and s.total == points


@pytest.mark.parametrize("double", ["11D", "12D"])
def test_double_junk_counts_two(double):
    """Seed 000: "Double junk counts as two" """
    s = score(SINGLES[:8] + [double])
    assert s.junk == 10 and s.total == 1
    assert total(SINGLES[:7] + [double]) == 0


def test_bonus_cards_count_two_and_three_junk():
    """Seed 000: "One counts as two junk, the other as three junk." """
    assert score("X2").junk == 2
    assert score("X3").junk == 3
    s = score(SINGLES[:5] + ["X2", "X3"])
    assert s.junk == 10 and s.total == 1
    assert score(SINGLES[:6] + ["X2"]).junk == 8


def test_bonus_cards_belong_to_no_month():
    """Seed 000: "They belong to no month, so they can never be matched." """
    from gostop_core.cards import card_month
    assert card_month("X2") == 0 and card_month("X3") == 0
    assert not (CardSet("X2 X3") & CardSet([c for m in range(1, 13) for c in CardSet.month(m)]))


def test_traditional_plays_without_bonus_cards():
    """Matrix: "X2 / X3 | 2 / 3 junk | off by default (jokers optional)" """
    with pytest.raises(CardCodeError, match="bonus"):
        score("X2", "traditional")
    assert score("X2 X3", "standard").junk == 5


# ------------------------------------------------------------------ the sake cup

def test_sake_cup_counts_as_animal_when_that_scores_more():
    """Seed 000: "the game always counts it whichever way scores you more." """
    s = score("9A 5A 6A 7A 10A 1J1")
    assert s.total == 1 and s.animals == 5 and s.junk == 1
    assert s.sake_cup_as_junk is False


def test_sake_cup_counts_as_double_junk_when_that_scores_more():
    """Seed 000: "The September sake cup is special: it can count as an animal or as a
    double junk — you are never asked which, because the game always counts it
    whichever way scores you more." """
    s = score(["9A"] + SINGLES[:8])
    assert s.total == 1 and s.junk == 10 and s.animals == 0
    assert s.sake_cup_as_junk is True


def test_sake_cup_best_choice_with_both_categories_close():
    """Seed 000: "the game always counts it whichever way scores you more." """
    # as an animal: 5 animals (1) + 9 junk (0) = 1; as junk: 4 animals (0) + 11 junk (2) = 2
    s = score(["9A", "5A", "6A", "7A", "10A"] + SINGLES[:9])
    assert s.total == 2 and s.sake_cup_as_junk is True
    # as an animal: 6 animals (2) + 9 junk (0) = 2; as junk: 5 animals (1) + 11 junk (2) = 3
    s = score(["9A", "5A", "6A", "7A", "10A", "12A"] + SINGLES[:9])
    assert s.total == 3 and s.sake_cup_as_junk is True
    # as an animal: 6 animals (2) + 7 junk (0) = 2; as junk: 5 animals (1) + 9 junk (0) = 1
    s = score(["9A", "5A", "6A", "7A", "10A", "12A"] + SINGLES[:7])
    assert s.total == 2 and s.sake_cup_as_junk is False


def test_traditional_sake_cup_animal_or_single_junk():
    """Matrix: "9A sake cup | animal or double junk, whichever scores more, never
    asked | animal or single junk (variant: double junk)" """
    pile = ["9A"] + SINGLES[:9]
    s = score(pile, "traditional")
    assert s.total == 1 and s.junk == 10 and s.sake_cup_as_junk
    assert total(["9A"] + SINGLES[:8], "traditional") == 0   # 9 junk only
    assert total(["9A"] + SINGLES[:8], "casual") == 1        # 10 junk: it counts two
    assert total(["9A"] + SINGLES[:8], Rules("traditional", sake_cup_junk=2)) == 1


def test_bridge_is_an_animal_in_casual_and_flexible_in_standard():
    """Matrix: "5A bridge | animal | animal | animal or double junk" """
    pile = ["5A"] + SINGLES[:8]
    assert total(pile, "casual") == 0
    assert total(pile, "traditional") == 0
    s = score(pile, "standard")
    assert s.total == 1 and s.bridge_as_junk and s.junk == 10
    s = score("5A 6A 7A 10A 12A", "standard")
    assert s.total == 1 and not s.bridge_as_junk


def test_standard_both_flexible_cards_junk():
    """Matrix: "9A sake cup | animal or double junk, whichever scores more, never
    asked | animal or single junk (variant: double junk) | animal or double junk" """
    s = score(["5A", "9A"] + SINGLES[:6], "standard")
    assert s.junk == 10 and s.sake_cup_as_junk and s.bridge_as_junk and s.total == 1


# ------------------------------------------------------------------ family card points

def test_family_card_points():
    """Matrix: "Card points: bright 20, ribbon 5 (all ten), animal 10 (all nine), junk
    0." """
    s = score("1B 12R 9A 5A 1J1 11D", "family")
    assert s.bright_points == 20 and s.ribbon_points == 5 and s.animal_points == 20
    assert s.total == 45
    everything = score(CARD_CODES[:48], "family")
    assert everything.total == 240  # "The deck holds 240 points"


def test_family_set_bonuses():
    """Matrix: "Set bonuses, paid by each other player: hongdan or cheongdan 30; all
    four of May, October or December 20; all four of November 40." """
    assert score("1R 2R 3R", "family").family_set_bonus == 30
    assert score("6R 9R 10R", "family").family_set_bonus == 30
    assert score("4R 5R 7R", "family").family_set_bonus == 0  # chodan earns nothing
    for month in (5, 10, 12):
        assert score(CardSet.month(month), "family").family_set_bonus == 20
    assert score(CardSet.month(11), "family").family_set_bonus == 40
    # October holds the cheongdan 10R but not the whole set
    assert score(CardSet.month(10) | CardSet("6R 9R"), "family").family_set_bonus == 50


# ------------------------------------------------------------------ breakdown output

def test_breakdown_lines_and_dict():
    """Seed 000: "Captured cards go into your four piles — brights, animals, ribbons
    and junk — which is how you read your score." """
    s = score(["9A"] + SINGLES[:8] + ["1B", "3B", "8B", "2A", "4A", "8A"])
    d = s.as_dict()
    assert d["total"] == s.total == 3 + 5 + 1
    assert sorted(d["cards"]) == sorted(s.cards.codes())
    text = "\n".join(s.lines())
    assert "godori" in text and "9A as junk" in text and f"total: {s.total}" in text
    fam = score("1R 2R 3R", "family").lines()
    assert any("set bonuses" in line for line in fam)


# ------------------------------------------------------------------ properties

CASUAL = Rules("casual")
STANDARD = Rules("standard")
TRADITIONAL = Rules("traditional")
piles = st.sets(st.sampled_from(CARD_CODES), max_size=50)
piles48 = st.sets(st.sampled_from(CARD_CODES[:48]), max_size=48)


def _random_piles(n, seed, pack=50):
    rng = random.Random(seed)
    for _ in range(n):
        density = rng.random()
        yield {c for c in CARD_CODES[:pack] if rng.random() < density}


def test_engine_matches_oracle_on_thousands_of_random_piles():
    """Seed 000: "Captured cards go into your four piles — brights, animals, ribbons
    and junk — which is how you read your score." """
    for pile in _random_piles(4000, 1):
        s = score(pile)
        expected, (sake, _), options = oracle(pile)
        assert s.total == expected == score_mask(int(CardSet(pile)), CASUAL), sorted(pile)
        assert s.total == max(options)
        assert s.sake_cup_as_junk == sake


def test_other_presets_match_oracle_on_random_piles():
    """Matrix: "12R counts toward the 5 ribbons | yes | yes | no (002: nine ribbon
    cards)" """
    for pile in _random_piles(1500, 2):
        assert score(pile, STANDARD).total == oracle(pile, rain_ribbon=False, bridge_junk=2)[0]
    for pile in _random_piles(1500, 3, pack=48):
        assert score(pile, TRADITIONAL).total == oracle(pile, sake_junk=1)[0]


@settings(max_examples=300, deadline=None)
@given(piles, st.sampled_from(CARD_CODES))
def test_score_never_decreases_when_a_card_is_added(pile, card):
    """Seed 000: "Captured cards go into your four piles — brights, animals, ribbons
    and junk — which is how you read your score." """
    assert total(pile | {card}) >= total(pile)


def test_score_never_decreases_on_thousands_of_random_piles():
    """Seed 000: "Captured cards go into your four piles — brights, animals, ribbons
    and junk — which is how you read your score." """
    rng = random.Random(4)
    for pile in _random_piles(2000, 5):
        card = rng.choice(CARD_CODES)
        assert score_mask(int(CardSet(pile | {card})), CASUAL) >= score_mask(int(CardSet(pile)), CASUAL)


@settings(max_examples=400, deadline=None)
@given(piles)
def test_sake_cup_choice_is_the_max_of_both_assignments(pile):
    """Seed 000: "you are never asked which, because the game always counts it
    whichever way scores you more." """
    pile = pile | {"9A"}
    as_animal = _oracle_assignment(pile, False, False, True, 2, 0, 2, 3, 4)
    as_junk = _oracle_assignment(pile, True, False, True, 2, 0, 2, 3, 4)
    s = score(pile)
    assert s.total == max(as_animal, as_junk)
    if as_junk > as_animal:
        assert s.sake_cup_as_junk
    elif as_animal > as_junk:
        assert not s.sake_cup_as_junk
    # the flag and the breakdown agree
    assert s.animals == sum(1 for c in pile if _kind(c) == "A") - (1 if s.sake_cup_as_junk else 0)


@settings(max_examples=200, deadline=None)
@given(piles48)
def test_standard_flexible_cards_max_over_four_assignments(pile):
    """Matrix: "5A bridge | animal | animal | animal or double junk" """
    pile = pile | {"9A", "5A"}
    best = max(_oracle_assignment(pile, a, b, False, 2, 2, 2, 3, 4)
               for a in (False, True) for b in (False, True))
    assert score(pile, STANDARD).total == best


@settings(max_examples=200, deadline=None)
@given(piles)
def test_breakdown_sums_to_total(pile):
    """Seed 000: "Captured cards go into your four piles — brights, animals, ribbons
    and junk — which is how you read your score." """
    s = score(pile)
    parts = (s.bright_points + s.ribbon_points + s.hongdan_points + s.cheongdan_points
             + s.chodan_points + s.animal_points + s.godori_points + s.junk_points)
    assert parts == s.total
