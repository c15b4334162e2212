"""The information-set MCTS search and bot: legal moves from views under every preset
and player count, whole games, determinism, settings and their errors, the node
pool's bound, the time budget and Ctrl-C.  (That it never reads a hidden card, and
the arena's settings, are checked with the expectimax bot's tests in
tests/test_search.py.)"""

from __future__ import annotations

import math
import random
import sys
import textwrap
import time

import pytest

from gostop_core import Game, Rules
from gostop_core.bots import BOT_NAMES, IsmctsBot, make_bot, play_game
from gostop_core.bots.ismcts import MAX_ITERATIONS, MIN_NODES, ismcts_fields
from gostop_core.notation import parse_view
from gostop_core.rules import PRESETS
from test_hardening import STOP_LIMIT, stop_time
from test_search import positions_along

PRESET_PLAYERS = [(name, n) for name in PRESETS for n in Rules(name).allowed_players()]


# ---------------------------------------------------------------- legality
@pytest.mark.parametrize("opponents,loop,prior,widen", [("greedy", "closed", 0.0, 0.0),
                                                        ("tree", "closed", 3.0, 2.0),
                                                        ("greedy", "open", 0.0, 0.0)])
@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_ismcts_ranks_the_legal_moves_of_views(preset, players, opponents, loop, prior, widen):
    rng = random.Random(players * 17 + len(preset))
    phases = set()
    for seed in range(3):
        game = Game(preset, players, seed=seed, dealer=seed % players)
        for g in positions_along(game, rng, every=4):
            legal = list(g.legal_moves)
            bot = IsmctsBot(seed, iterations=60, opponents=opponents, loop=loop, prior=prior,
                            widen=widen)
            ranked = bot.analyse(g.view(g.turn))
            assert sorted(str(r.move) for r in ranked) == sorted(str(m) for m in legal)
            # every root move is tried once before any is tried twice
            assert sum(r.samples for r in ranked) == 60
            assert min(r.samples for r in ranked) >= min(1, 60 // len(legal))
            assert [r.samples for r in ranked] == sorted((r.samples for r in ranked), reverse=True)
            assert bot.choose(g.view(g.turn), legal) in legal
            phases.add(g.phase)
    assert "play" in phases


@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_ismcts_plays_whole_games(preset, players):
    for seed in range(2):
        bots = [IsmctsBot(seed, iterations=80) if i == seed % players else make_bot("greedy")
                for i in range(players)]
        game = Game(preset, players, seed=seed)
        play_game(game, bots)  # play_game pushes each choice: an illegal one raises
        assert game.is_over()


def test_a_tiny_node_pool_still_plays_legally():
    # the smallest pool holds the root, its children (at most MAX_MOVES) and a few
    # more: once it is full the tree stops growing, the iterations go on and every
    # choice stays legal
    game = Game("standard", 3, seed=5)
    bots = [IsmctsBot(1, iterations=300, nodes=MIN_NODES), make_bot("greedy"), make_bot("greedy")]
    play_game(game, bots)
    assert game.is_over()
    g = Game(seed=4)
    rules, fields = parse_view(g.view(g.turn).to_str())
    for nodes in (MIN_NODES, MIN_NODES + 50):
        result = ismcts_fields(rules, fields, iterations=2000, nodes=nodes, seed=2)
        assert result["iterations"] == 2000
        assert result["nodes"] == nodes  # full, and no node beyond it
        assert sum(visits for _, visits, _ in result["moves"]) == 2000
    # with widening (a node tries a second move only after some visits) too
    widened = ismcts_fields(rules, fields, iterations=500, seed=2, widen=50.0)
    assert widened["nodes"] <= 1 + len(list(g.legal_moves)) + 500
    # without a bound the tree grows by one node per iteration at most
    result = ismcts_fields(rules, fields, iterations=500, seed=2)
    assert 1 + len(list(g.legal_moves)) < result["nodes"] <= 1 + len(list(g.legal_moves)) + 500


# ---------------------------------------------------------------- determinism
def test_same_seed_same_search():
    game = Game("casual", 2, seed=9)
    for _ in range(4):
        game.push(next(iter(game.legal_moves)))
    view = game.view(game.turn)
    legal = list(game.legal_moves)
    a = IsmctsBot(3, iterations=500).analyse(view)
    b = IsmctsBot(3, iterations=500).analyse(view)
    assert [(r.move, r.samples, r.value) for r in a] == [(r.move, r.samples, r.value) for r in b]
    assert IsmctsBot(3, iterations=500).choose(view, legal) == \
        IsmctsBot(3, iterations=500).choose(view, legal)
    # another seed deals other samples
    c = IsmctsBot(4, iterations=500).analyse(view)
    assert [(r.move, r.samples) for r in a] != [(r.move, r.samples) for r in c]


def test_same_seed_same_games():
    def run():
        game = Game("casual", 2, seed=21)
        play_game(game, [make_bot("ismcts:iterations=200", seed=5), make_bot("greedy")])
        return game.position(), str(game.outcome())
    assert run() == run()


def test_the_most_chosen_move_is_played():
    game = Game(seed=5)
    view = game.view(game.turn)
    bot = IsmctsBot(0, iterations=3000)
    ranked = bot.analyse(view)
    assert ranked[0].samples == max(r.samples for r in ranked)
    assert bot.choose(view, list(game.legal_moves)) == ranked[0].move
    assert all(math.isfinite(r.value) for r in ranked)


# ---------------------------------------------------------------- settings
def test_make_bot_ismcts():
    assert "ismcts" in BOT_NAMES
    bot = make_bot("ismcts", seed=3)
    assert isinstance(bot, IsmctsBot) and bot.name == "ismcts"
    assert (bot.iterations, bot.c) == (IsmctsBot.ITERATIONS, IsmctsBot.C)
    bot = make_bot("ismcts:iterations=4000, c=0.3,time=50,win=1,opponents=tree,loop=open,"
                   "nodes=1000,prior=2.5,widen=4")
    assert (bot.iterations, bot.c, bot.time_ms, bot.win_bonus, bot.opponents, bot.loop,
            bot.nodes, bot.prior, bot.widen) == (4000, 0.3, 50.0, 1.0, "tree", "open", 1000, 2.5,
                                                 4.0)


@pytest.mark.parametrize("name,message", [
    ("ismcts:deep=2", "bad ismcts setting 'deep=2'"),
    ("ismcts:iterations", "use key=value"),
    ("ismcts:iterations=many", "iterations needs a whole number"),
    ("ismcts:iterations=0", f"iterations must be 1..{MAX_ITERATIONS}"),
    ("ismcts:c=-1", "c must be 0"),
    ("ismcts:c=nan", "c needs a number 0..100"),
    ("ismcts:time=-5", "time must be 0"),
    ("ismcts:win=inf", "win needs a number -100..100"),
    ("ismcts:opponents=oracle", "opponents needs greedy or tree"),
    ("ismcts:loop=half", "loop needs closed or open"),
    ("ismcts:nodes=4", f"nodes must be {MIN_NODES}.."),
    ("ismcts:prior=-1", "prior must be 0"),
    ("ismcts:prior=x", "prior needs a number"),
    ("ismcts:widen=-2", "widen must be 0"),
])
def test_make_bot_ismcts_errors(name, message):
    with pytest.raises(ValueError, match=message):
        make_bot(name)


def test_the_search_refuses_bad_arguments():
    game = Game(seed=2)
    rules, fields = parse_view(game.view(game.turn).to_str())
    for kwargs in ({"iterations": 0}, {"nodes": MIN_NODES - 1}, {"c": -0.5},
                   {"time_ms": -1.0}, {"win_bonus": float("nan")}, {"prior": -1.0},
                   {"widen": float("inf")}):
        with pytest.raises(ValueError):
            ismcts_fields(rules, fields, **kwargs)
    rules, fields = parse_view(game.view(1 - game.turn).to_str())
    with pytest.raises(ValueError, match="not the one to move"):
        ismcts_fields(rules, fields)


# ---------------------------------------------------------------- budgets
def test_the_time_budget_stops_the_search():
    game = Game(seed=3)
    rules, fields = parse_view(game.view(game.turn).to_str())
    start = time.perf_counter()
    result = ismcts_fields(rules, fields, iterations=MAX_ITERATIONS, time_ms=50, nodes=MIN_NODES)
    assert time.perf_counter() - start < 50 / 1000 + STOP_LIMIT
    assert result["stopped"] == "time"
    assert 1 <= result["iterations"] < MAX_ITERATIONS
    bot = make_bot("ismcts:iterations=16000000,time=30,nodes=200")
    start = time.perf_counter()
    assert bot.choose(game.view(game.turn), list(game.legal_moves)) in list(game.legal_moves)
    assert time.perf_counter() - start < 30 / 1000 + STOP_LIMIT


def test_ctrl_c_stops_the_search():
    code, seconds, err = stop_time([sys.executable, "-c", textwrap.dedent("""
        from gostop_core import Game
        from gostop_core.bots.ismcts import MAX_ITERATIONS, ismcts_fields
        from gostop_core.notation import parse_view
        g = Game(seed=1)
        rules, fields = parse_view(g.view(g.turn).to_str())
        try:
            ismcts_fields(rules, fields, iterations=MAX_ITERATIONS)
        except KeyboardInterrupt:
            raise SystemExit(130)
    """)])
    assert code == 130, err
    assert seconds < STOP_LIMIT
