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
    assert load_network(tmp_path / "fit.npz").header["epochs"] == 1


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
    assert load_network(tmp_path / "fit.npz").header["loss"] == "centred"
    with pytest.raises(ValueError, match="mse or centred"):
        script.fit(sorted(tmp_path.glob("labels_*.npz")), str(tmp_path / "x.npz"), None, 1,
                   1e-3, loss="huber")
