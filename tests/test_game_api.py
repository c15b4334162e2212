"""The python-chess-like Game API: push/pop/peek/move_stack/copy, legal_moves,
Move strings, outcome(), events() and turn_log(), player views and the errors."""

from __future__ import annotations

import pickle
from collections.abc import Sequence
import random

import numpy as np
import pytest

from conftest import game_from, make_position
from gostop_core import (
    CardSet, EmptyHistoryError, Event, GameOverError, Game, IllegalMoveError, Move,
    MoveParseError, Outcome, Turn,
)
from gostop_core.cards import CARD_CODES
from gostop_core.game import ARRAY_LENGTH, ARRAY_PLANES, ARRAY_SCALARS


def _finished(seed=1, players=2):
    g = Game(players=players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over():
        g.push(rng.choice(list(g.legal_moves)))
    return g


# ------------------------------------------------------------------ push / pop / copy

def test_push_pop_peek_move_stack():
    g = Game(seed=7)
    start = g.position()
    assert g.move_stack == []
    moves = []
    for _ in range(6):
        m = next(iter(g.legal_moves))
        events = g.push(m)
        assert isinstance(events, Sequence) and all(isinstance(e, Event) for e in events)
        moves.append(m)
        assert g.peek() == m
    assert g.move_stack == moves
    for m in reversed(moves):
        assert g.pop() == m
    assert g.position() == start and g.move_stack == []


def test_push_accepts_move_string_and_code():
    g = Game(seed=7)
    m = next(iter(g.legal_moves))
    a, b, c = g.copy(), g.copy(), g.copy()
    a.push(m)
    b.push(str(m))
    c.push(m.code)
    assert a.position() == b.position() == c.position()
    d = g.copy()
    assert d.push_str(str(m)) == m and d.position() == a.position()


def test_copy_is_independent():
    g = Game(seed=9)
    g.push(next(iter(g.legal_moves)))
    c = g.copy()
    assert c == g and c.move_stack == g.move_stack and c.seed == g.seed
    c.push(next(iter(c.legal_moves)))
    assert c != g and len(g.move_stack) == 1
    c.pop()
    c.pop()
    assert len(g.move_stack) == 1  # the original's history is untouched
    bare = g.copy(stack=False)
    assert bare == g and bare.move_stack == []
    with pytest.raises(EmptyHistoryError):
        bare.pop()


def test_pop_and_peek_on_empty_history():
    g = Game(seed=1)
    with pytest.raises(EmptyHistoryError, match="no move"):
        g.pop()
    with pytest.raises(EmptyHistoryError):
        g.peek()
    assert issubclass(EmptyHistoryError, IndexError)


def test_game_over_error_after_the_end():
    g = _finished()
    before = g.position()
    assert g.turn is None and g.phase == "over" and g.legal_moves.count() == 0
    for text in ("go", "stop", "1B", "flip/1B"):
        with pytest.raises(GameOverError, match="over"):
            g.push(text)
    assert g.position() == before
    assert issubclass(GameOverError, IllegalMoveError)
    g.pop()  # the last move can still be taken back
    assert not g.is_over() and g.legal_moves.count() > 0


# ------------------------------------------------------------------ legal moves

def test_legal_moves_container():
    g = game_from(field="3R 3J1 5J1", hands=["3B 7A X2", "1J1 2J1"], stock="11J1")
    lm = g.legal_moves
    listed = list(lm)
    assert all(isinstance(m, Move) for m in listed)
    assert lm.count() == len(lm) == len(listed) == 4 and bool(lm)
    assert {str(m) for m in listed} == {"3B/3R", "3B/3J1", "7A", "X2"}
    assert "3B/3R" in lm and Move.from_str("7A") in lm and listed[0].code in lm
    assert "3B" not in lm          # the field card must be named
    assert "9A" not in lm          # not in the hand
    assert "not a move" not in lm  # unparsable: simply not legal
    assert None not in lm
    assert g.is_legal("X2") and not g.is_legal("go")
    assert "3B/3R" in repr(lm)


def test_legal_moves_is_live():
    g = Game(seed=3)
    lm = g.legal_moves
    before = lm.count()
    g.push(next(iter(lm)))
    assert set(map(str, lm)) == set(map(str, g.legal_moves))
    g.pop()
    assert lm.count() == before


# ------------------------------------------------------------------ moves

MOVE_STRINGS = ["3B", "3B/3R", "X2", "X3", "bomb9", "bomb12", "flip/9R", "go", "stop",
                "11J2/11D", "12D"]


@pytest.mark.parametrize("text", MOVE_STRINGS)
def test_move_string_round_trip(text):
    m = Move.from_str(text)
    assert str(m) == text
    assert Move.from_str(text.lower()) == m
    assert Move.from_code(m.code) == m
    assert pickle.loads(pickle.dumps(m)) == m
    assert eval(repr(m), {"Move": Move}) == m
    assert hash(m) == hash(Move.from_str(text))


def test_move_attributes():
    m = Move.from_str("3B/3R")
    assert (m.kind, m.card, m.target, m.month) == ("play", "3B", "3R", None)
    assert Move.from_str("bomb9").month == 9 and Move.from_str("bomb9").card is None
    assert Move.from_str("flip/9R").kind == "flip" and Move.from_str("flip/9R").target == "9R"
    assert Move.from_str("x2").kind == "bonus"
    assert Move.from_str("GO").kind == "go"
    assert Move("play", card="3B") == Move.from_str("3B")
    with pytest.raises(AttributeError):
        m.code = 3  # type: ignore[misc]


@pytest.mark.parametrize("text, words", [
    ("", ("empty",)),
    ("play", ("bad move",)),
    ("3B/", ("a field card must follow",)),
    ("bomb13", ("bomb9",)),
    ("bomb", ("bomb9",)),
    ("flip", ("flip/9R",)),
    ("flip/", ("flip/9R",)),
    ("flip/13A", ("month 13",)),
    ("X2/3B", ("takes no field card",)),
    ("13B", ("month 13",)),
    (5.0, ("expected a move string",)),
])
def test_move_parse_errors(text, words):
    with pytest.raises(MoveParseError) as info:
        Move.from_str(text)  # type: ignore[arg-type]
    for w in words:
        assert w in str(info.value)
    assert issubclass(MoveParseError, IllegalMoveError)


def test_bad_move_codes_are_parse_errors():
    g = Game(seed=1)
    before = g.position()
    for code in (-1, 0x10000, 0xFFFF, (1 << 12) | (55 << 6) | 63, (1 << 12) | (3 << 6) | 55,
                 (7 << 12), (3 << 12) | (13 << 6) | 63):
        with pytest.raises(MoveParseError):
            Move.from_code(code)
        with pytest.raises(IllegalMoveError):
            g.push(code)
        assert code not in g.legal_moves
    assert g.position() == before


# ------------------------------------------------------------------ illegal moves

@pytest.mark.parametrize("move, words", [
    ("9A", ("9A is not in player 0's hand",)),
    ("3B", ("matches several field cards", "3B/<card>")),
    ("7A/3R", ("3R is not a field card that 7A can take",)),
    ("go", ("must play a card",)),
    ("flip/3R", ("must play a card",)),
    ("bomb3", ("no bomb of month 3",)),
    ("X3", ("X3 is not in player 0's hand",)),
])
def test_illegal_move_messages(move, words):
    g = game_from(field="3R 3J1 5J1", hands=["3B 7A X2", "1J1 2J1"], stock="11J1")
    before = g.position()
    with pytest.raises(IllegalMoveError) as info:
        g.push(move)
    msg = str(info.value)
    assert msg.startswith(f"illegal move {move}")
    for w in words:
        assert w in msg
    assert "legal: " in msg and "3B/3R" in msg
    assert g.position() == before


def test_illegal_move_messages_in_flip_and_gostop_phases():
    g = game_from(field="5R 5J1 6J1", hands=["3B 7A", "1J1 2J1"], stock="5J2 11J1")
    g.push("3B")
    with pytest.raises(IllegalMoveError, match="must choose what the flipped 5J2 takes"):
        g.push("7A")
    g = game_from(field="8J1 5J1", hands=["8B 4J1", "1J1 2J1", "6J1 7J1"], players=3,
                  captured=["1B 3B", "-", "-"], stock="11J1")
    g.push("8B")
    with pytest.raises(IllegalMoveError, match="must call go or stop"):
        g.push("4J1")


# ------------------------------------------------------------------ outcome

def test_outcome_none_while_playing_and_after_stop():
    g = game_from(field="8J1 5J1", hands=["8B 4J1", "1J1 2J1", "6J1 7J1"], players=3,
                  captured=["1B 3B", "-", "-"], stock="11J1")
    assert g.outcome() is None
    g.push("8B")
    assert g.outcome() is None
    g.push("stop")
    out = g.outcome()
    assert isinstance(out, Outcome)
    assert out.winner == 0 and out.points == 3 and out.reason == "stop"
    assert out.scores == (3, 0, 0) and out.go_counts == (0, 0, 0)
    data = out.as_dict()
    assert {k: data[k] for k in ("winner", "points", "scores", "go_counts", "reason", "chips")} == {
        "winner": 0, "points": 3, "scores": [3, 0, 0], "go_counts": [0, 0, 0],
        "reason": "stop", "chips": [3, 0, 0]}
    assert data["settlement"] is None  # casual: the score, once; nobody pays
    assert data["winner_score"]["total"] == 3
    assert out.result() == "player 0 wins 3"


def test_outcome_of_random_games_is_consistent():
    reasons = set()
    for seed in range(150):
        g = _finished(seed, players=2 + seed % 3)
        out = g.outcome()
        reasons.add(out.reason)
        assert len(out.scores) == g.players
        assert out.scores == tuple(g.score(p).total for p in range(g.players))
        if out.winner is None:
            assert out.points == 0 and out.result() == "draw"
        else:
            assert out.scores[out.winner] >= g.threshold()
            assert out.points >= out.scores[out.winner] + out.go_counts[out.winner]
        stops = [e for e in g.events() if e.kind == "stop"]
        assert len(stops) == (0 if out.winner is None else 1)
    assert reasons == {"stop", "last_turn_stop", "draw"}


# ------------------------------------------------------------------ events and turn log

def test_events_and_turn_log():
    for seed in range(40):
        g = _finished(seed, players=2 + seed % 3)
        events = g.events()
        assert events[:len(g.deal_events())] == g.deal_events()
        log = g.turn_log()
        assert all(isinstance(t, Turn) for t in log)
        # every turn's events are the mover's and carry the turn's number
        assert [t.number for t in log] == list(range(len(log)))
        for t in log:
            assert all(e.turn == t.number and e.player == t.player for e in t.events)
        # each turn but the last ends with turn_end
        for t in log[:-1]:
            assert t.events[-1].kind == "turn_end"
        assert sum(len(t.events) for t in log) == len(events) - len(g.deal_events())
        assert g.turns == len(log)
        # played cards are the cards that left the hands by play
        played = [e.card for e in events if e.kind == "played"]
        assert len(played) == len(set(played))


def test_event_helpers():
    g = Game(seed=3)  # seed 3 deals a bonus card to the field
    assert g.deal_events() and g.deal_events()[0].kind == "dealt_bonus"
    g.push(next(m for m in g.legal_moves if m.kind == "play"))
    names = ["Ann", "Bo"]
    for e in g.events():
        d = e.as_dict()
        assert d["kind"] == e.kind and d["cards"] == e.cards.codes()
        text = e.describe(names)
        assert isinstance(text, str) and text
    played = next(e for e in g.events() if e.kind == "played")
    assert played.describe(names) == f"Ann played {played.card}"


def test_bomb_event_card_is_the_month():
    g = game_from(field="9A 1J1", hands=["9J1 9J2 9R 3B", "1B 2J1"], captured=["-", "2J2"],
                  stock="11J1 12A")
    ev = g.push("bomb9")
    bomb = next(e for e in ev if e.kind == "bomb")
    assert bomb.card == "9" and "month 9" in bomb.describe()
    stolen = next(e for e in ev if e.kind == "stolen")
    assert stolen.other == 1 and stolen.card == "2J2" and "from player 1" in stolen.describe()


# ------------------------------------------------------------------ views

def test_view_hides_other_hands_and_stock():
    g = Game(players=3, seed=21)
    g.push(next(m for m in g.legal_moves if m.kind == "play"))
    v = g.view(2)
    assert v.seat == 2 and v.hand == g.hand(2) and v.field == g.field
    assert v.hand_counts == tuple(len(g.hand(p)) for p in range(3))
    assert v.stock_count == g.stock_count
    hidden = g.hand(0) | g.hand(1) | CardSet(g.stock())
    assert v.unseen == hidden
    text = v.to_str()
    assert str(v) == text
    for token in text.split():
        key, _, value = token.partition("=")
        if key in ("hands", "stock"):
            assert all(part.isdigit() for part in value.split(","))  # only counts
    with pytest.raises(IndexError):
        g.view(3)


def test_view_does_not_depend_on_hidden_cards():
    # The same public state with seat 1's hand and the stock swapped around: seat 0's
    # view (string and array) must be identical.
    a = game_from(field="3R 5J1", hands=["3B 7A", "1J1 2J1"], captured=["-", "4J1"],
                  stock="11J1 12A")
    b = game_from(field="3R 5J1", hands=["3B 7A", "12A 11J1"], captured=["-", "4J1"],
                  stock="2J1 1J1")
    assert a.position() != b.position()
    assert a.view(0).to_str() == b.view(0).to_str()
    assert np.array_equal(a.view(0).to_array(), b.view(0).to_array())
    assert a.view(1).to_str() != b.view(1).to_str()


def test_view_array_layout():
    g = Game(players=4, seed=5, dealer=1)
    g.push(next(m for m in g.legal_moves if m.kind == "play"))
    seat = 3
    arr = g.view(seat).to_array()
    assert arr.shape == (ARRAY_LENGTH,) and arr.dtype == np.float32
    assert ARRAY_LENGTH == 50 * len(ARRAY_PLANES) + len(ARRAY_SCALARS)

    def plane(name):
        i = ARRAY_PLANES.index(name)
        return {CARD_CODES[c] for c in np.flatnonzero(arr[i * 50:(i + 1) * 50])}

    assert plane("own_hand") == set(g.hand(seat).codes())
    assert plane("field") == set(g.field.codes())
    assert plane("captured_self") == set(g.captured(seat).codes())
    assert plane("captured_next") == set(g.captured(0).codes())
    assert plane("unseen") == set(g.stock()) | {c for p in range(4) if p != seat
                                                  for c in g.hand(p).codes()}
    # every card of the pack lies in exactly one plane
    planes = arr[:50 * len(ARRAY_PLANES)].reshape(len(ARRAY_PLANES), 50)
    assert np.array_equal(planes.sum(axis=0), np.ones(50, dtype=np.float32))
    scalars = dict(zip(ARRAY_SCALARS, arr[50 * len(ARRAY_PLANES):]))
    assert scalars["hand_count_self"] == len(g.hand(seat))
    assert scalars["hand_count_next"] == len(g.hand(0))
    assert scalars["stock_count"] == g.stock_count
    assert scalars["to_move_is_self"] == (1.0 if g.turn == seat else 0.0)
    assert scalars["is_dealer"] == 0.0 and g.view(1).to_array()[50 * 8 + 14] == 1.0
    assert scalars["phase_" + g.phase] == 1.0
    assert sum(scalars[k] for k in ("phase_play", "phase_flip", "phase_gostop", "phase_over")) == 1


def test_view_array_flip_plane():
    g = game_from(field="5R 5J1 6J1", hands=["3B 7A", "1J1 2J1"], stock="5J2 11J1")
    g.push("3B")
    arr = g.view(1).to_array()
    i = ARRAY_PLANES.index("flip_card")
    assert np.flatnonzero(arr[i * 50:(i + 1) * 50]).tolist() == [CARD_CODES.index("5J2")]


# ------------------------------------------------------------------ state accessors

def test_state_accessors_and_strings():
    g = Game(players=3, seed=12, dealer=2)
    assert g.players == 3 and g.dealer == 2 and g.turn == 2 and g.phase == "play"
    assert g.turns == 0 and g.flip_card is None and g.threshold() == 3
    assert g.stock_count == len(g.stock())
    assert g.score(0).total == 0 and g.go_count(1) == 0 and g.flip_only_turns(2) == 0
    assert g.seed == 12 and Game.from_position(g.position()).seed is None
    assert eval(repr(g), {"Game": Game}) == g
    text = str(g)
    assert "3 players" in text and "dealer 2" in text and "*2 hand" in text
    with pytest.raises(IndexError):
        g.hand(3)
    assert g != "not a game" and len({g, g.copy()}) == 1
