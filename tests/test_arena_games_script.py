"""scripts/arena_games.py: arena runs written game by game, pooled exactly by deal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import load_script

from gostop_core.arena import run_arena

@pytest.fixture(scope="module")
def script():
    return load_script("arena_games")


def run_files(script, tmp_path: Path) -> list[Path]:
    """Six deals of greedy against random, as two runs on adjacent seeds."""
    paths = []
    for seed, deals in ((1000, 4), (1004, 2)):
        out = tmp_path / f"run-{seed}.jsonl"
        assert script.main(["run", "greedy", "random", "--deals", str(deals), "--seed",
                            str(seed), "--workers", "1", "--out", str(out)]) == 0
        paths.append(out)
    return paths


def test_pooled_runs_give_the_figures_of_one_arena_over_the_same_deals(script, tmp_path,
                                                                         capsys):
    paths = run_files(script, tmp_path)
    capsys.readouterr()
    pooled = script.summary(paths)
    whole = run_arena(["greedy", "random"], deals=6, seed=1000, workers=1).as_dict()
    assert pooled["deals"] == 6 and pooled["games"] == whole["games"] == 12
    assert pooled["incomplete_deals"] == 0
    for key in ("mean_points", "win_rate", "decided_win_rate", "draw_rate"):
        assert pooled[key] == pytest.approx(whole[key], abs=1e-3), key
    for ours, theirs in zip(pooled["ci95"], whole["ci95"]):
        assert ours == pytest.approx(theirs, abs=1e-3)


def test_a_deal_missing_a_rotation_is_left_out_and_counted(script, tmp_path, capsys):
    paths = run_files(script, tmp_path)
    capsys.readouterr()
    lines = paths[1].read_text(encoding="utf-8").splitlines()
    paths[1].write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    cut = script.summary(paths)
    assert cut["deals"] == 5 and cut["incomplete_deals"] == 1
    assert cut["last_deal_seed"] == 1004


def test_runs_of_other_bots_are_not_pooled(script, tmp_path, capsys):
    paths = run_files(script, tmp_path)
    other = tmp_path / "other.jsonl"
    rows = [json.loads(x) for x in paths[1].read_text(encoding="utf-8").splitlines()]
    other.write_text("".join(json.dumps(dict(r, bots=["random", "greedy"])) + "\n"
                             for r in rows), encoding="utf-8")
    capsys.readouterr()
    with pytest.raises(SystemExit, match="other bots"):
        script.summary([paths[0], other])
