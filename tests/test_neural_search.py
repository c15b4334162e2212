"""The whole network in C (gostop_core.neural.playout) and the search on top of
it (the ``neural-search`` bot)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from gostop_core import Game
from gostop_core.bots import make_bot
from gostop_core.bots.base import play_game
from gostop_core.bots.neural import NeuralIsmctsBot, NeuralSearchBot
from gostop_core.bots.search import search_fields
from gostop_core.bots.simple import GreedyBot
from gostop_core.neural.network import Network, load_network, save_network
from gostop_core.neural.playout import NeuralPlayout
from gostop_core.neural.selfplay import view_inputs
from gostop_core.notation import parse_view

from conftest import bank_position, swap_hidden


@pytest.fixture(scope="module")
def weights(tmp_path_factory):
    """A small random network saved as a weights file (non-zero biases, so
    every layer of the C pass is exercised)."""
    net = Network.initial((48, 24), seed=8)
    rng = np.random.default_rng(8)
    for name in ("b1", "b2", "b3"):
        net.params[name] = rng.normal(0, 0.3, net.params[name].shape).astype(np.float32)
    net.changed()
    path = tmp_path_factory.mktemp("nsearch") / "net.npz"
    save_network(path, net, header={"command": "test"})
    return str(path)


@pytest.mark.parametrize("preset,players", [("casual", 2), ("casual", 3), ("standard", 2),
                                            ("traditional", 3), ("family", 3)])
@pytest.mark.parametrize("which", ["shipped", "small"])
def test_the_c_forward_pass_gives_the_numpy_networks_q(weights, preset, players, which):
    net = load_network(None if which == "shipped" else weights)
    model = NeuralPlayout(net)
    checked = 0
    for seed in range(4):
        game = Game(preset, players, seed=seed)
        rnd = random.Random(seed)
        while not game.is_over():
            rules, fields = parse_view(game.view(game.turn).to_str())
            codes, state, actions = view_inputs(rules, fields)
            c_codes, c_q = model.view_q_values(rules, fields)
            assert c_codes == codes
            np.testing.assert_allclose(c_q, net.q_values(state, actions), rtol=1e-4, atol=1e-4)
            checked += 1
            game.push(rnd.choice(list(game.legal_moves)))
    assert checked > 40


def test_the_c_network_refuses_weights_it_cannot_run(weights):
    net = load_network(weights)
    net.params["w2"] = net.params["w2"].copy()
    net.params["w2"][0, 0] = np.nan
    with pytest.raises(ValueError, match="w2: not every weight is a finite number"):
        NeuralPlayout(net)
    game = Game("casual", seed=1)
    rules, fields = parse_view(game.view(1 - game.turn).to_str())
    with pytest.raises(ValueError, match="not the one to move"):
        NeuralPlayout(load_network(weights)).view_q_values(rules, fields)


@pytest.mark.parametrize("settings", ["neural-search:samples=16,cut=2",
                                      "neural-search:samples=16,blend=0.5",
                                      "neural-ismcts:iterations=120,cut=2"])
def test_the_search_bots_decide_from_the_view_alone(weights, settings):
    for seed in range(5):
        game = Game("casual", seed=seed)
        if game.is_over():
            continue
        other = Game.from_position(swap_hidden(game.position()))
        assert game.position() != other.position()
        spec = f"{settings},weights={weights}"
        a = make_bot(spec, seed=3).choose(game.view(0), list(game.legal_moves))
        b = make_bot(spec, seed=3).choose(other.view(0), list(other.legal_moves))
        assert a == b and a in game.legal_moves


def test_the_opponent_model_decides_from_the_view_and_the_moves_seen(weights):
    """``worlds``: the deals are drawn by the opponent's observed moves (public)
    and never by its hidden cards: mid-hand, after the same moves were shown,
    two positions that differ only in cards seat 0 cannot see get one move."""
    spec = f"neural-search:samples=16,worlds=4,weights={weights}"
    checked = 0
    for seed in range(8):
        game = Game("casual", seed=seed)
        shown: list = []
        while not game.is_over() and (game.turns < 6 or game.to_move != 0):
            move = GreedyBot().choose(game.view(game.to_move), list(game.legal_moves))
            if game.to_move == 1:
                shown.append((game.view(0), move))
            game.push(move)
        if game.is_over() or not shown or game.phase != "play":
            continue
        other = Game.from_position(swap_hidden(game.position()))
        assert game.position() != other.position()
        choices = []
        for position in (game, other):
            bot = make_bot(spec, seed=3)
            bot.start_hand(shown[0][0])
            for view, move in shown:
                bot.observe(view, move)
            choices.append(bot.choose(position.view(0), list(position.legal_moves)))
            assert len(bot._seen) == len(shown)
        assert choices[0] == choices[1] and choices[0] in game.legal_moves
        checked += 1
    assert checked >= 3


def test_the_opponent_model_changes_the_deals_searched(weights):
    """With the moves seen and ``worlds`` > 1 each sample is drawn among several
    deals: the values differ from the plain search's, every move still valued
    on every sample; with ``worlds=1`` nothing is kept of the moves seen."""
    game = Game("casual", seed=2)
    shown = []
    while game.turns < 6 or game.to_move != 0:
        move = GreedyBot().choose(game.view(game.to_move), list(game.legal_moves))
        if game.to_move == 1:
            shown.append((game.view(0), move))
        game.push(move)
    analyses = {}
    for worlds in (1, 8):
        bot = make_bot(f"neural-search:samples=16,worlds={worlds},weights={weights}", seed=3)
        for view, move in shown:
            bot.observe(view, move)
        assert len(bot._seen) == (len(shown) if worlds > 1 else 0)
        analyses[worlds] = bot.analyse(game.view(0))
        assert all(r.samples == 16 for r in analyses[worlds])
    assert [r.value for r in analyses[1]] != [r.value for r in analyses[8]]
    # a caller that never starts a hand: the first view of the next hand drops
    # the last hand's moves (a view of fewer turns)
    bot = make_bot(f"neural-search:samples=16,worlds=8,weights={weights}", seed=3)
    for view, move in shown:
        bot.observe(view, move)
    nxt = Game("casual", seed=3)
    while nxt.to_move != 1:
        nxt.push(list(nxt.legal_moves)[0])
    bot.observe(nxt.view(0), list(nxt.legal_moves)[0])
    assert len(bot._seen) == 1


@pytest.mark.parametrize("preset,players", [("casual", 2), ("casual", 3), ("standard", 2),
                                            ("family", 4)])
def test_the_search_bot_plays_whole_hands(weights, preset, players):
    # 4 players do not fit the network's inputs: the playouts are the greedy policy's
    game = Game(preset, players, seed=21)
    bot = make_bot(f"neural-search:weights={weights},samples=8,cut=3", seed=1)
    outcome = play_game(game, [bot] + [GreedyBot() for _ in range(players - 1)])
    assert game.is_over() and outcome is not None
    assert bot.nodes_visited > 0


def test_the_search_bot_checks_its_settings():
    with pytest.raises(ValueError, match="cut"):
        NeuralSearchBot(cut=-1)
    with pytest.raises(ValueError, match="flips"):
        NeuralSearchBot(flips="some")
    with pytest.raises(ValueError, match="bad neural-search setting"):
        make_bot("neural-search:plan=2")
    with pytest.raises(ValueError, match="worlds"):
        NeuralSearchBot(worlds=0)
    with pytest.raises(ValueError, match="temp"):
        NeuralSearchBot(temperature=0.0)
    with pytest.raises(ValueError, match="worlds"):
        make_bot("neural-search:worlds=1000")


def _flip_position():
    """A casual position where seat 0's plays turn a stock card."""
    for seed in range(50):
        game = Game("casual", seed=seed)
        if not game.is_over() and any(m.kind == "play" for m in game.legal_moves):
            return game
    raise AssertionError("no position")


def test_sampled_flips_estimate_the_same_values_as_every_flip():
    """With ``sampled_flips`` a flip turns each sample's own stock card (one
    child) instead of every card the stock may hold (a chance node): fewer
    nodes, and, the sample's card being uniform over the unseen cards, the same
    expected value of each move (greedy playouts, many samples)."""
    game = _flip_position()
    rules, fields = parse_view(game.view(game.turn).to_str())
    full = search_fields(rules, fields, samples=256, seed=4)
    flat = search_fields(rules, fields, samples=1024, seed=4, sampled_flips=True)
    assert flat["nodes"] < full["nodes"]
    full_v = {code: v for code, v, _ in full["moves"]}
    flat_v = {code: v for code, v, _ in flat["moves"]}
    assert full_v.keys() == flat_v.keys()
    # the moves' values span about 3.5 points here; the two estimates differ
    # by sampling noise only (at most about 0.7 at these sample counts)
    for code in full_v:
        assert abs(full_v[code] - flat_v[code]) < 1.0, code
    # the principal line names the sample's own flipped card (the chance entry)
    for code, _, line in flat["moves"]:
        if (code >> 12) == 1:
            assert any(seat == 7 for seat, _ in line)


def test_the_averaging_script_joins_networks_of_any_size_as_one_whose_q_is_their_mean(
        tmp_path, capsys):
    """``--outputs``: an ensemble, played as one network (in numpy and in C)."""
    from conftest import load_script
    paths = []
    for seed, hidden in ((1, (16, 8)), (2, (24, 12)), (3, (8, 4))):
        path = tmp_path / f"n{seed}.npz"
        save_network(path, Network.initial(hidden, seed=seed), header={"hands": seed})
        paths.append(path)
    script = load_script("neural_average")
    out = tmp_path / "ensemble.npz"
    assert script.main([str(p) for p in paths] + ["--outputs", "--out", str(out),
                                                   "--deals", "2"]) == 0
    assert "ensemble of 3" in capsys.readouterr().out
    joined = load_network(out)
    assert joined.hidden == (48, 24) and joined.header["averaged_as"] == "outputs"
    nets = [load_network(p) for p in paths]
    game = Game("casual", 2, seed=8)
    for _ in range(12):   # positions of a real game, every legal move's Q
        _, state, actions = view_inputs(*parse_view(game.view(game.turn).to_str()))
        expected = np.mean([n.q_values(state, actions) for n in nets], axis=0)
        np.testing.assert_allclose(joined.q_values(state, actions), expected, atol=1e-4)
        game.push(list(game.legal_moves)[0])
    NeuralPlayout(joined)   # the C network takes it as it is
    # more than a layer holds: refused with one line
    big = [tmp_path / "n1.npz"] * 65
    assert script.main([str(p) for p in big] + ["--outputs"]) == 2
    assert "1,024" in capsys.readouterr().err


def test_the_averaging_script_writes_the_mean_network_with_its_sources(tmp_path, capsys):
    from conftest import load_script
    paths = []
    for seed in (1, 2, 3):
        path = tmp_path / f"ck{seed}.npz"
        save_network(path, Network.initial((16, 8), seed=seed), header={"hands": seed * 100})
        paths.append(path)
    script = load_script("neural_average")
    out = tmp_path / "avg.npz"
    assert script.main([str(p) for p in paths] + ["--out", str(out), "--deals", "4"]) == 0
    avg = load_network(out)
    nets = [load_network(p) for p in paths]
    for k in ("w1", "b1", "w2", "b2", "w3", "b3"):
        np.testing.assert_allclose(avg.params[k], np.mean([n.params[k] for n in nets], axis=0),
                                   rtol=1e-6)
    assert [a["hands"] for a in avg.header["averaged"]] == [100, 200, 300]
    assert avg.header["hands"] == 300 and avg.header["tuning_eval"]["deals"] == 4
    assert "average of 3" in capsys.readouterr().out
    # report deals are not for choosing weights: the script keeps to the tuning range
    assert script.main([str(paths[0]), "--seed", "2000000"]) == 2
    # a run's checkpoints are judged at the run's table unless told otherwise: the
    # standard run's average in chips, at a standard table (the one evaluate_vs_greedy
    # plays there, not the casual one)
    from gostop_core.neural.dmc import evaluate_vs_greedy
    std = []
    for seed in (4, 5):
        path = tmp_path / f"std{seed}.npz"
        save_network(path, Network.initial((16, 8), seed=seed),
                     header={"hands": seed, "config": {"rules": "standard", "players": 2}})
        std.append(path)
    out = tmp_path / "std_avg.npz"
    assert script.main([str(p) for p in std] + ["--out", str(out), "--deals", "6"]) == 0
    avg = load_network(out)
    expected = evaluate_vs_greedy(avg, "standard", 2, 6, 500_000)["points"]
    assert avg.header["tuning_eval"]["points"] == pytest.approx(expected)
    assert expected != pytest.approx(evaluate_vs_greedy(avg, "casual", 2, 6, 500_000)["points"])
    save_network(tmp_path / "other.npz", Network.initial((8, 8), seed=1))
    capsys.readouterr()
    assert script.main([str(paths[0]), str(tmp_path / "other.npz")]) == 2
    err = capsys.readouterr().err
    assert "different shapes" in err and "--outputs" in err
    # a file that is no network: one line naming it, no traceback
    (tmp_path / "junk.npz").write_bytes(b"not a network")
    assert script.main([str(tmp_path / "junk.npz")]) == 2
    assert "junk.npz" in capsys.readouterr().err


def test_without_weights_each_preset_gets_its_shipped_network():
    from gostop_core.bots.neural import NeuralBot
    from gostop_core.neural.network import DEFAULT_WEIGHTS, SHIPPED_WEIGHTS, shipped_weights
    from gostop_core.rules import Rules
    standard = SHIPPED_WEIGHTS[("standard", 2)]
    assert standard.exists() and standard != DEFAULT_WEIGHTS
    assert shipped_weights(Rules("standard"), 2) == standard
    assert shipped_weights(Rules("standard"), 3) == DEFAULT_WEIGHTS
    assert shipped_weights(Rules("casual"), 2) == DEFAULT_WEIGHTS
    casual3 = SHIPPED_WEIGHTS[("casual", 3)]
    assert casual3.exists() and shipped_weights(Rules("casual"), 3) == casual3
    assert load_network(casual3).header["config"]["players"] == 3
    assert shipped_weights(Rules("traditional"), 3) == DEFAULT_WEIGHTS
    # changed rules are not the preset its network learned
    changed = Rules("standard").replace(go_bak=0)
    assert changed != Rules("standard") and shipped_weights(changed, 2) == DEFAULT_WEIGHTS
    game = Game("standard", 2, seed=4)
    rules, fields = parse_view(game.view(game.turn).to_str())
    _, state, actions = view_inputs(rules, fields)
    # neural plays the standard table's own network (round 23), fitted from it
    from gostop_core.neural.network import NEURAL_WEIGHTS
    bot = NeuralBot()
    got = [q for _, q in bot.q_values(game.view(game.turn))]
    np.testing.assert_allclose(got, load_network(NEURAL_WEIGHTS[("standard", 2)]).q_values(
        state, actions), rtol=1e-6)
    assert not np.allclose(got, load_network().q_values(state, actions))
    # the search's playouts take the preset's shipped network
    nbot = NeuralSearchBot(samples=4)
    assert nbot.search_options(rules, fields)["model"] is nbot.search_options(rules, fields)["model"]
    assert nbot.choose(game.view(game.turn), list(game.legal_moves)) in game.legal_moves


def test_neural_has_its_own_network_at_each_shipped_table():
    """``neural_weights``: at 2-player casual and standard and 3-player casual
    NEURAL_WEIGHTS' network (rounds 22, 23 and 25: the stronger alone), while the
    searches keep SHIPPED_WEIGHTS' (at casual no stronger inside them); elsewhere,
    and with the rules changed, what the searches play."""
    from gostop_core.neural.network import (
        DEFAULT_WEIGHTS, NEURAL_WEIGHTS, SHIPPED_WEIGHTS, neural_weights, shipped_weights,
    )
    from gostop_core.rules import Rules
    assert set(NEURAL_WEIGHTS) == set(SHIPPED_WEIGHTS)
    assert len(set(NEURAL_WEIGHTS.values()) | set(SHIPPED_WEIGHTS.values())) == 6
    for (preset, players), own in NEURAL_WEIGHTS.items():
        assert own.exists()
        assert neural_weights(Rules(preset), players) == own
        assert shipped_weights(Rules(preset), players) == SHIPPED_WEIGHTS[(preset, players)]
    assert SHIPPED_WEIGHTS[("casual", 2)] == DEFAULT_WEIGHTS
    for preset, players in (("traditional", 2), ("standard", 3), ("family", 3)):
        assert neural_weights(Rules(preset), players) == shipped_weights(Rules(preset), players)
    for preset, go_bak, players in (("standard", 0, 2), ("casual", 1, 2), ("casual", 1, 3)):
        changed = Rules(preset).replace(go_bak=go_bak)
        assert changed != Rules(preset) and neural_weights(changed, players) == DEFAULT_WEIGHTS


@pytest.mark.parametrize("preset,players", [("casual", 2), ("casual", 3), ("standard", 2)])
def test_neural_plays_its_own_network_and_the_searches_blend_theirs(preset, players):
    """``neural``'s Q is NEURAL_WEIGHTS' network's; the blend of ``neural-search``
    and ``best`` takes SHIPPED_WEIGHTS' Q, which differs."""
    from gostop_core.bots.neural import NeuralBot, blend_with_network
    from gostop_core.moves import Move, RankedMove
    from gostop_core.neural.network import NEURAL_WEIGHTS, SHIPPED_WEIGHTS
    game = Game(preset, players, seed=4)
    view = game.view(game.turn)
    rules, fields = parse_view(view.to_str())
    codes, state, actions = view_inputs(rules, fields)
    got = [q for _, q in NeuralBot().q_values(view)]
    np.testing.assert_allclose(got, load_network(NEURAL_WEIGHTS[(preset, players)]).q_values(
        state, actions), rtol=1e-6)
    searches_q = load_network(SHIPPED_WEIGHTS[(preset, players)]).q_values(state, actions)
    assert not np.allclose(got, searches_q)
    ranked = [RankedMove(Move.from_code(c), 0.0, samples=1) for c in codes]
    blended = blend_with_network(ranked, rules, fields, None, 1.0)
    searches_q = dict(zip(codes, searches_q))
    assert all(abs(r.value - searches_q[r.move.code]) < 1e-4 for r in blended)


@pytest.mark.parametrize("which", ["shipped", "small"])
def test_consistent_network_search_is_never_above_its_per_world_values(weights, which):
    """``neural-search:consistent=1``: with the network's playouts, the seat's
    own later decisions of the search (here: its play after banking a bonus
    card, seed 1's first decision) are one choice per information set, so
    no root move's value can be above its per-world one (the best choice of
    each sampled world, which knows that world's hidden cards), and the bank,
    whose value holds a second decision, is valued lower."""
    game, bank = bank_position(1)
    rules, fields = parse_view(game.view(game.turn).to_str())
    model = NeuralPlayout(load_network(None if which == "shipped" else weights)).capsule()
    per = {}
    for consistent in (False, True):
        result = search_fields(rules, fields, 1, 48, 5, win_bonus=0.0, consistent=consistent,
                               model=model, model_own=True, model_others=True, cutoff=1)
        assert result["consistent"] == consistent
        per[consistent] = {code: value for code, value, _ in result["moves"]}
    assert per[True].keys() == per[False].keys() and bank.code in per[True]
    for code, value in per[True].items():
        assert value <= per[False][code] + 1e-9
    assert per[True][bank.code] < per[False][bank.code]
    # the bot passes the setting on, and decides from the view alone
    spec = "neural-search:consistent=1,samples=16"
    other = Game.from_position(swap_hidden(game.position()))
    a = make_bot(spec, seed=3).choose(game.view(game.turn), list(game.legal_moves))
    b = make_bot(spec, seed=3).choose(other.view(game.turn), list(other.legal_moves))
    assert a == b and a in game.legal_moves


@pytest.mark.parametrize("which", ["shipped", "small"])
def test_a_capsule_keeps_its_model_alive(weights, which):
    """A capsule of a model nobody else holds (``NeuralPlayout(net).capsule()``)
    searches as one of a model kept: the capsule holds its owner (before, the
    search read the weights of an object already freed)."""
    import gc
    game = Game("casual", seed=4)
    rules, fields = parse_view(game.view(game.turn).to_str())
    kept = NeuralPlayout(load_network(None if which == "shipped" else weights))
    orphan = NeuralPlayout(load_network(None if which == "shipped" else weights)).capsule()
    gc.collect()
    litter = [np.full(4096, 7.0, dtype=np.float32) for _ in range(64)]  # reuse freed memory
    expected = search_fields(rules, fields, 1, 16, 2, model=kept.capsule(), cutoff=2)
    got = search_fields(rules, fields, 1, 16, 2, model=orphan, cutoff=2)
    assert got["moves"] == expected["moves"] and litter


def test_the_checkpoint_curve_against_a_search_is_resumable_and_matches_the_arena(tmp_path):
    from conftest import load_script
    from gostop_core.arena import run_arena
    paths = []
    for seed in (2, 1):
        path = tmp_path / f"ck{seed}.npz"
        save_network(path, Network.initial((16, 8), seed=seed), header={"hands": seed * 100})
        paths.append(path)
    script = load_script("neural_vs_search")
    out = tmp_path / "curve.jsonl"
    args = [str(p) for p in paths] + ["--out", str(out), "--bot", "greedy", "--deals", "3"]
    assert script.main(args) == 0
    points = [json.loads(line) for line in out.read_text().splitlines()]
    assert [p["hands"] for p in points] == [100, 200]          # in the order of the run
    direct = run_arena([f"neural:weights={paths[1]}", "greedy"], deals=3, seed=500_000,
                       workers=1)
    assert points[0]["points"] == direct.mean_points[0]
    assert points[0]["sha256"] == load_network(paths[1]).header["sha256"]
    assert script.main(args) == 0                               # measured already: skipped
    assert len(out.read_text().splitlines()) == 2
    assert script.main(args + ["--seed", "2000000"]) == 2       # report deals are not for tuning


def test_the_curves_script_plots_runs_side_by_side(tmp_path):
    pytest.importorskip("matplotlib")
    from conftest import load_script
    script = load_script("neural_curves")
    curve = tmp_path / "curve.jsonl"
    curve.write_text("".join(json.dumps({"hands": h, "vs_greedy": {"points": 1.0, "low": 0.5,
                                                                   "high": 1.5}}) + "\n"
                             for h in (100, 200)))
    search = tmp_path / "vs.jsonl"
    search.write_text(json.dumps({"hands": 100, "points": -1.0, "low": -2.0, "high": 0.0}) + "\n")
    png = tmp_path / "out.png"
    assert script.main(["--png", str(png), "--run", f"a={curve}", "--search", f"a={search}",
                        "--reference", "1.2"]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    with pytest.raises(SystemExit):
        script.main(["--png", str(png), "--run", "no-label"])


# ---------------------------------------------------------------- the tree search on top
def _ismcts_position(seed: int = 2):
    game = Game("casual", seed=seed)
    rnd = random.Random(seed)
    for _ in range(6):  # a few moves in: the tree has own decisions and flips below it
        game.push(rnd.choice(list(game.legal_moves)))
    return game


def test_the_tree_search_without_a_model_seat_is_the_greedy_ismcts(weights):
    """A model that plays no seat and values no playout (own=0, others=0, cut 0)
    leaves the search exactly the greedy-playout ``ismcts``: the model is reached
    only where the settings ask for it."""
    from gostop_core.bots.ismcts import ismcts_fields
    from gostop_core.bots.neural import network_playout_options
    game = _ismcts_position()
    rules, fields = parse_view(game.view(game.turn).to_str())
    options = network_playout_options(rules, 2, weights, cut=0, own=False, others=False)
    options.pop("sampled_flips")
    plain = ismcts_fields(rules, fields, iterations=400, seed=9)
    modelled = ismcts_fields(rules, fields, iterations=400, seed=9, **options)
    assert modelled["moves"] == plain["moves"]
    options = network_playout_options(rules, 2, weights, cut=1)
    options.pop("sampled_flips")
    played = ismcts_fields(rules, fields, iterations=400, seed=9, **options)
    assert played["moves"] != plain["moves"]   # the network's playouts value the moves


def test_the_tree_search_checks_its_model_settings(weights):
    from gostop_core.bots.ismcts import ismcts_fields
    from gostop_core.bots.search import MAX_CUT
    game = _ismcts_position()
    rules, fields = parse_view(game.view(game.turn).to_str())
    with pytest.raises(ValueError, match="cutoff needs a model"):
        ismcts_fields(rules, fields, iterations=10, cutoff=1)
    capsule = NeuralPlayout(load_network(weights)).capsule()
    with pytest.raises(ValueError, match="cutoff must be"):
        ismcts_fields(rules, fields, iterations=10, model=capsule, cutoff=MAX_CUT + 1)
    with pytest.raises(ValueError, match="neural-ismcts cut"):
        NeuralIsmctsBot(cut=-1)
    with pytest.raises(ValueError, match="bad neural-ismcts setting"):
        make_bot("neural-ismcts:samples=2")


@pytest.mark.parametrize("preset,players", [("casual", 2), ("casual", 3), ("standard", 2),
                                            ("family", 4)])
def test_the_tree_search_bot_plays_whole_hands(weights, preset, players):
    # 4 players do not fit the network's inputs: the playouts are the greedy policy's
    game = Game(preset, players, seed=21)
    bot = make_bot(f"neural-ismcts:weights={weights},iterations=60,cut=2,prior=2", seed=1)
    outcome = play_game(game, [bot] + [GreedyBot() for _ in range(players - 1)])
    assert game.is_over() and outcome is not None
    assert bot.last_iterations > 0


# ------------------------------------------------------------ the search's values blended with Q
def test_a_full_blend_plays_the_networks_move_and_none_the_searchs(weights):
    """``blend=1`` ranks the moves by the network's Q alone (the ``neural`` bot's
    choice), ``blend=0`` by the search's values alone; between, each value is
    between the two."""
    compared = 0
    for seed in range(6):
        game = Game("casual", seed=seed)
        rnd = random.Random(seed)
        while not game.is_over():
            legal = list(game.legal_moves)
            if len(legal) > 1 and rnd.random() < 0.3:
                view = game.view(game.turn)
                search = make_bot(f"neural-search:weights={weights},samples=8", seed=2)
                half = make_bot(f"neural-search:weights={weights},samples=8,blend=0.5", seed=2)
                full = make_bot(f"neural-search:weights={weights},samples=8,blend=1", seed=2)
                network = make_bot(f"neural:weights={weights}")
                q = dict(network.q_values(view))
                assert full.choose(view, legal) == network.choose(view, legal)
                by_search = {r.move: r.value for r in search.analyse(view)}
                for r in half.analyse(view):
                    low, high = sorted((by_search[r.move], q[r.move]))
                    assert low - 1e-6 <= r.value <= high + 1e-6
                compared += 1
            game.push(rnd.choice(legal))
    assert compared > 10


def test_the_blend_is_a_weight_from_0_to_1():
    with pytest.raises(ValueError, match="blend"):
        NeuralSearchBot(blend=1.5)
    with pytest.raises(ValueError, match="bad neural-search setting 'blend=-1'"):
        make_bot("neural-search:blend=-1")


def test_gostop_search_keeps_the_searchs_values_for_go_or_stop_alone(weights):
    """``gostop=search`` ranks a Go/Stop decision by the search's values (as
    ``blend=0``) and every other decision by the blend (as ``gostop=blend``)."""
    kinds = {"gostop": 0, "other": 0}
    for seed in range(8):
        game = Game("casual", seed=seed)
        rnd = random.Random(seed)
        while not game.is_over():
            legal = list(game.legal_moves)
            gostop = any(m.kind in ("go", "stop") for m in legal)
            if len(legal) > 1 and (gostop or rnd.random() < 0.1):
                view = game.view(game.turn)
                spec = f"neural-search:weights={weights},samples=8,blend=0.5"
                split = make_bot(f"{spec},gostop=search", seed=2).analyse(view)
                same = make_bot(f"neural-search:weights={weights},samples=8", seed=2) if gostop \
                    else make_bot(spec, seed=2)
                assert split == same.analyse(view)
                if gostop:  # the blend would have changed these values
                    assert split != make_bot(spec, seed=2).analyse(view)
                kinds["gostop" if gostop else "other"] += 1
            game.push(GreedyBot().choose(game.view(game.turn), legal))
    assert kinds["gostop"] >= 3 and kinds["other"] >= 10, kinds


def test_gostop_is_blend_or_search():
    assert NeuralSearchBot().gostop == "blend"
    with pytest.raises(ValueError, match="gostop"):
        NeuralSearchBot(gostop="q")
    with pytest.raises(ValueError, match="bad neural-search setting 'gostop=q'"):
        make_bot("neural-search:gostop=q")
