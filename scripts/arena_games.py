"""Arena runs whose games are written as they finish, so a run cut short (or
several runs on adjacent seeds) still gives exact per-deal figures.

    python scripts/arena_games.py run best expectimax-v1 --deals 200 --seed 1000000 --out a.jsonl
    python scripts/arena_games.py summary a.jsonl [b.jsonl ...]

``run`` appends one JSON line per game (``GameRecord.as_dict`` plus the seed and
the bots) to ``--out``; ``summary`` keeps the deals whose every rotation is
there and prints what ``gostop arena --json`` prints for them (net points per
game of each entry with the 95% interval over deals, decided games won).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

from gostop_core.arena import run_arena


def run(args: argparse.Namespace) -> int:
    with open(args.out, "a", encoding="utf-8") as out:
        def write(record) -> None:
            line = dict(record.as_dict(), seed=args.seed, bots=args.bots)
            out.write(json.dumps(line) + "\n")
            out.flush()
        result = run_arena(args.bots, deals=args.deals, seed=args.seed, workers=args.workers,
                           players=args.players, rules=args.rules, keep_records=False,
                           on_record=write)
    print(json.dumps(result.as_dict(), indent=2))
    return 0


def summary(paths: list[Path]) -> dict:
    games: dict[tuple[int, int], dict[int, dict]] = defaultdict(dict)
    bots = None
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            g = json.loads(line)
            if bots is None:
                bots = g["bots"]
            elif g["bots"] != bots:
                raise SystemExit(f"{path}: other bots ({g['bots']} against {bots})")
            games[(g["seed"] + g["deal"], len(g["seats"]))][g["rotation"]] = g
    if bots is None:
        raise SystemExit("no games")
    deals = {k: v for k, v in games.items() if len(v) == k[1]}
    entries = len(bots)
    per_deal = [[sum(g["points"][i] for g in v.values()) / len(v) for v in deals.values()]
                for i in range(entries)]
    n = len(deals)
    mean = [sum(p) / n for p in per_deal]
    sd = [math.sqrt(sum((x - m) ** 2 for x in p) / (n - 1)) if n > 1 else 0.0
          for p, m in zip(per_deal, mean)]
    all_games = [g for v in deals.values() for g in v.values()]
    decided = [g for g in all_games if g["winner"] is not None]
    wins = [sum(1 for g in decided if g["winner"] == i) for i in range(entries)]
    return {"bots": bots, "deals": n, "games": len(all_games),
            "first_deal_seed": min(k[0] for k in deals) if deals else None,
            "last_deal_seed": max(k[0] for k in deals) if deals else None,
            "mean_points": [round(m, 4) for m in mean],
            "ci95": [[round(m - 1.96 * s / math.sqrt(n), 4), round(m + 1.96 * s / math.sqrt(n), 4)]
                     for m, s in zip(mean, sd)],
            # both as `gostop arena --json` has them (scripts/rating.py reads win_rate)
            "win_rate": [round(w / max(1, len(all_games)), 4) for w in wins],
            "decided_win_rate": [round(w / max(1, len(decided)), 4) for w in wins],
            "draw_rate": round(1 - len(decided) / max(1, len(all_games)), 4),
            "incomplete_deals": len(games) - n}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("bots", nargs="+")
    r.add_argument("--deals", type=int, default=100)
    r.add_argument("--seed", type=int, default=1_000_000)
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--players", type=int, default=2)
    r.add_argument("--rules", default="casual")
    r.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("summary")
    s.add_argument("files", nargs="+", type=Path)
    args = ap.parse_args(argv)
    if args.command == "run":
        return run(args)
    print(json.dumps(summary(args.files), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
