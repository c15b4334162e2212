"""VectorGame's direct path (actions listed from the card sets, moves decoded
from the action) against the move generator, at every decision of random games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gostop_core import Game, Rules
from gostop_core.envs.actions import action_name
from gostop_core.envs.vector import _direct_action_codes, legal_action_codes

PRESET_PLAYERS = [(p, n) for p in ("casual", "traditional", "standard", "family")
                  for n in (2, 3, 4) if n in Rules(p).allowed_players()]


def kinds_seen(preset, players: int, hands: int, seed: int) -> Counter:
    """Play ``hands`` random hands; at each decision the direct path must give
    exactly the generator's actions and moves.  Returns how often each kind of
    action was listed by the direct path."""
    rnd = random.Random(seed)
    seen: Counter = Counter()
    for deal in range(hands):
        game = Game(preset, players, seed=seed * 1000 + deal)
        while not game.is_over():
            expected = legal_action_codes(game._core)
            direct = _direct_action_codes(game._core)
            if direct is None:
                seen["table"] += 1
            else:
                assert direct == expected, (preset, players, game.position_str())
                seen.update(action_name(a).split()[0] for a in direct)
            game.push(rnd.choice(list(game.legal_moves)))
    return seen


@pytest.mark.parametrize("preset, players", PRESET_PLAYERS)
def test_direct_actions_agree_with_the_generator(preset, players):
    seen = kinds_seen(preset, players, hands=60, seed=3)
    assert seen, "no decision was checked"


def test_direct_path_meets_every_kind_it_lists():
    """Over the presets, the direct path lists plays, flip choices, Go/Stop,
    bonus cards, bombs, shakes and optional flip-only turns: each branch is
    exercised, not only the plays."""
    total: Counter = Counter()
    for preset, players in PRESET_PLAYERS:
        total += kinds_seen(preset, players, hands=40, seed=7)
    names = {name for name in total}
    print(sorted(total.items()))
    for kind in ("play", "flip", "go", "stop", "bonus", "bomb", "shake"):
        assert any(n.startswith(kind) for n in names), (kind, sorted(names))


def test_showdown_rules_take_the_move_table():
    """Under rules with showdowns (no preset has them) the play phase goes
    through the move list and table, and VectorGame still replays like Game."""
    import numpy as np

    from gostop_core.envs import VectorGame, action_mask, action_to_move
    rules = Rules("casual", showdown=1)
    seen = kinds_seen(rules, 2, hands=30, seed=5)
    assert seen["table"] > 0
    vg = VectorGame(4, rules=rules, players=2, seed=2)
    games = [Game(rules, 2, seed=int(s)) for s in vg.deal_seeds]
    rng = np.random.default_rng(1)
    for _ in range(80):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in vg.mask])
        for i, g in enumerate(games):
            assert np.array_equal(action_mask(g).astype(bool), vg.mask[i])
        vg.step(acts)
        for i, g in enumerate(games):
            g.push(action_to_move(g, acts[i]))
            if g.is_over():
                games[i] = g = Game(rules, 2, seed=int(vg.deal_seeds[i]))
            assert np.array_equal(g.view(g.turn).to_array(), vg.obs[i].astype(np.float32))


@pytest.mark.parametrize("avx2", [True, False])
def test_both_plane_writers_give_the_same_arrays(avx2):
    """The AVX2 and the table writers of the card planes and the mask (the
    table is what processors without AVX2 use): same observations and masks as
    Game, whichever writes them."""
    import numpy as np

    from gostop_core.envs import VectorGame, action_mask, action_to_move
    from gostop_core.envs.vector import _planes_by_avx2
    before = _planes_by_avx2(avx2)
    try:
        for preset, players in (("casual", 2), ("family", 4)):
            vg = VectorGame(3, rules=preset, players=players, seed=9)
            games = [Game(preset, players, seed=int(s)) for s in vg.deal_seeds]
            rng = np.random.default_rng(3)
            for _ in range(60):
                for i, g in enumerate(games):
                    assert np.array_equal(g.view(g.turn).to_array(), vg.obs[i].astype(np.float32))
                    assert np.array_equal(action_mask(g).astype(bool), vg.mask[i])
                acts = np.array([rng.choice(np.flatnonzero(m)) for m in vg.mask])
                vg.step(acts)
                for i, g in enumerate(games):
                    g.push(action_to_move(g, acts[i]))
                    if g.is_over():
                        games[i] = Game(preset, players, seed=int(vg.deal_seeds[i]))
    finally:
        _planes_by_avx2(before)
