"""scripts/rating.py: the Bradley-Terry fit behind the round-robin rating of
docs/strength.md."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from conftest import SCRIPTS, load_script

SCRIPT = SCRIPTS / "rating.py"


@pytest.fixture(scope="module")
def rating():
    return load_script("rating")


def test_two_bots_get_the_odds_of_their_record(rating):
    # with two players the maximum-likelihood strength ratio is the win ratio
    p = rating.bradley_terry({("a", "b"): 75.0, ("b", "a"): 25.0}, ["a", "b"])
    assert p["a"] / p["b"] == pytest.approx(3.0, rel=1e-6)
    assert p["a"] * p["b"] == pytest.approx(1.0)  # geometric mean 1


def test_a_consistent_round_robin_is_recovered(rating):
    # records drawn exactly from strengths 4 : 2 : 1 give those strengths back
    true = {"x": 4.0, "y": 2.0, "z": 1.0}
    wins = {(a, b): 100 * true[a] / (true[a] + true[b])
            for a in true for b in true if a != b}
    p = rating.bradley_terry(wins, list(true))
    assert p["x"] / p["y"] == pytest.approx(2.0, rel=1e-4)
    assert p["y"] / p["z"] == pytest.approx(2.0, rel=1e-4)


def test_command_line_reads_arena_json(tmp_path):
    run = {"bots": ["expectimax", "greedy"], "games": 100, "deals": 50,
           "mean_points": [2.0, -2.0], "ci95": [[1.0, 3.0], [-3.0, -1.0]],
           "win_rate": [0.6, 0.4], "draw_rate": 0.0, "decided_win_rate": [0.6, 0.4]}
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run))
    out = subprocess.run([sys.executable, str(SCRIPT), "--alias", "expectimax=expectimax-v1",
                          str(path), "--json"], capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert data["pairs"][0]["a"] == "expectimax-v1"
    elo = data["elo"]
    assert elo["expectimax-v1"] - elo["greedy"] == pytest.approx(400 * math.log10(1.5), abs=0.5)
