"""Scenario tests for the traditional preset (seed 001, the classic English write-up).

Each test plays one rule of the rules matrix from a hand-written position (or a seeded
deal found by a bounded search) and quotes the seed 001 sentence it checks
(``Seed 001: "..."``) and, where the matrix resolves the rule, the matrix line
(``Matrix: "..."``).  ``test_seed_quotes_are_verbatim`` checks every quote word for word.

Positions mark every seat as having played a turn already (``played=1,1``) unless
the scenario is about the first turn, so that the first-turn chip rules stay out.
"""

from __future__ import annotations

import pytest

from conftest import (
    assert_cards_conserved, check_seed_quotes, events_of, game_from, make_position,
    not_first_turn, seed_text, stop_game,
)
from gostop_core import CardSet, Game, Rules, score
from gostop_core.errors import RulesError

RULES = "traditional"


def tgame(players=2, first_turn=False, extra="", **kwargs):
    marks = [] if first_turn else [not_first_turn(players)]
    if extra:
        marks.append(extra)
    return game_from(rules=RULES, players=players, extra=" ".join(marks), **kwargs)


def moves(game):
    return {str(m) for m in game.legal_moves}


def month_cards(month):
    return CardSet.month(month)


def test_seed_quotes_are_verbatim():
    """Seed 001: "2 or 3 people can play." (meta: every scenario below quotes seed
    001 word for word)."""
    checked = check_seed_quotes(globals(), need="Seed 001")
    if seed_text("001") is None:
        pytest.skip("seed 001 text not available")
    assert checked >= 40


# ------------------------------------------------------------------ deal

def test_deal_sizes_and_player_counts():
    """Seed 001: "2 players: deal 10 cards to each player and 8 face up to the center
    of the table" and Seed 001: "3 players: deal 7 cards to each player and 6 face up
    to the center of the table"; Seed 001: "2 or 3 people can play." The pack is the
    48 month cards (Seed 001: "The game is usually played without them")."""
    for players, hand, field in ((2, 10, 8), (3, 7, 6)):
        for seed in range(30):
            g = Game(RULES, players, seed)
            if g.is_over():  # chongtong ends the hand at the deal
                continue
            assert [len(g.hand(p)) for p in range(players)] == [hand] * players
            assert len(g.field) == field
            # 48 cards: what is not dealt is the stock; no bonus card anywhere
            assert g.stock_count == 48 - players * hand - field
            assert "X2" not in g.position() and "X3" not in g.position()
    with pytest.raises(RulesError):
        Game(RULES, 4, 0)


def test_dealer_plays_first():
    """Seed 001: "The dealer plays first." """
    for dealer in (0, 1, 2):
        g = Game(RULES, 3, 11, dealer=dealer)
        assert g.dealer == dealer and g.turn == dealer


def test_three_of_a_month_dealt_to_the_field_is_one_stack():
    """Seed 001: "If there are three cards of the same month on the table, they are
    combined into a stack, which is later captured as a single unit." Searched deal:
    three of a month on the field and the fourth in the dealer's hand."""
    found = 0
    for seed in range(3000):
        g = Game(RULES, 2, seed)
        if g.is_over():
            continue
        for month in range(1, 13):
            on_field = g.field & month_cards(month)
            in_hand = g.hand(0) & month_cards(month)
            if len(on_field) == 3 and len(in_hand) == 1:
                (card,) = in_hand.codes()
                # one move takes the stack: no choice of a single card is offered
                assert card in moves(g)
                assert not [m for m in moves(g) if m.startswith(card + "/")]
                ev = g.push(card)
                assert month_cards(month).issubset(g.captured(0))
                assert events_of(ev, "stack")
                found += 1
                break
        if found >= 3:
            break
    assert found >= 3


def _find_seed(players, predicate, rules=RULES, limit=20000):
    for seed in range(limit):
        g = Game(rules, players, seed)
        if predicate(g):
            return seed, g
    raise AssertionError("no such deal in the searched seeds")


def test_four_of_a_month_on_the_field_voids_the_deal():
    """Seed 001: "If there are four cards of the same month on the table, the deal is
    void. The cards are reshuffled and dealt again by the same dealer." (Matrix:
    "void deal, same dealer redeals")."""
    no_redeal = Rules(RULES, four_on_field_redeal=0)

    def four_on_field(g):
        return any(len(g.field & month_cards(m)) == 4 for m in range(1, 13))

    checked = 0
    for dealer in (0, 1):
        for seed in range(4000):
            first = Game(no_redeal, 2, seed, dealer=dealer)
            if not four_on_field(first):
                continue
            g = Game(RULES, 2, seed, dealer=dealer)
            redeal = events_of(g.deal_events(), "redeal")
            assert redeal and redeal[0].other >= 1
            assert g.dealer == dealer and (g.is_over() or g.turn == dealer)
            assert not four_on_field(g)
            assert g.field != first.field  # reshuffled
            assert_cards_conserved(g)
            checked += 1
            break
    assert checked == 2


def test_chongtong_wins_at_once_with_five_chips_from_each_opponent():
    """Seed 001: "If a player has four cards of the same month in his hand, he shows
    them and wins the game immediately, collecting 5 chips from each opponent."
    Searched deals with one quad in one hand, 2 and 3 players."""
    for players in (2, 3):
        def one_quad(g):
            holders = [p for p in range(players)
                       if any(len(g.hand(p) & month_cards(m)) == 4 for m in range(1, 13))]
            return len(holders) == 1

        seed, g = _find_seed(players, one_quad)
        holder = next(p for p in range(players)
                      if any(len(g.hand(p) & month_cards(m)) == 4 for m in range(1, 13)))
        out = g.outcome()
        assert g.is_over() and out.reason == "chongtong" and out.winner == holder
        expected = [-5] * players
        expected[holder] = 5 * (players - 1)
        assert list(out.chips) == expected
        assert events_of(g.deal_events(), "chongtong")


# ------------------------------------------------------------------ a turn

def test_pair_waits_for_the_flip():
    """Seed 001: "If the stock card does not match any card in the center layout, you
    add it to the center layout as a separate card, and you capture the matching pair
    that you created with the play from your hand" (Matrix: "pair waits for the
    flip")."""
    g = tgame(field="3R 5J1", hands=["3B 7A", "1J1 2J1"], stock="11J1")
    assert "3B" in moves(g) and "3B/3R" not in moves(g)
    ev = g.push("3B")
    kinds = [e.kind for e in ev]
    # the capture comes only after the flip
    assert kinds.index("flipped") < kinds.index("captured")
    assert events_of(ev, "captured")[0].cards == CardSet("3B 3R")
    assert g.captured(0) == CardSet("3B 3R") and g.field == CardSet("5J1 11J1")


def test_waiting_pair_is_on_the_field_while_the_flip_chooses():
    """Seed 001: "If the stock card matches a card in the center layout, but not the
    card you played from your hand, then you place (or slap, as Koreans do) the stock
    card on a card that it matches, capture both matching pairs you have created" and
    Seed 001: "If the card from the stock matches two cards in the center layout, you
    choose which of these cards to capture along with the stock card." """
    g = tgame(field="3R 5R 5J1", hands=["3B 7A", "1J1 2J1"], stock="5J2 11J1")
    g.push("3B")
    assert g.phase == "flip" and g.flip_card == "5J2" and g.turn == 0
    # mid-turn: the played card still lies on its partner, nothing is captured yet
    assert CardSet("3B 3R").issubset(g.field) and g.captured(0) == CardSet()
    assert "pending=3B/3R" in g.position()
    assert moves(g) == {"flip/5R", "flip/5J1"}
    # the mid-turn position round-trips and plays on identically
    again = Game.from_position(g.position())
    assert again == g
    g.push("flip/5R")
    again.push("flip/5R")
    assert again.position() == g.position()
    assert g.captured(0) == CardSet("3B 3R 5R 5J2")
    assert g.field == CardSet("5J1")


@pytest.mark.parametrize("take, leave", [("3R", "3J1"), ("3J1", "3R")])
def test_play_onto_one_of_two(take, leave):
    """Seed 001: "If there are two cards of this month in the layout, you can choose
    which one you will place your played card onto." (Matrix: "matches 2 field cards
    | choose one | choose one")."""
    g = tgame(field=f"3R 3J1 5J1", hands=["3B 7A", "1J1 2J1"], stock="11J1")
    assert {"3B/3R", "3B/3J1"} <= moves(g) and "3B" not in moves(g)
    g.push(f"3B/{take}")
    assert g.captured(0) == CardSet(f"3B {take}")
    assert leave in g.field


def test_played_fourth_captures_the_stack_and_steals():
    """Seed 001: "If the card you play from your hand matches a stack of three
    matching cards in the table layout, then it captures this stack and all four cards
    are moved to your capture area. You then turn a card from the stock, which makes
    another capture if it matches anything in the center layout." Steal: Seed 001:
    "The player captures a stack of three cards by playing the fourth card of this
    month from hand or stock." (Matrix: "capture all four + steal")."""
    # (6J1 stays on the field: no sweep, so the stack's is the only steal)
    g = tgame(field="3R 3J1 3J2 5J1 6J1", hands=["3B 7A", "1J1 2J1"],
              captured=["", "2J2 4J1"], stock="5J2 11J1")
    assert "3B" in moves(g)
    assert not [m for m in moves(g) if m.startswith("3B/")]
    ev = g.push("3B")
    assert events_of(ev, "stack")[0].cards == month_cards(3)
    stolen = events_of(ev, "stolen")
    assert len(stolen) == 1 and stolen[0].other == 1
    # then the flip captures on its own
    assert g.captured(0) == month_cards(3) | CardSet("5J1 5J2") | CardSet([stolen[0].card])
    assert len(g.captured(1)) == 1
    assert_cards_conserved(g)


def test_flipped_fourth_captures_the_stack_and_the_waiting_pair():
    """Seed 001: "If the card you turn from the stock matches a stack of three matching
    cards in the layout, then you capture all four of these cards as well as the pair
    you made with the card you played from your hand." """
    g = tgame(field="3R 3J1 3J2 5J1", hands=["5R 7A", "1J1 2J1"], captured=["", "2J2"],
              stock="3B 11J1")
    ev = g.push("5R")
    assert g.captured(0) == month_cards(3) | CardSet("5R 5J1 2J2")
    assert len(events_of(ev, "stolen")) == 1 and g.captured(1) == CardSet()


def test_ppeok_leaves_a_stack_of_three():
    """Seed 001: "You do not capture anything this turn, but you must add this stock
    card to the pair you made, creating a stack of three cards." and Seed 001: "The
    three-card stack remains in the table layout and can only be captured by the
    fourth card of this same month." (Matrix: "all three stay as a stack")."""
    g = tgame(field="3R 5J1", hands=["3B 7A", "3J2 2J1"], captured=["4J1", ""],
              stock="3J1 11J1 12D")
    ev = g.push("3B")
    assert events_of(ev, "ppeok") and not events_of(ev, "captured")
    assert CardSet("3B 3R 3J1").issubset(g.field)
    assert g.captured(0) == CardSet("4J1") and g.chips(0) == 0  # not the first turn
    assert "ppeoks=1,0" in g.position()
    # the fourth card takes the stack (and steals, like any stack capture)
    ev = g.push("3J2")
    assert month_cards(3).issubset(g.captured(1))
    assert [e.card for e in events_of(ev, "stolen")] == ["4J1"]


@pytest.mark.parametrize("players", [2, 3])
def test_first_turn_ppeok_pays_three_chips(players):
    """Seed 001: "If you make a ppuk (create a stack of three cards) in your first
    turn of the game, each opponent pays you you money worth 3 points (or could be 3
    chips, if playing with chips) and play continues." """
    hands = ["3B 7A", "1J1 2J1", "4J1 6J1"][:players]
    g = tgame(players=players, first_turn=True, field="3R 5J1", hands=hands,
              stock="3J1 11J1")
    ev = g.push("3B")
    chips = events_of(ev, "chips")
    assert chips and chips[0].other == 3 and chips[0].card == "first_turn_ppeok"
    assert [g.chips(p) for p in range(players)] == [3 * (players - 1)] + [-3] * (players - 1)
    assert not g.is_over() and g.turn == 1  # play continues
    # a ppeok on a later turn pays nothing
    g2 = tgame(players=players, field="3R 5J1", hands=hands, stock="3J1 11J1")
    g2.push("3B")
    assert [g2.chips(p) for p in range(players)] == [0] * players


@pytest.mark.parametrize("players", [2, 3])
def test_third_ppeok_ends_the_hand(players):
    """Seed 001: "If you make a total of three ppuk during one hand, the play ends and
    each opponent pays you 5 chips." """
    hands = ["3B 7A", "1J1 2J1", "4J1 6J1"][:players]
    zeros = ",".join(["0"] * (players - 1))
    g = tgame(players=players, field="3R 5J1", hands=hands, stock="3J1 11J1",
              extra=f"ppeoks=2,{zeros}")
    ev = g.push("3B")
    assert events_of(ev, "three_ppeok")
    out = g.outcome()
    assert g.is_over() and out.reason == "three_ppeok" and out.winner == 0
    assert list(out.chips) == [5 * (players - 1)] + [-5] * (players - 1)
    # two ppeoks are not enough
    g = tgame(players=players, field="3R 5J1", hands=hands, stock="3J1 11J1",
              extra=f"ppeoks=1,{zeros}")
    g.push("3B")
    assert not g.is_over()


def test_ttadak_takes_all_four_and_steals():
    """Seed 001: "If the card you played from your hand matched two cards in the layout,
    and the card you turn from the stock is also of this same month, you capture all
    four cards of this month. This is known as ttadak." Steal: Seed 001: "The center
    layout includes two cards of the same month, and the player captures both of them
    using the other two cards of that month (one from hand and one from stock)
    (ttadak)." """
    g = tgame(field="3R 3J1 5J1", hands=["3B 7A", "1J1 2J1"], captured=["", "2J2"],
              stock="3J2 11J1")
    ev = g.push("3B/3R")
    assert events_of(ev, "ttadak")
    assert g.captured(0) == month_cards(3) | CardSet("2J2")
    assert g.captured(1) == CardSet()


def test_chok_captures_and_steals():
    """Seed 001: "The player plays a card from his hand that does not match anything in
    the center layout, adds this card to the center layout, and then draws a matching
    card from the stock, capturing the card just played (chok)." (Matrix: "capture +
    steal")."""
    g = tgame(field="5J1 6J1", hands=["3B 7A", "1J1 2J1"], captured=["", "2J2 4J1"],
              stock="3R 11J1")
    ev = g.push("3B")
    assert events_of(ev, "jjok")
    assert CardSet("3B 3R").issubset(g.captured(0))
    assert len(events_of(ev, "stolen")) == 1 and len(g.captured(1)) == 1


def test_sseul_steals():
    """Seed 001: "There are only two cards in the center layout, belonging to different
    months, and the player captures both of them, leaving the center layout empty
    (sseul)." (Matrix: "sseul: exactly two field cards of different months, both
    captured, field left empty (001's wording; not any emptied field) | no | steal")."""
    g = tgame(field="3R 5J1", hands=["3B 7A", "1J1 2J1"], captured=["", "2J2"],
              stock="5J2 11J1")
    ev = g.push("3B")
    assert events_of(ev, "sseul")
    assert g.field == CardSet()
    assert g.captured(0) == CardSet("3B 3R 5J1 5J2 2J2")


def test_sseul_with_a_bomb():
    """Seed 001: "There are only two cards in the center layout, belonging to different
    months, and the player captures both of them, leaving the center layout empty
    (sseul)." A bomb that takes one of the two while the flip takes the other is such a
    turn: the bomb's steal and the sseul's."""
    g = tgame(field="9J2 5J1", hands=["9A 9R 9J1 7A", "1J1 2J1"],
              captured=["", "2J2 4J1 6J1"], stock="5J2 11J1")
    ev = g.push("bomb9")
    assert events_of(ev, "sseul") and g.field == CardSet()
    assert [e.card for e in events_of(ev, "stolen")] == ["2J2", "4J1"]


@pytest.mark.parametrize("name", ["ttadak", "jjok"])
def test_emptying_the_field_otherwise_is_no_sseul(name):
    """Seed 001: "There are only two cards in the center layout, belonging to different
    months, and the player captures both of them, leaving the center layout empty
    (sseul)." A ttadak on two cards of one month, or a jjok on an empty field, also
    leaves the field empty but is no sseul: it keeps its own steal only (Matrix: "not
    any emptied field")."""
    setup = {
        # Seed 001 "(ttadak)": two of one month on the field, taken with the other two
        "ttadak": dict(field="3R 3J1", stock="3J2 11J1", move="3B/3R"),
        # Seed 001 "(chok)": the played card matched nothing; the flip takes it
        "jjok": dict(field="-", stock="3R 11J1", move="3B"),
    }[name]
    g = tgame(field=setup["field"], hands=["3B 7A", "1J1 2J1"],
              captured=["", "2J2 4J1 6J1"], stock=setup["stock"])
    ev = g.push(setup["move"])
    assert events_of(ev, name) and not events_of(ev, "sseul")
    assert g.field & CardSet.month(3) == CardSet() and "3B" in g.captured(0)
    assert [e.card for e in events_of(ev, "stolen")] == ["2J2"]
    assert g.captured(1) == CardSet("4J1 6J1")


def test_steal_takes_the_least_valuable_junk():
    """Seed 001: "A player who does not have any junk cards in their capture area does
    not have to surrender a card." and Seed 001: "a player who has no ordinary junk
    cards must surrender a valuable junk card if he has one." (Matrix: "the opponent
    gives its least valuable junk (a single junk; if none, a double junk; bonus cards
    last)")."""
    # 3 players: seat 1 holds a double and a single junk, seat 2 only a double
    g = tgame(players=3, field="5J1 6J1", hands=["3B 7A", "1J1 2J1", "4J1 6A"],
              captured=["", "11D 9J1", "12D 1R"], stock="3R 11J1")
    ev = g.push("3B")
    taken = {e.other: e.card for e in events_of(ev, "stolen")}
    assert taken == {1: "9J1", 2: "12D"}
    # nobody has junk: nothing to give
    g = tgame(players=3, field="5J1 6J1", hands=["3B 7A", "1J1 2J1", "4J1 6A"],
              captured=["", "1R 2A", "9A"], stock="3R 11J1")
    ev = g.push("3B")
    assert not events_of(ev, "stolen")
    assert g.captured(2) == CardSet("9A")  # the sake cup is never given


def test_last_turn_chok_ttadak_and_sseul_steal_nothing():
    """Seed 001: "However, if the play runs right to the end, the first three special
    events above don't count in the last player's last turn, since the cards are
    guaranteed to match." (Matrix: "sseul/ttadak/chok steal nothing")."""
    scenarios = {
        "chok": dict(field="5J1", hand="3B", stock="3R", move="3B"),
        "ttadak": dict(field="3R 3J1 5J1", hand="3B", stock="3J2", move="3B/3R"),
        "sseul": dict(field="3R 5J1", hand="3B", stock="5J2", move="3B"),
    }
    for name, s in scenarios.items():
        # the last player's last card: seat 0 has nothing left, seat 1 plays its last
        g = tgame(field=s["field"], hands=["", s["hand"]], turn=1, stock=s["stock"],
                  captured=["1J1 1J2", ""])
        ev = g.push(s["move"])
        assert not events_of(ev, "stolen"), name
        assert g.captured(0) == CardSet("1J1 1J2"), name
        assert g.is_over()
        # the same event with a turn still to come does steal
        g = tgame(field=s["field"], hands=["7A", s["hand"]], turn=1, stock=s["stock"],
                  captured=["1J1 1J2", ""])
        ev = g.push(s["move"])
        assert len(events_of(ev, "stolen")) >= 1, name


def test_last_turn_stack_capture_still_steals():
    """Seed 001: "Nevertheless, a capturing a three-card stack at the end of the play
    still counts." (Matrix: "stack capture still steals")."""
    g = tgame(field="3R 3J1 3J2", hands=["", "3B"], turn=1, stock="5J1",
              captured=["1J1 1J2", ""])
    ev = g.push("3B")
    assert [e.card for e in events_of(ev, "stolen")] == ["1J1"]
    assert g.is_over()


@pytest.mark.parametrize("capture", ["ttadak", "stack", "chok"])
def test_first_turn_capture_chips_option(capture):
    """Seed 001: "On your first turn of the game, if you take all four cards of a month
    in one turn (either by two captures - ttadak or by capturing a three-card stack),
    or if the stock card you turn captures the card you played (chok), some award a
    payment of 3 chips from each opponent for this, and play continues." (Matrix:
    "first-turn ttadak/stack/chok paid 3 chips")."""
    setups = {
        "ttadak": dict(field="3R 3J1 5J1", stock="3J2 11J1", move="3B/3R"),
        "stack": dict(field="3R 3J1 3J2 5J1", stock="11J1", move="3B"),
        "chok": dict(field="5J1 6J1", stock="3R 11J1", move="3B"),
    }[capture]
    base = dict(field=setups["field"], hands=["3B 7A", "1J1 2J1", "4J1 6A"],
                stock=setups["stock"], players=3)
    with_option = Rules(RULES, first_turn_capture_chips=3)
    g = Game.from_position(make_position(rules="traditional+first_turn_capture_chips=3",
                                         **base))
    assert g.rules == with_option
    g.push(setups["move"])
    assert [g.chips(p) for p in range(3)] == [6, -3, -3] and not g.is_over()
    # not on a later turn, and not without the option
    g = Game.from_position(make_position(rules="traditional+first_turn_capture_chips=3",
                                         extra=not_first_turn(3), **base))
    g.push(setups["move"])
    assert [g.chips(p) for p in range(3)] == [0, 0, 0]
    g = Game.from_position(make_position(rules=RULES, **base))
    g.push(setups["move"])
    assert [g.chips(p) for p in range(3)] == [0, 0, 0]


# ------------------------------------------------------------------ bombs and shakes

def test_bomb_takes_four_steals_and_owes_optional_flip_only_turns():
    """Seed 001: "Shake/Bomb - If the winner showed 3 cards of the same month before
    the start of play, then each opponent must pay double." (Matrix: "counts as a shake
    for payment; otherwise as standard" and Matrix: "up to 2 flip-only turns the player
    may choose to use")."""
    g = tgame(field="9J2 5J1", hands=["9A 9R 9J1 7A 7R", "1J1 2J1 4A"],
              captured=["", "2J2"], stock="11J1 12D 6J1 8J1")
    assert "bomb9" in moves(g)
    ev = g.push("bomb9")
    assert month_cards(9).issubset(g.captured(0))
    assert [e.card for e in events_of(ev, "stolen")] == ["2J2"]
    assert "11J1" in g.field  # the flip follows the bomb
    assert g.flip_only_turns(0) == 2 and g.hand(0) == CardSet("7A 7R")
    g.push("1J1")
    # the owed flip-only turn is a choice: play from hand or only flip
    assert "fliponly" in moves(g) and {"7A", "7R"} <= moves(g)
    ev = g.push("fliponly")
    assert events_of(ev, "flip_only") and g.hand(0) == CardSet("7A 7R")
    assert g.flip_only_turns(0) == 1
    assert "bombs=1,0" in g.position()


def test_shaking_is_a_move_offered_once_per_month():
    """Seed 001: "Any player who has three cards of the same month may declare them and
    show them to the other player(s)." (Matrix: "only before the first play of the
    hand; each set shown doubles payment if that player wins")."""
    g = tgame(first_turn=True, field="5J1 6J1", hands=["9A 9R 9J1 7A", "1J1 2J1"],
              stock="11J1 12D")
    assert "shake9" in moves(g)
    ev = g.push("shake9")
    assert events_of(ev, "shake")[0].cards == CardSet("9A 9R 9J1")
    # showing is no turn: the same player still plays, and cannot shake 9 again
    assert g.turn == 0 and g.phase == "play" and "shake9" not in moves(g)
    assert g.shaken_months(0) == [9]
    g.push("7A")
    assert g.turn == 1 and g.shaken_months(0) == [9]


@pytest.mark.parametrize("players", [2, 3])
def test_shaking_only_before_the_first_play(players):
    """Seed 001: "After the cards are dealt out and before players begin to play,
    players check for triples or quads (3 or 4 cards of the same month) in their hands
    or on the table." and Seed 001: "If the winner showed 3 cards of the same month
    before the start of play, then each opponent must pay double." (Matrix: "only
    before the first play of the hand")."""
    hands = ["9A 9R 9J1 7A", "4A 4R 4J1 1J1"] + (["6A 8A 10A 12A"] if players == 3 else [])
    g = tgame(players=players, first_turn=True, field="5J1 3J1", hands=hands,
              stock="11J1 12D 2J1 2J2 10J1 10J2")
    assert g.rules.shake_timing == 1
    assert "shake9" in moves(g)
    g.push("7A")
    # seat 1 has not played yet: its first turn still comes before its first play
    assert g.turn == 1 and "shake4" in moves(g)
    g.push("1J1")
    if players == 3:
        g.push("6A")
    # seat 0 has played: its three Septembers can no longer be shown
    assert g.turn == 0 and not [m for m in moves(g) if m.startswith("shake")]
    # the same turn with shake_timing=0 (the standard preset's value): a shake at any turn
    later = Game.from_position(g.position().replace("rules=traditional",
                                                    "rules=traditional+shake_timing=0"))
    assert later.rules.shake_timing == 0 and "shake9" in moves(later)


def test_shaken_then_bombed_month_is_one_double():
    """Seed 001: "If the winner showed 3 cards of the same month before the start of
    play, then each opponent must pay double. If the winner showed two such sets, two
    doubles are applied, thus quadrupling the payment." (Matrix: "a month shaken and
    later bombed is one set, one double")."""
    # seat 0 shows the Septembers, then bombs them with the fourth on the field
    g = tgame(first_turn=True, field="9J2 5J1", hands=["9A 9R 9J1 7A", "1J1 2J1"],
              captured=["1R 2R 3R 4R 5R 7R", "1B 2J2"], stock="11J1 12D")
    g.push("shake9")
    g.push("bomb9")
    assert g.shaken_months(0) == [9] and "bombs=1,0" in g.position()
    # hongdan and chodan (6) + seven ribbons (3): seat 0 decides Go or Stop
    assert g.phase == "gostop"
    g.push("stop")
    out = g.outcome()
    # one set shown (September): one double; no bak applies (no bright or junk score,
    # fewer than seven animals)
    assert out.points == score(g.captured(0), g.rules).total == 9
    assert out.chips == (2 * 9, -2 * 9)
    # a bomb alone shows its month too: the same single double
    g = tgame(first_turn=True, field="9J2 5J1", hands=["9A 9R 9J1 7A", "1J1 2J1"],
              captured=["1R 2R 3R 4R 5R 7R", "1B 2J2"], stock="11J1 12D")
    g.push("bomb9")
    assert g.shaken_months(0) == [9]
    g.push("stop")
    assert g.outcome().chips == (18, -18)
    # two months shown (a shake of April, a bomb of September): two doubles
    two = stop_game(rules=RULES, captured=["1R 2R 3R 4R 5R 7R 9R", "1B 2J2"],
                    extra="shaken=4,9|- bombs=1,0")
    assert two.outcome().chips == (4 * 9, -4 * 9)


def test_shaken_winner_is_paid_double_per_shake():
    """Seed 001: "If the winner showed two such sets, two doubles are applied, thus
    quadrupling the payment." """
    pile = "1R 2R 3R 6R 9R 10R"  # hongdan 3 + cheongdan 3 + six ribbons 2 = 8 points
    plain = stop_game(rules=RULES, captured=[pile, "1B 1J1 1J2 2J1 2J2 3J1"])
    one = stop_game(rules=RULES, captured=[pile, "1B 1J1 1J2 2J1 2J2 3J1"],
                    extra="shaken=9|-")
    two = stop_game(rules=RULES, captured=[pile, "1B 1J1 1J2 2J1 2J2 3J1"],
                    extra="shaken=4,9|-")
    assert [g.outcome().chips[0] for g in (plain, one, two)] == [8, 16, 32]


# ------------------------------------------------------------------ go, stop and the end

@pytest.mark.parametrize("players, threshold", [(2, 7), (3, 3)])
def test_go_stop_threshold_by_player_count(players, threshold):
    """Seed 001: "When there are 3 players the target is normally set at 3 points. With
    only 2 players it is usual to set a higher target - normally 5 or 7 points."
    (Matrix: "7 (or 5) / 3")."""
    # junk 10 = 1 point, +1 for each beyond: threshold - 1 points is 8 + threshold junk
    junk = ["1J1", "1J2", "2J1", "2J2", "4J1", "4J2", "5J1", "5J2", "6J1", "6J2",
            "7J1", "7J2", "8J1", "8J2", "9J1", "9J2", "10J1", "10J2"]
    below = junk[: 8 + threshold]  # threshold - 1 points
    hands = ["3B 7A", "11J1 12A", "4A 6A"][:players]
    for pile, field, asked in ((below[:-1], "3J1 11B", False), (below, "3J1 11B", True)):
        g = tgame(players=players, field=field, hands=hands, stock="12B",
                  captured=[" ".join(pile)] + [""] * (players - 1))
        g.push("3B")  # 3B takes 3J1: one more junk
        assert (g.phase == "gostop") == asked, (players, len(pile))
        assert g.score(0).total == (threshold if asked else threshold - 1)
    assert Rules(RULES, threshold_2p=5).threshold(2) == 5


def test_asked_again_only_when_the_score_rose():
    """Seed 001: "the game until the score at the end of your turn is higher than it was
    the last time you said" (Go).  Matrix: "asked again after a Go | only once the score
    went up since the last Go"."""
    # godori 5 + six animals 2 = 7 points (and one junk)
    pile = "2A 4A 8A 6A 7A 10A 1J1"
    # after a Go at 7 points, capturing a junk that scores nothing is no new chance
    g = tgame(field="3J1 11B", hands=["3B 7R", "11J1 12A"], stock="12B",
              captured=[pile, ""], go=[1, 0], lastgo=[7, 0])
    g.push("3B")
    assert g.score(0).total == 7 and g.phase == "play" and g.turn == 1
    # capturing an eighth point asks again
    g = tgame(field="9A 11B", hands=["9R 7R", "11J1 12A"], stock="12B",
              captured=[pile, ""], go=[1, 0], lastgo=[7, 0])
    g.push("9R")
    assert g.score(0).total == 8 and g.phase == "gostop" and g.turn == 0


def test_nobody_stops_nagari_pays_nothing():
    """Seed 001: "This is called nagari, and there is no payment for this deal. The
    cards are shuffled and the same player deals again." """
    g = tgame(field="5J1", hands=["", "3B"], turn=1, stock="6J1", captured=["1J1", "2J1"])
    ev = g.push("3B")
    out = g.outcome()
    assert out.winner is None and out.reason == "draw"
    assert list(out.chips) == [0, 0] and out.settlement is None
    assert events_of(ev, "draw")


def test_threshold_on_the_last_turn_stops_automatically():
    """Seed 001: "You must either say" (Stop or Go): on the last turn a Go could only
    lead to nagari, so the Stop is automatic (Matrix: "each opponent pays the
    (multiplied) score")."""
    pile = "2A 4A 8A 6A 7A"   # godori 5 + five animals 1 = 6
    g = tgame(field="10J1", hands=["", "10A"], turn=1, stock="6J1", captured=["1J1", pile])
    g.push("10A")  # six animals: 7 points on the very last turn
    out = g.outcome()
    assert out.reason == "last_turn_stop" and out.winner == 1
    # 7 points; seat 0 holds one junk but the winner has no junk score: no pi-bak
    assert list(out.chips) == [-7, 7]


TRADITIONAL_SCORING = [
    # (pile, total) -- each row one line of 001's scoring list
    ("1B 3B 8B 11B 12B", 15),          # five brights
    ("1B 3B 8B 12B", 4),               # four brights, rain or not
    ("1B 3B 8B", 3),                   # three brights without the rain bright
    ("1B 3B 12B", 2),                  # three brights with it
    ("1B 3B", 0),
    ("2A 4A 8A 6A 7A", 5 + 1),         # five animals 1, and the three birds 5
    ("5A 6A 7A 10A 12A", 1),           # five animals, no birds
    ("5A 6A 7A 10A 12A 9A", 2),        # one more animal: +1
    ("2A 4A 12A", 0),                  # 12A is no godori bird
    ("4R 6R 7R 10R 12R", 1),           # any five ribbons, the rain ribbon included
    ("4R 6R 7R 10R 12R 9R", 2 + 3),    # six ribbons 2, and 6R 9R 10R (blue) 3
    ("1R 2R 3R", 3),                   # red ribbons with poems
    ("6R 9R 10R", 3),                  # blue ribbons
    ("4R 5R 7R", 3),                   # red ribbons without poems
    ("4R 5R 12R", 0),                  # the rain ribbon is in no set
    ("1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1 5J2", 1),        # ten junk
    ("1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1 5J2 6J1", 2),    # +1 each beyond
    ("1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 11D", 1),            # 11D counts two
    ("1J1 1J2 2J1 2J2 3J1 3J2 11D 12D", 1),                # and 12D
]


def test_scoring_rows():
    """Seed 001: "A set of 5 bright cards scores 15 points" and Seed 001: "A set of 4
    bright cards scores 4 points" and Seed 001: "A set of 3 bright cards not including
    rain scores 3 points" and Seed 001: "3 bright cards including rain score 2 points"
    and Seed 001: "A set of 5 animal cards scores 1 point" and Seed 001: "Each
    additional animal card beyond 5 scores 1 extra point each" and Seed 001: "The
    godori combination of 3 bird cards scores 5 points - these are the February, April
    and August animal cards - the December (rain) animal card is not part of this set"
    and Seed 001: "A set of any 5 ribbon cards scores 1 point" and Seed 001: "A set of 3
    red ribbons with poems scores 3 points" and Seed 001: "A set of 3 blue ribbons
    scores 3 points" and Seed 001: "A set of 3 red ribbons without poems (April, May,
    July) scores 3 points - the December (rain) ribbon card is not part of this set"
    and Seed 001: "A set of 10 junk cards counts 1 point" and Seed 001: "Each
    additional junk card beyond 10 scores 1 extra point" and Seed 001: "card each count
    as two junk cards." """
    for pile, expected in TRADITIONAL_SCORING:
        assert score(pile, RULES).total == expected, pile


def test_scoring_variants():
    """Seed 001: "Some score only 3 points rather than 4 for a set of 4 bright including
    rain (December)." and Seed 001: "Some score only 3 points rather than 5 for
    Godori." and Seed 001: "Some play that the chrysanthemum and sake cup card counts as
    one" animal or two junk (Matrix: "4 brights with rain = 3; godori = 3")."""
    assert score("1B 3B 8B 12B", Rules(RULES, bright4_rain=3)).total == 3
    assert score("1B 3B 8B 11B", Rules(RULES, bright4_rain=3)).total == 4
    assert score("2A 4A 8A", Rules(RULES, godori=3)).total == 3
    eight = "1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2"
    assert score(eight + " 9A", Rules(RULES, sake_cup_junk=2)).total == 1   # 8 + 2 = 10
    assert score(eight + " 9A", RULES).total == 0                           # 8 + 1 = 9


def test_sake_cup_counts_as_single_junk():
    """Seed 001: "This card (the September" (object card) "can either be used as" object
    or junk: a single junk in traditional (Matrix: "animal or single junk (variant:
    double junk)")."""
    nine_junk = "1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1"
    assert score(nine_junk + " 9A", RULES).total == 1          # 10 junk with the cup
    assert score(nine_junk + " 9A", RULES).sake_cup_as_junk
    assert score("1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 9A", RULES).total == 0   # 9 junk
    assert score("1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 9A",
                 Rules(RULES, sake_cup_junk=2)).total == 1
