"""Each checkpoint of a training run against a search bot (by default
``expectimax-v1``) on fixed duplicate deals: the learning curve's second row,
which the run itself does not play (200 deals of the search cost minutes of a
core, against seconds for the C evaluation against greedy).

    python scripts/neural_vs_search.py /work/runs/wide/snaps/ck_*.npz \
        --deals 200 --seed 500000 --out /work/runs/wide/vs_search.jsonl

One JSON line a checkpoint (hands seen, sha256, mean points of the network a
game, the 95% interval, the share of decided games won), appended as each one
finishes; checkpoints already in ``--out`` (same sha256) are skipped, so a
stopped run of this script picks up where it was.  Deals stay in the tuning
range (below 1,000,000).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from gostop_core.arena import run_arena
from gostop_core.neural.network import load_network


def done_digests(out: Path) -> set[str]:
    """The sha256 of every checkpoint already measured in ``out``."""
    if not out.exists():
        return set()
    with open(out, encoding="utf-8") as fh:
        return {json.loads(line)["sha256"] for line in fh if line.strip()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkpoints", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, required=True, help="JSON lines, appended")
    ap.add_argument("--bot", default="expectimax-v1", help="the opponent (a bot spec)")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=500_000)
    ap.add_argument("--rules", default="casual")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    if args.seed + args.deals > 1_000_000:
        print("evaluation deals must stay in the tuning range (below 1,000,000)", file=sys.stderr)
        return 2
    headers = [(load_network(p).header, p) for p in args.checkpoints]
    nets = sorted((int(h.get("hands", 0)), h.get("sha256"), p) for h, p in headers)
    seen = done_digests(args.out)
    for hands, digest, path in nets:
        if digest in seen:
            continue
        start = time.monotonic()
        result = run_arena([f"neural:weights={path}", args.bot], deals=args.deals,
                           rules=args.rules, seed=args.seed, workers=args.workers,
                           keep_records=False)
        point = {"hands": hands, "sha256": digest, "opponent": args.bot, "deals": args.deals,
                 "seed": args.seed, "points": result.mean_points[0], "low": result.ci95[0][0],
                 "high": result.ci95[0][1], "decided_win_rate": result.decided_win_rate[0],
                 "seconds": round(time.monotonic() - start, 1)}
        with open(args.out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(point) + "\n")
        seen.add(digest)
        print(f"{hands:>12,} hands  {point['points']:+.2f} [{point['low']:+.2f}, "
              f"{point['high']:+.2f}]  {100 * point['decided_win_rate']:.1f}%  "
              f"({point['seconds']:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
