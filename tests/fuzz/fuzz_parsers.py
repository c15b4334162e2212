"""Coverage-guided fuzzing of the position parser and the engine behind it, with
atheris (libFuzzer for Python).  Not a pytest test: run it by hand.

    pip install atheris
    python tests/fuzz/fuzz_parsers.py --make-corpus /tmp/gostop-corpus
    python tests/fuzz/fuzz_parsers.py /tmp/gostop-corpus -max_total_time=1800 -timeout=20

Without atheris, ``--random RUNS [SEED]`` feeds RUNS mutated real positions (target
``1`` with plain random choices, each game played on for up to 300 decisions) and
prints how many the engine played; it stops at the first finding.

Each input is one byte that picks a target, then the rest:

* ``0``: the rest is a position string (UTF-8): ``parse_position``,
  ``Game.from_position``, then, when it parses, the engine plays it (position
  read back, legal moves, perft(1), views, up to 40 pushes chosen from the bytes'
  hash, then every pop);
* ``1``: the rest drives the mutator of ``targets.py`` on a real position (tokens
  deleted, duplicated, swapped, cards changed or moved, numbers changed), then as
  ``0``;
* ``2``: a view string, a move string, card codes and card sets;
* ``3``: a perft-suite file.

The pure-Python modules of ``gostop_core`` are instrumented (the parsers in
``notation.py``, ``moves.py``, ``game.py``, ``perft_suite.py``); the compiled
core is not (it would need a build with ``-fsanitize=fuzzer``), but it runs on
every parsed position, so a crash or a hang there still shows.  Any exception
other than the engine's own errors (``GoStopError``, ``SuiteError``) or an
assertion of ``targets.py`` failing is a finding: libFuzzer writes the input to
``crash-<sha1>`` and stops.
"""

from __future__ import annotations

import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

if "--random" in sys.argv[1:2]:
    atheris = None
    import targets
else:
    import atheris
    with atheris.instrument_imports(include=["gostop_core", "targets"]):
        import targets
from targets import RandomChooser  # noqa: E402

SEED_CHOICES = 256


class FdpChooser:
    """Random choices read from the fuzzer's bytes."""

    def __init__(self, fdp):
        self.fdp = fdp

    def int(self, lo: int, hi: int) -> int:
        return self.fdp.ConsumeIntInRange(lo, hi)


def one_input(data: bytes) -> None:
    if not data:
        return
    mode, rest = data[0] % 4, data[1:]
    if mode == 0:
        text = rest.decode("utf-8", "replace")
        targets.check_position(text, RandomChooser(zlib.crc32(rest)), pushes=40)
    elif mode == 1:
        fdp = atheris.FuzzedDataProvider(rest)
        c = FdpChooser(fdp)
        seeds = targets.seed_positions()
        text = targets.mutate_position(seeds[c.int(0, len(seeds) - 1)], c,
                                       gentle=c.int(0, 1) == 1)
        targets.check_position(text, c, pushes=40)
    elif mode == 2:
        text = rest.decode("utf-8", "replace")
        targets.check_view(text)
        targets.check_move(text)
        targets.check_cards(text)
    else:
        targets.check_suite_text(rest.decode("utf-8", "replace"))


def make_corpus(folder: Path) -> int:
    """Seed inputs: every real position and view, some move strings, the suites."""
    folder.mkdir(parents=True, exist_ok=True)
    items = [b"\x00" + p.encode() for p in targets.seed_positions()]
    items += [b"\x02" + v.encode() for v in targets.seed_views()[::4]]
    items += [b"\x02" + w.encode() for w in targets.MOVE_WORDS]
    items += [b"\x03" + p.read_bytes()[:4000] for p in sorted(targets.PERFT_DIR.glob("*.perft"))]
    items += [bytes([1, i, j]) for i in range(0, SEED_CHOICES, 16) for j in (0, 255)]
    for i, item in enumerate(items):
        (folder / f"seed-{i:04d}").write_bytes(item)
    return len(items)


def random_runs(runs: int, seed: int) -> None:
    c = RandomChooser(seed)
    seeds = targets.seed_positions()
    played = 0
    start = time.perf_counter()
    for i in range(runs):
        text = targets.mutate_position(targets.pick(c, seeds), c, gentle=c.int(0, 1) == 1)
        try:
            played += targets.check_position(text, c, pushes=300) is not None
        except BaseException:
            print(f"finding at run {i + 1} (seed {seed}), input:\n{text}", file=sys.stderr)
            raise
    print(f"{runs} mutated positions (seed {seed}) in {time.perf_counter() - start:.0f} s: "
          f"{played} played by the engine, the rest refused by the parser; no finding")


def main() -> None:
    if sys.argv[1:2] == ["--random"]:
        random_runs(int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 0)
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--make-corpus":
        print(f"{make_corpus(Path(sys.argv[2]))} seed inputs in {sys.argv[2]}")
        return
    targets.seed_positions()   # build the seed positions before the clock starts
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
