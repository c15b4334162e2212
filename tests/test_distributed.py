"""The Ray backend (gostop_core.arena.ray_backend) against a local Ray runtime: the
same results as the local backend game for game (arena and self-play), a
killed worker's batch retried with every deal counted once, a batch lost for
good named by IncompleteRunError, an interrupted self-play run resumed, and no
Ray process left behind.

One local cluster (2 CPUs, 127.0.0.1, no dashboard) serves the whole module:
Ray takes many seconds to start on a small machine.  A test counts, kills and
waits for only the Ray processes of its own cluster (this process's
descendants, or the session of the command it started): another cluster on the
machine, such as one of another pytest-xdist worker, is never touched."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

ray = pytest.importorskip("ray")
# one Ray cluster at a time when the tests run on several processes: `-n 2 --dist
# loadfile` keeps a file's tests on one (--dist loadgroup no longer groups anything
# with pytest 9.2: pytest-xdist issue 1386)

from click.testing import CliRunner  # noqa: E402

from gostop_cli.main import cli  # noqa: E402
from gostop_core import Game  # noqa: E402
from gostop_core.arena import run_arena  # noqa: E402
from gostop_core.arena.ray_backend import IncompleteRunError, connect, deal_ranges  # noqa: E402
from gostop_core.records import game_from_record, read_records  # noqa: E402
from gostop_core.arena.selfplay import MANIFEST, run_selfplay, shard_name  # noqa: E402
from gostop_core.protocol.process import descendants  # noqa: E402


def _ray_pids(session: int | None = None) -> set[int]:
    """Processes of a Ray runtime (raylet, GCS, workers...) of this process's
    own cluster: its descendants; or, given ``session``, those of that
    session (a command started with ``start_new_session=True`` and the
    cluster it starts)."""
    found = set()
    pids = descendants(os.getpid()) if session is None else _pids_of_session(session)
    for pid in pids:
        cmd = _cmdline(pid)
        if (b"raylet" in cmd or b"gcs_server" in cmd or b"default_worker.py" in cmd
                or cmd.startswith(b"ray::") or b"ray/_private" in cmd
                or b"ray/dashboard" in cmd or b"ray/autoscaler" in cmd):
            found.add(pid)
    return found


def _pids_of_session(session: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                fields = fh.read().rsplit(b") ", 1)[-1].split()
        except OSError:
            continue
        if len(fields) > 3 and int(fields[3]) == session:
            found.add(int(entry))
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                if fh.read().split(") ")[-1].startswith("Z"):
                    continue  # a zombie holds no resources
            alive.add(pid)
        except OSError:
            pass
    return alive


def _wait_gone(pids: set[int], seconds: float = 45.0) -> set[int]:
    # a loaded machine (browser tests on the other worker) can keep Ray's
    # processes exiting for well over 15 s after ray.shutdown()
    deadline = time.monotonic() + seconds
    while _alive(pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    return _alive(pids)


@pytest.fixture(scope="module")
def cluster():
    """One local Ray cluster for the module; after ``ray.shutdown()`` none of
    the processes it started may be left."""
    before = _ray_pids()
    assert connect(cpus=2)  # ray.init(num_cpus=2, include_dashboard=False) on 127.0.0.1
    assert ray.nodes()[0]["NodeManagerAddress"] == "127.0.0.1"
    ours = _ray_pids() - before
    assert ours, "the local cluster started no process"
    yield
    ours |= _ray_pids() - before  # workers started since
    ray.shutdown()
    left = _wait_gone(ours)
    assert not left, f"Ray processes left after shutdown: {sorted(left)}"


def _no_date(record) -> dict:
    data = record.to_dict()
    data.pop("date")
    return data


@pytest.mark.parametrize("bots, players, rules, deals", [
    (["greedy", "random"], 2, "casual", 7),
    (["greedy", "random", "greedy"], 3, "traditional", 3),
])
def test_ray_arena_equals_local_game_for_game(cluster, bots, players, rules, deals):
    local = run_arena(bots, deals=deals, players=players, rules=rules, seed=11, workers=1,
                      game_records=True)
    distributed = run_arena(bots, deals=deals, players=players, rules=rules, seed=11,
                            backend="ray", batch=2, game_records=True)
    assert distributed.as_dict() == local.as_dict()
    assert distributed.records == local.records  # deal, rotation, seats, points, winner
    assert [_no_date(r.record) for r in distributed.records] == \
        [_no_date(r.record) for r in local.records]


def test_arena_cli_ray_backend_prints_the_local_json(cluster):
    runner = CliRunner()
    args = ["arena", "greedy", "random", "--deals", "5", "--seed", "3", "--json"]
    local = runner.invoke(cli, args + ["--workers", "1"])
    distributed = runner.invoke(cli, args + ["--backend", "ray"])
    assert local.exit_code == 0 and distributed.exit_code == 0, distributed.output
    a, b = json.loads(local.output), json.loads(distributed.output)
    a.pop("seconds"), b.pop("seconds")
    assert a == b


KILLER = """
import os, signal
from gostop_core.bots import GreedyBot

MARKER = {marker!r}
DEAL = {deal!r}


class Killer(GreedyBot):
    '''Greedy, but kills its own worker process: on the first game it plays
    anywhere (MARKER absent), or on every game of deal DEAL.'''

    def __init__(self, seed=None):
        super().__init__()
        self.deal = None if seed is None else seed // 16  # the arena's seeding, seed 0

    def choose(self, view, legal):
        if DEAL is None and not os.path.exists(MARKER):
            open(MARKER, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        if DEAL is not None and self.deal == DEAL:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().choose(view, legal)
"""


def _killer(tmp_path: Path, deal: int | None = None) -> tuple[str, Path]:
    marker = tmp_path / "killed-once"
    path = tmp_path / "killer_bot.py"
    path.write_text(KILLER.format(marker=str(marker), deal=deal))
    return f"{path}:Killer", marker


def test_killed_worker_batch_is_retried_and_counted_once(cluster, tmp_path):
    spec, marker = _killer(tmp_path)
    distributed = run_arena([spec, "random"], deals=6, backend="ray", batch=2)
    assert marker.exists()  # a worker was killed mid-batch
    assert [(r.deal, r.rotation) for r in distributed.records] == \
        [(d, k) for d in range(6) for k in range(2)]
    assert distributed.games == 12 and distributed.forfeits == [0, 0]
    # the same games as a run where nothing is killed (the marker is there now)
    local = run_arena([spec, "random"], deals=6, workers=1)
    assert distributed.as_dict() == local.as_dict()
    assert distributed.records == local.records


def test_batch_lost_for_good_names_its_deals(cluster, tmp_path):
    spec, _ = _killer(tmp_path, deal=3)
    with pytest.raises(IncompleteRunError) as info:
        run_arena([spec, "random"], deals=6, backend="ray", batch=2, retries=1)
    assert info.value.missing == [2, 3]  # the batch of deal 3
    assert info.value.done == 4
    assert "missing deals: 2-3" in str(info.value)
    assert isinstance(info.value, RuntimeError)


def test_deal_ranges():
    assert deal_ranges([7, 0, 1, 2, 9, 10]) == "0-2, 7, 9-10"
    assert deal_ranges(list(range(0, 100, 2)), limit=2) == "0, 2, ..."


def _shard_records(out: Path) -> list[dict]:
    manifest = json.loads((out / MANIFEST).read_text())
    rows = []
    for shard in manifest["shards"]:
        with open(out / shard["file"], encoding="utf-8") as fh:
            records = list(read_records(fh, verify=True))
        for rec in records:
            game = game_from_record(rec)  # the output replays
            assert game.is_over()
            rows.append(_no_date(rec))
    return rows


def test_selfplay_ray_equals_local_and_resumes(cluster, tmp_path):
    settings = dict(players=2, rules="casual", seed=5, shard_size=4)
    local = run_selfplay("greedy", 10, str(tmp_path / "local"), workers=1, **settings)
    assert (local.shards, local.written, local.skipped) == (3, 3, 0)
    expected = _shard_records(tmp_path / "local")
    assert [r["selfplay"]["game"] for r in expected] == list(range(10))

    # an interrupted local run: one shard finished, a half-written one left behind
    out = tmp_path / "resumed"
    calls = []

    def stop(done: int) -> None:
        calls.append(done)
        if done >= 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_selfplay("greedy", 10, str(out), workers=1, on_games=stop, **settings)
    assert json.loads((out / MANIFEST).read_text())["finished_games"] == 4
    (out / f".{shard_name(1)}.tmp").write_text('{"format": "gostop-record/1", "rul')
    (out / shard_name(2)).write_text("not a record\n")  # not in the manifest: redone

    resumed = run_selfplay("greedy", 10, str(out), backend="ray", **settings)
    assert (resumed.skipped, resumed.written, resumed.played) == (1, 2, 6)
    assert resumed.manifest["complete"] and resumed.manifest["finished_games"] == 10
    assert _shard_records(out) == expected
    again = run_selfplay("greedy", 10, str(out), backend="ray", **settings)
    assert (again.skipped, again.written) == (3, 0)


def test_selfplay_refuses_another_runs_directory(tmp_path):
    from gostop_core.arena.selfplay import SelfPlayError
    run_selfplay("random", 2, str(tmp_path), shard_size=2, workers=1)
    with pytest.raises(SelfPlayError, match="bot 'random'"):
        run_selfplay("greedy", 2, str(tmp_path), shard_size=2, workers=1)
    result = CliRunner().invoke(cli, ["selfplay", "--bot", "greedy", "--games", "2",
                                      "--shard-size", "2", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "another run" in result.output


def test_selfplay_cli_ray_backend(cluster, tmp_path):
    result = CliRunner().invoke(cli, ["selfplay", "--bot", "random", "--players", "3",
                                      "--games", "5", "--shard-size", "2", "--out",
                                      str(tmp_path), "--backend", "ray", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["games"], data["shards"], data["written"], data["played"]) == (5, 3, 3, 5)
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    assert manifest["bot"] == "random" and manifest["players"] == 3
    assert manifest["engine"].startswith("gostop ")
    assert len(_shard_records(tmp_path)) == 5


def test_ctrl_c_stops_a_ray_arena_and_its_cluster(tmp_path):
    """A separate ``gostop arena --backend ray`` starts its own cluster; Ctrl-C
    ends it with exit code 130 and no Ray process of its own left."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gostop_cli", "arena", "expectimax", "greedy",
         "--deals", "400", "--backend", "ray", "--workers", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # until its cluster runs a worker
            if any(_cmdline(p).startswith(b"ray::play_deal_rows")
                   for p in _ray_pids(proc.pid)):
                break
            time.sleep(0.5)
        ours = _ray_pids(proc.pid)
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err.decode()
    assert b"Interrupted" in err
    ours |= _ray_pids(proc.pid)
    assert not _wait_gone(ours)


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ")
    except OSError:
        return b""


def test_local_selfplay_worker_death_is_an_error_not_a_hang(tmp_path):
    """Without Ray, a worker that dies stops the run with one error; the shards
    finished before are kept and a second run completes them."""
    from gostop_core.errors import GoStopError
    spec, marker = _killer(tmp_path)
    out = tmp_path / "out"
    with pytest.raises(GoStopError, match="worker process died"):
        run_selfplay(spec, 4, str(out), shard_size=1, workers=2)
    assert marker.exists()
    result = run_selfplay(spec, 4, str(out), shard_size=1, workers=2)
    assert result.manifest["complete"] and result.written + result.skipped == 4


def test_an_error_inside_a_task_is_raised_as_itself(cluster):
    """An error raised by the task's own code (not a lost worker) is not turned
    into missing deals: it reaches the caller as the exception it is."""
    from gostop_core.arena.ray_backend import play_deal_rows, ray_batches
    from gostop_core.errors import PositionError
    init = (["greedy", "random"], "nonsense", 2, 0, 5.0, False)
    with pytest.raises(PositionError, match="unknown rules preset 'nonsense'"):
        list(ray_batches(play_deal_rows, init, [(0, 1)], retries=0))


def test_arena_records_through_ray_are_the_local_file(cluster, tmp_path):
    """``arena --records`` on Ray: the same records, in deal and rotation order."""
    files = []
    for backend in ("local", "ray"):
        path = tmp_path / f"{backend}.jsonl"
        result = CliRunner().invoke(cli, ["arena", "greedy", "random", "--deals", "5",
                                          "--workers", "2", "--backend", backend,
                                          "--records", str(path)])
        assert result.exit_code == 0, result.output
        with open(path, encoding="utf-8") as fh:
            files.append([_no_date(r) for r in read_records(fh, verify=True)])
    assert files[0] == files[1]
    assert [(r["arena"]["deal"], r["arena"]["rotation"]) for r in files[1]] == \
        [(d, k) for d in range(5) for k in range(2)]


def test_without_ray_the_backend_says_how_to_install_it(monkeypatch, tmp_path):
    from gostop_core.errors import GoStopError
    monkeypatch.setitem(sys.modules, "ray", None)  # as if it were not installed
    with pytest.raises(GoStopError, match=r"pip install 'gostop\[ray\]'"):
        run_arena(["greedy", "random"], deals=2, backend="ray")
    result = CliRunner().invoke(cli, ["selfplay", "--games", "2", "--out", str(tmp_path / "o"),
                                      "--backend", "ray"])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert not (tmp_path / "o").exists()


# --- gostop train-neural --backend ray: the self-play in Ray actors -------------------------

def _tiny_config(**changes):
    from gostop_core.neural.dmc import TrainConfig
    settings = dict(hands=300, games=16, batch=64, replay=10_000, hidden1=16, hidden2=8,
                    eval_deals=2, seed=3, checkpoint_s=3600)
    settings.update(changes)
    return TrainConfig(**settings)


class _Counted:
    """Wraps a run's sample source: adds up the hands and samples it handed
    to the learner, to compare with what the checkpoint says."""

    def __init__(self, factory):
        self.factory, self.hands, self.samples, self.batches = factory, 0, 0, 0

    def __call__(self, net, cfg, hands):
        inner = self.factory(net, cfg, hands)
        counted = self

        class Source:
            def collect(self):
                finished, samples = inner.collect()
                counted.hands += finished
                if samples is not None:
                    counted.samples += len(samples[2])
                    counted.batches += 1
                return finished, samples

            def sync(self, learned):
                inner.sync(learned)

            def close(self):
                inner.close()
        return Source()


def _header(run: Path) -> dict:
    from gostop_core.neural.network import load_network
    return load_network(run / "checkpoint.npz").header


def test_train_on_ray_actors_counts_every_hand_and_is_deterministic(cluster, tmp_path):
    """Two actors on the module's cluster: the checkpoint counts exactly the
    hands and samples the actors handed over (at least --hands), the learner
    trained on them at the ratio, and the same seed gives the same weights
    however the two actors' timings fall."""
    from gostop_core.arena.ray_training import RayActors
    from gostop_core.neural.dmc import train
    from gostop_core.neural.dmc import ActorsLostError
    cfg = _tiny_config()
    for attempt in range(2):
        # Ray's own worker io thread has segfaulted here once under load (in
        # _raylet.so, per the kernel log): a lost actor gets one more run
        lines: list[str] = []
        counted = _Counted(RayActors(actors=2, steps=20, log=lines.append))
        try:
            train(tmp_path / f"a{attempt}", cfg, actors=counted, log=lines.append)
            break
        except ActorsLostError:
            if attempt:
                raise
    run = tmp_path / f"a{attempt}"
    head = _header(run)
    assert lines[0].startswith("2 self-play actor(s) on Ray, 20 step(s) of 16 games")
    assert head["hands"] == counted.hands >= cfg.hands
    assert head["samples"] == counted.samples > 5 * head["hands"]  # every hand has decisions
    # 0.5 rows a sample in batches of 64, once the replay holds 4 batches
    assert 0 < head["batches"] <= head["samples"] * cfg.ratio / cfg.batch
    curve = [json.loads(line) for line in (run / "curve.jsonl").read_text().splitlines()]
    assert [(p["hands"], p["samples"]) for p in curve] == [(head["hands"], head["samples"])]
    train(tmp_path / "b", cfg, actors=RayActors(actors=2, steps=20), log=lines.append)
    again = _header(tmp_path / "b")
    assert (again["hands"], again["samples"], again["sha256"]) == \
        (head["hands"], head["samples"], head["sha256"])


def test_each_actor_plays_its_own_deals(tmp_path):
    """The actor index is in the seed: actors 0 and 1 of a run play other
    deals, the same actor of the same run the same ones (no Ray needed)."""
    from gostop_core.arena.ray_training import SelfPlayActor
    from gostop_core.neural.dmc import selfplay_seed
    from gostop_core.neural.network import Network
    cfg = _tiny_config()
    params = Network.initial((16, 8), 0).params
    settings = {"rules": "casual", "players": 2, "games": 16, "epsilon": 0.05}

    def first_samples(actor: int, hands: int = 0):
        return SelfPlayActor(settings, selfplay_seed(cfg, hands, actor), params, 30).play()

    a, b, a_again = first_samples(0), first_samples(1), first_samples(0)
    assert a[0] > 0 and all(np.array_equal(x, y) for x, y in zip(a[1:], a_again[1:]))
    assert a[1].shape != b[1].shape or not np.array_equal(a[1], b[1])
    later = first_samples(0, hands=1000)  # a resumed sitting deals anew
    assert a[1].shape != later[1].shape or not np.array_equal(a[1], later[1])
    assert len({selfplay_seed(cfg, 0), selfplay_seed(cfg, 0, 0), selfplay_seed(cfg, 0, 1)}) == 3


def test_a_run_resumes_on_the_other_backend(cluster, tmp_path):
    """The checkpoint is the same on both backends: a local run goes on with
    Ray actors and a Ray run goes on locally, the hands, samples, learner
    steps and Adam's step count carried over."""
    from gostop_core.arena.ray_training import RayActors
    from gostop_core.neural.dmc import LocalActor, train
    from gostop_core.neural.network import load_network
    run = tmp_path / "run"
    # the local actor hands its samples over 8,192 at a time: 800 hands is more
    # (a tiny random network's hands have 12 to 20 decisions with a choice)
    train(run, _tiny_config(hands=800), actors=LocalActor, log=lambda line: None)
    first = _header(run)
    assert first["batches"] > 0
    counted = _Counted(RayActors(actors=1, steps=20))
    lines: list[str] = []
    train(run, _tiny_config(hands=1100), resume=True, actors=counted, log=lines.append)
    second = _header(run)
    assert lines[0] == f"resumed {run / 'checkpoint.npz'}: {first['hands']:,} hands, " \
                       f"{first['samples']:,} samples"
    assert second["hands"] == first["hands"] + counted.hands >= 1100
    assert second["samples"] == first["samples"] + counted.samples
    assert second["batches"] > first["batches"] and second["sha256"] != first["sha256"]
    target = second["hands"] + 700
    train(run, _tiny_config(hands=target), resume=True, actors=LocalActor, log=lambda line: None)
    third = _header(run)
    assert third["hands"] >= target and third["batches"] > second["batches"]
    _, extra = load_network(run / "checkpoint.npz", with_extra=True)
    assert int(extra["adam_t"][0]) == third["batches"]  # Adam went on counting its steps
    assert len((run / "curve.jsonl").read_text().splitlines()) == 3


def _actor_pids() -> set[int]:
    """The live processes of self-play actors of this process's cluster (Ray
    may have started the worker process before the actor moved in: no earlier
    snapshot tells them; another cluster's actors are not ours to kill)."""
    return {pid for pid in _alive(_ray_pids()) if _cmdline(pid).startswith(b"ray::SelfPlayActor")}


def test_a_killed_actor_ends_the_run_with_its_checkpoint(cluster, tmp_path):
    """An actor process that dies (here SIGKILL after three results) ends the
    run with ActorsLostError, after the checkpoint of every hand learned."""
    from gostop_core.arena.ray_training import RayActors
    from gostop_core.neural.dmc import ActorsLostError, train

    class Killing(_Counted):
        def __call__(self, net, cfg, hands):
            source = super().__call__(net, cfg, hands)
            collect = source.collect

            def collect_then_kill():
                result = collect()
                if self.batches == 3:
                    for pid in _actor_pids():
                        os.kill(pid, signal.SIGKILL)
                return result
            source.collect = collect_then_kill
            return source

    counted = Killing(RayActors(actors=1, steps=20))
    with pytest.raises(ActorsLostError, match="self-play actor 0 died"):
        train(tmp_path, _tiny_config(hands=10**6), actors=counted, log=lambda line: None,
              stop_after_s=60)
    # the request sent before the kill may have come back in time
    assert counted.batches in (3, 4)
    assert _header(tmp_path)["hands"] == counted.hands > 0


def test_sigterm_checkpoints_and_ends_the_actors(cluster, tmp_path):
    """SIGTERM (here sent by the run to itself after three requests) stops the
    run as Ctrl-C does: the checkpoint of every hand learned, and its actor
    processes ended while the cluster stays up (it was not the run's)."""
    from gostop_core.arena.ray_training import RayActors
    from gostop_core.neural.dmc import train

    class Terminating(_Counted):
        actors: set[int] = set()

        def __call__(self, net, cfg, hands):
            source = super().__call__(net, cfg, hands)
            collect = source.collect

            def collect_then_terminate():
                result = collect()
                if self.batches == 3 and not self.actors:
                    self.actors = _actor_pids()
                    os.kill(os.getpid(), signal.SIGTERM)
                return result
            source.collect = collect_then_terminate
            return source

    counted = Terminating(RayActors(actors=2, steps=20))
    train(tmp_path, _tiny_config(hands=10**6), actors=counted, log=lambda line: None,
          stop_after_s=60)
    assert counted.batches == 3 and len(counted.actors) >= 2
    assert _header(tmp_path)["hands"] == counted.hands > 0
    assert not _wait_gone(counted.actors) and not _actor_pids()
    assert ray.is_initialized() and ray.cluster_resources().get("CPU") == 2


def test_train_neural_cli_on_ray(cluster, tmp_path):
    out = tmp_path / "run"
    args = ["train-neural", "--out", str(out), "--games", "16", "--batch", "64", "--replay",
            "10000", "--hidden", "16", "8", "--eval-deals", "2", "--backend", "ray"]
    result = CliRunner().invoke(cli, args + ["--hands", "200", "--actors", "1"])
    assert result.exit_code == 0, result.output
    assert "1 self-play actor(s) on Ray, 512 step(s) of 16 games a request" in result.output
    assert _header(out)["hands"] >= 200
    too_many = CliRunner().invoke(cli, args + ["--hands", "400", "--actors", "3", "--resume"])
    assert too_many.exit_code == 2 and "at most 2 actors" in too_many.output
    assert "Traceback" not in too_many.output


def test_train_neural_ray_options_need_the_ray_backend_and_ray(monkeypatch, tmp_path):
    runner = CliRunner()
    base = ["train-neural", "--out", str(tmp_path / "o"), "--hands", "10"]
    for extra, name in ((["--actors", "2"], "--actors"), (["--address", "auto"], "--address")):
        result = runner.invoke(cli, base + extra)
        assert result.exit_code == 2 and f"{name} needs --backend ray" in result.output
    monkeypatch.setitem(sys.modules, "ray", None)  # as if it were not installed
    result = runner.invoke(cli, base + ["--backend", "ray"])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "pip install 'gostop[ray]'" in result.output
    assert not (tmp_path / "o").exists()


def test_ctrl_c_checkpoints_a_ray_training_and_ends_its_cluster(tmp_path):
    """A separate ``gostop train-neural --backend ray`` starts its own
    cluster; SIGINT writes the checkpoint, ends the actor and the cluster
    within seconds, and the run resumes from it."""
    out = tmp_path / "run"
    args = [sys.executable, "-m", "gostop_cli", "train-neural", "--out", str(out), "--games",
            "16", "--batch", "64", "--replay", "10000", "--hidden", "16", "8", "--eval-deals",
            "2", "--hands", "100000000", "--backend", "ray", "--actors", "1"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"), start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # until its actor plays
            if any(_cmdline(p).startswith(b"ray::SelfPlayActor")
                   for p in _ray_pids(proc.pid)):
                break
            time.sleep(0.5)
        ours = _ray_pids(proc.pid)
        time.sleep(6.0)  # a few requests come back (most of the time)
        proc.send_signal(signal.SIGINT)
        signalled = time.monotonic()
        _, err = proc.communicate(timeout=60)
        took = time.monotonic() - signalled
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err.decode()
    assert took < 30, took
    ours |= _ray_pids(proc.pid)
    assert not _wait_gone(ours)
    # on a loaded machine the signal can come before the first request is back:
    # the checkpoint then holds no hand, and the resumed run still plays on
    hands = _header(out)["hands"]
    assert f"{hands:,} hands" in err.decode()
    result = CliRunner().invoke(cli, args[3:-4] + ["--hands", str(hands + 1), "--resume"])
    assert result.exit_code == 0, result.output
    assert _header(out)["hands"] > hands
