"""Cards: codes, indices, names, kinds and months, the named masks, CardSet, and
parse errors.  The deck itself is checked against the rules matrix's deck table."""

from __future__ import annotations

import pickle
import re

import pytest
from hypothesis import given, strategies as st

from conftest import matrix_text
from gostop_core import CardCodeError, CardSet, card_code, card_index, card_name
from gostop_core import cards as C


def _matrix_deck():
    """{month: [codes]} read from the rules matrix's deck table, or None."""
    text = matrix_text()
    if text is None:
        return None
    deck = {}
    for m in re.finditer(r"\| (\d+)(?: [a-z ]+)? \| ((?:\w+ ){3}\w+) \|", text):
        deck[int(m.group(1))] = m.group(2).split()
    return deck


def test_fifty_codes_in_month_order():
    assert len(C.CARD_CODES) == C.NUM_CARDS == 50
    assert len(set(C.CARD_CODES)) == 50
    for i, code in enumerate(C.CARD_CODES[:48]):
        assert C.card_month(code) == i // 4 + 1
        assert code.startswith(str(i // 4 + 1))
    assert C.CARD_CODES[48:] == ("X2", "X3") and (C.X2, C.X3) == (48, 49)


def test_deck_matches_the_rules_matrix():
    deck = _matrix_deck()
    if deck is None:
        pytest.skip("rules matrix not available")
    assert sorted(deck) == list(range(1, 13))
    for month, codes in deck.items():
        assert CardSet.month(month).codes() == codes


def test_kind_totals():
    # "Totals: 5 brights, 9 animals, 10 ribbons, 24 junk (22 plain + 2 double) = 48."
    kinds = [C.card_kind(c) for c in C.CARD_CODES]
    assert kinds.count("B") == 5 and kinds.count("A") == 9 and kinds.count("R") == 10
    assert kinds.count("J") == 22 and kinds.count("D") == 2 and kinds.count("X") == 2
    assert len(C.BRIGHTS) == 5 and len(C.ANIMALS) == 9 and len(C.RIBBONS) == 10
    assert len(C.JUNK) == 24 and len(C.DOUBLE_JUNK) == 2 and len(C.BONUS) == 2


def test_named_masks_agree_with_kind_letters():
    for code in C.CARD_CODES:
        k = C.card_kind(code)
        assert (code in C.BRIGHTS) == (k == "B")
        assert (code in C.ANIMALS) == (k == "A")
        assert (code in C.RIBBONS) == (k == "R")
        assert (code in C.JUNK) == (k in "JD" and k != "X")
        assert (code in C.DOUBLE_JUNK) == (k == "D")
        assert (code in C.BONUS) == (k == "X")
    assert C.HONGDAN == CardSet("1R 2R 3R")
    assert C.CHEONGDAN == CardSet("6R 9R 10R")
    assert C.CHODAN == CardSet("4R 5R 7R")
    assert C.GODORI == CardSet("2A 4A 8A")
    assert C.MASK_SAKE_CUP == int(CardSet("9A")) and C.MASK_BRIDGE == int(CardSet("5A"))
    assert C.MASK_RAIN_BRIGHT == int(CardSet("12B")) and C.MASK_RAIN_RIBBON == int(CardSet("12R"))
    assert C.ALL == ~CardSet() and len(C.ALL) == 50
    assert C.MASK_MONTH_CARDS | C.MASK_BONUS == C.MASK_ALL


@pytest.mark.parametrize("code", C.CARD_CODES)
def test_code_index_round_trip(code):
    i = card_index(code)
    assert card_code(i) == code
    assert card_index(code.lower()) == i
    assert card_index(f"  {code} ") == i
    assert card_index(i) == i
    assert C.card_name(code) == C.card_name(i) and C.card_name(code, korean=True)


def test_names():
    assert card_name("9A") == "chrysanthemum sake cup"
    assert "godori" in card_name("2A") and "godori" in card_name("8A")
    assert "godori" not in card_name("12A")
    assert card_name("3J2") == "cherry junk 2"
    assert card_name("11D", korean=True) == "오동 쌍피"
    assert len(set(C.CARD_NAMES_EN)) == 50


def test_months_and_kinds():
    assert C.card_month("X2") == 0 and C.card_kind("X3") == "X"
    assert C.card_kind("11D") == "D" and C.card_kind("10J2") == "J" and C.card_kind("12B") == "B"
    for m in range(1, 13):
        month = CardSet.month(m)
        assert len(month) == 4 and all(C.card_month(c) == m for c in month)
        assert int(month) == C.MONTH_MASKS[m]


@pytest.mark.parametrize("bad, words", [
    ("13B", ("month 13 is not 1-12",)),
    ("0A", ("month 0",)),
    ("1J", ("needs a number", "1J1", "1J2")),
    ("1A", ("month 1 holds 1B, 1R, 1J1, 1J2",)),
    ("X4", ("X2 and X3",)),
    ("", ("empty",)),
    ("B1", ("starts with a month",)),
    (50, ("out of range",)),
    (-1, ("out of range",)),
    (None, ("expected a card code",)),
    (1.5, ("expected a card code",)),
])
def test_parse_errors_say_why(bad, words):
    with pytest.raises(CardCodeError) as info:
        card_index(bad)
    for w in words:
        assert w in str(info.value)


def test_card_code_out_of_range():
    with pytest.raises(CardCodeError):
        card_code(50)
    with pytest.raises(CardCodeError):
        CardSet.month(13)


def test_cardset_parsing():
    assert CardSet("1B 3B,8B") == CardSet(["1B", "3B", "8B"]) == CardSet([0, 8, 28])
    assert CardSet("-") == CardSet("") == CardSet() == CardSet(0)
    assert CardSet.from_str("12b, x2") == CardSet("12B X2")
    assert CardSet(CardSet("1B")) == CardSet("1B")
    with pytest.raises(CardCodeError, match="named twice"):
        CardSet("1B 1b")
    with pytest.raises(CardCodeError, match="bits outside"):
        CardSet(1 << 50)
    with pytest.raises(CardCodeError):
        CardSet(-1)
    with pytest.raises(CardCodeError, match="expected card codes"):
        CardSet(3.0)
    with pytest.raises(CardCodeError):
        CardSet("1B 13B")


def test_cardset_operations():
    a = CardSet("1B 3B 8B")
    b = CardSet("8B 12B")
    assert a | b == CardSet("1B 3B 8B 12B")
    assert a & b == CardSet("8B")
    assert a - b == CardSet("1B 3B")
    assert a ^ b == CardSet("1B 3B 12B")
    assert len(~a) == 47 and not (~a & a)
    assert a | "12B" == CardSet("1B 3B 8B 12B")  # strings are accepted on the right
    assert CardSet("1B").issubset(a) and a.issuperset("1B 3B") and a.isdisjoint("12B")
    assert "1B" in a and 0 in a and "12B" not in a and "nonsense" not in a
    assert list(a) == [0, 8, 28] and a.codes() == ["1B", "3B", "8B"]
    assert len(a) == 3 and bool(a) and not CardSet()
    assert str(a) == "1B 3B 8B" and str(CardSet()) == "-"
    assert repr(a) == "CardSet('1B 3B 8B')" and repr(CardSet()) == "CardSet()"
    assert int(a) == (1 << 0) | (1 << 8) | (1 << 28)
    assert {a: 1}[CardSet("8B 3B 1B")] == 1
    assert pickle.loads(pickle.dumps(a)) == a
    assert (a == "1B 3B 8B") is False  # a CardSet only equals a CardSet


@given(st.sets(st.sampled_from(C.CARD_CODES)), st.sets(st.sampled_from(C.CARD_CODES)))
def test_cardset_behaves_like_a_set(x, y):
    a, b = CardSet(sorted(x)), CardSet(sorted(y))
    assert set((a | b).codes()) == x | y
    assert set((a & b).codes()) == x & y
    assert set((a - b).codes()) == x - y
    assert set((a ^ b).codes()) == x ^ y
    assert len(a) == len(x)
    assert a.issubset(b) == (x <= y)
    assert a.isdisjoint(b) == x.isdisjoint(y)
    assert CardSet(str(a)) == a and CardSet(int(a)) == a


def test_format_and_parse_mask():
    assert C.format_mask(0) == "-"
    assert C.format_mask(int(CardSet("1B X3")), ",") == "1B,X3"
    assert C.parse_mask("1B,X3") == int(CardSet("1B X3"))
