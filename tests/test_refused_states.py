"""Input the parsers refuse with their documented errors (issue 27, points 5
and 6): floods of leading zeros, numbers that are not plain ASCII digits, a
bool for a count, NaN, an empty perft suite; and states no real game reaches:
a view's flipped card matching nothing on the field, ``end=`` before the hand
is over, bombs without the months they showed, turns a seat has had with no
turn counted for it, family balances with cards left in the stock."""

from __future__ import annotations

import random
import re

import click
import pytest
from click.testing import CliRunner

from gostop_cli.main import cli
from gostop_cli.options import FloatRange, IntRange
from gostop_core import (
    CardCodeError, CardSet, Game, Move, MoveParseError, PlayerView, PositionError, Rules,
    RulesError, RulesTypeError,
)
from gostop_core.cards import card_index
from gostop_core.notation import parse_position, parse_view, rules_from_token

ZEROS = "0" * 5000  # past Python's 4,300-digit limit for int()


def replace_key(text: str, key: str, value: str) -> str:
    return re.sub(rf"(?<= ){key}=\S*", f"{key}={value}", text, count=1)


# ---------------------------------------------------------------- 5. leading zeros
@pytest.mark.parametrize("parse, error", [
    (card_index, CardCodeError),
    (CardSet.from_str, CardCodeError),
    (Move.from_str, MoveParseError),
    (lambda code: Move.from_str(f"{code}/1R"), MoveParseError),
])
def test_leading_zero_floods_in_card_codes_are_the_documented_errors(parse, error):
    """Found: 4,300+ zeros before a card reached int()'s limit: a plain ValueError."""
    with pytest.raises(error, match="month 1 holds") as info:
        parse(ZEROS + "1B")
    assert len(str(info.value)) < 200  # the message quotes the input cut short


def test_leading_zero_floods_in_positions_and_views():
    game = Game("casual", 2, seed=7)
    with pytest.raises(PositionError, match="^field: "):
        Game.from_position(game.position().replace("field=", f"field={ZEROS}", 1))
    view = game.view(0).to_str()
    with pytest.raises(PositionError, match="^field: "):
        PlayerView.from_str(view.replace("field=", f"field={ZEROS}", 1))
    with pytest.raises(PositionError, match="^rules: "):
        parse_position(game.position().replace("rules=casual", f"rules=casual+godori={ZEROS}3"))


@pytest.mark.parametrize("value", ["٣", " 5", "5 ", "1_0", "+3", "３"])
def test_rules_tokens_take_plain_ascii_digits(value):
    with pytest.raises(PositionError, match="^rules: rules override godori needs an integer"):
        rules_from_token(f"casual+godori={value}")


def test_a_bool_is_no_count_in_rules():
    with pytest.raises(RulesTypeError, match="hand_2p is a number 1..24, not a flag"):
        Rules("casual", hand_2p=True)
    with pytest.raises(RulesTypeError):
        Rules("casual", godori=False)
    assert Rules("casual", showdown=True).showdown == 1  # an on/off field takes a bool
    with pytest.raises(RulesTypeError):
        Rules("casual", hand_2p="٣")


def number_params():
    """Every number option of every gostop command."""
    for name, command in cli.commands.items():
        for param in command.params:
            if isinstance(param.type, (click.types._NumberParamTypeBase)):
                yield name, param


def test_every_number_option_takes_plain_numbers_only():
    found = list(number_params())
    assert len(found) > 20
    loose = [f"{name} {p.opts[0]}" for name, p in found
             if not isinstance(p.type, (IntRange, FloatRange))]
    assert loose == []  # use gostop_cli.options.IntRange / FloatRange


@pytest.mark.parametrize("args", [
    ("deal", "--seed", "٣"), ("deal", "--seed", " 5"), ("deal", "--seed", "1_0"),
    ("deal", "--players", "２"), ("perft", "--depth", " 1"),
    ("bench", "--seconds", "nan"), ("bench", "--seconds", "inf"), ("bench", "--seconds", " 1"),
    ("deal", "--set", "godori=٣"), ("deal", "--set", "godori= 5"),
])
def test_number_options_refuse_what_int_and_float_would_take(args):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines


def test_plain_numbers_still_work():
    assert CliRunner().invoke(cli, ["deal", "--seed", "5", "--set", "godori=3"]).exit_code == 0
    assert CliRunner().invoke(cli, ["deal", "--set", "godori=3, threshold_2p=5 "]).exit_code == 0


@pytest.mark.parametrize("text", ["", "\n\n# only a comment\n", "id lonely\nposition {}\n"])
def test_a_perft_suite_with_no_count_is_an_error(tmp_path, text):
    """Found: an empty suite reported 'all ok'."""
    path = tmp_path / "empty.perft"
    path.write_text(text.format(Game("casual", 2, seed=1).position()))
    result = CliRunner().invoke(cli, ["perft", "--suite", str(path)])
    assert result.exit_code == 2 and "no perft count" in result.stderr, result.output


def test_a_suite_whose_counts_are_all_past_max_depth_is_an_error(tmp_path):
    path = tmp_path / "deep.perft"
    path.write_text(f"id one\nposition {Game('casual', 2, seed=1).position()}\nperft 3 1\n")
    result = CliRunner().invoke(cli, ["perft", "--suite", str(path), "--max-depth", "2"])
    assert result.exit_code == 2 and "no perft count at depth 2 or less" in result.stderr


# ---------------------------------------------------------------- 6. unreachable states
def test_a_view_flip_must_match_a_field_card():
    """Found: phase=flip:8B with no August card on the field passed the view
    parser (the position parser refuses the same); the search then raised
    ValueError."""
    game = Game("casual", 2, seed=7)
    _, fields = parse_position(game.position())
    month = next(m for m in range(12) if not fields["field"] >> (4 * m) & 0xF)
    card = next(c for c in fields["stock"] if c // 4 == month)  # unseen, of that month
    from gostop_core.cards import CARD_CODES
    view = game.view(0).to_str()
    stock = int(re.search(r" stock=(\d+)", view).group(1))
    flipped = replace_key(replace_key(view, "phase", f"flip:{CARD_CODES[card]}"),
                          "stock", str(stock - 1))
    with pytest.raises(PositionError,
                       match=f"^phase: the flipped card {CARD_CODES[card]} matches no field card"):
        parse_view(flipped)


def test_end_is_only_given_when_the_hand_is_over():
    """Found: end= in a hand still going was kept but not printed: the game
    differed from its own reparse and its pickle while the strings were equal."""
    text = Game("casual", 2, seed=7).position() + " end=stop"
    with pytest.raises(PositionError, match="^end: end is only given when phase=over"):
        Game.from_position(text)
    view = Game("casual", 2, seed=7).view(0).to_str() + " end=draw"
    with pytest.raises(PositionError, match="^end: "):
        parse_view(view)


def test_bombs_need_their_months_where_a_bomb_counts_as_a_shake():
    """Found: traditional bombs=1,0 with no shaken= paid x1 (the bomb's double
    lost). Refused: under bomb_counts_as_shake each bomb shows its month."""
    assert Rules("traditional").bomb_counts_as_shake
    text = Game("traditional", 2, seed=3).position().replace("fliponly=0,0", "fliponly=0,0")
    with pytest.raises(PositionError, match="^shaken: seat 0 dropped 1 bomb"):
        Game.from_position(text + " bombs=1,0")
    Game.from_position(text + " shaken=9|- bombs=1,0")  # with its month: the double is kept
    assert not Rules("casual").bomb_counts_as_shake
    Game.from_position(Game("casual", 2, seed=3).position() + " bombs=1,0")


def test_a_seat_whose_turn_came_has_played():
    """Found: turns=10 without played= offered a shake mid-hand."""
    text = Game("standard", 2, seed=3).position()
    with pytest.raises(PositionError, match="^played: seat 0 has had its turn"):
        Game.from_position(replace_key(text, "turns", "10"))
    game = Game.from_position(replace_key(text, "turns", "10") + " played=5,5")
    assert game.turns == 10
    # the turn completed was the seat's before the one to move (seat 0): seat 1's
    Game.from_position(replace_key(text, "turns", "1") + " played=0,1")


def test_positions_of_real_games_pass_the_new_checks():
    """Every position and view a played game goes through parses (seed line:
    each preset, 2-4 players, random moves)."""
    rng = random.Random(27)
    for preset, players in (("casual", 2), ("traditional", 3), ("standard", 3),
                            ("family", 4), ("standard", 2)):
        game = Game(preset, players, seed=rng.randrange(10 ** 6))
        while not game.is_over():
            assert Game.from_position(game.position()).position() == game.position()
            for p in range(players):
                PlayerView.from_str(game.view(p).to_str())
            game.push(rng.choice(list(game.legal_moves)))


@pytest.mark.parametrize("players, field, hand", [(4, "hand_4p", 3), (4, "hand_4p", 1),
                                                   (2, "hand_2p", 9), (3, "hand_3p", 6)])
def test_family_balances_with_cards_left_in_the_stock_are_refused(players, field, hand):
    """Found: family rules with hands of 1-3 cards ended with 36 cards in the
    stock, 'the stock is gone' and chips that did not sum to zero."""
    with pytest.raises(RulesError, match="cards in the stock when the hands are played out"):
        Rules("family", **{field: hand})


def test_family_rules_that_are_accepted_settle_to_zero():
    """Every family deal size Rules accepts plays the stock out and its chips
    sum to zero (seed line: family balances against the break-even target)."""
    rng = random.Random(5)
    tried = 0
    for hand in range(1, 13):
        try:
            rules = Rules("family", hand_4p=hand)
        except RulesError:
            continue
        for players in rules.allowed_players():
            game = Game(rules, players, seed=rng.randrange(10 ** 6))
            while not game.is_over():
                game.push(rng.choice(list(game.legal_moves)))
            assert sum(game.outcome().chips) == 0
            assert "stock=-" in game.position()
            tried += 1
    assert tried >= 6
