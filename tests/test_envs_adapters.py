"""The PettingZoo and Gymnasium adapters, checked by their frameworks' own tools."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, seed_test  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from gostop_core import Game, IllegalMoveError, Rules  # noqa: E402
from gostop_core.envs import ENV_ID, aec_env, raw_env, actions, hand_rewards  # noqa: E402
from gostop_core.envs.gym_env import ILLEGAL_PENALTY, GoStopEnv  # noqa: E402

PRESET_PLAYERS = [(p, n) for p in ("casual", "traditional", "standard", "family")
                  for n in (2, 3, 4) if n in Rules(p).allowed_players()]


@pytest.fixture(autouse=True)
def _quiet():
    # the checkers warn that dict observations are not Box spaces (as for
    # PettingZoo's own classic games)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("preset, players", PRESET_PLAYERS)
def test_pettingzoo_api_and_seed_tests(preset, players):
    api_test(aec_env(rules=preset, players=players), num_cycles=100)
    seed_test(lambda: aec_env(rules=preset, players=players), num_cycles=100)


def test_aec_hand_matches_game_and_rewards_sum():
    """The AEC env plays the Game of its deal seed; its rewards are the hand's."""
    env = raw_env(rules="traditional", players=3)
    env.reset(seed=4)
    replay = Game("traditional", 3, seed=env.deal_seed)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated:
            env.step(None)
            continue
        assert agent == f"player_{replay.turn}"
        assert np.array_equal(obs["observation"], replay.view(replay.turn).to_array())
        for other in env.agents:  # only the seat to act has legal actions
            assert env.observe(other)["action_mask"].any() == (other == agent)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        replay.push(actions.action_to_move(replay, action))
        env.step(action)
    assert replay.is_over()
    assert sum(totals.values()) == 0  # chips change hands
    assert [totals[f"player_{p}"] for p in range(3)] == list(replay.outcome().chips)


def test_aec_illegal_action():
    raw = raw_env()
    raw.reset(seed=1)
    with pytest.raises(IllegalMoveError):
        raw.step(actions.GO)
    wrapped = aec_env()
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    wrapped.step(actions.GO)  # the wrapper ends the hand instead
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == -1


def test_aec_pickles_by_its_settings():
    env = raw_env(rules="family", players=4)
    clone = pickle.loads(pickle.dumps(env))
    clone.reset(seed=2)
    env.reset(seed=2)
    assert clone.players == 4 and clone.rules == Rules("family")
    assert np.array_equal(clone.observe("player_0")["observation"],
                          env.observe("player_0")["observation"])


@pytest.mark.parametrize("kwargs", [
    {}, {"rules": "traditional", "players": 3, "opponent": "random"},
    {"rules": "standard", "opponent": "greedy", "seat": 1},
    {"rules": "family", "players": 4, "opponent": ["random", "greedy", "random"], "seat": None},
])
def test_gymnasium_check_env(kwargs):
    env = gymnasium.make(ENV_ID, **kwargs)
    check_env(env.unwrapped)


def test_gymnasium_episode_and_illegal_action():
    env = gymnasium.make(ENV_ID, opponent="random")
    obs, info = env.reset(seed=5)
    assert info["seat"] == 0 and obs["action_mask"].any()
    done, reward = False, 0.0
    while not done:
        assert np.array_equal(env.unwrapped.action_masks(), obs["action_mask"].astype(bool))
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        assert not info["illegal_action"] and not truncated
    assert reward == hand_rewards(env.unwrapped.game)[0] != 0 or env.unwrapped.game.outcome().winner is None
    obs, info = env.reset(seed=5)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, done, truncated, info = env.step(illegal)
    assert (reward, done, info["illegal_action"]) == (ILLEGAL_PENALTY, True, True)


def test_gymnasium_bad_settings():
    with pytest.raises(ValueError):
        GoStopEnv(opponent="nobody")
    with pytest.raises(ValueError):
        GoStopEnv(seat=2)
    with pytest.raises(ValueError):
        GoStopEnv(players=3, opponent=["random"])
