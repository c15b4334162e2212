"""The rules object: presets are plain values, overrides, validation errors, the
player counts each preset allows, and the engine's support check.

Preset values are checked against the rules-matrix lines they come from
(``Matrix: "..."`` quotes, verified word for word)."""

from __future__ import annotations

import pickle

import pytest

from conftest import check_seed_quotes, matrix_text
from gostop_core import FIELDS, PRESETS, Game, Rules, RulesError, UnsupportedRuleError, preset_names


def test_quotes_are_verbatim():
    """Matrix: "Every parameter below must be a documented field of the engine's rules
    object, settable from Python and from the CLI, so that every preset is only a set
    of values." """
    n = check_seed_quotes(
        {k: v for k, v in globals().items() if k.startswith("test_") and v.__doc__}, need_seed=False)
    assert n >= 8 or matrix_text() is None


def test_presets_are_plain_values():
    """Matrix: "so that every preset is only a set of values." """
    assert preset_names()[0] == "casual"
    assert set(preset_names()) == {"casual", "traditional", "standard", "family"}
    for name in preset_names():
        r = Rules(name)
        assert r.as_dict() == {k: PRESETS[name][k] for k in FIELDS}
        assert set(PRESETS[name]) == set(FIELDS)
        assert Rules(name) == r and hash(Rules(name)) == hash(r)
        assert pickle.loads(pickle.dumps(r)) == r
        # a preset is exactly its values: rebuilding it field by field gives the same rules
        assert Rules("casual", **r.as_dict()) == r
    assert Rules() == Rules("casual")
    assert Rules("casual") != Rules("standard")


def test_every_field_is_documented_with_a_range():
    for name, (lo, hi, section, doc) in FIELDS.items():
        assert lo <= hi and section in ("deal", "scoring", "turn", "go", "payment") and doc
        for preset in PRESETS.values():
            assert lo <= preset[name] <= hi, name


def test_overrides_and_replace():
    r = Rules("casual", threshold_2p=5, godori=3)
    assert r.threshold_2p == 5 and r.godori == 3 and r.threshold(2) == 5
    assert r.preset == "casual+godori=3,threshold_2p=5"
    assert r.differences("casual") == {"godori": (3, 5), "threshold_2p": (5, 7)}
    assert r.replace(godori=5) == Rules("casual", threshold_2p=5)
    assert Rules(r) == r
    assert pickle.loads(pickle.dumps(r)) == r
    assert Rules("casual", bomb=True).bomb == 1  # booleans are 0/1
    with pytest.raises(AttributeError):
        r.no_such_field


@pytest.mark.parametrize("overrides, words", [
    ({"threshold_2p": 0}, ("threshold_2p=0", "out of range 1..100")),
    ({"threshold_2p": 101}, ("out of range",)),
    ({"godori": -1}, ("out of range",)),
    ({"ribbon_min": 11}, ("out of range",)),
    ({"godori": "5"}, ("must be an integer",)),
    ({"godori": 5.0}, ("must be an integer",)),
    ({"colour": 1}, ("unknown rules field", "colour")),
    ({"hand_2p": 24, "field_2p": 24}, ("more than the 50-card pack",)),
    ({"gwangpalli": 1, "allow_4p": 0}, ("gwangpalli",)),
    ({"allow_2p": 0, "allow_3p": 0, "allow_4p": 0}, ("no player count",)),
    ({"bonus_cards": 0}, ("bonus_in_hand needs bonus_cards=1",)),
])
def test_bad_values_raise_rules_error(overrides, words):
    with pytest.raises(RulesError) as info:
        Rules("casual", **overrides)
    for w in words:
        assert w in str(info.value)


def test_unknown_preset():
    with pytest.raises(RulesError, match="unknown rules preset"):
        Rules("chess")


def test_thresholds():
    """Matrix: "threshold, 2 / 3 / 4 players | 7 / 3 / 3 (000 silent) | 7 (or 5) / 3 |
    7 / 3" """
    r = Rules("casual")
    assert (r.threshold(2), r.threshold(3), r.threshold(4)) == (7, 3, 3)
    assert (Rules("traditional").threshold(2), Rules("traditional").threshold(3)) == (7, 3)
    assert (Rules("standard").threshold(2), Rules("standard").threshold(3)) == (7, 3)


def test_deal_sizes():
    """Matrix: "hand / field, 4 players | 7 / 6, all four play | - | - | 5 / 8" """
    r = Rules("casual")
    assert [(r.hand_size(n), r.field_size(n)) for n in (2, 3, 4)] == [(10, 8), (7, 6), (7, 6)]
    f = Rules("family")
    assert (f.hand_size(4), f.field_size(4)) == (5, 8)
    assert (Rules("standard").hand_size(2), Rules("standard").field_size(2)) == (10, 8)


def test_check_players():
    """Matrix: "players | 2, 3, 4 | 2, 3 | 2, 3 (4: gwangpalli option) | 2, 3, 4" """
    assert Rules("casual").allowed_players() == (2, 3, 4)
    assert Rules("family").allowed_players() == (2, 3, 4)
    for name in ("traditional", "standard"):
        r = Rules(name)
        assert r.allowed_players() == (2, 3)
        r.check_players(2)
        r.check_players(3)
        with pytest.raises(RulesError, match="4 players are not allowed"):
            r.check_players(4)
        with pytest.raises(RulesError):
            r.threshold(4)
    for n in (1, 5):
        with pytest.raises(RulesError):
            Rules("casual").check_players(n)
    with pytest.raises(RulesError):
        Game(players=5)


def test_engine_supports_every_preset():
    """Matrix: "so that every preset is only a set of values" -- every preset's values
    are played by the core, and so are the options gwangpalli and showdown."""
    for name in ("casual", "traditional", "standard", "family"):
        Rules(name).check_engine_support()
        Game(rules=name, players=2)
    Rules("casual", threshold_2p=5, godori=3, bright5=20, ppeok=1).check_engine_support()
    Rules("standard", showdown=1).check_engine_support()
    Rules("standard", allow_4p=1, gwangpalli=1).check_engine_support()
    assert issubclass(UnsupportedRuleError, RulesError)


def test_casual_preset_values():
    """Matrix: "bonus card in hand | play it: banked, draw a replacement, still play a
    card (empty stock: banking is the turn)" """
    r = Rules("casual")
    assert r.bonus_cards == 1 and r.bonus_in_hand == 1 and r.bonus_to_dealer == 1
    assert r.flipped_bonus == 0  # banked at once, flip again
    assert r.capture_at_play == 1 and r.field_stacks == 0 and r.ppeok == 0
    assert r.bomb == 1 and r.bomb_steal == 1 and r.bomb_flip_only_turns == 2
    assert r.bomb_flip_only_optional == 0 and r.shaking == 0
    assert r.sake_cup_junk == 2 and r.bridge_junk == 0 and r.rain_ribbon_counts == 1
    assert (r.bonus_x2_junk, r.bonus_x3_junk) == (2, 3)
    assert r.gwang_bak == 0 and r.pi_bak_threshold == 0 and r.go_bak == 0 and r.match_play == 0


def test_traditional_preset_values():
    """Matrix: "9A sake cup | animal or double junk, whichever scores more, never asked
    | animal or single junk (variant: double junk)" """
    r = Rules("traditional")
    assert r.sake_cup_junk == 1 and r.bonus_cards == 0 and r.pi_bak_threshold == 5
    assert r.mong_bak_animals == 7 and r.sseul_steal == 1


def test_standard_preset_values():
    """Matrix: "12R counts toward the 5 ribbons | yes | yes | no (002: nine ribbon
    cards)" """
    r = Rules("standard")
    assert r.rain_ribbon_counts == 0 and r.bridge_junk == 2 and r.sake_cup_junk == 2
    assert r.pi_bak_threshold == 6


def test_family_preset_values():
    """Matrix: "Card points: bright 20, ribbon 5 (all ten), animal 10 (all nine), junk
    0." """
    r = Rules("family")
    assert r.family_scoring == 1 and r.go_stop == 0
    assert (r.family_bright, r.family_ribbon, r.family_animal) == (20, 5, 10)
    assert (r.family_ribbon_set, r.family_month_set, r.family_november_set) == (30, 20, 40)


def test_repr():
    assert repr(Rules("standard")) == "Rules('standard')"


def test_family_balances_and_card_points_go_together():
    """Seed 004: "Once all players have their totals, they compare them to the "goal"
    number" -- balances are computed from family card points only."""
    with pytest.raises(RulesError, match="family"):
        Rules("standard", payment=2)
    with pytest.raises(RulesError, match="family"):
        Rules("family", payment=1)


@pytest.mark.parametrize("override", [
    dict(go_stop=1), dict(chongtong=1), dict(three_ppeok_chips=5, ppeok=1), dict(field_stacks=0),
    dict(four_on_field_redeal=0), dict(bomb=1), dict(bomb=1, bomb_flip_only_turns=1),
])
def test_family_balances_refuse_rules_that_leave_cards_unwon(override):
    """Seed 004: "If all the players' balances add up to 0, the scoring has been done
    correctly." -- a sweep of rule overrides (issue 32) found family hands ending with
    cards no one could win: with field_stacks=0 two of a month stayed on the field, the
    balances summed to -15 and the winner's balance, -5, was printed as points that no
    position may hold; a Stop, a chongtong, a third ppeok or a bomb without its
    flip-only turns leave cards unwon too."""
    with pytest.raises(RulesError, match=r"^family balances \(payment=2\) with "):
        Rules("family", **override)


def test_family_balances_with_a_bomb_made_up_by_flip_only_turns_sum_to_zero():
    """Seed 000: "so your next two turns only flip the deck" -- a bomb plays three hand
    cards for one flip; two flip-only turns make it up, so under family balances every
    card is still won."""
    import random

    from gostop_core import CardSet, Game
    rules = Rules("family", bomb=1, bomb_flip_only_turns=2)
    bombs = 0
    for seed in range(300):
        game = Game(rules, 2 + seed % 3, seed)
        rng = random.Random(seed)
        while not game.is_over():
            moves = list(game.legal_moves)
            bomb = [m for m in moves if str(m).startswith("bomb")]
            bombs += bool(bomb)
            game.push(bomb[0] if bomb else rng.choice(moves))
        assert game.field == CardSet() and sum(game.outcome().chips) == 0
    assert bombs >= 5


def test_a_bonus_card_keeps_to_a_ppeok_stack_only_with_stacks():
    """Seed 002: "except in the event of a ppeok, in which all four cards (i.e. the three
    cards involved in the ppeok plus the bonus card) must remain on the table." -- the
    bonus card keeps to a stack; found by the same sweep: standard with field_stacks=0
    left X3 marked as sitting with a ppeok stack after a single card was taken from the
    three, a position the engine printed and the parser refused (stackbonus)."""
    with pytest.raises(RulesError, match="ppeok_keeps_bonus=1 needs field_stacks=1"):
        Rules("standard", field_stacks=0)
    Rules("standard", field_stacks=0, ppeok_keeps_bonus=0)
