"""The neural network bot and its Deep Monte-Carlo training (gostop_core.neural)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from gostop_cli.main import cli
from gostop_core import Game, Move
from gostop_core.cards import card_index
from gostop_core.bots import make_bot
from gostop_core.bots.base import play_game
from gostop_core.bots.neural import NeuralBot
from gostop_core.bots.simple import GreedyBot
from gostop_core.neural.dmc import TrainConfig, evaluate_vs_greedy, train
from gostop_core.neural.network import (
    Adam, Network, NeuralWeightsError, input_scale, load_network, save_network,
)
from gostop_core.neural.inputs import INPUT_LAYOUTS
from gostop_core.rules import Rules
from gostop_core.neural.selfplay import NUM_ACTION_FEATURES, NUM_STATE_FEATURES, SelfPlay, view_inputs
from gostop_core.notation import parse_view

from conftest import swap_hidden


@pytest.fixture(scope="module")
def weights(tmp_path_factory):
    """A small random network saved as a weights file."""
    path = tmp_path_factory.mktemp("neural") / "net.npz"
    save_network(path, Network.initial((32, 16), seed=3), header={"command": "test"})
    return str(path)


def test_the_inputs_of_a_view_do_not_depend_on_hidden_cards():
    for seed in range(8):
        game = Game("casual", seed=seed)
        if game.is_over():
            continue
        other = Game.from_position(swap_hidden(game.position()))
        assert game.position() != other.position()
        a = view_inputs(*parse_view(game.view(0).to_str()))
        b = view_inputs(*parse_view(other.view(0).to_str()))
        assert a[0] == b[0]
        assert np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2])


def test_the_inputs_name_every_legal_move_and_the_seats_own_cards():
    game = Game("casual", seed=11)
    codes, state, actions = view_inputs(*parse_view(game.view(game.turn).to_str()))
    assert sorted(codes) == sorted(m.code for m in game.legal_moves)
    assert state.shape == (NUM_STATE_FEATURES,) and actions.shape == (len(codes), NUM_ACTION_FEATURES)
    hand = game.view(game.turn).hand
    assert int(state[:50].sum()) == len(hand)
    # every action row is distinct: the network can tell the moves apart
    assert len({row.tobytes() for row in actions}) == len(codes)


def test_a_banked_bonus_card_is_named_as_taken_with_the_junk_it_brings():
    """Banking a bonus card puts it in the mover's pile at once: its action bytes
    name it among the cards taken, with the cards and junk it brings (they named
    nothing taken before round 8, and the network undervalued banking)."""
    A_TAKEN, A_GAINS = 112, 162
    seen = 0
    for seed in range(200):
        game = Game("casual", 2, seed=seed)
        while not game.is_over() and seen < 5:
            legal = list(game.legal_moves)
            if any(m.kind == "bonus" for m in legal):
                view = game.view(game.turn)
                codes, _state, actions = view_inputs(*parse_view(view.to_str()))
                for code, row in zip(codes, actions):
                    move = Move.from_code(code)
                    if move.kind != "bonus":
                        continue
                    taken = [c for c in range(50) if row[A_TAKEN + c]]
                    assert taken == [card_index(move.card)]
                    assert row[A_GAINS + 1] == 1 and row[A_GAINS + 2] >= 2  # a card, 2+ junk
                    seen += 1
            game.push(legal[0])
        if seen >= 5:
            break
    assert seen >= 5


A_CARD, A_TAKEN, A_OPEN, A_EXPOSURE = 12, 112, 168, 218


def _random_hands(preset: str, players: int, rng_seed: int, deals: int = 12):
    """Every decision of ``deals`` whole hands played at random: (deal seed, the
    mover's view, and its inputs as view_inputs gives them)."""
    rng = np.random.default_rng(rng_seed)
    for seed in range(deals):
        game = Game(preset, players, seed=seed)
        while not game.is_over():
            legal = list(game.legal_moves)
            view = game.view(game.turn)
            yield (seed, view, *view_inputs(*parse_view(view.to_str())))
            game.push(legal[int(rng.integers(len(legal)))])


def _exposure_of(view, move, taken: set[int]) -> tuple[set[int], list[int]]:
    """The exposure rows of one move, worked out from the view with the
    reference scoring (testing/reference.py): the field the move leaves
    before the flip, the cards there whose month an unseen card matches, and
    what the next seat or the mover's own hand could take there."""
    from gostop_core.cards import CARD_CODES
    from gostop_core.testing.reference import _rules_namespace, plain_junk_value, score_pile
    rules = _rules_namespace(view.rules)
    field = set(view.field)
    shown = {card_index(c) for c in (view.flip_card, view.played_card) if c is not None}
    played: set[int] = set()
    if move.kind == "play":
        played = {card_index(move.card)}
    elif move.kind == "flip":
        played = {card_index(view.flip_card)} if view.flip_card is not None else set()
    if move.kind == "bomb":
        after = {c for c in field if c // 4 + 1 != move.month}
    elif move.kind in ("play", "flip"):
        after = (field | played | shown) - taken
    else:
        after = set(field)
    after = {c for c in after if c < 48}
    unseen = set(view.unseen)
    hand = set(view.hand) - played
    if move.kind == "bomb":
        hand = {c for c in hand if c // 4 + 1 != move.month}
    nxt = view.captured[(view.seat + 1) % view.players]
    own = view.captured[view.seat]

    def codes(cards):
        return [CARD_CODES[c] for c in cards]

    def gain(pile, month_cards):
        return score_pile(codes(set(pile) | month_cards), view.rules) - score_pile(codes(pile), view.rules)

    def junk(pile, month_cards):
        return (plain_junk_value(set(codes(set(pile) | month_cards)), rules)
                - plain_junk_value(set(codes(pile)), rules))

    open_cards: set[int] = set()
    counts = [0] * 6
    for m in range(1, 13):
        month_cards = {c for c in after if c // 4 + 1 == m}
        if not month_cards:
            continue
        matching = {c for c in unseen if c < 48 and c // 4 + 1 == m}
        if matching:
            open_cards |= month_cards
            counts[0] += 1
            counts[1] += len(matching)
            counts[2] = max(counts[2], gain(nxt, month_cards))
            counts[3] = max(counts[3], junk(nxt, month_cards))
        if any(c // 4 + 1 == m for c in hand):
            counts[4] += 1
            counts[5] = max(counts[5], gain(own, month_cards))
    return open_cards, counts


@pytest.mark.parametrize("preset,players", [("casual", 2), ("casual", 3), ("standard", 2)])
def test_the_exposure_rows_say_what_a_move_leaves_open(preset, players):
    """Round 11's action rows: for every legal move of positions through whole
    hands, the open cards and the six counts agree with the same worked out
    from the view with the reference scoring."""
    checked = 0
    seen_kinds: set[str] = set()
    for seed, view, codes, _state, actions in _random_hands(preset, players, rng_seed=7):
        for code, row in zip(codes, actions):
            move = Move.from_code(code)
            taken = {c for c in range(50) if row[A_TAKEN + c]}
            open_cards, counts = _exposure_of(view, move, taken)
            assert {c for c in range(50) if row[A_OPEN + c]} == open_cards, (seed, str(move))
            assert list(row[A_EXPOSURE:A_EXPOSURE + 6]) == counts, (seed, str(move))
            checked += 1
            seen_kinds.add(move.kind)
    assert checked > 500 and {"play", "flip", "bomb", "go", "stop"} <= seen_kinds, \
        (checked, seen_kinds)


S_THREATS, A_DENY = 416, 224


def _threats_of(view) -> list[int]:
    """Round 12's state bytes worked out from the view: for each seat from the
    viewer on, where the one card missing from each three-card set is (the
    table, the viewer's hand, unseen; nothing once another seat took it), the
    brights still to take in each place once the seat holds two, and the
    points the seat is short of the threshold (the reference scoring)."""
    from gostop_core.cards import CARD_CODES
    from gostop_core.testing.reference import CHEONGDAN, CHODAN, GODORI, HONGDAN, kind_of, score_pile
    table = set(view.field) | {card_index(c) for c in (view.flip_card, view.played_card) if c is not None}
    hand, unseen = set(view.hand), set(view.unseen)
    brights = {card_index(c) for c in CARD_CODES if kind_of(c) == "B"}
    out = []
    for k in range(view.players):
        pile = set(view.captured[(view.seat + k) % view.players])
        row = []
        for named in (GODORI, HONGDAN, CHEONGDAN, CHODAN):
            missing = {card_index(c) for c in named} - pile
            row += [int(bool(missing & place)) if len(missing) == 1 else 0
                    for place in (table, hand, unseen)]
        live = brights - pile
        row += [len(live & place) if len(brights & pile) >= 2 else 0 for place in (table, hand, unseen)]
        total = score_pile([CARD_CODES[c] for c in pile], view.rules)
        row.append(max(0, view.rules.threshold(view.players) - total))
        out += row
    return out + [0] * (48 - len(out))


def _denial_of(view, taken: set[int]) -> list[int]:
    """Round 12's action bytes: what the field cards a move takes would bring
    the next seat, in points and junk (the reference scoring)."""
    from gostop_core.cards import CARD_CODES
    from gostop_core.testing.reference import _rules_namespace, plain_junk_value, score_pile
    taken = taken & set(view.field)
    if not taken:
        return [0, 0]
    nxt = [CARD_CODES[c] for c in view.captured[(view.seat + 1) % view.players]]
    more = nxt + [CARD_CODES[c] for c in taken]
    rules = _rules_namespace(view.rules)
    return [max(0, score_pile(more, view.rules) - score_pile(nxt, view.rules)),
            plain_junk_value(set(more), rules) - plain_junk_value(set(nxt), rules)]


@pytest.mark.parametrize("preset,players", [("casual", 2), ("casual", 3), ("standard", 2)])
def test_the_threat_and_denial_bytes_say_what_each_seat_is_near(preset, players):
    """Round 12's inputs: the state's threat bytes of every position through
    whole hands, and every legal move's denial bytes, agree with the same
    worked out from the view with the reference scoring; some of each are set."""
    states = denials = 0
    for seed, view, codes, state, actions in _random_hands(preset, players, rng_seed=12):
        assert list(state[S_THREATS:]) == _threats_of(view), (seed, view.to_str())
        states += int(state[S_THREATS:].reshape(-1, 16)[:, :15].any())
        for code, row in zip(codes, actions):
            taken = {c for c in range(50) if row[A_TAKEN + c]}
            assert list(row[A_DENY:A_DENY + 2]) == _denial_of(view, taken), (seed, code)
            denials += int(row[A_DENY] > 0)
    assert states > 50 and denials > 10, (states, denials)


@pytest.mark.parametrize("preset,players", [("casual", 2), ("casual", 3), ("standard", 2),
                                            ("traditional", 2)])
def test_the_actors_first_layer_is_the_networks_on_its_inputs(preset, players):
    """Every row the actor hands over (its first layer in C: the state part,
    the decision's base exposure rows, each move's own and changed rows) is
    the numpy network's first layer on that row's input bytes, with every
    weight non-zero."""
    net = Network.initial((48, 24), seed=4)
    sp = SelfPlay(64, preset, players, seed=2, weights=net.play_weights())
    w = net.play_weights()
    pack = 50 if Rules(preset).bonus_cards else 48
    checked = folded = 0
    for _ in range(40):
        h1 = sp.prepare()
        states, actions = sp.inputs()
        assert states.shape[0] == actions.shape[0] == h1.shape[0]
        x = np.concatenate([states, actions], axis=1).astype(np.float32)
        expected = np.maximum(x @ w["w1"] + w["b1"], 0)
        np.testing.assert_allclose(h1, expected, rtol=1e-4, atol=1e-4)
        assert actions[:, 168:].any()      # the exposure rows are in play
        # the actor adds the visible cards' rows with the unseen plane folded in
        # (inputs.fold_state_rows) where the seven card planes hold each card of
        # the pack once, and every row otherwise (a flipped card shown and on the
        # field): the check above covers both
        per_card = states[:, :350].reshape(-1, 7, 50).sum(axis=1)
        once = (per_card[:, :pack] == 1).all(axis=1) & (per_card[:, pack:] == 0).all(axis=1)
        folded += int(once.sum())
        checked += h1.shape[0]
        sp.advance(net.head(h1), 0.1)
    assert checked > 1000 and folded > 0.9 * checked


@pytest.mark.parametrize("layout", INPUT_LAYOUTS[:-1])
def test_weights_written_with_older_inputs_play_as_before(tmp_path, layout):
    """A weights file of an older input layout (rounds 6-10: 416 state and 168
    action bytes; round 11: 416 and 224) is read with zero weights on the rows
    added since: every Q is the one its own rows give on its own bytes."""
    s_old, a_old = layout
    old = Network.initial((32, 16), seed=5)
    legacy = {k: v.copy() for k, v in old.params.items()}
    w1 = legacy["w1"]
    legacy["w1"] = np.concatenate([w1[:s_old], w1[NUM_STATE_FEATURES:NUM_STATE_FEATURES + a_old]])
    path = tmp_path / "legacy.npz"
    header = {"format": "gostop-dmc-1", "inputs": [s_old, a_old], "hidden": [32, 16]}
    moments = {"adam_m_w1": np.ones_like(legacy["w1"]), "adam_m_w2": np.ones_like(legacy["w2"])}
    np.savez(path, **legacy, **moments, header=np.frombuffer(json.dumps(header).encode(), np.uint8))
    net, extra = load_network(path, with_extra=True)
    new_rows = np.r_[s_old:NUM_STATE_FEATURES, NUM_STATE_FEATURES + a_old:NUM_STATE_FEATURES + NUM_ACTION_FEATURES]
    # a checkpoint's Adam moments of w1 are padded the same way (--resume goes on)
    assert extra["adam_m_w1"].shape == net.params["w1"].shape
    assert not extra["adam_m_w1"][new_rows].any() and extra["adam_m_w1"][:s_old].all()
    assert extra["adam_m_w2"].shape == legacy["w2"].shape
    assert net.params["w1"].shape == (NUM_STATE_FEATURES + NUM_ACTION_FEATURES, 32)
    assert not net.params["w1"][new_rows].any()
    assert net.header["inputs_padded_from"] == [s_old, a_old]
    scale = input_scale()
    old_scale = np.concatenate([scale[:s_old], scale[NUM_STATE_FEATURES:NUM_STATE_FEATURES + a_old]])
    checked = 0
    for seed in range(4):
        game = Game("casual", seed=seed)
        for _ in range(6):
            _codes, state, actions = view_inputs(*parse_view(game.view(game.turn).to_str()))
            x_old = np.concatenate([np.repeat(state[None, :s_old], len(actions), 0), actions[:, :a_old]], 1)
            h = np.maximum(x_old * old_scale @ legacy["w1"] + legacy["b1"], 0)
            h2 = np.maximum(h @ legacy["w2"] + legacy["b2"], 0)
            expected = (h2 @ legacy["w3"] + legacy["b3"][0]) * 10.0
            assert net.q_values(state, actions) == pytest.approx(expected, rel=1e-4, abs=1e-4)
            checked += 1
            game.push(next(iter(game.legal_moves)))
            if game.is_over():
                break
    assert checked >= 12
    # a file whose header claims the latest inputs but holds the old rows is refused
    header["inputs"] = [NUM_STATE_FEATURES, NUM_ACTION_FEATURES]
    np.savez(path, **legacy, header=np.frombuffer(json.dumps(header).encode(), np.uint8))
    with pytest.raises(NeuralWeightsError, match="w1 has shape"):
        load_network(path)


def test_the_neural_bot_decides_from_the_view_alone_and_deterministically(weights):
    bot = NeuralBot(weights=weights)
    for seed in range(6):
        game = Game("casual", seed=seed)
        if game.is_over():
            continue
        other = Game.from_position(swap_hidden(game.position()))
        a = bot.choose(game.view(0), list(game.legal_moves))
        b = NeuralBot(weights=weights).choose(other.view(0), list(other.legal_moves))
        assert a == b and a in game.legal_moves


def test_the_neural_bot_plays_whole_games_under_casual_and_standard(weights):
    # 4 players do not fit the inputs: the bot plays the greedy move there
    for preset, players in (("casual", 2), ("casual", 3), ("standard", 2), ("family", 4)):
        game = Game(preset, players, seed=5)
        play_game(game, [make_bot(f"neural:weights={weights}")] + [GreedyBot()] * (players - 1))
        assert game.is_over()


@pytest.mark.parametrize("preset,players,deals", [("casual", 2, 6), ("casual", 3, 3),
                                                   ("standard", 2, 3)])
def test_the_c_evaluation_plays_the_games_the_python_bots_play(weights, preset, players, deals):
    """evaluate_vs_greedy steps the network and the C greedy policy in C; the
    same deals played move by move by NeuralBot and GreedyBot end the same."""
    net = load_network(weights)
    seed = 500_000
    result = evaluate_vs_greedy(net, preset, players, deals, seed)
    totals = []
    for d in range(deals):
        for seat in range(players):
            game = Game(preset, players, seed=seed + d)
            bots = [GreedyBot() for _ in range(players)]
            bots[seat] = NeuralBot(weights=weights)
            outcome = play_game(game, bots)
            if game.rules.payment != 0:      # chips
                totals.append(outcome.chips[seat])
            else:
                won = outcome.winner == seat
                totals.append(0 if outcome.winner is None else
                              (outcome.points if won else -outcome.points))
    assert result["points"] == pytest.approx(np.mean(totals))


def test_self_play_samples_carry_each_seats_final_result(weights):
    net = load_network(weights)
    sp = SelfPlay(16, "casual", 2, seed=9, weights=net.play_weights())
    for _ in range(200):
        sp.advance(net.head(sp.prepare()), 0.1)
    s, a, r = sp.drain()
    assert sp.hands > 0 and len(r) > 0 and sp.pending_samples == 0
    assert s.shape == (len(r), NUM_STATE_FEATURES) and a.shape == (len(r), NUM_ACTION_FEATURES)
    # 2 players, casual: a seat wins or loses the winner's points, or the hand is drawn
    assert np.all(np.abs(r) <= 300) and np.all(r == np.round(r))
    # every sample is a choice of the seat to move: one action kind set
    assert np.all(a[:, :12].sum(axis=1) == 1)


def test_the_same_seed_gives_the_same_self_play(weights):
    net = load_network(weights)
    out = []
    for _ in range(2):
        sp = SelfPlay(8, "casual", 2, seed=4, weights=net.play_weights())
        for _ in range(100):
            sp.advance(net.head(sp.prepare()), 0.2)
        out.append(sp.drain())
    for x, y in zip(*out):
        assert np.array_equal(x, y)


def test_adam_fits_a_target_the_network_can_express():
    rng = np.random.default_rng(0)
    net = Network.initial((16, 8), seed=1)
    x = (rng.random((256, len(input_scale()))) < 0.05).astype(np.float32)
    y = x[:, 0] * 2.0 - x[:, 1]
    opt = Adam(net, lr=1e-2)
    first = opt.step(x, y)
    for _ in range(80):
        last = opt.step(x, y)
    assert last < 0.2 * first


def test_a_grouped_step_learns_only_the_differences_within_each_group():
    """With ``groups``, a constant added to every target of one group changes
    nothing (the same parameters after the step), and the step is not the
    plain one; and repeated steps fit the differences within each group."""
    rng = np.random.default_rng(3)
    x = (rng.random((60, len(input_scale()))) < 0.05).astype(np.float32)
    y = (x[:, 0] * 2.0 - x[:, 1]).astype(np.float32)
    groups = np.repeat(np.arange(12), 5)
    shifted = y + rng.normal(0, 5, 12).astype(np.float32)[groups]
    start = Network.initial((16, 8), seed=1).params["w2"].copy()
    moves, losses = [], []
    for target, g in ((y, groups), (shifted, groups), (shifted, None)):
        net = Network.initial((16, 8), seed=1)
        losses.append(Adam(net, lr=1e-3).step(x, target, groups=g))
        moves.append((net.params["w2"] - start).ravel())

    def cosine(a, b):
        return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))
    # Adam's first step is about the gradient's sign: compare the directions
    assert losses[0] == pytest.approx(losses[1], rel=1e-4)
    assert cosine(moves[0], moves[1]) > 0.99
    assert cosine(moves[1], moves[2]) < 0.9 and losses[2] > 2 * losses[1]
    net = Network.initial((16, 8), seed=1)
    opt = Adam(net, lr=1e-2)
    first = opt.step(x, shifted, groups=groups)
    for _ in range(80):
        last = opt.step(x, shifted, groups=groups)
    assert last < 0.2 * first


def test_a_tiny_training_run_checkpoints_and_resumes(tmp_path):
    cfg = TrainConfig(hands=600, games=32, batch=64, replay=20_000, hidden1=16, hidden2=8,
                      eval_deals=4, checkpoint_s=1e9)
    train(tmp_path, cfg, command="test", log=lambda _: None)
    first = load_network(tmp_path / "checkpoint.npz")
    assert first.header["hands"] >= 600 and first.header["samples"] > 0
    assert first.header["versions"]["numpy"] == np.__version__
    cfg.hands = 1200
    train(tmp_path, cfg, resume=True, command="test", log=lambda _: None)
    second, extra = load_network(tmp_path / "checkpoint.npz", with_extra=True)
    assert second.header["hands"] >= 1200 and second.header["samples"] > first.header["samples"]
    assert int(extra["adam_t"][0]) == second.header["batches"] > 0
    curve = [json.loads(line) for line in (tmp_path / "curve.jsonl").read_text().splitlines()]
    assert [p["hands"] for p in curve] == [first.header["hands"], second.header["hands"]]
    assert all(p["vs_greedy"]["deals"] == 4 for p in curve)
    # the checkpoint is a weights file the bot plays with
    game = Game("casual", seed=3)
    play_game(game, [NeuralBot(weights=str(tmp_path / "checkpoint.npz")), GreedyBot()])


def test_resuming_with_another_network_shape_is_refused(tmp_path):
    cfg = TrainConfig(hands=100, games=16, batch=64, replay=20_000, hidden1=16, hidden2=8,
                      eval_deals=0, checkpoint_s=1e9)
    train(tmp_path, cfg, log=lambda _: None)
    cfg.hidden1 = 32
    with pytest.raises(NeuralWeightsError, match="hidden1"):
        train(tmp_path, cfg, resume=True, log=lambda _: None)


def test_the_loader_rejects_files_that_are_no_network(tmp_path, weights):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(NeuralWeightsError, match="not a network weights file"):
        load_network(bad)
    net = load_network(weights)
    params = dict(net.params)
    params["w2"] = params["w2"][:, :3]
    np.savez(tmp_path / "shape.npz", header=np.frombuffer(json.dumps(
        dict(net.header)).encode(), dtype=np.uint8), **params)
    with pytest.raises(NeuralWeightsError, match="has shape"):
        load_network(tmp_path / "shape.npz")
    params = dict(net.params)
    params["b1"] = params["b1"] * np.nan
    np.savez(tmp_path / "nan.npz", header=np.frombuffer(json.dumps(
        dict(net.header)).encode(), dtype=np.uint8), **params)
    with pytest.raises(NeuralWeightsError, match="finite"):
        load_network(tmp_path / "nan.npz")
    with pytest.raises(NeuralWeightsError, match="regular file"):
        save_network(tmp_path, net)


def test_a_header_copied_from_another_network_cannot_mislabel_the_saved_one(tmp_path):
    narrow = Network.initial((16, 8), seed=5)
    save_network(tmp_path / "narrow.npz", narrow, header={"command": "test"})
    old = load_network(tmp_path / "narrow.npz")
    wide = old.widened((32, 16), seed=1)
    wide.header = {}  # only the header passed in names the old network
    digest = save_network(tmp_path / "wide.npz", wide, header=dict(old.header, note="widened"))
    saved = load_network(tmp_path / "wide.npz")
    assert saved.header["sha256"] == digest != old.header["sha256"]
    assert saved.header["hidden"] == [32, 16] and saved.hidden == (32, 16)
    assert saved.header["command"] == "test" and saved.header["note"] == "widened"

def test_gostop_train_neural_runs_a_tiny_training_and_reports_bad_input(tmp_path):
    runner = CliRunner()
    out = tmp_path / "run"
    result = runner.invoke(cli, ["train-neural", "--out", str(out), "--hands", "300", "--games",
                                 "16", "--batch", "64", "--replay", "10000", "--hidden", "16", "8",
                                 "--eval-deals", "2", "--td-lambda", "0.8"])
    assert result.exit_code == 0, result.output
    assert (out / "checkpoint.npz").is_file() and (out / "curve.jsonl").is_file()
    assert load_network(out / "checkpoint.npz").header["config"]["td_lambda"] == 0.8
    result = runner.invoke(cli, ["train-neural", "--out", str(out), "--hands", "600", "--games",
                                 "16", "--hidden", "32", "8", "--resume"])
    assert result.exit_code == 2 and "hidden1" in result.output
    assert "Traceback" not in result.output
    result = runner.invoke(cli, ["train-neural", "--out", str(tmp_path / "bad"), "--td-lambda",
                                 "1.5"])
    assert result.exit_code == 2 and "--td-lambda" in result.output
    assert not (tmp_path / "bad").exists()


def test_gostop_hint_ranks_the_moves_by_the_networks_q(weights):
    runner = CliRunner()
    position = runner.invoke(cli, ["deal", "--seed", "7"]).output.strip()
    result = runner.invoke(cli, ["hint", position, "--bot", f"neural:weights={weights}", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    values = [m["value"] for m in doc["moves"]]
    assert values == sorted(values, reverse=True) and doc["best"] == doc["moves"][0]["move"]
    game = Game.from_position(position)
    assert sorted(m["move"] for m in doc["moves"]) == sorted(str(m) for m in game.legal_moves)
    bot = NeuralBot(weights=weights)
    assert doc["best"] == str(bot.choose(game.view(game.turn), list(game.legal_moves)))
    bad = runner.invoke(cli, ["hint", position, "--bot", "neural:weights=/nonexistent.npz"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_the_go_stop_can_be_left_to_the_search(weights):
    bot = make_bot(f"neural:weights={weights},gostop=search")
    plays = 0
    for seed in range(40):
        game = Game("casual", seed=seed)
        while not game.is_over():
            legal = list(game.legal_moves)
            if any(m.kind == "go" for m in legal):
                view = game.view(game.turn)
                assert bot.choose(view, legal) == make_bot("expectimax-v1", seed=None).choose(view, legal)
                plays += 1
                break
            game.push(GreedyBot().choose(game.view(game.turn), legal))
        if plays:
            break
    assert plays
    with pytest.raises(ValueError, match="gostop"):
        make_bot("neural:gostop=maybe")
    with pytest.raises(ValueError, match="bad neural setting"):
        make_bot("neural:depth=2")


def test_the_actor_refuses_bad_arguments_and_leaves_the_games_as_they_were(weights):
    net = load_network(weights)
    with pytest.raises(ValueError, match="w1"):
        SelfPlay(4, "casual", 2, weights={"w1": np.zeros((3, 8)), "b1": np.zeros(8)})
    with pytest.raises(ValueError, match="weights are needed"):
        SelfPlay(4, "casual", 2)
    with pytest.raises(ValueError, match="room for 3 seats"):
        SelfPlay(4, "family", 4, weights=net.play_weights())
    sp = SelfPlay(4, "casual", 2, seed=2, weights=net.play_weights())
    h1 = sp.prepare()
    with pytest.raises(ValueError, match="one per row"):
        sp.advance(np.zeros(h1.shape[0] + 1))
    with pytest.raises(ValueError, match="epsilon"):
        sp.advance(np.zeros(h1.shape[0]), 1.5)
    assert sp.decisions == 0
    sp.advance(net.head(h1))
    assert sp.decisions == 4


def test_the_snapshot_script_copies_the_weights_and_the_curve(tmp_path, capsys):
    from conftest import load_script
    run = tmp_path / "run"
    cfg = TrainConfig(hands=200, games=16, batch=64, replay=20_000, hidden1=16, hidden2=8,
                      eval_deals=2, checkpoint_s=1e9)
    train(run, cfg, command="test", log=lambda _: None)
    snapshot = load_script("neural_snapshot")
    weights, curve = tmp_path / "w.npz", tmp_path / "docs" / "curve.jsonl"
    assert snapshot.main([str(run), "--weights", str(weights), "--curve", str(curve)]) == 0
    shipped, shipped_extra = load_network(weights, with_extra=True)
    checkpoint, extra = load_network(run / "checkpoint.npz", with_extra=True)
    assert not shipped_extra and "adam_t" in extra       # the weights alone, no optimiser
    for k, v in checkpoint.params.items():
        assert np.array_equal(shipped.params[k], v)
    assert shipped.header["sha256"] == checkpoint.header["sha256"]
    assert curve.read_text() == (run / "curve.jsonl").read_text()
    assert f"| {checkpoint.header['hands']:,} |" in capsys.readouterr().out


def test_a_run_started_from_a_weights_file_counts_on_and_keeps_the_weights(tmp_path):
    cfg = TrainConfig(hands=600, games=32, batch=64, replay=20_000, hidden1=16, hidden2=8,
                      eval_deals=0, checkpoint_s=1e9)
    train(tmp_path / "first", cfg, log=lambda _: None)
    first = load_network(tmp_path / "first" / "checkpoint.npz")
    assert first.header["samples"] > 0
    cfg.hands = first.header["hands"] + 600
    cfg.lr = 1e-7  # the weights barely move: the start is the file's network
    lines: list[str] = []
    train(tmp_path / "second", cfg, init=tmp_path / "first" / "checkpoint.npz",
          log=lines.append)
    second = load_network(tmp_path / "second" / "checkpoint.npz")
    assert lines[0].startswith(f"started from {tmp_path / 'first' / 'checkpoint.npz'}: "
                               f"{first.header['hands']:,} hands")
    assert second.header["hands"] >= cfg.hands > first.header["hands"]
    assert second.header["samples"] > first.header["samples"]
    assert second.header["init"]["sha256"] == first.header["sha256"]
    assert second.header["batches"] > 0  # a fresh optimiser, counted from nought
    for key, value in first.params.items():
        assert np.allclose(second.params[key], value, atol=1e-4), key
    # a network larger than --hidden, or of another preset, is refused with the file's name
    cfg.hidden1 = 8
    with pytest.raises(NeuralWeightsError, match="hidden sizes"):
        train(tmp_path / "third", cfg, init=tmp_path / "first" / "checkpoint.npz",
              log=lambda _: None)
    cfg.hidden1, cfg.rules = 16, "standard"
    with pytest.raises(NeuralWeightsError, match="rules='casual'"):
        train(tmp_path / "third", cfg, init=tmp_path / "first" / "checkpoint.npz",
              log=lambda _: None)
    result = CliRunner().invoke(cli, ["train-neural", "--out", str(tmp_path / "cli"), "--hands",
                                      "10", "--hidden", "16", "8", "--init",
                                      str(tmp_path / "missing.npz")])
    assert result.exit_code == 2 and "missing.npz" in result.output
    assert "Traceback" not in result.output


def _decisions_per_hand(weights, share, hands=300):
    net = load_network(weights)
    actor = SelfPlay(64, "casual", 2, seed=5, weights=net.play_weights(), greedy_share=share)
    while actor.hands < hands:
        actor.advance(net.head(actor.prepare()), 0.05)
        actor.drain()
    return actor.decisions / actor.hands


def test_games_against_greedy_seats_record_only_the_networks_decisions(weights):
    """With ``greedy_share`` 1 the network holds one seat of two and the greedy
    policy the other (the play the C evaluation checks against the Python bots):
    about half the decisions a hand of self-play are the network's; a share of
    one half lies between."""
    alone = _decisions_per_hand(weights, 0.0)
    versus = _decisions_per_hand(weights, 1.0)
    half = _decisions_per_hand(weights, 0.5)
    assert 0.35 < versus / alone < 0.65
    assert versus < half < alone


def test_a_greedy_share_is_a_fraction_and_the_same_seed_gives_the_same_samples(weights):
    net = load_network(weights)
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError, match="greedy_share"):
            SelfPlay(8, "casual", 2, seed=1, weights=net.play_weights(), greedy_share=bad)
    runs = []
    for _ in range(2):
        actor = SelfPlay(32, "casual", 2, seed=3, weights=net.play_weights(), greedy_share=0.5)
        for _ in range(60):
            actor.advance(net.head(actor.prepare()), 0.1)
        runs.append(actor.drain())
    for a, b in zip(*runs):
        assert np.array_equal(a, b)
    assert len(runs[0][2]) > 0


def test_bonus_bank_banks_a_bonus_card_at_once_and_is_argmax_q_otherwise(weights):
    """``neural:bonus=bank`` plays a bonus card the moment it may (docs/strength.md,
    round 8), and every other decision as argmax Q does."""
    banker = make_bot(f"neural:weights={weights},bonus=bank")
    plain = make_bot(f"neural:weights={weights}")
    seen_bonus = seen_other = 0
    for seed in range(40):
        game = Game("casual", 2, seed=seed)
        while not game.is_over():
            legal = list(game.legal_moves)
            view = game.view(game.turn)
            chosen = banker.choose(view, legal)
            if any(m.kind == "bonus" for m in legal):
                assert chosen.kind == "bonus"
                seen_bonus += 1
            elif len(legal) > 1:
                assert chosen == plain.choose(view, legal)
                seen_other += 1
            game.push(chosen)
        if seen_bonus >= 3 and seen_other >= 30:
            break
    assert seen_bonus >= 3 and seen_other >= 30
    with pytest.raises(ValueError, match="bonus"):
        NeuralBot(weights=weights, bonus="always")


def _random_rows(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    states = (rng.random((n, NUM_STATE_FEATURES)) < 0.2).astype(np.uint8)
    actions = (rng.random((n, NUM_ACTION_FEATURES)) < 0.05).astype(np.uint8)
    return states, actions


def test_a_widened_network_keeps_every_q_value():
    net = Network.initial((16, 8), seed=4)
    for k in ("b1", "b2", "b3"):   # biases that are not nought, so that copying them counts
        net.params[k] += np.float32(0.1)
    states, actions = _random_rows(5, 300)
    before = net.q_values(states, actions)
    exact = net.widened((40, 20), seed=1, noise=0.0)
    assert exact.hidden == (40, 20)
    assert np.allclose(exact.q_values(states, actions), before, atol=1e-4)
    noisy = net.widened((40, 20), seed=1)
    after = noisy.q_values(states, actions)
    assert not np.array_equal(noisy.params["w1"][:, 16:], exact.params["w1"][:, 16:])
    assert np.allclose(after, before, atol=0.05 * float(np.abs(before).max()) + 1e-3)
    assert np.array_equal(net.widened((16, 8), noise=0.0).q_values(states, actions),
                          before.astype(np.float32))
    with pytest.raises(NeuralWeightsError, match="shrink"):
        net.widened((8, 8))


def test_a_run_started_from_a_smaller_network_grows_it(tmp_path):
    cfg = TrainConfig(hands=300, games=32, batch=64, replay=20_000, hidden1=16, hidden2=8,
                      eval_deals=0, checkpoint_s=1e9)
    train(tmp_path / "small", cfg, log=lambda _: None)
    small = load_network(tmp_path / "small" / "checkpoint.npz")
    cfg.hidden1, cfg.hidden2, cfg.lr = 32, 16, 1e-7
    cfg.hands = small.header["hands"] + 300
    train(tmp_path / "wide", cfg, init=tmp_path / "small" / "checkpoint.npz",
          log=lambda _: None)
    wide = load_network(tmp_path / "wide" / "checkpoint.npz")
    assert wide.hidden == (32, 16)
    assert wide.header["init"]["widened_from"] == [16, 8]
    states, actions = _random_rows(6, 200)
    assert np.allclose(wide.q_values(states, actions), small.q_values(states, actions),
                       atol=0.05)


def test_lambda_returns_follow_each_seats_later_values(weights):
    """td_lambda: G = (1 - lambda) Q(next choice of the same seat) + lambda G(next), the
    last choice's G the hand's result; the same games and inputs as Monte-Carlo."""
    net = load_network(weights)
    lam = 0.5
    mc = SelfPlay(1, "casual", 2, seed=11, weights=net.play_weights())
    td = SelfPlay(1, "casual", 2, seed=11, weights=net.play_weights(), td_lambda=lam)
    assert td.td_lambda == lam and mc.td_lambda == 1.0
    checked, chosen = 0, []
    while checked < 25:
        h_mc, h_td = mc.prepare(), td.prepare()
        s1, a1, r1 = mc.drain()
        s2, a2, r2 = td.drain()
        if len(r1):     # one game: the samples of the hand that just ended, in order
            assert np.array_equal(s1, s2) and np.array_equal(a1, a2)
            assert len(chosen) == len(r1) == len(r2)
            if r1[0] != 0:      # a decided hand: the winner's samples are the positive ones
                expected = np.empty(len(r1))
                for sign in (1, -1):
                    g = None
                    for j in np.flatnonzero(np.sign(r1) == sign)[::-1]:
                        expected[j] = r1[j] if g is None else g
                        g = (1 - lam) * chosen[j] + lam * expected[j]
                assert np.allclose(r2, expected, atol=1e-3)
                assert not np.allclose(r2, r1)
                checked += 1
            chosen = []
        q = net.head(h_mc)
        chosen.append(float(q.max()))
        mc.advance(q, 0.0)
        td.advance(net.head(h_td), 0.0)
    with pytest.raises(ValueError, match="td_lambda"):
        SelfPlay(1, "casual", 2, weights=net.play_weights(), td_lambda=1.5)


def test_each_shipped_network_names_its_making():
    """Every shipped weights file carries the command that made it, the library
    versions, the self-play hands behind it and the sha256 of its parameters
    (which match them); the casual network, fitted to the labels of the search
    with its predecessor's playouts (round 16), also names those labels'
    settings and the network it started from."""
    import hashlib
    from gostop_core.neural.network import DEFAULT_WEIGHTS, _arrays_bytes
    for path in sorted(DEFAULT_WEIGHTS.parent.glob("*.npz")):
        net = load_network(path)
        head = net.header
        assert head["sha256"] == hashlib.sha256(_arrays_bytes(net.params)).hexdigest(), path
        assert head["command"] and {"numpy", "python"} <= set(head["versions"]), path
        assert head["hands"] > 10_000_000 and head["samples"] > head["hands"], path
    head = load_network(DEFAULT_WEIGHTS).header
    assert head["command"].startswith("python scripts/search_labels.py fit ")
    (labels,) = head["distilled"]["labels"].values()
    assert labels["settings"]["teacher"] == "network" and labels["settings"]["samples"] == 128
    assert head["init"]["sha256"] != head["sha256"] and head["config"]["rules"] == "casual"
    # neural's own at 2-player casual (round 22): that network fitted to the
    # search's values blended half and half with its Q, as best blends them
    from gostop_core.neural.network import NEURAL_WEIGHTS, SHIPPED_WEIGHTS
    own = load_network(NEURAL_WEIGHTS[("casual", 2)]).header
    assert own["init"]["sha256"] == head["sha256"] and own["distilled"]["blend"] == 0.5
    (labels,) = own["distilled"]["labels"].values()
    assert labels["settings"]["teacher"] == "network" and labels["settings"]["samples"] == 128
    # and at 3-player casual (round 25): casual3.npz fitted the same way to the
    # search at that table with casual3.npz in its playouts
    own3 = load_network(NEURAL_WEIGHTS[("casual", 3)]).header
    shipped3 = load_network(SHIPPED_WEIGHTS[("casual", 3)]).header
    assert own3["init"]["sha256"] == shipped3["sha256"] != own3["sha256"]
    assert own3["distilled"]["blend"] == 0.5 and own3["config"]["players"] == 3
    (labels,) = own3["distilled"]["labels"].values()
    assert labels["settings"]["players"] == 3 and labels["settings"]["rules"] == "casual"
    assert labels["settings"]["teacher"] == "network" and labels["settings"]["samples"] == 128
    # and at 2-player standard (round 23): standard2.npz, fitted the same way to
    # the search at standard with standard2.npz in its playouts
    std = load_network(NEURAL_WEIGHTS[("standard", 2)]).header
    shipped_std = load_network(SHIPPED_WEIGHTS[("standard", 2)]).header
    assert std["init"]["sha256"] == shipped_std["sha256"] != std["sha256"]
    assert std["distilled"]["blend"] == 0.5 and std["config"]["rules"] == "standard"
    (labels,) = std["distilled"]["labels"].values()
    assert labels["settings"]["rules"] == "standard" and labels["settings"]["players"] == 2
    assert labels["settings"]["teacher"] == "network" and labels["settings"]["samples"] == 128
