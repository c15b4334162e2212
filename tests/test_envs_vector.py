"""VectorGame, the batched C environment, against the Python Game."""

from __future__ import annotations

import numpy as np
import pytest

from gostop_core import Game, IllegalMoveError, Rules, RulesError
from gostop_core.envs import VectorGame, action_mask, action_to_move, actions, hand_rewards
from gostop_core.envs import vector

PRESET_PLAYERS = [(p, n) for p in ("casual", "traditional", "standard", "family")
                  for n in (2, 3, 4) if n in Rules(p).allowed_players()]


def test_layout_agrees_with_the_action_module():
    for name, value in vector._LAYOUT.items():
        assert getattr(actions, name) == value, name
    from gostop_core.game import ARRAY_LENGTH
    assert vector.VECTOR_OBS_SIZE == ARRAY_LENGTH


@pytest.mark.parametrize("preset, players", PRESET_PLAYERS)
def test_replays_agree_with_game(preset, players):
    """Random action sequences through VectorGame and through Game: every
    observation, mask, seat, termination and reward is the same."""
    n = 6
    vg = VectorGame(n, rules=preset, players=players, seed=11)
    rng = np.random.default_rng(5)
    games = [Game(preset, players, seed=int(s)) for s in vg.deal_seeds]
    finished = 0
    obs, mask = vg.obs, vg.mask
    for _ in range(120):
        acts = np.zeros(n, dtype=np.int64)
        for i, g in enumerate(games):
            assert g.turn == vg.seats[i]
            assert np.array_equal(g.view(g.turn).to_array(), obs[i].astype(np.float32))
            assert np.array_equal(action_mask(g).astype(bool), mask[i])
            assert list(vg.legal[i, :vg.legal_count[i]]) == list(np.flatnonzero(mask[i]))
            acts[i] = rng.choice(np.flatnonzero(mask[i]))
        obs, rewards, terminated, mask = vg.step(acts)
        for i, g in enumerate(games):
            g.push(action_to_move(g, acts[i]))
            assert terminated[i] == g.is_over()
            assert np.array_equal(rewards[i], hand_rewards(g))
            if g.is_over():
                finished += 1
                games[i] = Game(preset, players, seed=int(vg.deal_seeds[i]))
    assert finished > 0


def test_reset_is_deterministic_and_seeds_differ_between_games():
    a, b = VectorGame(32, seed=3), VectorGame(32, seed=3)
    assert np.array_equal(a.obs, b.obs) and np.array_equal(a.deal_seeds, b.deal_seeds)
    assert len(set(a.deal_seeds.tolist())) == 32
    first = a.deal_seeds.copy()
    a.reset()  # the streams go on: new deals
    assert not np.array_equal(first, a.deal_seeds)
    a.reset(3)
    assert np.array_equal(first, a.deal_seeds)


def test_illegal_action_raises_and_moves_no_game():
    vg = VectorGame(4, seed=1)
    before = vg.obs.copy()
    acts = vg.mask.argmax(1)
    acts[2] = actions.GO  # never legal on the first decision
    with pytest.raises(IllegalMoveError):
        vg.step(acts)
    assert np.array_equal(before, vg.obs)
    with pytest.raises(ValueError):
        vg.step(acts[:3])
    with pytest.raises(IllegalMoveError):
        vg.step(np.full(4, 99))
    with pytest.raises(TypeError):
        vg.step(acts.astype(float))


def test_bad_construction():
    with pytest.raises(ValueError):
        VectorGame(0)
    with pytest.raises(RulesError):
        VectorGame(2, rules="traditional", players=4)
    with pytest.raises(RulesError):
        VectorGame(2, rules=Rules("casual", hand_2p=12))
    with pytest.raises(ValueError):
        VectorGame(2, seed=-1)


def test_arrays_have_documented_shapes():
    vg = VectorGame(5, rules="family", players=3)
    assert vg.obs.shape == (5, 420) and vg.obs.dtype == np.uint8
    assert vg.mask.shape == (5, actions.NUM_ACTIONS) and vg.mask.dtype == np.bool_
    obs, rewards, terminated, mask = vg.step(vg.mask.argmax(1))
    assert rewards.shape == (5, 3) and rewards.dtype == np.float32
    assert terminated.shape == (5,) and obs is vg.obs and mask is vg.mask


def test_random_actions_are_legal_and_cover_each_choice():
    vg = VectorGame(8, seed=2)
    rng = np.random.default_rng(0)
    seen = [set() for _ in range(8)]
    for _ in range(300):
        a = actions.random_actions(vg.mask, rng)
        assert vg.mask[np.arange(8), a].all()
        for i in range(8):
            seen[i].add(int(a[i]))
    vg.reset(2)
    first = [set(np.flatnonzero(m)) for m in vg.mask]
    draws = [set() for _ in range(8)]
    for _ in range(200):  # same mask every time: every legal action comes up
        for i, x in enumerate(actions.random_actions(vg.mask, rng)):
            draws[i].add(int(x))
    assert draws == first
    with pytest.raises(ValueError):
        actions.random_actions(np.zeros((2, actions.NUM_ACTIONS), dtype=bool), rng)


def test_gostop_bench_reports_the_vector_figures():
    import json
    from click.testing import CliRunner
    from gostop_cli.main import cli
    result = CliRunner().invoke(cli, ["bench", "--seconds", "0.2", "--json"],
                                catch_exceptions=False)
    fig = json.loads(result.output[result.output.index("{"):])
    assert fig["vector_decisions_per_s"] > 0 and fig["game_loop_decisions_per_s"] > 0
    assert fig["targets"]["vector_decisions_per_s"] == 3_000_000


def test_random_legal_draws_every_legal_action():
    vg = VectorGame(8, rules="standard", seed=4)
    rng = np.random.default_rng(1)
    draws = [set() for _ in range(8)]
    for _ in range(200):
        for i, x in enumerate(actions.random_legal(vg.legal, vg.legal_count, rng)):
            draws[i].add(int(x))
    assert draws == [set(np.flatnonzero(m)) for m in vg.mask]
    with pytest.raises(ValueError):
        actions.random_legal(vg.legal, np.zeros(8, dtype=np.uint8), rng)
