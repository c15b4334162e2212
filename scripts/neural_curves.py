"""Plot the learning curves of several training runs side by side: each run's
``curve.jsonl`` (the network against greedy at every checkpoint) on the left,
and on the right, where given, its checkpoints against a search bot
(``scripts/neural_vs_search.py``'s lines).

    python scripts/neural_curves.py --png docs/neural-round10.png \
        --run "lambda 0.7=docs/data/round10-td07.jsonl" \
        --search "lambda 0.7=docs/data/round10-td07-vs-search.jsonl" \
        --reference 2.60 --search-reference -2.9

``--reference``: a horizontal line for the network the runs started from (its
figure against greedy on the same deals); ``--search-reference`` the same for
the right panel.  Needs matplotlib (a plotting tool for the docs only, not a
dependency of the package).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def read_points(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def labelled(text: str) -> tuple[str, Path]:
    label, sep, path = text.partition("=")
    if not sep or not label or not path:
        raise argparse.ArgumentTypeError(f"expected LABEL=FILE, got {text!r}")
    return label, Path(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--png", type=Path, required=True)
    ap.add_argument("--run", type=labelled, action="append", default=[],
                    help="LABEL=curve.jsonl (repeatable)")
    ap.add_argument("--search", type=labelled, action="append", default=[],
                    help="LABEL=vs_search.jsonl (repeatable)")
    ap.add_argument("--reference", type=float, help="the starting network against greedy")
    ap.add_argument("--search-reference", type=float,
                    help="the starting network against the search")
    ap.add_argument("--title", default="2 players casual, from the shipped network")
    ap.add_argument("--unit", default="points", help="what a game pays: points, or chips (standard)")
    args = ap.parse_args(argv)
    if not args.run:
        ap.error("give at least one --run")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is needed for the plot (pip install matplotlib)", file=sys.stderr)
        return 2
    panels = 2 if args.search else 1
    fig, axes = plt.subplots(1, panels, figsize=(6 * panels, 4), dpi=100, squeeze=False)
    left = axes[0][0]
    for label, path in args.run:
        points = [p for p in read_points(path) if p.get("vs_greedy")]
        hands = [p["hands"] / 1e6 for p in points]
        left.plot(hands, [p["vs_greedy"]["points"] for p in points], marker="o", ms=3,
                  label=label)
        left.fill_between(hands, [p["vs_greedy"]["low"] for p in points],
                          [p["vs_greedy"]["high"] for p in points], alpha=0.12)
    if args.reference is not None:
        left.axhline(args.reference, color="grey", ls="--", lw=0.8, label="start")
    left.set_xlabel("self-play hands in all (millions)")
    left.set_ylabel(f"{args.unit} a game against greedy")
    left.set_title(args.title, fontsize=9)
    left.legend(fontsize=8)
    if args.search:
        right = axes[0][1]
        for label, path in args.search:
            points = read_points(path)
            hands = [p["hands"] / 1e6 for p in points]
            mean = [p["points"] for p in points]
            err = [[m - p["low"] for m, p in zip(mean, points)],
                   [p["high"] - m for m, p in zip(mean, points)]]
            right.errorbar(hands, mean, yerr=err, marker="o", ms=3, capsize=2, label=label)
        if args.search_reference is not None:
            right.axhline(args.search_reference, color="grey", ls="--", lw=0.8, label="start")
        right.axhline(0, color="black", lw=0.6)
        right.set_xlabel("self-play hands in all (millions)")
        right.set_ylabel(f"{args.unit} a game against the search")
        right.set_title("each checkpoint against expectimax-v1", fontsize=9)
        right.legend(fontsize=8)
    fig.tight_layout()
    args.png.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.png.with_name(f".{args.png.name}.tmp")
    fig.savefig(tmp, format="png")
    tmp.replace(args.png)
    print(f"wrote {args.png}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
