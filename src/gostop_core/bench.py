"""The engine's speed figures, like a chess engine's ``bench`` command.

:func:`run_bench` measures, on one core, from seeded 2-player casual deals:

* random playouts in the core (complete games, uniformly random decisions), games/s;
* perft with and without bulk counting (leaves counted at depth 1), nodes/s;
* scoring a captured pile in the core, evaluations/s (a C loop, no Python per pile);
* legal moves + push + pop through the :class:`~gostop_core.Game` API, moves/s;
* perft of the pure-Python reference engine and of the core on the same
  positions at the same depth in the same run, and their ratio;
* resident memory before and after many in-core playouts;
* :class:`~gostop_core.envs.VectorGame` driven by numpy random actions against a
  Python loop over :class:`~gostop_core.Game`, decisions per CPU second, and
  their ratio (:mod:`gostop_core.envs.vector_bench`).

Each figure is measured several times within its share of the time budget and
the best run is kept (the machine may be shared).  ``gostop bench`` prints it;
``python -m gostop_core.bench --scaling [--cell-seconds N] [--json]`` prints how
the cost grows with the number of players, the preset and the perft depth.
"""

from __future__ import annotations

import os
import platform
import sys
import time
from typing import Any, Callable

import numpy as np

from gostop_core.game import Game
from gostop_core.testing.reference import ReferenceGame
from gostop_core.rules import Rules
from gostop_core.scoring import score_masks_loop

#: The speed targets (issue 5); ``rss_growth_kb`` must stay flat (0 after warm-up).
TARGETS = {
    "playouts_per_s": 250_000,
    "perft_bulk_nodes_per_s": 30_000_000,
    "perft_nobulk_nodes_per_s": 8_000_000,
    "reference_ratio": 300,
    "score_evals_per_s": 20_000_000,
    "api_moves_per_s": 300_000,
    "vector_decisions_per_s": 3_000_000,
    "vector_vs_game_loop": 10,
}

PRESETS = ("casual", "traditional", "standard", "family")

# Shares of the time budget.
_SHARES = {"playouts": 0.12, "perft_bulk": 0.10, "perft_nobulk": 0.12, "scoring": 0.08,
           "api": 0.14, "reference": 0.34, "memory": 0.10}


def _best_rate(run: Callable[[], int], budget: float, min_runs: int = 1) -> tuple[float, int]:
    """Call ``run`` (it returns the work done) until ``budget`` seconds are spent
    (and at least ``min_runs`` times); the best rate and the number of runs."""
    best = 0.0
    runs = 0
    start = time.perf_counter()
    while runs < min_runs or time.perf_counter() - start < budget:
        t = time.perf_counter()
        work = run()
        dt = time.perf_counter() - t
        runs += 1
        if dt > 0:
            best = max(best, work / dt)
    return best, runs


def rss_kb() -> int:
    """Resident set size of this process in KiB (Linux: /proc/self/statm)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") // 1024
    except (OSError, ValueError, AttributeError):  # pragma: no cover - not Linux
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:  # pragma: no cover
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"cpu": cpu, "python": platform.python_version(), "implementation": sys.implementation.name,
            "load_1min": load, "cores_used": 1}


# ---------------------------------------------------------------- the measures
def playouts(rules: Rules | str = "casual", players: int = 2, games: int = 20_000,
             seeds: int = 4) -> int:
    """One run: ``games`` random playouts from each of ``seeds`` seeded deals; games played."""
    for seed in range(1, seeds + 1):
        Game(rules, players, seed=seed)._core.random_playouts(games, seed)
    return games * seeds


def perft_nodes(depth: int, bulk: bool, rules: Rules | str = "casual", players: int = 2,
                seeds: int = 4) -> int:
    """One run: perft ``depth`` of ``seeds`` seeded deals; the nodes counted."""
    return sum(Game(rules, players, seed=seed)._core.perft(depth, bulk)
               for seed in range(1, seeds + 1))


def score_masks(count: int = 4096, seed: int = 5, bonus: bool = False) -> np.ndarray:
    """Captured piles to score: random subsets of the pack of 0-26 cards."""
    rng = np.random.default_rng(seed)
    pack = 50 if bonus else 48
    masks = np.zeros(count, dtype=np.uint64)
    for i in range(count):
        cards = rng.choice(pack, size=int(rng.integers(0, 27)), replace=False)
        masks[i] = sum(1 << int(c) for c in cards)
    return masks


def api_positions(games: int = 4, rules: Rules | str = "casual", players: int = 2) -> list[Game]:
    """Positions along random games (seeded deals, seeded random decisions)."""
    import random
    out = []
    for seed in range(1, games + 1):
        rnd = random.Random(seed)
        g = Game(rules, players, seed=seed)
        while not g.is_over():
            out.append(g.copy(stack=False))
            g.push(rnd.choice(list(g.legal_moves)))
    return out


def api_cycle(positions: list[Game]) -> int:
    """One run: every legal move of every position pushed and popped; moves made."""
    n = 0
    for g in positions:
        for m in g.legal_moves:
            g.push(m)
            g.pop()
            n += 1
    return n


def memory_playouts(games: int, rules: Rules | str = "casual", players: int = 2) -> dict[str, int]:
    """RSS before and after ``games`` in-core playouts (after a warm-up)."""
    core = Game(rules, players, seed=1)._core
    core.random_playouts(10_000, 1)  # warm-up
    before = rss_kb()
    done = 0
    batch = 100_000
    while done < games:
        n = min(batch, games - done)
        core.random_playouts(n, 2 + done)
        done += n
    after = rss_kb()
    return {"rss_playouts": done, "rss_before_kb": before, "rss_after_kb": after,
            "rss_growth_kb": after - before}


# ---------------------------------------------------------------- the bench
def run_bench(seconds: float = 60.0, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Measure every figure within about ``seconds`` seconds; a dict of figures."""
    say = progress or (lambda _msg: None)
    budget = {k: v * seconds for k, v in _SHARES.items()}
    small = seconds < 5
    out: dict[str, Any] = {"machine": machine(), "seconds": seconds}

    say("random playouts")
    batch = 2_000 if small else 20_000
    out["playouts_per_s"], out["playouts_runs"] = _best_rate(
        lambda: playouts(games=batch), budget["playouts"])

    depth = 5 if small else 6
    out["perft_depth"] = depth
    say(f"perft {depth}, bulk counting")
    out["perft_bulk_nodes_per_s"], out["perft_bulk_runs"] = _best_rate(
        lambda: perft_nodes(depth, True), budget["perft_bulk"])
    say(f"perft {depth}, no bulk counting")
    out["perft_nobulk_nodes_per_s"], out["perft_nobulk_runs"] = _best_rate(
        lambda: perft_nodes(depth, False), budget["perft_nobulk"])

    say("scoring")
    masks = score_masks()
    rules = Rules("casual")
    repeats = 50 if small else 500
    out["score_evals_per_s"], out["score_runs"] = _best_rate(
        lambda: (score_masks_loop(masks, rules, repeats), len(masks) * repeats)[1],
        budget["scoring"])

    say("legal moves + push + pop (Game API)")
    positions = api_positions(1 if small else 4)
    out["api_moves_per_s"], out["api_runs"] = _best_rate(lambda: api_cycle(positions), budget["api"])

    # the reference and the core on the same positions, at the same depth, each
    # position timed on both one right after the other (a load that comes and goes
    # then weighs on both alike); the core's time is its best of five
    ref_depth = 2 if small else (4 if seconds >= 30 else 3)
    say(f"reference perft {ref_depth} (pure Python) and the core on the same positions")
    out["reference_depth"] = ref_depth
    ref_seeds: list[int] = []
    ref_nodes = 0
    ref_time = core_time = 0.0
    start = time.perf_counter()
    seed = 1
    while not ref_seeds or time.perf_counter() - start < budget["reference"]:
        ref = ReferenceGame("casual", 2, seed)
        t = time.perf_counter()
        nodes = ref.perft(ref_depth, False)
        ref_time += time.perf_counter() - t
        core = Game("casual", 2, seed=seed)._core
        best = float("inf")
        for _ in range(5):
            t = time.perf_counter()
            core_nodes = core.perft(ref_depth, False)
            best = min(best, time.perf_counter() - t)
        if core_nodes != nodes:  # pragma: no cover - the perft suites guard this
            raise AssertionError(f"seed {seed}: core {core_nodes} != reference {nodes}")
        core_time += best
        ref_nodes += nodes
        ref_seeds.append(seed)
        seed += 1
    out["reference_seeds"] = ref_seeds
    out["reference_nodes"] = ref_nodes
    out["reference_nodes_per_s"] = ref_nodes / ref_time if ref_time else 0.0
    out["core_nodes_per_s_same_positions"] = ref_nodes / core_time if core_time else 0.0
    out["reference_ratio"] = ref_time / core_time if core_time else 0.0

    say("resident memory over in-core playouts")
    games = 1_000_000 if not small else 20_000
    if not small:
        games = int(min(games, max(100_000, out["playouts_per_s"] * budget["memory"])))
    out.update(memory_playouts(games))

    say("VectorGame with numpy random actions, and the Game loop (CPU time)")
    from gostop_core.envs.vector_bench import compare
    out.update(compare(0.04 * seconds, num_games=512 if small else 4096))
    out["targets"] = dict(TARGETS)
    return out


_LINES = [
    ("playouts_per_s", "random playouts (core)", "games/s"),
    ("perft_bulk_nodes_per_s", "perft {perft_depth}, bulk counting", "nodes/s"),
    ("perft_nobulk_nodes_per_s", "perft {perft_depth}, no bulk counting", "nodes/s"),
    ("score_evals_per_s", "scoring a pile (core)", "evals/s"),
    ("api_moves_per_s", "legal moves + push + pop (API)", "moves/s"),
    ("reference_nodes_per_s", "reference perft {reference_depth}, no bulk", "nodes/s"),
    ("core_nodes_per_s_same_positions", "core perft {reference_depth}, same positions", "nodes/s"),
    ("reference_ratio", "core / reference", "x"),
    ("vector_decisions_per_s", "VectorGame, numpy random legal actions", "decisions/s"),
    ("game_loop_decisions_per_s", "Game loop (random.choice + push)", "decisions/s"),
    ("vector_vs_game_loop", "VectorGame / Game loop", "x"),
]


def format_report(fig: dict[str, Any]) -> list[str]:
    """The figures as lines of text, each against its target."""
    m = fig["machine"]
    lines = [f"gostop bench: {m['cpu']}, Python {m['python']}, one core, "
             f"2-player casual deals ({fig['seconds']:g} s budget)"]
    for key, label, unit in _LINES:
        if key not in fig:  # a figure this run did not measure
            continue
        value = fig[key]
        target = TARGETS.get(key)
        mark = "" if target is None else (f"  (target {target:,}: "
                                          f"{'met' if value >= target else 'MISSED'})")
        lines.append(f"  {label.format(**fig):<44} {value:>14,.0f} {unit}{mark}")
    growth = fig["rss_growth_kb"]
    lines.append(f"  {'RSS over ' + format(fig['rss_playouts'], ',') + ' playouts':<44} "
                 f"{fig['rss_before_kb']:,} -> {fig['rss_after_kb']:,} KiB "
                 f"({growth:+,} KiB: {'flat' if growth <= 0 else 'GREW'})")
    return lines


# ---------------------------------------------------------------- scaling tables
def scaling(seconds_per_cell: float = 1.0) -> dict[str, Any]:
    """How the cost grows: playouts and perft by players and preset, perft by depth."""
    out: dict[str, Any] = {"machine": machine(), "seconds_per_cell": seconds_per_cell,
                           "by_players": [], "by_depth": []}
    perft_nodes(6, False)  # warm-up: the first timed cell is otherwise slow
    for preset in PRESETS:
        for players in (2, 3, 4):
            try:
                Game(preset, players, seed=1)
            except Exception:  # a preset that does not seat this many players
                continue
            pl, _ = _best_rate(lambda: playouts(preset, players, games=5_000), seconds_per_cell)
            pb, _ = _best_rate(lambda: perft_nodes(5, True, preset, players), seconds_per_cell / 2)
            pn, _ = _best_rate(lambda: perft_nodes(5, False, preset, players), seconds_per_cell / 2)
            out["by_players"].append({"preset": preset, "players": players, "playouts_per_s": pl,
                                      "perft5_bulk_nodes_per_s": pb,
                                      "perft5_nobulk_nodes_per_s": pn})
    for depth in range(1, 8):
        t = time.perf_counter()
        bulk = perft_nodes(depth, True)
        tb = time.perf_counter() - t
        t = time.perf_counter()
        nobulk = perft_nodes(depth, False)
        tn = time.perf_counter() - t
        out["by_depth"].append({"depth": depth, "nodes": bulk, "bulk_seconds": tb,
                                "nobulk_seconds": tn, "bulk_nodes_per_s": bulk / tb,
                                "nobulk_nodes_per_s": nobulk / tn})
    return out


def _main(argv: list[str]) -> None:  # pragma: no cover - a maintainer's tool
    import json
    if "--scaling" in argv:
        cell = float(argv[argv.index("--cell-seconds") + 1]) if "--cell-seconds" in argv else 1.0
        s = scaling(cell)
        if "--json" in argv:
            print(json.dumps(s, indent=2))
            return
        print(f"{s['machine']['cpu']}, Python {s['machine']['python']}")
        print("preset       players  playouts/s   perft5 bulk/s  perft5 nobulk/s")
        for row in s["by_players"]:
            print(f"{row['preset']:<12} {row['players']:>7} {row['playouts_per_s']:>11,.0f} "
                  f"{row['perft5_bulk_nodes_per_s']:>15,.0f} {row['perft5_nobulk_nodes_per_s']:>16,.0f}")
        print("depth        nodes   bulk s   nobulk s   bulk nodes/s  nobulk nodes/s  (seeds 1-4)")
        for row in s["by_depth"]:
            print(f"{row['depth']:>5} {row['nodes']:>12,} {row['bulk_seconds']:>8.4f} "
                  f"{row['nobulk_seconds']:>10.4f} {row['bulk_nodes_per_s']:>14,.0f} "
                  f"{row['nobulk_nodes_per_s']:>15,.0f}")
        return
    seconds = float(argv[argv.index("--seconds") + 1]) if "--seconds" in argv else 60.0
    fig = run_bench(seconds, progress=lambda m: print("...", m, file=sys.stderr))
    print(json.dumps(fig, indent=2) if "--json" in argv else "\n".join(format_report(fig)))


if __name__ == "__main__":  # pragma: no cover
    _main(sys.argv[1:])
