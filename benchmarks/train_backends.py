"""Self-play hands a second of ``gostop train-neural``, local against Ray actors
(the figures of docs/strength.md, round 6, and docs/cli.md).

    python benchmarks/train_backends.py [SECONDS] [ACTORS]

Runs ``gostop train-neural`` with its default network and settings (no
evaluation) once with ``--backend local`` and once with ``--backend ray
--actors ACTORS`` (default 1) on a local cluster, each with a checkpoint every
15 s and stopped by SIGINT after 15 + SECONDS (default 60) s, and prints the
hands, samples and learner steps between the first and the last checkpoint
(``curve.jsonl``): the steady state, without the start of the cluster, the
actors or the replay buffer.  ``OPENBLAS_NUM_THREADS=1`` holds numpy to one core in the
driver, as Ray does in its actors.  A shared machine makes the figures noisy:
say how loaded it was.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gostop_core.neural.dmc import TrainConfig

BATCH = TrainConfig().batch   # the command's default --batch
WARMUP = 15.0


def run(out: Path, seconds: float, extra: list[str]) -> tuple[dict, dict]:
    """One run, interrupted after ``WARMUP + seconds`` of training; the first
    and the last point of its curve."""
    command = [sys.executable, "-m", "gostop_cli", "train-neural", "--out", str(out),
               "--eval-deals", "0", "--checkpoint", str(WARMUP), *extra]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    assert proc.stderr is not None
    if "ray" in extra:  # the clock starts once the actors are up
        for line in proc.stderr:
            if "self-play actor(s)" in line:
                break
    time.sleep(WARMUP + seconds)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {proc.returncode}\n{err}")
    points = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    return points[0], points[-1]


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
    actors = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, extra in (("local", []),
                            (f"ray, {actors} actor(s)", ["--backend", "ray", "--actors",
                                                         str(actors)])):
            first, last = run(Path(tmp) / name.split(",")[0], seconds, extra)
            d = {k: last[k] - first[k] for k in ("hands", "samples", "batches", "seconds")}
            s = d["seconds"]
            print(f"{name:>18}: {d['hands']:>9,} hands, {d['samples']:>11,} samples, "
                  f"{d['batches']:>7,} learner steps in {s:.1f} s: "
                  f"{d['hands'] / s:,.0f} hands/s, {d['samples'] / s:,.0f} samples/s, "
                  f"{d['batches'] * BATCH / s:,.0f} rows/s trained; "
                  f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
