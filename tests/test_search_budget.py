"""The search's budgets and the bot names: a time limit (``time_ms``), the early
stop once the best move is clear (``stop_z``), the seat's own Go/Stop planned
inside the playouts (``plan``), ``make_bot("best")`` and ``expectimax-v1``,
``gostop hint --time`` and the ``time=`` bot setting."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

from gostop_cli.main import cli
from gostop_core import Game, Move
from gostop_core.bots import (BEST_SETTINGS, EXPECTIMAX_V1_SETTINGS, ExpectimaxBot, make_bot,
                              play_game)
from gostop_core.notation import parse_view
from gostop_core.bots.search import DEFAULT_MIN_SAMPLES, STOP_CHECK, search_fields, halving_plan


def first_view(seed: int = 5) -> str:
    game = Game("casual", 2, seed=seed)
    return game.view(game.turn).to_str()


def values(result: dict) -> list[tuple[int, float]]:
    return [(code, value) for code, value, _ in result["moves"]]


def same_values(a: dict, b: dict) -> bool:
    """The same moves with the same values (up to rounding)."""
    return ([code for code, _ in values(a)] == [code for code, _ in values(b)]
            and [v for _, v in values(a)] == pytest.approx([v for _, v in values(b)]))


# ---------------------------------------------------------------- names
def test_expectimax_v1_is_the_first_default_fixed():
    bot = make_bot("expectimax-v1", seed=4)
    assert isinstance(bot, ExpectimaxBot)
    assert (bot.depth, bot.samples, bot.leaf, bot.win_bonus) == (1, 256, "rollout", 2.0)
    assert (bot.halving, bot.time_ms, bot.stop_z, bot.plan) == (False, 0.0, 0.0, 0)
    assert not bot.consistent  # the own decisions of each sampled world, as first released
    assert EXPECTIMAX_V1_SETTINGS == {"depth": 1, "samples": 256, "leaf": "rollout",
                                      "win_bonus": 2.0, "consistent": False}


def test_best_has_the_best_settings_and_takes_overrides():
    bot = make_bot("Best", seed=1)
    assert isinstance(bot, ExpectimaxBot)
    for key, value in BEST_SETTINGS.items():
        assert getattr(bot, key) == value
    bot = make_bot("best:time=250,samples=64")
    assert (bot.time_ms, bot.samples) == (250.0, 64)
    for key, value in BEST_SETTINGS.items():
        if key != "samples":
            assert getattr(bot, key) == value
    assert make_bot("best:2").depth == 2


@pytest.mark.parametrize("name,message", [
    ("expectimax:time=-5", "time must be 0"),
    ("expectimax:time=soon", "time needs a number"),
    ("expectimax:stop=-1", "stop must be 0"),
    ("expectimax:plan=100", "plan must be 0..64"),
    ("best:plan=x", "plan needs a whole number"),
    ("best:speed=1", "bad best setting 'speed=1'"),
])
def test_budget_settings_are_checked(name, message):
    with pytest.raises(ValueError, match=message):
        make_bot(name)


# ---------------------------------------------------------------- time limit
def test_time_limit_is_respected_and_counts_only_whole_samples():
    rules, fields = parse_view(first_view())
    started = time.perf_counter()
    result = search_fields(rules, fields, samples=1024, seed=3, time_ms=40.0)
    elapsed = (time.perf_counter() - started) * 1000
    assert result["stopped"] == "time"
    assert 1 <= result["samples"] < 1024
    # the clock is read after every root move: one move's playouts of overrun
    # at most (generous on a busy machine)
    assert elapsed < 40.0 + 400.0
    assert set(result["counts"]) == {result["samples"]}
    # a sample cut short is dropped: the values are those of exactly that many samples
    exact = search_fields(rules, fields, samples=result["samples"], seed=3)
    assert same_values(result, exact)


def test_a_time_limit_that_does_not_bind_changes_nothing():
    rules, fields = parse_view(first_view(9))
    plain = search_fields(rules, fields, samples=8, seed=2)
    timed = search_fields(rules, fields, samples=8, seed=2, time_ms=600_000.0)
    assert timed["stopped"] == "samples" and timed["samples"] == 8
    assert values(timed) == values(plain)
    assert [line for *_, line in timed["moves"]] == [line for *_, line in plain["moves"]]


# ---------------------------------------------------------------- early stop
def test_early_stop_is_a_prefix_of_the_full_search():
    rules, fields = parse_view(first_view())
    early = search_fields(rules, fields, samples=512, seed=1, stop_z=2.0)
    assert early["stopped"] == "decided"
    done = early["samples"]
    assert DEFAULT_MIN_SAMPLES <= done < 512 and done % STOP_CHECK == 0
    # the samples are drawn in the same order: stopping at N is searching N
    exact = search_fields(rules, fields, samples=done, seed=1)
    assert same_values(early, exact)
    # a stricter test needs more samples for the same choice
    strict = search_fields(rules, fields, samples=512, seed=1, stop_z=6.0)
    assert strict["samples"] >= done


def test_early_stop_waits_while_two_moves_are_close():
    """A move tied with the best within the tolerance counts as decided, a
    close one that might be better keeps the sampling going: with an
    impossible confidence the search runs all its samples unless every other
    move is within the tolerance on every sample."""
    rules, fields = parse_view(first_view(12))
    result = search_fields(rules, fields, samples=64, seed=4, stop_z=1e9, tolerance=0.0)
    assert result["samples"] == 64 and result["stopped"] == "samples"


def test_search_arguments_are_checked():
    rules, fields = parse_view(first_view())
    for kwargs in ({"plan": -1}, {"plan": 65}, {"time_ms": -1.0}, {"stop_z": -0.5}):
        with pytest.raises(ValueError):
            search_fields(rules, fields, samples=2, **kwargs)


# ---------------------------------------------------------------- planned Go/Stop
def _go_stop_positions(count: int):
    """Views of the seat to move at a Go/Stop decision, from greedy games."""
    from gostop_core.bots import GreedyBot
    found = []
    for seed in range(200):
        game = Game("casual", 2, seed=seed)
        bot = GreedyBot()
        while not game.is_over() and len(found) < count:
            seat = game.turn
            if game.phase == "gostop":
                found.append(game.view(seat).to_str())
            game.push(bot.choose(game.view(seat), list(game.legal_moves)))
        if len(found) >= count:
            return found
    return found


def test_planned_go_stop_changes_playouts_and_is_reproducible():
    rules, fields = parse_view(first_view())
    greedy = search_fields(rules, fields, samples=16, seed=6)
    a = search_fields(rules, fields, samples=16, seed=6, plan=4)
    b = search_fields(rules, fields, samples=16, seed=6, plan=4)
    assert values(a) == values(b)
    assert values(a) != values(greedy)  # the seat's later Go/Stop is chosen otherwise


def test_planned_go_stop_keeps_the_root_stop_exact():
    """At the root the Go/Stop is searched either way: a Stop is worth what it
    books, planned or not (the planning only changes later decisions)."""
    for text in _go_stop_positions(3):
        rules, fields = parse_view(text)
        plain = dict((code, v) for code, v in values(search_fields(rules, fields, samples=8,
                                                                   seed=2)))
        planned = dict((code, v) for code, v in values(search_fields(rules, fields, samples=8,
                                                                     seed=2, plan=4)))
        stop = next(code for code in plain if str(Move.from_code(code)) == "stop")
        go = next(code for code in plain if str(Move.from_code(code)) == "go")
        assert planned[stop] == plain[stop]
        assert set(planned) == set(plain) and go in planned


def test_best_bot_plays_whole_games_from_views():
    game = Game("casual", 2, seed=21)
    outcome = play_game(game, [make_bot("best:samples=32", seed=1), make_bot("greedy")])
    assert game.is_over() and outcome is not None


# ---------------------------------------------------------------- CLI
def test_hint_time_option_and_json():
    position = Game(seed=7).position()
    runner = CliRunner()
    result = runner.invoke(cli, ["hint", position, "--time", "0", "--samples", "8", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["samples"] <= 8 and data["moves"]
    result = runner.invoke(cli, ["hint", position, "--time", "-3"])
    assert result.exit_code == 2
    result = runner.invoke(cli, ["hint", "--help"])
    assert "--time MS" in result.output and "[default: 800" in result.output


def test_play_and_arena_default_to_the_best_bot_and_take_time():
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "--help"])
    assert "[default: best]" in result.output
    result = runner.invoke(cli, ["play", "--auto", "--quiet", "--seed", "3",
                                 "--bot", "best:samples=4,time=50,greedy"])
    assert result.exit_code == 0, result.output
    assert "(best:samples=4,time=50)" in result.output
    result = runner.invoke(cli, ["arena", "best:samples=4,time=100", "expectimax:samples=2,time=50",
                                 "--deals", "1", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["bots"] == ["best:samples=4,time=100",
                                                 "expectimax:samples=2,time=50"]


# ---------------------------------------------------------------- sequential halving (halving=2)
@pytest.mark.parametrize("n", [2, 3, 5, 8, 10, 13])
def test_halving_plan_spends_the_uniform_budget(n):
    """Each round's moves get an equal share of n x samples move-samples: the
    plan costs no more than every move on every sample, and the last two moves
    get more samples than that."""

    ends = halving_plan(n, 64)
    assert ends == sorted(ends) and len(ends) == max(1, (n - 1).bit_length())
    cost, alive, done = 0, n, 0
    for end in ends:
        cost += alive * (end - done)
        done, alive = end, max(2, alive // 2)
    assert cost <= n * 64
    assert ends[-1] >= 64


def test_sequential_halving_keeps_the_better_moves_on_common_samples():
    rules, fields = parse_view(first_view())
    result = search_fields(rules, fields, 1, 32, 9, halving=2)
    counts = result["counts"]
    n = len(counts)

    ends = halving_plan(n, 32)
    assert result["samples"] == max(counts) == ends[-1]
    assert min(counts) == ends[0] and counts.count(ends[-1]) == 2
    # a move kept longer was never worse, at its last common round, than one dropped
    best = max(range(n), key=lambda i: (counts[i], result["moves"][i][1]))
    assert counts[best] == ends[-1]
    # deterministic, and a time share that does not bind changes nothing
    assert same_values(search_fields(rules, fields, 1, 32, 9, halving=2), result)
    assert same_values(search_fields(rules, fields, 1, 32, 9, halving=2, time_ms=1e7), result)
    with pytest.raises(ValueError):
        search_fields(rules, fields, 1, 32, 9, halving=3)


def test_sequential_halving_under_a_time_limit_ends_its_rounds_on_time():
    rules, fields = parse_view(first_view())
    started = time.perf_counter()
    result = search_fields(rules, fields, 1, 1024, 9, halving=2, time_ms=60.0, consistent=True)
    assert (time.perf_counter() - started) * 1000 < 60.0 + 250.0
    counts = sorted(result["counts"])
    assert result["stopped"] in ("time", "samples")
    assert counts[-1] == counts[-2] == result["samples"]   # the last two: every sample
    assert counts[0] < counts[-1]                           # the rest dropped on the way
    bot = make_bot("expectimax:samples=16,halving=2,consistent=1")
    assert bot.halving == 2
    with pytest.raises(ValueError, match="0 or 1 or 2"):
        make_bot("expectimax:halving=3")
