"""``best`` plays, at each table, the bot that measured strongest there
(gostop_core.bots.best; docs/strength.md, round 14)."""

from __future__ import annotations

import random

import pytest

from gostop_core import Game
from gostop_core.bots import make_bot
from gostop_core.bots.base import play_game
from gostop_core.bots.analysis import hint_moves
from gostop_core.bots.best import BLEND_TABLES, NETWORK_TABLES, BestBot, plays_network
from gostop_core.bots.simple import GreedyBot
from gostop_core.rules import Rules, preset_names, unchanged_preset

from conftest import swap_hidden


def _views(preset: str, players: int, hands: int = 2, samples_per_hand: int = 3):
    """Views of the seat to move with more than one legal move, from hands
    played at random (a few per hand, spread over the hand)."""
    views = []
    for seed in range(hands):
        game = Game(preset, players, seed=seed)
        rnd = random.Random(seed)
        found = []
        while not game.is_over():
            legal = list(game.legal_moves)
            if len(legal) > 1:
                found.append(game.view(game.turn))
            game.push(rnd.choice(legal))
        step = max(1, len(found) // samples_per_hand)
        views.extend(found[::step][:samples_per_hand])
    return views


def _ranking(bot, view):
    return [(r.move, r.value, r.samples) for r in bot.analyse(view)]


def test_the_network_tables_are_the_measured_ones():
    assert NETWORK_TABLES == {("standard", 2), ("casual", 2)}
    assert BLEND_TABLES == {("casual", 2): 0.5}
    assert all(table in NETWORK_TABLES for table in BLEND_TABLES)
    assert plays_network(Rules("standard"), 2)
    assert not plays_network(Rules("standard"), 3)
    assert plays_network(Rules("casual"), 2)
    assert not plays_network(Rules("casual"), 3)
    # a preset with a rule changed is another table: the network was not trained there
    changed = Rules("standard").replace(threshold_2p=5)
    assert changed != Rules("standard")
    assert not plays_network(changed, 2)


def test_unchanged_preset_names_a_preset_only_when_no_rule_is_changed():
    for preset in preset_names():
        assert unchanged_preset(Rules(preset)) == preset
    assert unchanged_preset(Rules("casual").replace(threshold_2p=9)) is None
    assert unchanged_preset(None) is None


def test_at_standard_best_searches_exactly_as_neural_search_on_its_samples():
    """Standard, 2 players: the same ranking, values and sample counts as
    ``neural-search`` given best's 256 samples (the bot measured there)."""
    best = make_bot("best:samples=48", seed=3)
    reference = make_bot("neural-search:samples=48", seed=3)
    plain = make_bot("expectimax-v1", seed=3)
    plain.samples = 48
    differs = 0
    for view in _views("standard", 2):
        ranked = _ranking(best, view)
        assert ranked == _ranking(reference, view)
        differs += ranked != _ranking(plain, view)
    assert differs  # the network's playouts are not the greedy ones


def _gostop_views(preset: str, players: int, wanted: int = 3):
    """Views of a Go/Stop decision, from hands played by greedy seats."""
    views = []
    for seed in range(40):
        game = Game(preset, players, seed=seed)
        while not game.is_over():
            legal = list(game.legal_moves)
            view = game.view(game.turn)
            if any(m.kind in ("go", "stop") for m in legal):
                views.append(view)
                if len(views) == wanted:
                    return views
            game.push(GreedyBot().choose(view, legal))
    raise AssertionError("no Go/Stop decision in 40 greedy hands")


def test_at_casual_best_plays_exactly_as_neural_search_blended_on_its_samples():
    """Casual, 2 players: the ranking and values of ``neural-search`` given
    best's samples and the measured blend, Go or Stop by the search's values
    alone (rounds 19 and 20), move for move."""
    best = make_bot("best:samples=48", seed=3)
    reference = make_bot("neural-search:samples=48,blend=0.5,gostop=search", seed=3)
    unblended = make_bot("neural-search:samples=48", seed=3)
    blended_gostop = make_bot("neural-search:samples=48,blend=0.5", seed=3)
    differs = 0
    for view in _views("casual", 2):
        ranked = _ranking(best, view)
        assert ranked == _ranking(reference, view)
        differs += ranked != _ranking(unblended, view)
    assert differs  # the blend moves the values
    for view in _gostop_views("casual", 2):
        ranked = _ranking(best, view)
        assert ranked == _ranking(unblended, view)
        assert ranked != _ranking(blended_gostop, view)


@pytest.mark.parametrize("preset,players", [("casual", 3), ("standard", 3), ("traditional", 2)])
def test_elsewhere_best_searches_exactly_as_expectimax_v1(preset, players):
    best = make_bot("best:samples=32", seed=5)
    plain = make_bot("expectimax-v1", seed=5)
    plain.samples = 32
    for view in _views(preset, players, hands=1):
        assert _ranking(best, view) == _ranking(plain, view)


@pytest.mark.parametrize("preset", ["standard", "casual"])
def test_network_off_gives_the_search_of_expectimax_v1(preset):
    best = make_bot("best:network=0,samples=32", seed=7)
    assert isinstance(best, BestBot) and best.network is False
    plain = make_bot("expectimax-v1", seed=7)
    plain.samples = 32
    for view in _views(preset, 2, hands=1):
        assert _ranking(best, view) == _ranking(plain, view)


def test_the_hint_follows_best_at_standard():
    """``gostop hint``'s search is best's: at standard it ranks with the
    network's playouts (consistent values, no win bonus)."""
    view = _views("standard", 2, hands=1)[1]
    hinted = [(r.move, r.samples) for r in hint_moves(view, samples=32, time_ms=0)]
    best = BestBot(0, samples=32, win_bonus=0.0, consistent=True)
    assert hinted == [(r.move, r.samples) for r in best.analyse(view)]


@pytest.mark.parametrize("preset", ["standard", "casual"])
def test_best_decides_from_the_view_alone_where_it_plays_the_network(preset):
    for seed in range(4):
        game = Game(preset, seed=seed)
        if game.is_over() or len(list(game.legal_moves)) < 2:
            continue
        other = Game.from_position(swap_hidden(game.position()))
        assert game.position() != other.position()
        a = make_bot("best:samples=24", seed=3).analyse(game.view(0))
        b = make_bot("best:samples=24", seed=3).analyse(other.view(0))
        assert [(r.move, r.value) for r in a] == [(r.move, r.value) for r in b]


def test_best_plays_whole_standard_hands():
    game = Game("standard", 2, seed=11)
    best = make_bot("best:samples=8", seed=1)
    play_game(game, [best, make_bot("greedy", seed=2)])
    assert game.is_over() and best.nodes_visited > 0


def test_blend_off_at_casual_gives_the_search_with_the_networks_playouts():
    best = make_bot("best:blend=0,samples=32", seed=7)
    reference = make_bot("neural-search:samples=32", seed=7)
    for view in _views("casual", 2, hands=1):
        assert _ranking(best, view) == _ranking(reference, view)
