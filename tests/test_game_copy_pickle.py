"""Games, matches and their parts copy and pickle: ``copy.copy`` and
``copy.deepcopy`` give an independent game, and a pickled game comes back with
its position, move stack (``pop`` still works), start, seed and events, for every
preset and player count, mid-hand and at the end."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from gostop_core import Game, Match, Move, PositionError, Rules, preset_names
from gostop_core.game import Events
from gostop_core.match import play_with_bots
from gostop_core.bots import make_bot

PROTOCOLS = range(2, pickle.HIGHEST_PROTOCOL + 1)
CASES = [(preset, n) for preset in preset_names() for n in Rules(preset).allowed_players()]


def _played(preset: str, players: int, seed: int, moves: int | None) -> Game:
    """A dealt game after ``moves`` random decisions (``None``: to the end)."""
    g = Game(preset, players, seed=seed)
    rnd = random.Random(seed)
    while not g.is_over() and (moves is None or len(g.move_stack) < moves):
        g.push(rnd.choice(list(g.legal_moves)))
    return g


def _same_game(a: Game, b: Game) -> None:
    assert a == b and a.position() == b.position()
    assert a.move_stack == b.move_stack
    assert a.seed == b.seed and a.rules == b.rules
    assert a.events() == b.events() and a.deal_events() == b.deal_events()
    assert a.turn_log() == b.turn_log()
    assert a.outcome() == b.outcome()
    assert list(a.legal_moves) == list(b.legal_moves)
    assert a._position_of(a._start) == b._position_of(b._start)  # same start state


def _pop_all(g: Game) -> list[str]:
    positions = []
    while g.move_stack:
        g.pop()
        positions.append(g.position())
    return positions


def _copies(g: Game) -> list[Game]:
    return ([copy.copy(g), copy.deepcopy(g), g.copy()]
            + [pickle.loads(pickle.dumps(g, protocol)) for protocol in PROTOCOLS])


@pytest.mark.parametrize("preset,players", CASES)
@pytest.mark.parametrize("when", ["start", "mid", "end"])
def test_copies_and_pickles_are_the_same_game(preset, players, when):
    for seed in (1, 2):
        moves = {"start": 0, "mid": 9, "end": None}[when]
        g = _played(preset, players, seed, moves)
        if when == "end":
            assert g.is_over()
        for c in _copies(g):
            assert type(c) is Game and c is not g and c._core is not g._core
            _same_game(c, g)
            # pop works on the copy and retraces the original's history
            assert _pop_all(c) == _pop_all(g.copy())
            assert c.position() == Game(preset, players, seed=seed).position()


@pytest.mark.parametrize("preset,players", CASES)
def test_copies_are_independent(preset, players):
    g = _played(preset, players, 3, 5)
    if g.is_over():
        pytest.skip("the hand ended within five decisions")
    before, stack = g.position(), g.move_stack
    for c in _copies(g):
        c.push(next(iter(c.legal_moves)))
        assert g.position() == before and g.move_stack == stack
        c.pop()
        c.pop()
        assert g.position() == before and g.move_stack == stack
    # and the other way round: the original moves on, the copy stays
    c = copy.copy(g)
    g.push(next(iter(g.legal_moves)))
    assert c.position() == before and c.move_stack == stack


def test_stackless_copy_and_game_from_position_pickle():
    g = _played("standard", 3, 4, 7)
    bare = g.copy(stack=False)
    back = pickle.loads(pickle.dumps(bare))
    assert back.position() == g.position() and back.move_stack == []
    # the start is the deal, not the position the copy was made at
    assert back._position_of(back._start) == g._position_of(g._start) != g.position()
    p = Game.from_position(g.position())
    back = pickle.loads(pickle.dumps(p))
    assert back == p and back.seed is None and back.deal_events() == []
    m = next(iter(p.legal_moves))
    p.push(m)
    back = pickle.loads(pickle.dumps(p))
    assert back.pop() == m and back.position() == g.position()


def test_a_tampered_pickle_is_refused():
    g = _played("casual", 2, 5, 6)
    state = g.__reduce__()[1][1]
    state["moves"] = state["moves"][:-1]  # no longer reaches the pickled position
    with pytest.raises(PositionError, match="do not lead"):
        g.__reduce__()[0](Game, state)
    with pytest.raises(PositionError, match="format"):
        g.__reduce__()[0](Game, {**state, "format": 99})


class MyGame(Game):
    """A user's subclass (module level, so that pickle can name it)."""


def test_subclasses_copy_as_themselves():
    g = MyGame("casual", 2, seed=6)
    g.push(next(iter(g.legal_moves)))
    for c in _copies(g):
        assert type(c) is MyGame and c == g


def test_moves_outcomes_and_events_pickle():
    g = _played("traditional", 3, 8, None)
    out = g.outcome()
    assert out is not None
    assert pickle.loads(pickle.dumps(out)) == out
    assert copy.deepcopy(out) == out
    for m in g.move_stack:
        assert pickle.loads(pickle.dumps(m)) == m and copy.copy(m) == m
        assert copy.deepcopy(m) == m
    h = _played("traditional", 3, 8, 5)
    events = h.push(next(iter(h.legal_moves)))
    assert isinstance(events, Events) and len(events) > 0
    assert pickle.loads(pickle.dumps(events)) == events == list(events)


@pytest.mark.parametrize("preset,players", [("traditional", 3), ("standard", 2), ("casual", 4)])
def test_a_pickled_match_plays_on_like_the_original(preset, players):
    bots = [make_bot("greedy") for _ in range(players)]
    m = Match(preset, players, seed=11)
    play_with_bots(m, bots, 3)
    game = m.new_hand()  # a hand in progress is part of the match
    for _ in range(4):
        game.push(next(iter(game.legal_moves)))
    twin = pickle.loads(pickle.dumps(m))
    assert twin.ledger == m.ledger and twin.hands == m.hands and twin.dealer == m.dealer
    assert twin._current is not None and twin._current.position() == game.position()
    deep = copy.deepcopy(m)
    for match in (m, twin, deep):
        g = match._current
        while not g.is_over():
            g.push(next(iter(g.legal_moves)))
        match.record(g)
        play_with_bots(match, bots, 3)
    assert twin.ledger == m.ledger == deep.ledger
    assert [h.moves for h in twin.hands] == [h.moves for h in m.hands]


def test_move_objects_are_shared_and_immutable():
    g = Game("casual", 2, seed=9)
    first = list(g.legal_moves)
    assert all(a is b for a, b in zip(first, g.legal_moves))
    assert Move.from_str(str(first[0])) == first[0]
    with pytest.raises(AttributeError):
        first[0].code = 1  # type: ignore[misc]
