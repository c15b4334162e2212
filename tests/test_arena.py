"""The arena: duplicate deals with the seats rotated, net points, ``gostop arena``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gostop_cli.main import cli
from gostop_core import Game, Rules
from gostop_core.arena import net_points, rotation_seats, run_arena
from gostop_core.bots import GreedyBot, play_game


def test_rotation_seats_every_entry_every_seat():
    for n in (2, 3, 4):
        rotations = [rotation_seats(n, k) for k in range(n)]
        for seats in rotations:
            assert sorted(seats) == list(range(n))
        for entry in range(n):
            assert sorted(seats.index(entry) for seats in rotations) == list(range(n))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_duplicate_deals_rotate_the_seats(players):
    result = run_arena(["greedy", "random"], deals=3, players=players, workers=1, seed=5)
    assert result.games == 3 * players
    assert result.bots == ["greedy"] + ["random"] * (players - 1)
    for deal in range(3):
        recs = [r for r in result.records if r.deal == deal]
        assert [r.rotation for r in recs] == list(range(players))
        assert {r.seats for r in recs} == {rotation_seats(players, k) for k in range(players)}
    # the same deal with the same bots in the same seats replays the same game
    rec = result.records[0]
    game = Game("casual", players, seed=5)
    assert rec.seats[0] == 0


def test_two_player_casual_games_sum_to_zero():
    result = run_arena(["greedy", "random"], deals=6, players=2, workers=1)
    for r in result.records:
        assert sum(r.points) == 0
    assert abs(result.mean_points[0] + result.mean_points[1]) < 1e-9
    lo, hi = result.ci95[0]
    assert lo <= result.mean_points[0] <= hi
    assert 0 <= result.draw_rate <= 1
    assert abs(sum(result.win_rate) + result.draw_rate - 1) < 1e-3


def test_net_points_use_chips_for_chip_rules():
    rules = Rules("traditional")
    game = Game(rules, 3, seed=2)
    outcome = play_game(game, [GreedyBot(), GreedyBot(), GreedyBot()])
    assert net_points(outcome, rules, 3) == list(outcome.chips)
    casual = Game("casual", 2, seed=2)
    out = play_game(casual, [GreedyBot(), GreedyBot()])
    pts = net_points(out, casual.rules, 2)
    if out.winner is None:
        assert pts == [0, 0]
    else:
        assert pts[out.winner] == out.points and sum(pts) == 0


def test_arena_uses_worker_processes():
    one = run_arena(["greedy", "random", "random"], deals=4, players=3, rules="traditional",
                    workers=1, seed=9)
    two = run_arena(["greedy", "random", "random"], deals=4, players=3, rules="traditional",
                    workers=2, seed=9)
    assert one.records == two.records
    assert one.as_dict() == two.as_dict()


def test_arena_cli_json_keys():
    runner = CliRunner()
    result = runner.invoke(cli, ["arena", "random", "greedy", "--deals", "3", "--workers", "1",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"bots", "games", "mean_points", "ci95", "win_rate", "draw_rate"} <= set(data)
    assert data["bots"] == ["random", "greedy"] and data["games"] == 6
    assert len(data["mean_points"]) == len(data["ci95"]) == len(data["win_rate"]) == 2


@pytest.mark.parametrize("players", [2, 3])
def test_the_lead_is_entry_zero_less_each_entry_paired_by_deal(players):
    """``lead[i]``: the mean over the deals of entry 0's points less entry i's in
    that deal's games, with mean +- 1.96 sd / sqrt(deals) of those per-deal means,
    recomputed here from the games themselves."""
    import statistics
    bots = ["greedy", "random", "greedy"][:players]
    result = run_arena(bots, deals=8, players=players, workers=1, seed=21)
    assert result.lead[0] is None and len(result.lead) == players
    for i in range(1, players):
        per_deal = [statistics.fmean(r.points[0] - r.points[i] for r in result.records
                                     if r.deal == d) for d in range(8)]
        mean = statistics.fmean(per_deal)
        half = 1.96 * statistics.stdev(per_deal) / 8 ** 0.5
        assert result.lead[i] == pytest.approx([mean, mean - half, mean + half], abs=1e-4)
        assert result.as_dict()["lead"][i] == result.lead[i]
    if players == 2:  # a 2-player casual game sums to zero: the lead is twice entry 0's mean
        assert result.lead[1][0] == pytest.approx(2 * result.mean_points[0], abs=2e-4)
    text = CliRunner().invoke(cli, ["arena", *bots, "--players", str(players), "--deals", "8",
                                    "--seed", "21", "--workers", "1"]).output
    lines = [line for line in text.splitlines() if "paired deal by deal" in line]
    if players == 2:
        assert lines == []  # twice entry 0's own figure: not printed
    else:
        lo, hi = result.lead[1][1:]
        assert lines[0].strip() == (f"0. ahead of 1.: {result.lead[1][0]:+.3f} points/game "
                                    f"[{lo:+.3f}, {hi:+.3f}] (paired deal by deal)")
        assert len(lines) == 2


def test_arena_cli_text_and_errors():
    runner = CliRunner()
    result = runner.invoke(cli, ["arena", "expectimax", "random", "--deals", "1", "--workers", "1",
                                 "--players", "3", "--rules", "family"])
    assert result.exit_code == 0, result.output
    assert "3 games" in result.output and "expectimax" in result.output
    bad = runner.invoke(cli, ["arena", "clever"])
    assert bad.exit_code == 2
    too_many = runner.invoke(cli, ["arena", "random", "random", "random"])
    assert too_many.exit_code == 2


@pytest.mark.parametrize("as_json", [False, True])
def test_arena_progress_bar_only_on_a_terminal_without_json(monkeypatch, as_json):
    """The progress bar goes to stderr when it is a terminal, never with --json."""
    import rich.console
    monkeypatch.setattr(rich.console.Console, "is_terminal", property(lambda self: True))
    args = ["arena", "random", "greedy", "--deals", "3", "--workers", "1"]
    result = CliRunner().invoke(cli, args + (["--json"] if as_json else []))
    assert result.exit_code == 0, result.output
    assert ("deals" in result.stderr) != as_json
    if as_json:
        assert json.loads(result.stdout)["games"] == 6


def test_arena_streams_deals_with_a_bounded_number_in_flight(monkeypatch):
    """Deals are handed to the workers a few batches at a time: never more than
    ``in_flight`` batches wait, however many deals the arena has (a pool whose
    one worker thread finishes a batch at a time)."""
    import queue
    import threading

    from gostop_core.arena import local as arena
    submitted: list[int] = []
    waiting: queue.Queue = queue.Queue()
    most = [0]

    class FakePool:
        def __init__(self, workers, initializer, initargs):
            initializer(*initargs)
            threading.Thread(target=self.work, daemon=True).start()

        def work(self):
            while True:
                func, args, callback = waiting.get()
                if func is None:
                    return
                callback(func(*args))

        def apply_async(self, func, args, callback, error_callback):
            submitted.append(args[0])
            waiting.put((func, args, callback))
            most[0] = max(most[0], waiting.qsize())

        def close(self):
            waiting.put((None, None, None))

        def join(self):
            pass

        def terminate(self):
            pass

    class FakeContext:
        Pool = FakePool

    import multiprocessing
    import signal as _signal
    monkeypatch.setattr(multiprocessing, "get_context", lambda kind: FakeContext)
    old = _signal.getsignal(_signal.SIGINT), _signal.getsignal(_signal.SIGTERM)
    try:
        result = run_arena(["random", "greedy"], deals=40, players=2, workers=2, in_flight=3,
                           keep_records=False)
    finally:
        _signal.signal(_signal.SIGINT, old[0])
        _signal.signal(_signal.SIGTERM, old[1])
        arena._close_worker()
    assert 1 <= most[0] <= 3
    assert result.games == 80 and result.records == []
    assert submitted == list(range(40))  # 40 batches of one deal, in order
    serial = run_arena(["random", "greedy"], deals=40, players=2, workers=1)
    assert result.as_dict() == serial.as_dict()
