"""``gostop compare``: two arena runs on the same deals, paired deal by deal
(gostop_core.arena.compare)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gostop_cli.main import cli
from gostop_core.arena.compare import ComparisonError, compare_runs

#: A file bot that plays the first legal move and gives up (raises) on its
#: third decision of a game: its games end by forfeit.
QUITTER = """
from gostop_core.bots import Bot

class Quitter(Bot):
    name = "quitter"
    def choose(self, view, legal):
        self.n = getattr(self, "n", 0) + 1
        if self.n >= 3:
            raise RuntimeError("gives up")
        return legal[0]
"""


def arena(tmp_path, name, *args):
    """Run ``gostop arena ARGS --records`` into ``name``; its path and JSON summary."""
    path = tmp_path / name
    result = CliRunner().invoke(cli, ["arena", *args, "--workers", "1", "--json",
                                      "--records", str(path)])
    assert result.exit_code == 0, result.output
    return path, json.loads(result.output)


def compare(*args):
    return CliRunner().invoke(cli, ["compare", *map(str, args)])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two variants (greedy, random) against the same opponent on 6 deals."""
    tmp = tmp_path_factory.mktemp("runs")
    a = arena(tmp, "a.jsonl", "greedy", "random", "--deals", "6", "--seed", "40")
    b = arena(tmp, "b.jsonl", "random", "random", "--deals", "6", "--seed", "40")
    return a, b


def test_the_means_are_the_arenas_own(runs):
    (a, sum_a), (b, sum_b) = runs
    result = compare(a, b, "--json")
    assert result.exit_code == 0, result.output
    r = json.loads(result.output)
    # the records replayed give the points each arena reported while it played
    assert r["mean_points"] == [sum_a["mean_points"][0], sum_b["mean_points"][0]]
    assert r["decided_win_rate"] == [sum_a["decided_win_rate"][0], sum_b["decided_win_rate"][0]]
    assert r["difference"] == pytest.approx(sum_a["mean_points"][0] - sum_b["mean_points"][0],
                                            abs=2e-4)  # each rounded to 4 places
    assert r["deals"] == 6 and r["games"] == 12
    assert r["bots"] == ["greedy", "random"] and r["opponents"] == ["random"]
    low, high = r["ci95"]
    assert low <= r["difference"] <= high
    assert 0 < r["games_differ"] <= 12


def test_a_run_against_itself_differs_nowhere(runs):
    (a, _), _ = runs
    r = compare_runs(open(a).read(), open(a).read())
    assert (r.difference, r.ci95, r.games_differ) == (0.0, (0.0, 0.0), 0)
    text = compare(a, a).output
    assert "games whose moves differ: 0 of 12" in text
    assert "A - B: +0.00 [+0.00, +0.00]" in text


def test_the_pairing_narrows_the_interval(runs):
    """Paired over the deals, the interval of the difference is no wider than
    the two runs' own intervals added (what comparing the two summaries gives)."""
    (a, sum_a), (b, sum_b) = runs
    r = compare_runs(open(a).read(), open(b).read())
    width = r.ci95[1] - r.ci95[0]
    unpaired = sum(s["ci95"][0][1] - s["ci95"][0][0] for s in (sum_a, sum_b))
    assert width <= unpaired + 1e-9


def test_three_players_any_entry(tmp_path):
    a, sum_a = arena(tmp_path, "a.jsonl", "random", "greedy", "random", "--players", "3",
                     "--deals", "3", "--seed", "9")
    b, sum_b = arena(tmp_path, "b.jsonl", "random", "random", "random", "--players", "3",
                     "--deals", "3", "--seed", "9")
    r = compare_runs(open(a).read(), open(b).read(), entry=1)
    assert r.bots == ("greedy", "random") and r.opponents == ("random", "random")
    assert r.games == 9
    assert r.mean_points == (sum_a["mean_points"][1], sum_b["mean_points"][1])
    assert r.decided_win_rate == (sum_a["decided_win_rate"][1], sum_b["decided_win_rate"][1])
    bad = compare(a, b)  # entry 0: the entries at 1 differ
    assert bad.exit_code == 2 and "the opponents differ" in bad.output


def test_games_lost_by_forfeit_count_as_the_arena_counts_them(tmp_path):
    bot = tmp_path / "quitter.py"
    bot.write_text(QUITTER)
    a, sum_a = arena(tmp_path, "a.jsonl", f"{bot}:Quitter", "greedy", "--deals", "2")
    b, sum_b = arena(tmp_path, "b.jsonl", "random", "greedy", "--deals", "2")
    assert sum_a["forfeits"][0] == 4
    r = compare_runs(open(a).read(), open(b).read())
    assert r.mean_points == (sum_a["mean_points"][0], sum_b["mean_points"][0])
    assert r.decided_win_rate == (0.0, sum_b["decided_win_rate"][0])
    assert r.forfeits == (4, 0)
    assert "4 lost by forfeit" in compare(a, b).output


def test_runs_of_other_deals_are_refused(runs, tmp_path):
    (a, _), _ = runs
    other, _ = arena(tmp_path, "c.jsonl", "random", "random", "--deals", "6", "--seed", "41")
    result = compare(a, other)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "different games" in result.output
    assert "(A: deal 0 of seed 40 rotation 0, B: deal 0 of seed 41 rotation 0" in result.output
    assert "Traceback" not in result.output


def test_runs_of_other_opponents_are_refused(runs, tmp_path):
    (a, _), _ = runs
    other, _ = arena(tmp_path, "c.jsonl", "random", "greedy", "--deals", "6", "--seed", "40")
    result = compare(a, other)
    assert result.exit_code == 2 and "the opponents differ at deal 0" in result.output


def test_a_run_cut_short_is_refused(runs, tmp_path):
    (a, _), _ = runs
    lines = open(a).read().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:5]))  # deal 2 has one of its two games
    result = compare(cut, cut)
    assert result.exit_code == 2 and "deal 2 has 1 game(s)" in result.output
    result = compare(a, cut)
    assert result.exit_code == 2 and "run B ends after 5 games, run A holds more" in result.output


def test_games_out_of_order_are_refused(runs, tmp_path):
    (a, _), _ = runs
    lines = open(a).read().splitlines(keepends=True)
    swapped = tmp_path / "swapped.jsonl"
    swapped.write_text("".join([lines[2], lines[3], lines[0], lines[1]] + lines[4:]))
    result = compare(swapped, swapped)
    assert result.exit_code == 2 and "not in deal and rotation order" in result.output


@pytest.mark.parametrize("damage, message", [
    (lambda r: "{not json", "JSON"),
    (lambda r: json.dumps({k: v for k, v in json.loads(r).items() if k != "arena"}),
     "not a record of 'gostop arena --records'"),
    (lambda r: json.dumps({**json.loads(r), "arena": {"deal": -1, "rotation": 0}}),
     "needs a deal"),
    (lambda r: json.dumps({**json.loads(r), "arena": {"deal": 0, "rotation": 7}}),
     "needs a deal"),
    (lambda r: json.dumps({**json.loads(r), "arena": {"seed": -1, "deal": 0, "rotation": 0}}),
     "seed is not a seed"),
    (lambda r: json.dumps({**json.loads(r), "outcome": {**json.loads(r)["outcome"],
                                                        "points": 999}}),
     "outcome"),
])
def test_a_damaged_record_names_its_file_and_line(runs, tmp_path, damage, message):
    (a, _), _ = runs
    lines = open(a).read().splitlines()
    lines[2] = damage(lines[2])
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    result = compare(a, bad)
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"Error: {bad}: line 3: ")
    assert message in result.output and result.output.count("\n") == 1


def test_names_from_a_file_reach_the_terminal_escaped(runs, tmp_path):
    (a, _), _ = runs
    hostile = tmp_path / "hostile.jsonl"
    with open(a) as src, open(hostile, "w") as dst:
        for line in src:
            rec = json.loads(line)
            for seat in rec["seats"]:
                if seat["bot"] == "greedy":
                    seat["bot"] = seat["name"] = "greedy\x1b[2J\u009b31m"
            dst.write(json.dumps(rec) + "\n")
    for args in ([hostile, hostile], [hostile, hostile, "--json"]):
        result = compare(*args)
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "\u009b" not in result.output


def test_usage_errors(runs, tmp_path):
    (a, _), _ = runs
    assert compare("-", "-").exit_code == 2
    missing = compare(a, tmp_path / "none.jsonl")
    assert missing.exit_code == 2 and "cannot read" in missing.output
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert "both runs are empty" in compare(empty, empty).output
    assert "entry 3 is not in a 2-player arena" in compare(a, a, "--entry", "3").output
    with pytest.raises(ComparisonError):
        compare_runs("", "", entry=-1)


def test_the_comparison_is_antisymmetric(runs):
    (a, _), (b, _) = runs
    ab = compare_runs(open(a).read(), open(b).read())
    ba = compare_runs(open(b).read(), open(a).read())
    assert ab.difference == -ba.difference
    assert ab.ci95 == (-ba.ci95[1], -ba.ci95[0])
    assert ab.bots == ba.bots[::-1] and ab.games_differ == ba.games_differ


def test_a_run_played_in_parts_is_the_run_played_at_once(runs, tmp_path):
    """The arena's deals 0-5 of seed 40 are the deals 0-1 of seed 40 and 0-3 of
    seed 42: the parts' files joined compare as the whole run, each deal paired
    with itself, and a run of other parts pairs with it deal by deal."""
    (a, _), (b, _) = runs
    first, _ = arena(tmp_path, "a1.jsonl", "greedy", "random", "--deals", "2", "--seed", "40")
    rest, _ = arena(tmp_path, "a2.jsonl", "greedy", "random", "--deals", "4", "--seed", "42")
    joined = tmp_path / "joined.jsonl"
    joined.write_text(first.read_text() + rest.read_text())
    same = compare_runs(open(a).read(), joined.read_text())
    assert (same.deals, same.games, same.games_differ, same.difference) == (6, 12, 0, 0.0)
    whole = compare_runs(open(a).read(), open(b).read())
    parts = compare_runs(joined.read_text(), open(b).read())
    assert parts == whole
    # the parts in the other order, or a deal played twice, are refused
    backwards = tmp_path / "backwards.jsonl"
    backwards.write_text(rest.read_text() + first.read_text())
    result = compare(backwards, backwards)
    assert result.exit_code == 2 and "not in deal and rotation order" in result.output
    assert "deal 0 of seed 40 rotation 0 after deal 3 of seed 42 rotation 1" in result.output
    overlap, _ = arena(tmp_path, "a3.jsonl", "greedy", "random", "--deals", "3", "--seed", "40")
    twice = tmp_path / "twice.jsonl"
    twice.write_text(overlap.read_text() + rest.read_text())  # seed 42 is deal 2 of both
    result = compare(twice, twice)
    assert result.exit_code == 2 and "with no deal twice" in result.output
