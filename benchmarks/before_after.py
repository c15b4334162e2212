"""Time two builds of the engine under the same load: run this script with each
build on PYTHONPATH in turn, a few times, alternating, and keep the best of each.

    git worktree add /tmp/base <old commit>
    (cd /tmp/base && python setup.py build_ext --inplace -q)
    for i in 1 2 3; do
        PYTHONPATH=/tmp/base/src python benchmarks/before_after.py   # the old build
        python benchmarks/before_after.py                            # this one
    done

It uses only the API both builds have (no gostop_core.bench), so an old commit
can be measured.  Prints one JSON line: playouts games/s, perft 6 nodes/s with
and without bulk counting (seeds 1-4, 2-player casual), API moves/s and the
Game loop's games/s (random 2-player casual games through the public API,
dealing included).  ``python benchmarks/before_after.py loop`` times the Game
loop alone.
"""

import json
import random
import sys
import time

from gostop_core import Game


def best(fn, reps):
    rate = 0.0
    for _ in range(reps):
        t = time.perf_counter()
        work = fn()
        rate = max(rate, work / (time.perf_counter() - t))
    return rate


cores = [Game("casual", 2, seed=s)._core for s in (1, 2, 3, 4)]


def playouts():
    for i, c in enumerate(cores):
        c.random_playouts(20000, i + 1)
    return 20000 * len(cores)


def perft(bulk):
    return sum(c.perft(6, bulk) for c in cores)


positions = []
for seed in range(1, 5):
    rnd = random.Random(seed)
    g = Game("casual", 2, seed=seed)
    while not g.is_over():
        positions.append(g.copy(stack=False))
        g.push(rnd.choice(list(g.legal_moves)))


def api():
    n = 0
    for g in positions:
        for m in g.legal_moves:
            g.push(m)
            g.pop()
            n += 1
    return n


def game_loop(games=2000):
    rnd = random.Random(1)
    for s in range(games):
        g = Game(rules="casual", players=2, seed=s)
        while not g.is_over():
            g.push(rnd.choice(list(g.legal_moves)))
    return games


if __name__ == "__main__":
    if sys.argv[1:] == ["loop"]:
        print(json.dumps({"loop": best(game_loop, 5)}))
    else:
        print(json.dumps({"playouts": best(playouts, 5), "bulk": best(lambda: perft(True), 5),
                          "nobulk": best(lambda: perft(False), 3), "api": best(api, 5),
                          "loop": best(game_loop, 5)}))
