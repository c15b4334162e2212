"""The strength gate: a fixed-seed arena smoke that every change to a bot runs
before it lands (benchmarks/arena/README.md).

The bot (default ``best``) plays duplicate deals against ``greedy`` and against
``expectimax-v1`` (2 players, at one preset, seeds from 900,000: below the report
seeds, so tuning to the gate never touches them).  Each preset where ``best``
plays differently has its own reference (``--rules``; casual by default, standard
where ``best`` searches with the network's playouts).  The arena is deterministic (no time
limits), so an unchanged bot repeats its figures exactly.  The figures are
compared with the reference stored in ``benchmarks/arena/gate.json``: a bot whose
points per game drop below the reference's by more than the half-width of the
wider of the two 95% intervals, in either match, is a regression (exit status 1).
(The wider one: a reference can be narrow by chance, or of zero width when the
two bots play identically.)  ``--update`` stores the new figures as the reference
(do it when a change is meant to move them, with the figures in the commit).

    python scripts/strength_gate.py                 # run and compare (a few minutes on 2 cores)
    python scripts/strength_gate.py --rules standard  # the standard table's gate
    python scripts/strength_gate.py --update        # run and store as the reference
    python scripts/strength_gate.py --bot best:samples=128 --reference /tmp/gate.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from gostop_core.arena import run_arena

GATES = Path(__file__).resolve().parent.parent / "benchmarks" / "arena"
#: The reference of each preset's gate.
REFERENCES = {"casual": GATES / "gate.json", "standard": GATES / "gate-standard.json"}
REFERENCE = REFERENCES["casual"]
SEED = 900_000
#: Deals per match: sized to run in a few minutes on 2 idle cores (the search
#: plays every seat of the second match).
MATCHES = (("greedy", 100), ("expectimax-v1", 40))


def run_gate(bot: str, deals: dict[str, int], seed: int = SEED, workers: int = 2,
             rules: str = "casual") -> dict[str, Any]:
    """The gate's figures at the preset ``rules``: one arena per opponent, with
    its command."""
    matches = []
    table = "" if rules == "casual" else f" --rules {rules}"
    for opponent, count in deals.items():
        started = time.perf_counter()
        result = run_arena([bot, opponent], deals=count, seed=seed, workers=workers,
                           rules=rules, keep_records=False).as_dict()
        matches.append({
            "opponent": opponent, "deals": count, "seed": seed,
            "command": f"gostop arena {bot} {opponent}{table} --deals {count} --seed {seed} "
                       f"--workers {workers} --json",
            "mean_points": result["mean_points"][0], "ci95": result["ci95"][0],
            "decided_win_rate": result["decided_win_rate"][0],
            "draw_rate": result["draw_rate"], "forfeits": result["forfeits"][0],
            "seconds": round(time.perf_counter() - started, 1)})
    return {"bot": bot, "players": 2, "preset": rules, "matches": matches}


def regressions(reference: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """What fell below the reference: a match (same opponent, deals and seed) whose
    points per game dropped by more than the half-width of the wider 95%
    interval (the reference's or the new run's), or a forfeit."""
    found = []
    if reference.get("preset", "casual") != current.get("preset", "casual"):
        return [f"the reference is of the {reference.get('preset', 'casual')} table, "
                f"the run of the {current.get('preset', 'casual')} table"]
    old = {(m["opponent"], m["deals"], m["seed"]): m for m in reference.get("matches", [])}
    for m in current["matches"]:
        if m["forfeits"]:
            found.append(f"vs {m['opponent']}: {m['forfeits']} forfeit(s)")
        ref = old.get((m["opponent"], m["deals"], m["seed"]))
        if ref is None:
            continue
        width = max(ref["ci95"][1] - ref["ci95"][0], m["ci95"][1] - m["ci95"][0]) / 2
        drop = ref["mean_points"] - m["mean_points"]
        if drop > width:
            found.append(f"vs {m['opponent']}: {m['mean_points']:+.2f} points/game "
                         f"[{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}], {drop:.2f} below the "
                         f"reference's {ref['mean_points']:+.2f} ({reference.get('bot', '?')}; "
                         f"allowed drop {width:.2f})")
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="best")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--deals-greedy", type=int, default=MATCHES[0][1])
    ap.add_argument("--deals-v1", type=int, default=MATCHES[1][1])
    ap.add_argument("--rules", choices=sorted(REFERENCES), default="casual",
                    help="the preset played (each has its own reference)")
    ap.add_argument("--reference", type=Path, default=None,
                    help="the reference file (default: the preset's, benchmarks/arena/)")
    ap.add_argument("--update", action="store_true", help="store the figures as the reference")
    args = ap.parse_args(argv)
    if args.reference is None:
        args.reference = REFERENCES[args.rules]
    current = run_gate(args.bot, {"greedy": args.deals_greedy, "expectimax-v1": args.deals_v1},
                       args.seed, args.workers, args.rules)
    print(json.dumps(current, indent=2))
    status = 0
    if args.reference.exists():
        found = regressions(json.loads(args.reference.read_text()), current)
        for line in found:
            print(f"regression: {line}", file=sys.stderr)
        status = 1 if found else 0
        if not found:
            print("no regression against the reference", file=sys.stderr)
    else:
        print(f"no reference at {args.reference}", file=sys.stderr)
    if args.update:
        args.reference.write_text(json.dumps(current, indent=2) + "\n")
        print(f"reference written to {args.reference}", file=sys.stderr)
        status = 0
    return status


if __name__ == "__main__":
    sys.exit(main())
