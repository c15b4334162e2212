"""The learned playout policy and value (gostop_core.bots.policy), the learned
bot, its weights file and its training (docs/strength.md, "learned policy")."""
from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from gostop_core import Game
from gostop_core.bots import GreedyBot, make_bot, play_game
from gostop_core.bots.learned import LearnedBot
from gostop_core.bots.policy import (
    DEFAULT_WEIGHTS, NUM_POLICY_FEATURES, NUM_VALUE_FEATURES, LearnedPolicy, WeightsError,
    check_weights, load_weights, view_features, view_value_features,
)
from gostop_core.bots.search import search_fields
from gostop_core.bots.training import (
    TrainingDataError, fit_policy, generate, read_games, train,
)
from gostop_core.errors import GoStopError
from gostop_core.notation import parse_view


def decision_views(presets=("casual", "traditional", "family"), games=3, seed=0):
    """Views of the seat to move at every decision with a choice of a few
    random-bot games (every preset's rules, 2 and 3 players)."""
    rng = random.Random(seed)
    for preset in presets:
        for players in (2, 3):
            for g in range(games):
                game = Game(preset, players, seed=100 + g)
                while not game.is_over():
                    legal = list(game.legal_moves)
                    if len(legal) > 1:
                        yield legal, game.view(game.turn)
                    game.push(rng.choice(legal))


def random_policy(seed: int) -> LearnedPolicy:
    rng = np.random.default_rng(seed)
    return LearnedPolicy(rng.normal(size=NUM_POLICY_FEATURES), rng.normal(size=NUM_VALUE_FEATURES),
                         temperature=0.7)


# ---------------------------------------------------------------- C against numpy
def test_the_c_policy_scores_moves_as_numpy_does_with_the_same_weights():
    model = random_policy(1)
    w = np.array(model.policy_weights)
    checked = 0
    for legal, view in decision_views():
        rules, fields = parse_view(view.to_str())
        codes, feats = view_features(rules, fields)
        assert codes == [m.code for m in legal]
        c_codes, c_scores = model.scores(rules, fields)
        assert c_codes == codes
        np.testing.assert_allclose(c_scores, feats @ w, rtol=1e-12, atol=1e-12)
        # the playout's move: the first of the highest scores
        assert model.choice(rules, fields) == codes[int(np.argmax(feats @ w))]
        checked += 1
    assert checked > 100


def test_the_c_value_is_the_dot_product_of_the_value_features():
    model = random_policy(2)
    v = np.array(model.value_weights)
    for _, view in list(decision_views(games=1))[:60]:
        rules, fields = parse_view(view.to_str())
        assert model.value(rules, fields) == pytest.approx(view_value_features(rules, fields) @ v,
                                                           abs=1e-12)


def test_the_greedy_feature_marks_the_greedy_bots_move():
    for legal, view in list(decision_views(presets=("casual", "standard")))[:150]:
        rules, fields = parse_view(view.to_str())
        codes, feats = view_features(rules, fields)
        assert feats[:, 0].sum() == 1.0
        greedy = GreedyBot().choose(view, legal)
        assert codes[int(np.argmax(feats[:, 0]))] == greedy.code


def test_the_opponent_model_weight_is_the_policys_softmax_probability_of_the_move():
    """world_weight in C: for one observed decision, the weight of the deal that
    gave the opponent its true hand is the policy's softmax probability (at the
    model's temperature) of the move it played, computed here in numpy from the
    opponent's own view."""
    model = random_policy(3)
    w = np.array(model.policy_weights)
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        game = Game("casual", 2, seed=seed)
        while not game.is_over():
            legal = list(game.legal_moves)
            mover = game.turn
            move = rng.choice(legal)
            if mover == 1 and len(legal) > 1:
                mine = parse_view(game.view(0).to_str())
                theirs_rules, theirs = parse_view(game.view(1).to_str())
                codes, feats = view_features(theirs_rules, theirs)
                s = feats @ w / model.temperature
                p = math.exp(s[codes.index(move.code)] - s.max()) / np.exp(s - s.max()).sum()
                laid = 1 << ((move.code >> 6) & 63) if move.kind in ("play", "bonus") else 0
                model.set_observations(mine[0], [(mine[1], move.code, laid)])
                hand_now = theirs["hand"] & ~laid
                assert model.weight(mine[0], mine[1], {1: hand_now}) == pytest.approx(p, rel=1e-9)
                checked += 1
            game.push(move)
    model.clear_observations()
    assert model.observations == 0
    assert checked >= 10


def test_bad_observations_are_refused_whole():
    """The opponent model's observations are checked before any is kept: a bad
    one among good ones raises and the observations before stay."""
    game = Game("casual", 2, seed=2)
    while game.turn != 1:
        game.push(list(game.legal_moves)[0])
    rules, mine = parse_view(game.view(0).to_str())
    _, theirs = parse_view(game.view(1).to_str())
    move = list(game.legal_moves)[0].code
    model = random_policy(3)
    model.set_observations(rules, [(mine, move, 0)])
    for bad, message in [((theirs, move, 0), "another seat"), ((mine, 1 << 16, 0), "bad observed"),
                         ((mine, move, 1 << 50), "bad observed")]:
        with pytest.raises(ValueError, match=message):
            model.set_observations(rules, [(mine, move, 0), bad])
        assert model.observations == 1


# ---------------------------------------------------------------- the search with a model
def test_a_model_capsule_is_required_for_cutoff_and_worlds():
    game = Game("casual", 2, seed=3)
    rules, fields = parse_view(game.view(game.turn).to_str())
    with pytest.raises(ValueError, match="need a model"):
        search_fields(rules, fields, samples=2, cutoff=3)
    with pytest.raises(ValueError):
        search_fields(rules, fields, samples=2, model=object())  # not a PlayoutModel capsule
    with pytest.raises(ValueError, match="cutoff"):
        search_fields(rules, fields, samples=2, model=random_policy(0).capsule(), cutoff=-1)


def test_the_learned_bot_with_greedy_weights_searches_as_the_expectimax_bot():
    """A model whose score is the greedy choice alone plays the greedy policy:
    the search's values are those of the plain expectimax bot."""
    greedy_only = [1.0] + [0.0] * (NUM_POLICY_FEATURES - 1)
    bot = LearnedBot(4, samples=8, others=True)
    bot.model = LearnedPolicy(greedy_only, [0.0] * NUM_VALUE_FEATURES)
    bot._capsule = bot.model.capsule()
    plain = make_bot("expectimax:samples=8", seed=4)
    game = Game("casual", 2, seed=9)
    for _ in range(6):
        view = game.view(game.turn)
        a = [(str(r.move), r.value) for r in bot.analyse(view)]
        b = [(str(r.move), r.value) for r in plain.analyse(view)]
        assert a == b
        game.push(next(iter(game.legal_moves)))


def test_the_learned_bot_plays_whole_games_with_every_setting():
    for spec in ("learned:samples=4", "learned:samples=4,others=1,cut=2",
                 "learned:samples=4,worlds=4,temp=0.5"):
        for preset, players in (("casual", 2), ("standard", 3)):
            game = Game(preset, players, seed=21)
            play_game(game, [make_bot(spec, seed=s) for s in range(players)])
            assert game.is_over()


@pytest.mark.parametrize("spec,message", [
    ("learned:cut=99", "cut"), ("learned:worlds=0", "worlds"), ("learned:own=2", "0 or 1"),
    ("learned:colour=1", "key=value"), ("learned:weights=/no/such/file.json", "no/such"),
])
def test_bad_learned_settings_are_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


# ---------------------------------------------------------------- the weights file
def test_the_shipped_weights_load_and_name_their_making():
    w = load_weights()
    assert len(w["policy"]) == NUM_POLICY_FEATURES and len(w["value"]) == NUM_VALUE_FEATURES
    header = w["header"]
    assert "gostop train" in header["command"]
    assert header["seeds"][1] < 1_000_000
    assert {"gostop", "numpy", "python"} <= set(header["versions"])
    assert LearnedPolicy.load().policy_weights == tuple(w["policy"])


def _shipped() -> dict:
    with open(DEFAULT_WEIGHTS, encoding="utf-8") as fh:
        return json.load(fh)


@pytest.mark.parametrize("change,message", [
    (lambda d: d.update(format="gostop-learned/0"), "format"),
    (lambda d: d["header"].pop("command"), "command"),
    (lambda d: d["header"].update(seeds=[0, 1_000_000]), "seeds"),
    (lambda d: d["header"].update(seeds=[5, 2]), "seeds"),
    (lambda d: d["header"].update(versions={"numpy": 2}), "versions"),
    (lambda d: d["header"].update(games=True), "games"),
    (lambda d: d.update(policy=d["policy"][:-1]), "policy"),
    (lambda d: d["policy"].__setitem__(3, float("nan")), "finite"),
    (lambda d: d["value"].__setitem__(0, "1.0"), "finite"),
    (lambda d: d["value"].__setitem__(0, True), "finite"),
    (lambda d: d.update(temperature=0), "temperature"),
    (lambda d: d["policy_features"].reverse(), "policy_features"),
    (lambda d: d.pop("value_features"), "value_features"),
])
def test_the_loader_rejects_a_bad_weights_file(tmp_path, change, message):
    doc = _shipped()
    change(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(WeightsError, match=message) as info:
        load_weights(path)
    assert isinstance(info.value, GoStopError) and str(path) in str(info.value)


def test_the_loader_rejects_files_that_are_no_weights(tmp_path):
    for content in (b"", b"{not json", b"\xff\xfe", b"[1, 2]", b"null"):
        path = tmp_path / "x.json"
        path.write_bytes(content)
        with pytest.raises(WeightsError):
            load_weights(path)
    with pytest.raises(WeightsError, match="missing.json"):
        load_weights(tmp_path / "missing.json")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * ((1 << 20) + 1))
    with pytest.raises(WeightsError, match="1 MiB"):
        load_weights(big)
    # check_weights itself, on a parsed document
    with pytest.raises(WeightsError):
        check_weights({"format": "gostop-learned/1"})


# ---------------------------------------------------------------- training
def test_training_is_reproducible_on_a_tiny_data_set(tmp_path):
    data = tmp_path / "games.jsonl"
    assert generate("expectimax:samples=2", 40, 3, str(data)) == 3
    assert generate("expectimax:samples=2", 40, 3, str(data)) == 0  # already there: skipped
    games = list(read_games(str(data)))
    assert [g["seed"] for g in games] == [40, 41, 42]
    assert all(d["choice"] in d["moves"] for g in games for d in g["decisions"])
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    train([str(data)], str(a), "gostop train test")
    train([str(data)], str(b), "gostop train test")
    assert a.read_bytes() == b.read_bytes()
    doc = load_weights(a)
    assert doc["header"]["seeds"] == [40, 42] and doc["header"]["games"] == 3


def test_training_refuses_the_report_seeds(tmp_path):
    with pytest.raises(TrainingDataError, match="1,000,000"):
        generate("expectimax-v1", 999_999, 2, str(tmp_path / "x.jsonl"))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seed": 1, "decisions": [{"view": 3}], "net": [0, 0]}\n')
    with pytest.raises(TrainingDataError, match="line 1"):
        list(read_games(str(bad)))


def test_the_policy_fit_recovers_the_weights_that_made_the_choices():
    """Choices drawn from a known softmax policy over random features: the
    fit finds weights close to it, and the same data gives the same weights."""
    rng = np.random.default_rng(0)
    true_w = np.array([2.0, -1.0, 0.5])
    sizes = rng.integers(2, 6, size=3000)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    X = rng.normal(size=(offsets[-1], 3))
    choice = []
    for d in range(len(sizes)):
        s = X[offsets[d]:offsets[d + 1]] @ true_w
        p = np.exp(s - s.max())
        choice.append(offsets[d] + rng.choice(len(p), p=p / p.sum()))
    w, stats = fit_policy(X, offsets, np.array(choice), l2=0.0)
    np.testing.assert_allclose(w, true_w, atol=0.15)
    w2, _ = fit_policy(X, offsets, np.array(choice), l2=0.0)
    assert np.array_equal(w, w2)
    assert 0.5 < stats["accuracy"] < 1.0


# ---------------------------------------------------------------- gostop train
def test_gostop_train_writes_weights_the_bot_loads(tmp_path):
    from click.testing import CliRunner
    from gostop_cli.main import cli
    data, out = tmp_path / "d.jsonl", tmp_path / "w.json"
    result = CliRunner().invoke(cli, ["train", "--expert", "expectimax:samples=2", "--games", "2",
                                      "--seed", "7", "--data", str(data), "--out", str(out),
                                      "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["games"] == 2 and report["seeds"] == [7, 8]
    header = load_weights(out)["header"]
    assert header["command"].startswith("gostop train --expert expectimax:samples=2 --games 2")
    bot = make_bot(f"learned:samples=2,weights={out}")
    game = Game("casual", 2, seed=3)
    play_game(game, [bot, make_bot("greedy")])
    assert game.is_over()


@pytest.mark.parametrize("args,message", [
    (["--expert", "nosuchbot"], "--expert"),
    (["--expert", "greedy", "--games", "1"], "no searching bot"),
    (["--seed", "999999", "--games", "5"], "1,000,000"),
    (["--games", "0"], "No such file"),
])
def test_gostop_train_reports_bad_input_on_one_line(tmp_path, args, message):
    from click.testing import CliRunner
    from gostop_cli.main import cli
    result = CliRunner().invoke(cli, ["train", "--data", str(tmp_path / "d.jsonl"),
                                      "--out", str(tmp_path / "w.json"), *args])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) <= 3


def test_gostop_train_help_has_an_example():
    from click.testing import CliRunner
    from gostop_cli.main import cli
    result = CliRunner().invoke(cli, ["train", "--help"])
    assert result.exit_code == 0 and "gostop train --expert" in result.output


# ---------------------------------------------------------------- the observe hook
class _Watcher(GreedyBot):
    def __init__(self, seed=None):
        super().__init__(seed)
        self.seen = []

    def start_hand(self, view):
        self.seat = view.seat

    def observe(self, view, move):
        self.seen.append((view.seat, view.to_move, str(move)))


@pytest.mark.parametrize("runner", ["play_game", "play_supervised"])
def test_bots_are_shown_every_other_seats_move_with_their_own_view(runner):
    from gostop_core.arena.games import play_supervised
    game = Game("casual", 3, seed=12)
    bots = [_Watcher(), GreedyBot(), _Watcher()]
    if runner == "play_game":
        play_game(game, bots)
    else:
        outcome, lost, _ = play_supervised(game, bots, [True] * 3, 5.0)
        assert outcome is not None and lost is None
    # replay the hand: every move with its mover, in order
    replay = Game("casual", 3, seed=12)
    played = []
    for move in game.move_stack:
        played.append((replay.turn, str(move)))
        replay.push(move)
    for seat in (0, 2):
        assert bots[seat].seen == [(seat, mover, move) for mover, move in played
                                   if mover != seat]
