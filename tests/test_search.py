"""The expectimax search and bot: legal answers from views under every preset and
player count, no reading of hidden cards, exact flip probabilities, ``gostop hint``."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from gostop_cli.main import cli
from gostop_core import Game, Rules
from gostop_core.bots import ExpectimaxBot, GreedyBot, IsmctsBot, RandomBot, make_bot, play_game
from gostop_core.cards import CARD_CODES
from gostop_core.notation import parse_view
from gostop_core.rules import PRESETS
from gostop_core.bots.search import CHANCE_SEAT, chance_distribution, search_fields

PRESET_PLAYERS = [(name, n) for name in PRESETS for n in Rules(name).allowed_players()]


def small_bot(seed: int = 0) -> ExpectimaxBot:
    return ExpectimaxBot(seed, depth=2, samples=2)


def positions_along(game: Game, rng: random.Random, every: int = 3):
    """Play random moves, yielding the game at every ``every``-th decision."""
    i = 0
    while not game.is_over():
        if i % every == 0:
            yield game
        game.push(rng.choice(list(game.legal_moves)))
        i += 1


# ---------------------------------------------------------------- legality
@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_search_returns_legal_moves_from_views(preset, players):
    rng = random.Random(players * 31 + len(preset))
    phases = set()
    for seed in range(4):
        game = Game(preset, players, seed=seed, dealer=seed % players)
        for g in positions_along(game, rng):
            seat = g.turn
            legal = list(g.legal_moves)
            ranked = small_bot(seed).analyse(g.view(seat))
            assert sorted(str(r.move) for r in ranked) == sorted(str(m) for m in legal)
            assert all(r.line and r.line[0] == str(r.move) for r in ranked)
            assert [r.value for r in ranked] == sorted((r.value for r in ranked), reverse=True)
            move = small_bot(seed).choose(g.view(seat), legal)
            assert move in legal
            phases.add(g.phase)
    assert "play" in phases


@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_expectimax_plays_whole_games(preset, players):
    for seed in range(2):
        bots = [small_bot(seed) if i == seed % players else
                (GreedyBot() if i % 2 else RandomBot(seed + i)) for i in range(players)]
        game = Game(preset, players, seed=100 + seed)
        outcome = play_game(game, bots)
        assert game.is_over() and outcome == game.outcome()


def test_every_decision_kind_is_searched():
    """Flip choices and Go/Stop are max nodes of the searching seat."""
    seen = set()
    rng = random.Random(5)
    for seed in range(60):
        game = Game("casual", 2, seed=seed)
        while not game.is_over() and len(seen) < 3:
            if game.phase in ("flip", "gostop") and game.phase not in seen:
                ranked = small_bot().analyse(game.view(game.turn))
                assert {str(r.move) for r in ranked} == {str(m) for m in game.legal_moves}
                seen.add(game.phase)
            game.push(rng.choice(list(game.legal_moves)))
        if len(seen) == 2:
            break
    assert seen == {"flip", "gostop"}


def test_make_bot_expectimax():
    bot = make_bot("expectimax", seed=3)
    assert isinstance(bot, ExpectimaxBot) and bot.name == "expectimax"
    assert make_bot("expectimax:2").depth == 2
    bot = make_bot("expectimax:depth=2, samples=8,leaf=estimate,win=0.5")
    assert (bot.depth, bot.samples, bot.leaf, bot.win_bonus) == (2, 8, "estimate", 0.5)
    bot = make_bot("expectimax:samples=4")
    assert (bot.depth, bot.samples, bot.leaf) == (ExpectimaxBot.DEPTH, 4, ExpectimaxBot.LEAF)


@pytest.mark.parametrize("name,message", [
    ("expectimax:deep=2", "bad expectimax setting 'deep=2'"),
    ("expectimax:depth", "use key=value"),
    ("expectimax:samples=many", "samples needs a whole number"),
    ("expectimax:depth=0", "depth must be 1..2"),
    ("expectimax:samples=5000", "samples must be 1..1024"),
    ("expectimax:leaf=oracle", "leaf needs rollout or estimate"),
    ("expectimax:win=nan", "win needs a number -100..100"),
])
def test_make_bot_expectimax_errors(name, message):
    with pytest.raises(ValueError, match=message):
        make_bot(name)


def test_bot_defaults_are_the_search_defaults():
    from gostop_core.bots.search import DEFAULT_DEPTH, DEFAULT_SAMPLES, DEFAULT_WIN_BONUS
    assert (ExpectimaxBot.DEPTH, ExpectimaxBot.SAMPLES, ExpectimaxBot.WIN_BONUS) == \
        (DEFAULT_DEPTH, DEFAULT_SAMPLES, DEFAULT_WIN_BONUS)


def test_search_needs_the_seat_to_move():
    game = Game(seed=2)
    rules, fields = parse_view(game.view(1).to_str())
    with pytest.raises(ValueError, match="not the one to move"):
        search_fields(rules, fields)


# ---------------------------------------------------------------- hidden information
def _permute_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position with the other hands and the stock dealt again from
    their cards (same counts): ``seat``'s view is unchanged."""
    f = game._core.to_fields()
    hidden = [c for q in range(game.players) if q != seat
              for c in range(50) if f["hands"][q] >> c & 1] + list(f["stock"])
    rng.shuffle(hidden)
    k = 0
    for q in range(game.players):
        if q == seat:
            continue
        count = bin(f["hands"][q]).count("1")
        f["hands"][q] = sum(1 << c for c in hidden[k:k + count])
        k += count
    f["stock"] = hidden[k:]
    from gostop_core.notation import format_position
    return Game.from_position(format_position(game.rules, f))


def planning_bot(seed: int = 0) -> ExpectimaxBot:
    """The best bot's kind of search, small: early stop, planned Go/Stop in playouts."""
    return ExpectimaxBot(seed, samples=40, stop_z=1.0, plan=2)


def ismcts_bot(seed: int = 0) -> IsmctsBot:
    """The information-set MCTS bot, small (every root move is tried: no nan values)."""
    return IsmctsBot(seed, iterations=200)


def ismcts_tree_bot(seed: int = 0) -> IsmctsBot:
    """The same with the other seats' decisions in the tree."""
    return IsmctsBot(seed, iterations=200, opponents="tree")


def learned_bot(seed: int = 0):
    """The learned bot, small: its policy for every seat's playout moves, playouts
    cut after 3 turns by its value, each deal drawn among 4 by the opponent model."""
    from gostop_core.bots.learned import LearnedBot
    return LearnedBot(seed, samples=8, others=True, cut=3, worlds=4)


@pytest.mark.parametrize("make", [small_bot, planning_bot, ismcts_bot, ismcts_tree_bot,
                                  learned_bot])
@pytest.mark.parametrize("preset,players", [("casual", 2), ("casual", 4), ("traditional", 3),
                                            ("standard", 2), ("family", 4)])
def test_search_never_reads_hidden_cards(preset, players, make):
    rng = random.Random(11)
    checked = 0
    for seed in range(3):
        game = Game(preset, players, seed=seed)
        for g in positions_along(game, rng, every=4):
            if g._core.to_fields().get("forced_card") is not None or g.phase == "showdown":
                continue
            seat = g.turn
            other = _permute_hidden(g, seat, rng)
            assert other.view(seat).to_str() == g.view(seat).to_str()
            if other.position() == g.position():
                continue
            a = make(seed).analyse(g.view(seat))
            b = make(seed).analyse(other.view(seat))
            assert [(str(r.move), r.value, r.line) for r in a] == \
                   [(str(r.move), r.value, r.line) for r in b]
            checked += 1
    assert checked >= 3


# ---------------------------------------------------------------- chance nodes
@pytest.mark.parametrize("preset,players", [("casual", 2), ("casual", 3), ("traditional", 2),
                                            ("family", 4)])
def test_flip_probabilities_sum_to_one(preset, players):
    game = Game(preset, players, seed=4)
    for _ in range(3):
        game.push(next(iter(game.legal_moves)))
    view = game.view(game.turn)
    rules, fields = parse_view(view.to_str())
    one = chance_distribution(rules, fields, samples=1, seed=1)
    assert len(one) == view.stock_count
    assert all(abs(p - 1 / view.stock_count) < 1e-12 for p in one.values())
    many = chance_distribution(rules, fields, samples=64, seed=2)
    assert abs(sum(many.values()) - 1.0) < 1e-9
    # only unseen cards can be turned, each as likely as any other
    assert set(many) <= set(view.unseen)
    assert all(CARD_CODES[c] in view.unseen.codes() for c in many)


# ---------------------------------------------------------------- gostop hint
def test_hint_json_ranks_every_legal_move():
    game = Game(seed=7)
    runner = CliRunner()
    result = runner.invoke(cli, ["hint", game.position(), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    legal = sorted(str(m) for m in game.legal_moves)
    assert sorted(m["move"] for m in data["moves"]) == legal
    values = [m["value"] for m in data["moves"]]
    assert values == sorted(values, reverse=True)
    assert data["best"] == data["moves"][0]["move"]
    assert all(m["line"][0] == m["move"] for m in data["moves"])
    assert data["seat"] == 0 and data["depth"] == ExpectimaxBot.DEPTH


def test_hint_from_a_view_string_matches_the_position():
    game = Game(seed=9)
    runner = CliRunner()
    # no time limit: on a busy machine a limit would cut the two searches at different samples
    a = json.loads(runner.invoke(cli, ["hint", game.position(), "--json", "--time", "0"]).output)
    b = json.loads(runner.invoke(cli, ["hint", game.view(0).to_str(), "--json", "--time", "0"]).output)
    assert a["moves"] == b["moves"]
    text = runner.invoke(cli, ["hint", game.view(0).to_str(), "--depth", "1"])
    assert text.exit_code == 0 and "depth 1" in text.output
    assert text.output.count("\n") == 1 + len(list(game.legal_moves))


def test_hint_errors():
    game = Game(seed=9)
    runner = CliRunner()
    result = runner.invoke(cli, ["hint", game.view(1).to_str()])
    assert result.exit_code == 2 and "seat 0 is to move" in result.output
    result = runner.invoke(cli, ["hint", "gostop/1 nonsense"])
    assert result.exit_code == 2


@pytest.mark.parametrize("leaf", ExpectimaxBot.LEAVES)
def test_principal_line_names_flips_and_opponents(leaf):
    game = Game(seed=3)
    ranked = ExpectimaxBot(0, depth=2, samples=1, leaf=leaf).analyse(game.view(0))
    line = ranked[0].line
    assert any(e.startswith("flip:") for e in line)
    assert any(e.startswith("p1:") for e in line)
    assert CHANCE_SEAT == 7


def test_playout_leaf_continues_the_principal_line():
    """At depth 1 the line goes on with the first turns of the playout: the
    opponent's reply and its flip."""
    game = Game(seed=3)
    for r in ExpectimaxBot(0, depth=1, samples=1).analyse(game.view(0)):
        assert r.line[0] == str(r.move)
        assert r.line[1].startswith("flip:")
        assert any(e.startswith("p1:") for e in r.line[2:])


# ---------------------------------------------------------------- leaf values
def go_stop_game(seed: int) -> Game:
    """A casual 2-player hand played by greedy bots up to a Go/Stop decision."""
    greedy = GreedyBot()
    game = Game("casual", 2, seed=seed)
    while not game.is_over() and game.phase != "gostop":
        game.push(greedy.choose(game.view(game.turn), list(game.legal_moves)))
    return game


def test_stop_is_worth_exactly_what_it_books_plus_the_win_bonus():
    """A Stop ends the hand: the search values it at the points it books, the
    same in every sample, plus the win bonus."""
    checked = 0
    for seed in range(40):
        game = go_stop_game(seed)
        if game.is_over():
            continue
        seat = game.turn
        after = game.copy()
        after.push("stop")
        points = after.outcome().points
        for leaf in ExpectimaxBot.LEAVES:
            for bonus in (0.0, 2.0):
                ranked = ExpectimaxBot(seed, samples=4, leaf=leaf, win_bonus=bonus).analyse(
                    game.view(seat))
                stop = next(r for r in ranked if r.move.kind == "stop")
                assert stop.value == pytest.approx(points + bonus)
        checked += 1
    assert checked >= 10


def test_win_bonus_moves_each_value_by_at_most_the_bonus():
    """value(bonus) - value(0) = bonus x (P(win) - P(loss)), within [-bonus, +bonus]."""
    game = Game(seed=21)
    view = game.view(0)
    plain = {str(r.move): r.value for r in ExpectimaxBot(1, samples=8, win_bonus=0).analyse(view)}
    more = {str(r.move): r.value for r in ExpectimaxBot(1, samples=8, win_bonus=3).analyse(view)}
    assert plain.keys() == more.keys()
    shifts = [more[m] - plain[m] for m in plain]
    assert all(-3 - 1e-9 <= d <= 3 + 1e-9 for d in shifts)
    assert any(abs(d) > 1e-6 for d in shifts)


def test_playouts_are_reproducible_and_seeded():
    game = Game(seed=5)
    view = game.view(0)
    a = ExpectimaxBot(7, samples=16).analyse(view)
    b = ExpectimaxBot(7, samples=16).analyse(view)
    c = ExpectimaxBot(8, samples=16).analyse(view)
    assert [(str(r.move), r.value) for r in a] == [(str(r.move), r.value) for r in b]
    assert [r.value for r in a] != [r.value for r in c]


# ---------------------------------------------------------------- successive halving
def test_successive_halving_keeps_the_better_half_each_round():
    game = Game(seed=8)
    view = game.view(0)
    n = game.legal_moves.count()
    assert n >= 6
    ranked = ExpectimaxBot(2, samples=64, halving=True).analyse(view)
    counts = [r.samples for r in ranked]
    # a quarter of the samples for every move, half for the better half, all
    # for the better half of those (at least two each round)
    assert sorted(set(counts)) == [16, 32, 64]
    assert counts.count(64) == 2
    assert counts.count(32) + counts.count(64) == max(2, n // 2)
    assert counts == sorted(counts, reverse=True)  # survivors are ranked first
    for group in (64, 32, 16):
        values = [r.value for r in ranked if r.samples == group]
        assert values == sorted(values, reverse=True)
    flat = ExpectimaxBot(2, samples=64).analyse(view)
    assert all(r.samples == 64 for r in flat)
    # the moves searched on every sample have the same values with or without halving
    both = {str(r.move): r.value for r in flat}
    for r in ranked[:2]:
        assert r.value == pytest.approx(both[str(r.move)])


def test_hint_leaf_option_and_json_fields():
    game = Game(seed=7)
    runner = CliRunner()
    result = runner.invoke(cli, ["hint", game.position(), "--leaf", "estimate", "--depth", "2",
                                 "--samples", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["leaf"], data["depth"], data["samples"]) == ("estimate", 2, 4)
    assert all(m["samples"] == 4 for m in data["moves"])
    result = runner.invoke(cli, ["hint", game.position(), "--leaf", "oracle"])
    assert result.exit_code == 2


@pytest.mark.parametrize("good,bad", [("expectimax:samples=2,leaf=estimate", "expectimax"),
                                      ("ismcts:iterations=50,c=1", "ismcts")])
def test_arena_takes_search_settings_and_rejects_bad_ones(good, bad):
    runner = CliRunner()
    result = runner.invoke(cli, ["arena", good, "greedy",
                                 "--deals", "2", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["bots"][0] == good
    result = runner.invoke(cli, ["arena", f"{bad}:deep=2", "greedy", "--deals", "2"])
    assert result.exit_code == 2
    assert f"bad {bad} setting 'deep=2'" in result.output
    assert "Traceback" not in result.output


def test_play_takes_expectimax_settings_among_the_bot_names():
    from gostop_cli.main import split_bot_names
    assert split_bot_names("expectimax:depth=2,samples=8,greedy") == \
        ["expectimax:depth=2,samples=8", "greedy"]
    assert split_bot_names("Greedy, expectimax") == ["greedy", "expectimax"]
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "--auto", "--quiet", "--seed", "3",
                                 "--bot", "expectimax:samples=4,leaf=estimate,greedy"])
    assert result.exit_code == 0, result.output
    assert "(expectimax:samples=4,leaf=estimate)" in result.output
    result = runner.invoke(cli, ["play", "--auto", "--bot", "expectimax:deep=1"])
    assert result.exit_code == 2 and "bad expectimax setting" in result.output
