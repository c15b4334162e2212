"""Player views hold only what their seat may see.

Two positions that differ only in cards the seat cannot see (the contents of the
other hands, the order of the stock) must give indistinguishable views: equal
objects, equal view strings, equal arrays, equal pickles and equal attributes.
Positions come from seeded random games of every preset and player count; the
second position deals the same unseen cards out again at random.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from gostop_core import Game, Rules
from gostop_core.game import PlayerView
from gostop_core.notation import format_position

RULES = {name: Rules(name) for name in ("casual", "traditional", "standard", "family")}
RULES["standard+gwangpalli"] = Rules("standard", allow_4p=1, gwangpalli=1)
CASES = [(name, n) for name, rules in RULES.items()
         for n in ((4,) if rules.gwangpalli else rules.allowed_players())]


def played(rules: Rules, players: int, seed: int, plies: int) -> Game:
    """A seeded deal after up to ``plies`` random decisions."""
    game = Game(rules, players, seed, dealer=seed % players)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over():
            break
        game.push(rng.choice(list(game.legal_moves)))
    return game


def redealt_unseen(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position with the cards ``seat`` cannot see dealt out again: the other
    hands keep their sizes and the stock its length, but which card lies where is
    shuffled.  Cards another hand has shown (a showdown's win-card, the card a
    refused showdown forces) stay where everyone saw them."""
    f = game._core.to_fields()
    shown = {c for c in (f["showdown_card"], f["forced_card"]) if c is not None}
    others = [q for q in range(f["nplayers"]) if q != seat]
    pool = list(f["stock"])
    kept = {}
    for q in others:
        cards = [c for c in range(50) if f["hands"][q] >> c & 1]
        kept[q] = [c for c in cards if c in shown]
        pool += [c for c in cards if c not in shown]
    sizes = {q: bin(f["hands"][q]).count("1") - len(kept[q]) for q in others}
    rng.shuffle(pool)
    hands = list(f["hands"])
    for q in others:
        take, pool = pool[:sizes[q]], pool[sizes[q]:]
        hands[q] = sum(1 << c for c in take + kept[q])
    f["hands"], f["stock"] = hands, pool
    return Game.from_position(format_position(game.rules, f))


def assert_indistinguishable(a: PlayerView, b: PlayerView) -> None:
    assert a == b and hash(a) == hash(b)
    assert a.to_str() == b.to_str()
    assert np.array_equal(a.to_array(), b.to_array())
    assert pickle.dumps(a) == pickle.dumps(b)
    assert vars(a) == vars(b)
    assert a.scores == b.scores


@pytest.mark.parametrize("name, players", CASES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), plies=st.integers(0, 40), seat=st.integers(0, 3),
       redeal=st.integers(0, 2 ** 32 - 1))
def test_unseen_cards_leave_the_view_unchanged(name, players, seed, plies, seat, redeal):
    seat %= players
    game = played(RULES[name], players, seed, plies)
    other = redealt_unseen(game, seat, random.Random(redeal))
    assert other.hand(seat) == game.hand(seat) and other.field == game.field
    assert_indistinguishable(game.view(seat), other.view(seat))


@pytest.mark.parametrize("name, players", CASES)
def test_the_redeal_changes_hidden_cards(name, players):
    """The property above is not vacuous: the second position really holds the unseen
    cards elsewhere, and a view of another seat (which sees one of the moved hands)
    tells the two apart."""
    game = played(RULES[name], players, 7, 4)
    other = redealt_unseen(game, 0, random.Random(1))
    assert other.position() != game.position()
    assert game.view(0) == other.view(0)
    moved = [q for q in range(1, players) if other.hand(q) != game.hand(q)]
    assert moved and all(game.view(q) != other.view(q) for q in moved)


@pytest.mark.parametrize("name, players", CASES)
def test_a_view_round_trips_through_its_string_and_pickle(name, players):
    game = played(RULES[name], players, 3, 12)
    for seat in range(players):
        view = game.view(seat)
        again = PlayerView.from_str(view.to_str())
        assert_indistinguishable(view, again)
        assert_indistinguishable(view, pickle.loads(pickle.dumps(view)))


def test_a_view_keeps_no_game_and_no_hidden_fields():
    game = played(RULES["casual"], 3, 5, 6)
    view = game.view(1)
    assert not any(isinstance(v, Game) for v in vars(view).values())
    assert set(view._public) & {"hands", "stock"} == set()
    # the seat's own cards and the counts of the others are there
    assert view.hand == game.hand(1)
    assert view.hand_counts == tuple(len(game.hand(q)) for q in range(3))
    assert view.stock_count == game.stock_count


def test_stop_value_comes_from_public_facts():
    """In the Go/Stop phase the view carries what a Stop would bring, the same as the
    game says, and the same after the unseen cards are dealt out again."""
    rng = random.Random(0)
    seen = 0
    for seed in range(300):
        game = Game("traditional", 2, seed)
        while not game.is_over() and game.phase != "gostop":
            game.push(rng.choice(list(game.legal_moves)))
        if game.phase != "gostop":
            continue
        seat = game.turn
        view = game.view(seat)
        assert view.stop_value == game.stop_value()
        assert view.stop_value == redealt_unseen(game, seat, rng).view(seat).stop_value
        seen += 1
        if seen == 5:
            break
    assert seen == 5
