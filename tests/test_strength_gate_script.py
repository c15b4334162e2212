"""scripts/strength_gate.py: the fixed-seed arena smoke every bot change runs."""

from __future__ import annotations

import json

import pytest
from conftest import load_script

@pytest.fixture(scope="module")
def gate():
    return load_script("strength_gate")


def figures(points: float, low: float, high: float, forfeits: int = 0) -> dict:
    return {"bot": "best", "matches": [
        {"opponent": "greedy", "deals": 100, "seed": 900000, "mean_points": points,
         "ci95": [low, high], "forfeits": forfeits}]}


def test_a_drop_beyond_the_interval_is_a_regression(gate):
    reference = figures(5.0, 3.5, 6.5)
    assert gate.regressions(reference, figures(3.6, 2.0, 5.2)) == []
    assert gate.regressions(reference, figures(7.0, 5.5, 8.5)) == []
    found = gate.regressions(reference, figures(3.4, 1.9, 4.9))
    assert len(found) == 1 and "greedy" in found[0] and "+3.40" in found[0]
    # a reference of zero width (two bots that play alike): the new run's width
    mirror = figures(0.0, 0.0, 0.0)
    assert gate.regressions(mirror, figures(-1.0, -3.0, 1.0)) == []
    assert gate.regressions(mirror, figures(-2.5, -4.5, -0.5))


def test_forfeits_fail_and_other_matches_are_not_compared(gate):
    reference = figures(5.0, 3.5, 6.5)
    assert gate.regressions(reference, figures(5.0, 3.5, 6.5, forfeits=2))
    other = figures(-9.0, -10.0, -8.0)
    other["matches"][0]["deals"] = 10  # another size: no reference to compare with
    assert gate.regressions(reference, other) == []


def test_a_reference_of_another_table_is_refused(gate):
    reference = dict(figures(5.0, 3.5, 6.5), preset="standard")
    found = gate.regressions(reference, dict(figures(5.0, 3.5, 6.5), preset="casual"))
    assert len(found) == 1 and "standard" in found[0]


@pytest.mark.parametrize("preset", ["casual", "standard"])
def test_stored_reference_names_both_matches(gate, preset):
    stored = json.loads(gate.REFERENCES[preset].read_text())
    assert stored["preset"] == preset and stored["bot"] == "best"
    assert {m["opponent"] for m in stored["matches"]} == {"greedy", "expectimax-v1"}
    table = "" if preset == "casual" else f" --rules {preset}"
    for m in stored["matches"]:
        assert m["seed"] < 1_000_000  # the gate's deals are never report deals
        assert m["ci95"][0] <= m["mean_points"] <= m["ci95"][1]
        assert m["command"].startswith(f"gostop arena {stored['bot']} {m['opponent']}{table} ")


@pytest.mark.slow
def test_tiny_gate_runs_and_writes_a_reference(gate, tmp_path):
    path = tmp_path / "gate.json"
    assert gate.main(["--bot", "expectimax:samples=4", "--deals-greedy", "2", "--deals-v1", "1",
                      "--workers", "1", "--reference", str(path), "--update"]) == 0
    stored = json.loads(path.read_text())
    assert [m["deals"] for m in stored["matches"]] == [2, 1]
    # the same bot on the same deals repeats its figures: no regression
    assert gate.main(["--bot", "expectimax:samples=4", "--deals-greedy", "2", "--deals-v1", "1",
                      "--workers", "1", "--reference", str(path)]) == 0
    # the same file is no reference for another table
    assert gate.main(["--bot", "expectimax:samples=4", "--deals-greedy", "2", "--deals-v1", "1",
                      "--workers", "1", "--reference", str(path), "--rules", "standard"]) == 1
