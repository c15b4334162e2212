"""Average the weights of several checkpoints of one training run (the mean of
each parameter), and compare the average and each checkpoint against the greedy
policy on tuning deals.

    python scripts/neural_average.py /work/runs/casual2/snaps/ck_*.npz \
        --out /tmp/averaged.npz --deals 2000 --seed 500000

Consecutive checkpoints of a run with a constant learning rate scatter around
where the run is heading (single checkpoints a few minutes apart differ by a
point a game against greedy); their mean is usually better than any one of them.
The result is a weights file with a header naming the command, the checkpoints
averaged (hands and sha256 of each), the hands of the newest and the versions.
Evaluation deals: keep ``--seed`` below 1,000,000 (the tuning range).

With ``--outputs`` the networks are not averaged weight by weight but as an
ensemble: the written network's Q is the mean of theirs, exactly (their hidden
layers side by side, the second layer block-diagonal, the output weights
divided by their count), so networks of different lineages or sizes can be
joined and played by every bot as one network, at the cost of the sum of their
sizes (each hidden layer at most 1,024 units):

    python scripts/neural_average.py a.npz b.npz c.npz --outputs --out /tmp/ensemble.npz
"""

from __future__ import annotations

import argparse
import platform
import sys
from pathlib import Path

import numpy as np

from gostop_core.neural.dmc import evaluate_vs_greedy
from gostop_core.neural.network import Network, NeuralWeightsError, load_network, save_network

PARAMS = ("w1", "b1", "w2", "b2", "w3", "b3")


def average(nets: list[Network]) -> Network:
    """The network whose every parameter is the mean of ``nets``' (same shapes)."""
    shapes = {tuple(n.hidden) for n in nets}
    if len(shapes) != 1:
        raise ValueError(f"the checkpoints have different shapes: {sorted(shapes)} "
                         "(--outputs joins networks of any shapes)")
    params = {k: np.mean([n.params[k] for n in nets], axis=0).astype(np.float32) for k in PARAMS}
    return Network(params)


def ensemble(nets: list[Network]) -> Network:
    """The network whose Q is the mean of ``nets``' Q: their first hidden layers
    side by side, their second ones too with a block-diagonal ``w2`` (no unit
    reads another network's), ``w3`` and ``b3`` divided by their count."""
    p = [n.params for n in nets]
    k = len(nets)
    h1, h2 = sum(n.hidden[0] for n in nets), sum(n.hidden[1] for n in nets)
    if h1 > 1024 or h2 > 1024:
        raise ValueError(f"the ensemble's hidden layers would be {h1} and {h2} units; "
                         "a network has at most 1,024 a layer")
    w2 = np.zeros((h1, h2), np.float32)
    row = col = 0
    for q in p:
        a, b = q["w2"].shape
        w2[row:row + a, col:col + b] = q["w2"]
        row, col = row + a, col + b
    params = {"w1": np.concatenate([q["w1"] for q in p], axis=1),
              "b1": np.concatenate([q["b1"] for q in p]), "w2": w2,
              "b2": np.concatenate([q["b2"] for q in p]),
              "w3": np.concatenate([q["w3"] for q in p]) / k,
              "b3": np.array([sum(float(q["b3"][0]) for q in p) / k], np.float32)}
    return Network(params)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkpoints", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, help="write the average here")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=500_000)
    ap.add_argument("--rules", help="the table evaluated (default: the run's, from the checkpoints)")
    ap.add_argument("--players", type=int, help="default: the run's")
    ap.add_argument("--each", action="store_true", help="evaluate every checkpoint too")
    ap.add_argument("--outputs", action="store_true",
                    help="an ensemble: Q averaged (any shapes), not the weights")
    args = ap.parse_args(argv)
    if args.seed + args.deals > 1_000_000:
        print("evaluation deals must stay in the tuning range (below 1,000,000)", file=sys.stderr)
        return 2
    try:
        nets = [load_network(p) for p in args.checkpoints]
    except NeuralWeightsError as exc:
        print(exc, file=sys.stderr)
        return 2
    nets.sort(key=lambda n: int(n.header.get("hands", 0)))
    try:   # refused before any evaluation
        avg = ensemble(nets) if args.outputs else average(nets)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    # the table the run trained on, unless told: a standard run's average is
    # judged in chips at a standard table, not in points at a casual one
    config = nets[-1].header.get("config") or {}
    args.rules = args.rules or config.get("rules", "casual")
    args.players = args.players or int(config.get("players", 2))
    if args.each:
        for n in nets:
            r = evaluate_vs_greedy(n, args.rules, args.players, args.deals, args.seed)
            print(f"{int(n.header.get('hands', 0)):>12,} hands  {r['points']:+.3f} "
                  f"[{r['low']:+.3f}, {r['high']:+.3f}]  {100 * r['win_rate']:.1f}%")
    r = evaluate_vs_greedy(avg, args.rules, args.players, args.deals, args.seed)
    kind = "ensemble" if args.outputs else "average"
    print(f"{kind} of {len(nets)}: {r['points']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}]  "
          f"{100 * r['win_rate']:.1f}%")
    if args.out:
        newest = nets[-1].header
        header = {
            "command": "python scripts/neural_average.py " + " ".join(argv or sys.argv[1:]),
            "averaged": [{"hands": n.header.get("hands"), "sha256": n.header.get("sha256")}
                         for n in nets],
            "averaged_as": "outputs" if args.outputs else "weights",
            "hands": newest.get("hands"), "samples": newest.get("samples"),
            "run_command": newest.get("command"), "config": newest.get("config"),
            "seeds": dict(newest.get("seeds") or {}, average_eval=args.seed),
            "versions": {"numpy": np.__version__, "python": platform.python_version(),
                         **(newest.get("versions") or {})},
            "tuning_eval": dict(r, deals=args.deals, seed=args.seed),
        }
        digest = save_network(args.out, avg, header=header)
        print(f"wrote {args.out} (sha256 {digest[:12]}...)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
