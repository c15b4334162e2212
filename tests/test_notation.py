"""Position and player-view strings: round trips over random games in every phase,
and malformed strings that must raise PositionError naming the part and the reason."""

from __future__ import annotations

import random

import pytest

from conftest import make_position
from gostop_core import CardSet, Game, PositionError, Rules, parse_position, parse_view
from gostop_core.cards import CARD_CODES
from gostop_core.notation import rules_from_token, rules_to_token

PLAYERS = (2, 3, 4)


def _states(players, seeds):
    """Positions of random games: every decision point, the end included."""
    for seed in seeds:
        g = Game(players=players, seed=seed, dealer=seed % players)
        rng = random.Random(seed)
        yield g
        while not g.is_over():
            g.push(rng.choice(list(g.legal_moves)))
            yield g


@pytest.mark.parametrize("players", PLAYERS)
def test_position_round_trip_over_random_games(players):
    phases = set()
    for g in _states(players, range(150)):
        text = g.position()
        again = Game.from_position(text)
        assert again.position() == text
        assert again == g
        assert list(again.legal_moves) == list(g.legal_moves)
        phases.add(g.phase)
    assert phases == {"play", "flip", "gostop", "over"}


@pytest.mark.parametrize("players", PLAYERS)
def test_a_loaded_position_plays_on_identically(players):
    for seed in range(30):
        g = Game(players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 12)):
            if g.is_over():
                break
            g.push(rng.choice(list(g.legal_moves)))
        loaded = Game.from_position(g.position())
        while not g.is_over():
            m = rng.choice(list(g.legal_moves))
            assert g.push(m) == loaded.push(m)
            assert g.position() == loaded.position()
        assert g.outcome() == loaded.outcome()


def test_over_position_keeps_winner_and_points():
    for seed in range(60):
        g = Game(seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            g.push(rng.choice(list(g.legal_moves)))
        loaded = Game.from_position(g.position())
        assert loaded.is_over()
        out, again = g.outcome(), loaded.outcome()
        assert (again.winner, again.points, again.scores, again.go_counts) == \
            (out.winner, out.points, out.scores, out.go_counts)
        assert (again.reason == "draw") == (out.reason == "draw")


def test_position_fields_are_in_the_string():
    g = Game(players=3, seed=2, dealer=1)
    rules, f = parse_position(g.position())
    assert rules == g.rules and f["nplayers"] == 3 and f["dealer"] == 1
    assert f["to_move"] == g.turn and f["field"] == int(g.field)
    assert [CardSet(h) for h in f["hands"]] == [g.hand(p) for p in range(3)]
    assert [CARD_CODES[c] for c in f["stock"]] == g.stock()


def test_rules_token_round_trip():
    for r in (Rules("casual"), Rules("casual", threshold_2p=5, godori=3), Rules("traditional"),
              Rules("family", family_bright=25)):
        token = rules_to_token(r)
        assert rules_from_token(token) == r
    assert rules_to_token(Rules("casual", godori=3, threshold_2p=5)) == "casual+godori=3,threshold_2p=5"
    g = Game(rules=Rules("casual", threshold_2p=5), seed=4)
    assert Game.from_position(g.position()).rules.threshold(2) == 5


@pytest.mark.parametrize("players", PLAYERS)
def test_view_round_trip(players):
    for g in _states(players, range(40)):
        for seat in range(players):
            v = g.view(seat)
            rules, f = parse_view(v.to_str())
            assert rules == g.rules
            assert f["seat"] == seat and f["nplayers"] == players
            assert CardSet(f["hand"]) == g.hand(seat) == v.hand
            assert CardSet(f["field"]) == g.field
            assert [CardSet(c) for c in f["captured"]] == [g.captured(p) for p in range(players)]
            assert f["hand_counts"] == [len(g.hand(p)) for p in range(players)]
            assert f["stock_count"] == g.stock_count
            assert f["go_counts"] == [g.go_count(p) for p in range(players)]
            assert f["flip_only"] == [g.flip_only_turns(p) for p in range(players)]
            assert f["phase"] == ["play", "flip", "gostop", "over"].index(g.phase)
            assert (None if f["flip_card"] is None else CARD_CODES[f["flip_card"]]) == g.flip_card
            if g.is_over():
                assert f["winner"] == g.outcome().winner and f["points"] == g.outcome().points


def test_view_string_hides_other_hands_and_stock():
    g = Game(players=3, seed=8)
    text = g.view(1).to_str()
    listed = set()
    for token in text.split()[1:]:
        key, _, value = token.partition("=")
        if key in ("field", "hand", "captured"):
            listed |= {c for part in value.split("|") for c in part.split(",") if c != "-"}
    hidden = set(g.hand(0).codes()) | set(g.hand(2).codes()) | set(g.stock())
    assert listed and not listed & hidden
    assert listed == set(g.hand(1).codes()) | set(g.field.codes()) | set(g.captured(0).codes())
    assert "hands=7,7,7" in text and f"stock={g.stock_count}" in text


# ------------------------------------------------------------------ malformed strings

GOOD = make_position(field="3R 5J1", hands=["3B 7A", "1J1 2J1"], stock="11J1")


def _replace(key, value, text=GOOD):
    parts = text.split()
    for i, p in enumerate(parts):
        if p.startswith(key + "="):
            parts[i] = f"{key}={value}"
            return " ".join(parts)
    raise KeyError(key)


def _field_value(key, text=GOOD):
    for p in text.split():
        if p.startswith(key + "="):
            return p.split("=", 1)[1]
    raise KeyError(key)


def bad(text, part, *words):
    with pytest.raises(PositionError) as info:
        Game.from_position(text)
    err = info.value
    assert err.field == part, str(err)
    msg = str(err)
    assert msg.startswith(part + ":")
    for w in words:
        assert w in msg, msg
    return msg


def test_the_good_position_parses():
    g = Game.from_position(GOOD)
    assert g.hand(0) == CardSet("3B 7A")


def test_duplicate_card():
    text = _replace("field", "3R,5J1,3B")
    msg = bad(text, "hands", "3B", "twice", "field")
    assert "also in field" in msg
    bad(_replace("field", "3R,3R,5J1"), "field", "3R", "twice")


def test_missing_cards():
    stock = _field_value("stock").split(",")
    text = _replace("stock", ",".join(stock[:-2]))
    bad(text, "cards", "2 card(s) missing", stock[-1], stock[-2])


def test_unknown_card_code():
    bad(_replace("field", "3R,5J1,13B"), "field", "13B", "month 13")
    bad(_replace("field", "3R,5J1,1J"), "field", "1J", "needs a number")
    bad(_replace("stock", "Q1"), "stock", "unknown card code")


def test_bonus_cards_outside_their_pack():
    text = GOOD.replace("rules=casual", "rules=casual+bonus_cards=0,bonus_in_hand=0")
    bad(text, "stock", "X2", "not in the pack")


@pytest.mark.parametrize("key, value, reason", [
    ("hands", "3B,7A|1J1|2J1", "expected 2 card lists"),
    ("captured", "-", "expected 2 card lists"),
    ("go", "0,0,0", "expected 2 comma-separated numbers"),
    ("lastgo", "0", "expected 2 comma-separated numbers"),
    ("fliponly", "0,0,0,0", "expected 2 comma-separated numbers"),
])
def test_wrong_number_of_per_player_lists(key, value, reason):
    bad(_replace(key, value), key, reason)


@pytest.mark.parametrize("value, words", [
    ("dance", ("unknown phase", "dance")),
    ("flip", ("needs the flipped card",)),
    ("play:3B", ("takes no card",)),
    ("flip:12B", ("matches no field card",)),
])
def test_bad_phase(value, words):
    text = _replace("phase", value)
    if value == "flip:12B":
        stock = [c for c in _field_value("stock").split(",") if c != "12B"]
        text = _replace("stock", ",".join(stock), text)
    bad(text, "phase", *words)


def test_flip_phase_card_is_a_place_of_its_own():
    stock = [c for c in _field_value("stock").split(",") if c != "5J2"]
    text = _replace("stock", ",".join(stock), _replace("phase", "flip:5J2"))
    g = Game.from_position(text)
    assert g.phase == "flip" and g.flip_card == "5J2"
    assert {str(m) for m in g.legal_moves} == {"flip/5J1"}
    # and the flipped card may not be anywhere else as well
    bad(_replace("phase", "flip:5J2"), "stock", "5J2", "twice")


def test_unknown_key():
    bad(GOOD + " colour=red", "colour", "unknown key")


@pytest.mark.parametrize("key", ["field", "stock", "fliponly", "rules", "turn"])
def test_missing_key(key):
    text = " ".join(p for p in GOOD.split() if not p.startswith(key + "="))
    bad(text, key, "missing", key)


def test_key_given_twice():
    bad(GOOD + " turn=1", "turn", "given twice")


def test_token_without_equals():
    bad(GOOD + " hello", "syntax", "not key=value")


def test_wrong_tag():
    bad(GOOD.replace("gostop/1", "gostop/2", 1), "tag", "gostop/1", "gostop/2")
    bad("", "tag", "nothing")
    bad(GOOD.replace("gostop/1", "gostop-view/1", 1), "tag")


@pytest.mark.parametrize("key, value, words", [
    ("players", "5", ("out of range",)),
    ("players", "two", ("expected a number",)),
    ("dealer", "2", ("out of range",)),
    ("turn", "-1", ("out of range",)),
    ("go", "0,x", ("expected a number",)),
])
def test_numbers_out_of_range(key, value, words):
    bad(_replace(key, value), key, *words)


def test_players_not_allowed_by_the_rules():
    text = make_position(players=4, rules="casual", hands=["1B", "2A", "3B", "4A"])
    assert Game.from_position(text).players == 4
    # traditional rules: 48 cards, 2 or 3 players
    trad = make_position(players=2, rules="traditional", hands=["1B", "2A"])
    assert parse_position(trad)[1]["nplayers"] == 2
    with pytest.raises(PositionError) as info:
        parse_position(make_position(players=4, rules="traditional", hands=["1B", "2A", "3B", "4A"]))
    assert info.value.field == "players" and "4 players" in str(info.value)


def test_bad_rules_token():
    bad(_replace("rules", "casual+godori"), "rules", "field=value")
    bad(_replace("rules", "casual+godori=x"), "rules", "integer")
    bad(_replace("rules", "casual+threshold_2p=0"), "rules", "out of range")
    bad(_replace("rules", "chess"), "rules", "unknown rules preset")


def test_winner_only_when_over():
    bad(GOOD + " winner=0 points=3", "winner", "only")
    over = _replace("phase", "over") + " winner=1 points=9"
    g = Game.from_position(over)
    assert g.is_over() and g.outcome().winner == 1 and g.outcome().points == 9
    assert g.outcome().reason == "stop"
    drawn = Game.from_position(_replace("phase", "over") + " winner=- points=0")
    assert drawn.outcome().winner is None and drawn.outcome().reason == "draw"


def test_not_a_string():
    with pytest.raises(PositionError):
        Game.from_position(None)  # type: ignore[arg-type]


# ------------------------------------------------------------------ malformed views

def _view():
    return Game(seed=3).view(0).to_str()


def test_view_errors_name_the_part():
    v = _view()

    def vbad(text, part, *words):
        with pytest.raises(PositionError) as info:
            parse_view(text)
        assert info.value.field == part, str(info.value)
        for w in words:
            assert w in str(info.value)

    vbad(v.replace("gostop-view/1", "gostop/1"), "tag")
    vbad(v.replace("hands=10,10", "hands=9,10"), "hands", "holds 10 cards")
    vbad(v.replace("hands=10,10", "hands=10,11"), "stock", "unseen")
    vbad(v.replace("seat=0", "seat=2"), "seat", "out of range")
    vbad(v + " extra=1", "extra", "unknown key")
    vbad(" ".join(t for t in v.split() if not t.startswith("hand=")), "hand", "missing")
    field = [t for t in v.split() if t.startswith("field=")][0]
    first = field.split("=")[1].split(",")[0]
    vbad(v.replace(" hand=", f" hand={first},", 1), "hand", first, "twice")
