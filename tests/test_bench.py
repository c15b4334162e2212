"""``gostop bench`` and :mod:`gostop_core.bench`, with tiny time budgets."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from gostop_cli.main import cli
from gostop_core import Game, Rules
from gostop_core.bench import (
    TARGETS, api_cycle, api_positions, format_report, memory_playouts, perft_nodes, rss_kb,
    score_masks,
)
from gostop_core.scoring import score_mask, score_masks_loop

FIGURES = ("playouts_per_s", "perft_bulk_nodes_per_s", "perft_nobulk_nodes_per_s",
           "score_evals_per_s", "api_moves_per_s", "reference_nodes_per_s",
           "core_nodes_per_s_same_positions", "reference_ratio")


def runner() -> CliRunner:
    try:  # click < 8.2 mixes stderr into the output unless told not to
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


def test_bench_json_has_every_figure():
    result = runner().invoke(cli, ["bench", "--seconds", "0.2", "--json"], catch_exceptions=False)
    assert result.exit_code == 0
    fig = json.loads(result.stdout)
    for key in FIGURES:
        assert fig[key] > 0, key
    assert fig["targets"] == TARGETS
    assert fig["reference_nodes"] > 0 and fig["reference_seeds"]
    assert fig["rss_playouts"] > 0
    assert {"cpu", "python"} <= set(fig["machine"])


def test_bench_text_prints_each_figure_with_its_target():
    result = runner().invoke(cli, ["bench", "--seconds", "0.2"], catch_exceptions=False)
    assert result.exit_code == 0
    out = result.stdout
    for words in ("random playouts", "bulk counting", "no bulk counting", "scoring",
                  "push + pop", "reference perft", "core / reference", "RSS over"):
        assert words in out, words
    assert "target 250,000" in out


def test_bench_rejects_a_bad_budget():
    result = runner().invoke(cli, ["bench", "--seconds", "0"])
    assert result.exit_code == 2


def test_bench_help_has_an_example():
    result = runner().invoke(cli, ["bench", "--help"])
    assert result.exit_code == 0 and "gostop bench" in result.stdout


def test_format_report_marks_a_miss():
    fig = {"machine": {"cpu": "x", "python": "3"}, "seconds": 1.0, "perft_depth": 5,
           "reference_depth": 2, "rss_playouts": 10, "rss_before_kb": 5, "rss_after_kb": 9,
           "rss_growth_kb": 4, **{k: 1.0 for k in FIGURES}}
    text = "\n".join(format_report(fig))
    assert "MISSED" in text and "GREW" in text


def test_score_masks_loop_matches_score_mask():
    rules = Rules("casual")
    masks = score_masks(64)
    once = score_masks_loop(masks, rules, 1)
    assert once == sum(score_mask(int(m), rules) for m in masks)
    # the odd rounds score each pile with one card toggled
    toggled = sum(score_mask(int(m) ^ (1 << (i % 48)), rules) for i, m in enumerate(masks))
    assert score_masks_loop(masks, rules, 2) == once + toggled
    assert score_masks_loop(masks, rules, 0) == 0
    with pytest.raises(ValueError):
        score_masks_loop(masks, rules, -1)


def test_score_masks_loop_takes_any_uint64_buffer():
    from array import array
    rules = Rules("traditional")
    masks = array("Q", [0, (1 << 0) | (1 << 8) | (1 << 40), (1 << 48) - 1])
    assert score_masks_loop(masks, rules, 1) == sum(score_mask(m, rules) for m in masks)
    assert score_masks_loop(np.zeros(0, dtype=np.uint64), rules, 10) == 0


def test_measures_agree_with_the_engine():
    assert perft_nodes(3, True, seeds=2) == perft_nodes(3, False, seeds=2)
    assert perft_nodes(2, True, seeds=1) == Game("casual", 2, seed=1).perft(2)
    positions = api_positions(1)
    assert api_cycle(positions) == sum(g.legal_moves.count() for g in positions)
    assert all(not g.move_stack for g in positions)


def test_memory_stays_flat_over_playouts():
    m = memory_playouts(30_000)
    assert m["rss_playouts"] == 30_000
    assert m["rss_before_kb"] > 0 and rss_kb() > 0
    assert m["rss_growth_kb"] <= 1024  # no per-game allocation (a page or two of slack)


@pytest.mark.parametrize("preset", ["casual", "traditional", "standard", "family"])
def test_fast_score_total_agrees_with_the_breakdown(preset):
    """score_mask (the core's hot path, score_total) equals score().total (score_pile)."""
    from gostop_core.cards import CardSet
    from gostop_core.scoring import score
    rules = Rules(preset)
    bonus = bool(rules.as_dict()["bonus_cards"])
    for i, m in enumerate(score_masks(3000, seed=11, bonus=bonus)):
        mask = int(m) | ((1 << 32) | (1 << 16) if i % 3 == 0 else 0)  # the flexible cards often
        assert score_mask(mask, rules) == score(CardSet(mask), rules).total, (preset, hex(mask))
