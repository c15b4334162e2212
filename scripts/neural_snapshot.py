"""Copy a training run's newest checkpoint into the tree: the weights alone
(no optimiser state) as the shipped network, the run's curve.jsonl beside the
docs, and the learning curve as a PNG with the table behind it.

    python scripts/neural_snapshot.py /work/runs/casual2 \
        --weights src/gostop_core/neural/casual2.npz --curve docs/data/neural-casual2.jsonl \
        --png docs/neural-casual2.png

The PNG needs matplotlib (a plotting tool for the docs only, not a dependency
of the package); without it only the weights and the curve are copied.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

from gostop_core.neural.network import load_network, save_network


def table(points: list[dict]) -> str:
    """The curve as a Markdown table."""
    rows = ["| hands | samples | minutes | loss | vs greedy (200 deals) | won of decided |",
            "| ---: | ---: | ---: | ---: | --- | ---: |"]
    for p in points:
        ev = p.get("vs_greedy") or {}
        loss = "" if p.get("loss") is None else f"{p['loss']:.4f}"
        rows.append(f"| {p['hands']:,} | {p['samples']:,} | {p['seconds'] / 60:.0f} | {loss} | "
                    f"{ev.get('points', float('nan')):+.2f} [{ev.get('low', float('nan')):+.2f}, "
                    f"{ev.get('high', float('nan')):+.2f}] | {100 * ev.get('win_rate', 0):.1f}% |")
    return "\n".join(rows)


def plot(points: list[dict], png: Path) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    hands = [p["hands"] / 1e6 for p in points]
    mean = [p["vs_greedy"]["points"] for p in points]
    low = [p["vs_greedy"]["low"] for p in points]
    high = [p["vs_greedy"]["high"] for p in points]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.fill_between(hands, low, high, alpha=0.25, label="95% interval")
    ax.plot(hands, mean, marker="o", label="neural vs greedy")
    ax.axhline(0, color="grey", lw=0.8)
    ax.axhline(5.37, color="tab:red", ls="--", lw=0.8, label="expectimax-v1 vs greedy (+5.37)")
    ax.set_xlabel("self-play hands (millions)")
    ax.set_ylabel("points a game (200 duplicate deals)")
    ax.set_title("Deep Monte-Carlo, 2 players casual")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    tmp = png.with_name(f".{png.name}.tmp")
    fig.savefig(tmp, format="png")
    tmp.replace(png)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--weights", type=Path,
                    help="where to write the weights (left out: only the curve is copied)")
    ap.add_argument("--curve", type=Path, required=True)
    ap.add_argument("--png", type=Path)
    args = ap.parse_args(argv)
    net = load_network(args.run / "checkpoint.npz")
    if args.weights is not None:
        save_network(args.weights, net)
    args.curve.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(args.run / "curve.jsonl", args.curve)
    points = [json.loads(line) for line in args.curve.read_text().splitlines() if line.strip()]
    if args.png and points:
        plot(points, args.png)
    print(table(points))
    print(f"{args.run / 'checkpoint.npz'}: {net.header['hands']:,} hands, "
          f"sha256 {net.header['sha256']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
