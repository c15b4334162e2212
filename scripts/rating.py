"""Round-robin table and Bradley-Terry ratings from two-bot ``gostop arena --json`` runs.

Each input file is the JSON printed by ``gostop arena A B --json`` (two bots, any
number of deals).  The script prints, for every pair, A's net points per game
against B with its 95% interval and A's share of the decided games, then one
rating per bot: the Bradley-Terry strengths fitted by maximum likelihood to the
decided games of every pair (wins counted from ``win_rate x games``), shown on
the Elo scale (400 log10 of the strength ratio; the mean rating is 0).

    python scripts/rating.py benchmarks/arena/*.json
    python scripts/rating.py --alias expectimax=expectimax-v1 runs/*.json --json
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict


def load(paths: list[str], alias: dict[str, str]) -> list[dict]:
    """The two-bot runs, bot names mapped through ``alias``."""
    runs = []
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        if len(data["bots"]) != 2:
            raise SystemExit(f"{path}: a two-bot run is needed, got {len(data['bots'])} bots")
        data["bots"] = [alias.get(b, b) for b in data["bots"]]
        data["source"] = path
        runs.append(data)
    return runs


def bradley_terry(wins: dict[tuple[str, str], float], bots: list[str],
                  iterations: int = 2000) -> dict[str, float]:
    """Strengths p maximising the likelihood of ``wins[(a, b)]`` (a's wins over
    b) under P(a beats b) = p_a / (p_a + p_b), by the minorise-maximise update
    (Hunter 2004); normalised to a geometric mean of 1."""
    p = {b: 1.0 for b in bots}
    for _ in range(iterations):
        new = {}
        for a in bots:
            won = sum(w for (x, _), w in wins.items() if x == a)
            denom = 0.0
            for b in bots:
                n = wins.get((a, b), 0.0) + wins.get((b, a), 0.0)
                if b != a and n:
                    denom += n / (p[a] + p[b])
            # a bot that never won keeps a tiny strength (its rating goes very low)
            new[a] = max(won, 1e-3) / denom if denom else p[a]
        g = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        p = {b: v / g for b, v in new.items()}
    return p


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="gostop arena --json outputs (two bots each)")
    ap.add_argument("--alias", action="append", default=[], metavar="OLD=NEW",
                    help="rename a bot (e.g. expectimax=expectimax-v1)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args()
    alias = dict(a.split("=", 1) for a in args.alias)
    runs = load(args.files, alias)
    wins: dict[tuple[str, str], float] = defaultdict(float)
    bots: list[str] = []
    rows = []
    for r in runs:
        a, b = r["bots"]
        for x in (a, b):
            if x not in bots:
                bots.append(x)
        wins[(a, b)] += r["win_rate"][0] * r["games"]
        wins[(b, a)] += r["win_rate"][1] * r["games"]
        rows.append({"a": a, "b": b, "deals": r.get("deals"), "games": r["games"],
                     "points": r["mean_points"][0], "ci95": r["ci95"][0],
                     "decided_win_rate": r["decided_win_rate"][0], "source": r["source"]})
    strength = bradley_terry(dict(wins), bots)
    elo = {b: 400 * math.log10(strength[b]) for b in bots}
    if args.json:
        print(json.dumps({"pairs": rows, "elo": elo}, indent=2))
        return
    width = max(len(b) for b in bots)
    print(f"{'pair':<{2 * width + 4}} {'deals':>6} {'points/game [95%]':>26} {'decided won':>12}")
    for row in rows:
        lo, hi = row["ci95"]
        print(f"{row['a']:<{width}} vs {row['b']:<{width}}  {row['deals']!s:>6} "
              f"{row['points']:+8.2f} [{lo:+6.2f}, {hi:+6.2f}]   {100 * row['decided_win_rate']:9.1f}%")
    print()
    print("Bradley-Terry rating (Elo scale, mean 0), from the decided games:")
    for b in sorted(bots, key=lambda x: -elo[x]):
        print(f"  {b:<{width}} {elo[b]:+7.0f}")


if __name__ == "__main__":
    main()
