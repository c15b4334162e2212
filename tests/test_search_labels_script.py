"""scripts/search_labels.py: the search-labelled positions of round 8's experiment
(docs/strength.md): shards written whole and resumed, every field of a shard
checked on reading, and a network fitted to them."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "search_labels.py"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("search_labels", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["search_labels"] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def test_labels_hold_the_searchs_value_of_every_legal_move_and_resume(script, tmp_path):
    from gostop_core.bots.search import search_fields  # noqa: F401  (the labeller's search)
    cfg = script.LabelConfig(hands_per_shard=1, shards=2, samples=8)
    assert script.label_positions(tmp_path, cfg) == 2
    assert script.label_positions(tmp_path, cfg) == 0  # both shards are there: nothing to do
    s, a, v, d = script.load_shards(sorted(tmp_path.glob("labels_*.npz")))
    assert len(s) == len(a) == len(v) == len(d) > 0
    # one row per legal move: a decision's rows share the state, and differ in the move
    for k in np.unique(d)[:5]:
        rows = np.flatnonzero(d == k)
        assert len(rows) >= 2 and (s[rows] == s[rows[0]]).all()
        assert len({a[r].tobytes() for r in rows}) == len(rows)
    other = script.LabelConfig(hands_per_shard=2, shards=2, samples=8)
    with pytest.raises(script.LabelFileError, match="other settings"):
        script.label_positions(tmp_path, other)


def _network_search_values(game, codes, **playout):
    """The values of ``codes`` by the search with the network's playouts
    (``playout``: :func:`network_playout_options`'s keywords), called directly
    with the labeller's depth, samples, seed and win bonus."""
    from gostop_core.bots.neural import network_playout_options
    from gostop_core.bots.search import search_fields
    from gostop_core.notation import parse_view
    rules, fields = parse_view(game.view(game.turn).to_str())
    direct = search_fields(rules, fields, 1, 16, 7, rollout=True, win_bonus=2.0,
                           **network_playout_options(rules, 2, **{"cut": 1, **playout}))
    by_code = {code: value for code, value, _line in direct["moves"]}
    return [by_code[c] for c in codes]


def _resumes_labelled_before(script, directory, cfg, setting):
    """A directory labelled with ``cfg`` before ``setting`` existed (its
    labels.json without it) resumes under ``cfg``: its one shard is there."""
    assert script.label_positions(directory, cfg) == 1
    settings = json.loads((directory / "labels.json").read_text())
    del settings[setting]
    (directory / "labels.json").write_text(json.dumps(settings))
    assert script.label_positions(directory, cfg) == 0


def test_the_network_teacher_values_moves_with_the_networks_playouts(script, tmp_path):
    """``teacher="network"``: the values are those of the search with the
    shipped network's playouts cut after one turn (neural-search's), not
    expectimax-v1's; an unknown teacher is refused; a directory labelled before
    the setting existed resumes as the search's."""
    from gostop_core import Game
    game = Game("casual", 2, seed=5)
    _codes, _s, _a, plain = script._label(game, 16, 2.0, 7, None, "search")
    codes, _s, _a, net = script._label(game, 16, 2.0, 7, None, "network")
    assert np.allclose(net, _network_search_values(game, codes))
    assert not np.allclose(net, plain)
    with pytest.raises(ValueError, match="teacher must be"):
        script.label_positions(tmp_path / "x", script.LabelConfig(teacher="oracle"))
    _resumes_labelled_before(script, tmp_path / "old",
                             script.LabelConfig(hands_per_shard=1, shards=1, samples=4),
                             "teacher")


def test_the_network_teacher_plays_the_weights_it_is_given(script, tmp_path):
    """``teacher_weights``: the network teacher's playouts are played by that
    network (one step of policy iteration from a fitted one), recorded in the
    directory's settings; refused with the search as teacher, or when the file
    is no network."""
    from gostop_core import Game
    from gostop_core.neural.network import DEFAULT_WEIGHTS
    other = str(Path(DEFAULT_WEIGHTS).with_name("standard2.npz"))
    game = Game("casual", 2, seed=5)
    _c, _s, _a, shipped = script._label(game, 16, 2.0, 7, None, "network")
    _c, _s, _a, again = script._label(game, 16, 2.0, 7, None, "network", None)
    _c, _s, _a, fitted = script._label(game, 16, 2.0, 7, None, "network", other)
    assert np.allclose(shipped, again) and not np.allclose(shipped, fitted)
    with pytest.raises(ValueError, match="network teacher"):
        script.label_positions(tmp_path / "a", script.LabelConfig(teacher_weights=other))
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="junk.npz"):
        script.label_positions(tmp_path / "b", script.LabelConfig(teacher="network",
                                                                  teacher_weights=str(junk)))
    assert not (tmp_path / "b").exists()  # refused before anything is written
    cfg = script.LabelConfig(hands_per_shard=1, shards=1, samples=4, teacher="network",
                             teacher_weights=other)
    assert script.label_positions(tmp_path / "c", cfg) == 1
    assert json.loads((tmp_path / "c" / "labels.json").read_text())["teacher_weights"] == other
    with pytest.raises(script.LabelFileError, match="other settings"):
        script.label_positions(tmp_path / "c", script.LabelConfig(
            hands_per_shard=1, shards=1, samples=4, teacher="network"))


def test_the_network_teachers_cut_is_the_playouts_and_recorded(script, tmp_path):
    """``cut``: the network teacher's playouts end after that many turns with
    the network's value, or are played to the end (0); the directory records it,
    one labelled before the setting resumes as cut after one turn, and a cut
    outside 0..MAX_CUT or with the search as teacher is refused before anything
    is written."""
    from gostop_core import Game
    from gostop_core.bots.search import MAX_CUT
    game = Game("casual", 2, seed=5)
    codes, _s, _a, one = script._label(game, 16, 2.0, 7, None, "network")
    for cut in (0, 3):
        _c, _s, _a, values = script._label(game, 16, 2.0, 7, None, "network", None, cut)
        assert np.allclose(values, _network_search_values(game, codes, cut=cut))
        assert not np.allclose(values, one)
    for bad in (-1, MAX_CUT + 1):
        with pytest.raises(ValueError, match="cut must be"):
            script.label_positions(tmp_path / "bad", script.LabelConfig(teacher="network",
                                                                        cut=bad))
    with pytest.raises(ValueError, match="network teachers"):
        script.label_positions(tmp_path / "bad", script.LabelConfig(cut=0))
    assert not (tmp_path / "bad").exists()
    cfg = script.LabelConfig(hands_per_shard=1, shards=1, samples=4, teacher="network", cut=0)
    assert script.label_positions(tmp_path / "c", cfg) == 1
    assert json.loads((tmp_path / "c" / "labels.json").read_text())["cut"] == 0
    with pytest.raises(script.LabelFileError, match="other settings"):
        script.label_positions(tmp_path / "c", script.LabelConfig(
            hands_per_shard=1, shards=1, samples=4, teacher="network"))
    _resumes_labelled_before(script, tmp_path / "old", script.LabelConfig(
        hands_per_shard=1, shards=1, samples=4, teacher="network"), "cut")


def test_the_network_own_teacher_plays_greedy_for_the_other_seats(script):
    """``teacher="network-own"``: the search with the network for the bot's own
    playout moves and greedy for the others' (neural-search:others=0)."""
    from gostop_core import Game
    game = Game("casual", 2, seed=8)
    codes, _s, _a, own = script._label(game, 16, 2.0, 7, None, "network-own")
    _c, _s, _a, both = script._label(game, 16, 2.0, 7, None, "network")
    assert np.allclose(own, _network_search_values(game, codes, others=False))
    assert not np.allclose(own, both)


def test_against_greedy_opponents_only_one_seat_a_hand_is_labelled(script, monkeypatch, tmp_path):
    """``opponents="greedy"``: in hand h only seat h mod players is labelled
    (and plays by the labels); the other seats play greedy, unlabelled."""
    seats = []
    real = script._label

    def spy(game, *args):
        seats.append((game.seed, game.turn))
        return real(game, *args)
    monkeypatch.setattr(script, "_label", spy)
    cfg = script.LabelConfig(hands_per_shard=4, shards=1, samples=4, opponents="greedy")
    decisions = list(script.shard_hands(cfg, 0))
    by_hand = {}
    for seed, seat in seats:
        by_hand.setdefault(seed, set()).add(seat)
    assert len(decisions) == len(seats) > 0
    assert [sorted(s) for s in by_hand.values()] == [[0], [1], [0], [1]]
    with pytest.raises(ValueError, match="opponents must be"):
        script.label_positions(tmp_path, script.LabelConfig(opponents="everyone"))


def test_a_damaged_shard_is_refused_with_its_name(script, tmp_path):
    cfg = script.LabelConfig(hands_per_shard=1, shards=1, samples=8)
    script.label_positions(tmp_path, cfg)
    path = tmp_path / "labels_00000.npz"
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    bad_values = dict(arrays, values=arrays["values"] * np.inf)
    bad_shape = dict(arrays, actions=arrays["actions"][:, :5])
    for i, bad in enumerate((bad_values, bad_shape)):
        target = tmp_path / f"bad_{i}.npz"
        np.savez(target, **bad)
        with pytest.raises(script.LabelFileError, match=target.name):
            script.load_shards([target])
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(script.LabelFileError, match="junk.npz"):
        script.load_shards([tmp_path / "junk.npz"])


def test_a_network_is_fitted_to_the_labels(script, tmp_path):
    cfg = script.LabelConfig(hands_per_shard=2, shards=2, samples=8)
    script.label_positions(tmp_path, cfg)
    lines = []
    report = script.fit(sorted(tmp_path.glob("labels_*.npz")), str(tmp_path / "fit.npz"),
                        None, 1, 1e-3, log=lines.append)
    assert [json.loads(x)["epoch"] for x in lines] == [0, 1]
    assert 0 <= report["top1"] <= 1 and report["decisions"] > 0
    from gostop_core.neural.network import load_network
    head = load_network(tmp_path / "fit.npz").header
    assert head["distilled"]["epochs"] == 1 and head["distilled"]["loss"] == "mse"
    assert head["distilled"]["labels"][str(tmp_path)]["shards"] == 2
    assert head["distilled"]["labels"][str(tmp_path)]["settings"]["samples"] == 8
    assert head["versions"]["numpy"] == np.__version__ and "init" not in head


def test_a_fit_from_the_shipped_network_names_it_and_keeps_its_lineage(script, tmp_path):
    """A fitted network names the file it started from (sha256, command) and
    keeps its self-play lineage (hands, samples, config: what train-neural
    --init counts on), not the fields of the process that made that file."""
    from gostop_core.neural.network import DEFAULT_WEIGHTS, load_network
    first, second = tmp_path / "a", tmp_path / "b"
    script.label_positions(first, script.LabelConfig(hands_per_shard=1, shards=2, samples=4))
    script.label_positions(second, script.LabelConfig(hands_per_shard=1, shards=1, samples=4,
                                                      seed=3))
    assert script.main(["fit", str(first), str(second), "--out", str(tmp_path / "fit.npz"),
                        "--init", str(DEFAULT_WEIGHTS), "--epochs", "1"]) == 0
    shipped = load_network(DEFAULT_WEIGHTS).header
    head = load_network(tmp_path / "fit.npz").header
    assert head["init"]["sha256"] == shipped["sha256"] != head["sha256"]
    assert head["hands"] == shipped["hands"] and head["config"] == shipped["config"]
    assert "averaged" not in head and "run_command" not in head
    assert head["command"].startswith("python scripts/search_labels.py fit ")
    assert {k: v["shards"] for k, v in head["distilled"]["labels"].items()} == {
        str(first): 2, str(second): 1}
    assert script.main(["fit", str(tmp_path / "none"), "--out", str(tmp_path / "x.npz")]) == 2


def test_the_centred_fit_batches_whole_decisions(script, tmp_path):
    """``loss="centred"`` takes whole decisions into each batch (every row of a
    decision, each decision once an epoch) and records the loss it used."""
    import numpy as np
    decision = np.repeat(np.arange(50), np.arange(50) % 7 + 1)
    seen = []
    for idx, groups in script._decision_batches(decision, 40, np.random.default_rng(0)):
        assert np.array_equal(np.unique(decision[idx]).size, groups.max() + 1)
        for g in np.unique(groups):
            rows = idx[groups == g]
            whole = np.flatnonzero(decision == decision[rows[0]])
            assert np.array_equal(np.sort(rows), whole)
        seen.extend(np.unique(decision[idx]).tolist())
    assert sorted(seen) == list(range(50))
    cfg = script.LabelConfig(hands_per_shard=1, shards=2, samples=4)
    script.label_positions(tmp_path, cfg)
    report = script.fit(sorted(tmp_path.glob("labels_*.npz")), str(tmp_path / "fit.npz"),
                        None, 1, 1e-3, log=lambda line: None, loss="centred")
    assert report["epoch"] == 1
    from gostop_core.neural.network import load_network
    assert load_network(tmp_path / "fit.npz").header["distilled"]["loss"] == "centred"
    with pytest.raises(ValueError, match="mse or centred"):
        script.fit(sorted(tmp_path.glob("labels_*.npz")), str(tmp_path / "x.npz"), None, 1,
                   1e-3, loss="huber")


def test_labels_at_three_players_are_fitted_and_judged_at_that_table(script, tmp_path,
                                                                     monkeypatch):
    """``label --players 3`` plays (and labels) 3-player hands (``--win-bonus``:
    the search's bonus for a playout won); a fit judges its
    network at the labels' table, and refuses label directories of two tables."""
    three, two = tmp_path / "three", tmp_path / "two"
    assert script.main(["label", "--out", str(three), "--shards", "2",
                        "--hands-per-shard", "1", "--samples", "4", "--players", "3",
                        "--win-bonus", "8"]) == 0
    settings = json.loads((three / "labels.json").read_text())
    assert settings["players"] == 3 and settings["win_bonus"] == 8
    from gostop_core.neural import dmc
    tables = []
    real = dmc.evaluate_vs_greedy

    def spy(net, rules, players, deals, seed):
        tables.append((rules, players))
        return real(net, rules, players, 20, seed)
    monkeypatch.setattr(dmc, "evaluate_vs_greedy", spy)
    report = script.fit(sorted(three.glob("labels_*.npz")), str(tmp_path / "fit.npz"),
                        None, 1, 1e-3, log=lambda line: None)
    assert tables == [("casual", 3)] * 2 and 0 <= report["won"] <= 1
    script.label_positions(two, script.LabelConfig(hands_per_shard=1, shards=1, samples=4))
    with pytest.raises(script.LabelFileError, match="different tables"):
        script.fit(sorted(three.glob("labels_*.npz")) + sorted(two.glob("labels_*.npz")),
                   str(tmp_path / "x.npz"), None, 1, 1e-3)
    for bonus in ("nan", "-1"):
        assert script.main(["label", "--out", str(tmp_path / "bad"), "--win-bonus", bonus]) == 2
    assert not (tmp_path / "bad").exists()
    with pytest.raises(SystemExit) as exc:  # argparse's usage error
        script.main(["label", "--out", str(tmp_path / "bad"), "--rules", "chess"])
    assert exc.value.code == 2


def test_a_blended_target_is_the_search_and_the_starting_networks_q_weighed(script, tmp_path):
    """``blend`` W fits ``(1 - W) * search + W * Q`` of the starting network: before
    any step the network's squared error to that target is (1 - W)^2 times its
    error to the search's values alone, and the setting is recorded."""
    from gostop_core.neural.network import DEFAULT_WEIGHTS, load_network
    script.label_positions(tmp_path, script.LabelConfig(hands_per_shard=1, shards=2, samples=8))
    shards = sorted(tmp_path.glob("labels_*.npz"))
    plain = script.fit(shards, str(tmp_path / "a.npz"), str(DEFAULT_WEIGHTS), 0, 1e-4,
                       log=lambda line: None)
    half = script.fit(shards, str(tmp_path / "b.npz"), str(DEFAULT_WEIGHTS), 0, 1e-4,
                      log=lambda line: None, blend=0.5)
    assert plain["mse"] > 0
    assert half["mse"] == pytest.approx(0.25 * plain["mse"], rel=1e-4)
    # the network picks argmax Q, so the blended target's regret is at most half the search's
    assert half["regret"] <= 0.5 * plain["regret"] + 1e-4
    assert load_network(tmp_path / "b.npz").header["distilled"]["blend"] == 0.5
    with pytest.raises(ValueError, match="blend must be"):
        script.fit(shards, str(tmp_path / "x.npz"), str(DEFAULT_WEIGHTS), 0, 1e-4, blend=1.0)
    with pytest.raises(ValueError, match="needs the network"):
        script.fit(shards, str(tmp_path / "x.npz"), None, 0, 1e-4, blend=0.5)


def test_hidden_widens_the_starting_network_after_its_q_is_blended(script, tmp_path):
    """``fit --hidden H1 H2``: the starting network widened to those sizes with its
    Q kept, so before any step the wider network meets the same blended target
    as the starting one (the target's Q is the starting network's own); the sizes
    are recorded, and a layer that would shrink is refused with one line."""
    from gostop_core.neural.network import DEFAULT_WEIGHTS, load_network
    script.label_positions(tmp_path, script.LabelConfig(hands_per_shard=1, shards=2, samples=8))
    shards = sorted(tmp_path.glob("labels_*.npz"))
    same = script.fit(shards, str(tmp_path / "a.npz"), str(DEFAULT_WEIGHTS), 0, 1e-4,
                      log=lambda line: None, blend=0.5)
    wide = script.fit(shards, str(tmp_path / "b.npz"), str(DEFAULT_WEIGHTS), 0, 1e-4,
                      log=lambda line: None, blend=0.5, hidden=(320, 160))
    assert wide["top1"] == same["top1"] and wide["mse"] == pytest.approx(same["mse"], rel=0.05)
    net = load_network(tmp_path / "b.npz")
    assert net.hidden == (320, 160) and net.header["hidden"] == [320, 160]
    assert net.header["distilled"]["hidden"] == [320, 160]
    assert net.header["init"]["sha256"] == load_network(DEFAULT_WEIGHTS).header["sha256"]
    # one step trains the wider network: its moves' values change
    script.main(["fit", str(tmp_path), "--out", str(tmp_path / "c.npz"), "--init",
                 str(DEFAULT_WEIGHTS), "--epochs", "1", "--hidden", "320", "160"])
    assert not np.array_equal(load_network(tmp_path / "c.npz").params["w1"], net.params["w1"])
    assert script.main(["fit", str(tmp_path), "--out", str(tmp_path / "x.npz"), "--init",
                        str(DEFAULT_WEIGHTS), "--hidden", "128", "128"]) == 2
    assert not (tmp_path / "x.npz").exists()
    assert script.main(["fit", str(tmp_path), "--out", str(tmp_path / "x.npz"),
                        "--hidden", "0", "8"]) == 2
