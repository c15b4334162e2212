"""The python_gostop OpenSpiel game: OpenSpiel's own checks, the deal and the
play against Game, resampling, and IS-MCTS playing a hand."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import gostop_core.envs.openspiel as gos  # noqa: E402
from gostop_core import Game, Rules  # noqa: E402
from gostop_core.cards import CARD_CODES  # noqa: E402
from gostop_core.envs import hand_rewards  # noqa: E402
from gostop_core.envs.rewards import is_zero_sum  # noqa: E402

PRESET_PLAYERS = [(p, n) for p in ("casual", "traditional", "standard", "family")
                  for n in (2, 3, 4) if n in Rules(p).allowed_players()]


def load(preset, players):
    return pyspiel.load_game("python_gostop", {"rules": preset, "players": players})


def bits(mask):
    return [i for i in range(50) if mask >> i & 1]


@pytest.mark.parametrize("preset, players", PRESET_PLAYERS)
def test_random_sim_test(preset, players):
    game = load(preset, players)
    zero = game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert zero == is_zero_sum(Rules(preset), players)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def feed_deal(state, dealt: Game):
    """Chance outcomes that deal what ``dealt`` (a Game's C deal) holds."""
    for p in range(dealt.players):
        for c in dealt.hand(p):
            state.apply_action(c)
    for c in list(dealt.captured(0)) + list(dealt.field):  # the dealer's bonus cards first
        state.apply_action(c)


def same_state(a: Game, b: Game):
    fa, fb = a._core.to_fields(), b._core.to_fields()
    sa, sb = fa.pop("stock"), fb.pop("stock")
    assert fa == fb and sorted(sa) == sorted(sb)


@pytest.mark.parametrize("preset, players", PRESET_PLAYERS)
def test_chance_deal_and_play_agree_with_game(preset, players):
    """Given the C deal's cards and stock order as chance outcomes, and the same
    decisions, the OpenSpiel state plays the Game's hand exactly (chongtong
    deals included)."""
    game = load(preset, players)
    rng = np.random.default_rng(3)
    for seed in range(40 if players < 4 else 25):
        ref = Game(preset, players, seed=seed)
        state = game.new_initial_state()
        feed_deal(state, ref)
        assert not state.is_chance_node() or ref.is_over()
        same_state(state._game, ref)
        while not ref.is_over():
            assert state.current_player() == ref.turn
            same_state(state._game, ref)
            stock = ref.stock()
            action = int(rng.choice(state.legal_actions()))
            move = state._table()[action]
            state.apply_action(action)
            k = 0
            while state.is_chance_node():  # the cards the C stock would give, in order
                state.apply_action(CARD_CODES.index(stock[k]))
                k += 1
            ref.push(move)
        assert state.is_terminal()
        same_state(state._game, ref)
        assert state.returns() == list(hand_rewards(ref))


# Deals that end at once with chongtong (found by scanning seeds with Game).
@pytest.mark.parametrize("preset, players, seed", [
    ("traditional", 2, 9), ("traditional", 3, 238), ("standard", 2, 117), ("standard", 3, 179)])
def test_chongtong_deal_is_terminal_with_the_chips(preset, players, seed):
    ref = Game(preset, players, seed=seed)
    assert ref.outcome().reason == "chongtong"
    state = load(preset, players).new_initial_state()
    feed_deal(state, ref)
    assert state.is_terminal()
    assert state.returns() == list(ref.outcome().chips) == list(hand_rewards(ref))


def test_chance_outcomes_are_uniform_over_unseen_cards():
    game = load("casual", 2)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 50 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
    while not state.is_chance_node() and not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    # a decision that flips: the outcomes are exactly the stock's cards
    stock = set(state._game._core.stock())
    outcomes = state.chance_outcomes()
    assert {a for a, _ in outcomes} == stock
    assert all(p == pytest.approx(1 / len(stock)) for _, p in outcomes)


@pytest.mark.parametrize("preset, players", [("casual", 2), ("standard", 3), ("family", 4)])
def test_resample_keeps_the_information_state_and_hides_the_rest(preset, players):
    game = load(preset, players)
    rng = np.random.default_rng(1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
            continue
        p = state.current_player()
        key = state.information_state_string(p)
        others = set()
        for _ in range(6):
            r = state.resample_from_infostate(p, sampler)
            assert r.information_state_string(p) == key
            assert r.observation_string(p) == state.observation_string(p)
            assert r.legal_actions() == state.legal_actions()
            for q in range(players):
                assert bin(r._game._core.hand(q)).count("1") == bin(state._game._core.hand(q)).count("1")
                assert r._game._core.hand(q) & state._shown[q] == state._shown[q]
            others.add(tuple(r._game._core.hand(q) for q in range(players) if q != p))
        if sum(bin(state._game._core.hand(q)).count("1") for q in range(players) if q != p) > 2:
            assert len(others) > 1  # the hidden hands really are dealt again
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 5


def test_observations_come_from_the_seat_view():
    game = load("casual", 2)
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    while state.is_chance_node():
        state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
    view = state._game.view(1)
    assert state.observation_string(1) == view.to_str()
    assert np.array_equal(np.array(state.observation_tensor(1), dtype=np.float32), view.to_array())
    assert len(state.information_state_tensor(0)) == gos.INFO_TENSOR_SIZE
    assert "decisions:" in state.information_state_string(0)


def test_ismcts_plays_a_duplicate_pair_against_greedy():
    from gostop_core.envs.openspiel_arena import arena
    fig = arena(pairs=1, simulations=8, seed=3)
    assert fig["hands"] == 2
    assert fig["ismcts_wins"] + fig["opponent_wins"] + fig["draws"] == 2


def test_states_pickle_and_clone_mid_hand():
    import pickle
    state = load("standard", 2).new_initial_state()
    rng = np.random.default_rng(4)
    for _ in range(60):
        if state.is_terminal():
            break
        outcomes = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                    else state.legal_actions())
        state.apply_action(int(rng.choice(outcomes)))
    for copy in (pickle.loads(pickle.dumps(state)), state.clone()):
        assert copy.history() == state.history() and str(copy) == str(state)
        assert copy.information_state_string(0) == state.information_state_string(0)
        assert copy.is_chance_node() == state.is_chance_node()
