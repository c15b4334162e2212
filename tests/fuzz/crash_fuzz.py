"""Crash-safety fuzzing: strings at and past every field's limit, each run in a
child process so that a signal (a segfault, SIGFPE, an abort of the debug or
sanitizer build) or a hang is caught and reported with the input.

    python tests/fuzz/crash_fuzz.py --inputs 20000 --seed 1       # a long run
    python tests/fuzz/crash_fuzz.py --inputs 600 --seed 0 --json  # what CI runs
    python tests/fuzz/crash_fuzz.py --inputs 500 --kinds file,fields   # record files only

Inputs are built, not mutated at random: every numeric key of a position or a
view (``dealer``, ``turn``, ``turns``, ``go``, ``lastgo``, ``fliponly``, ``stake``,
``bombs``, ``ppeoks``, ``played``, ``chips``, ``flags``, ``sitter``, ``asker``,
``points``, ``winner``, ``players``, a view's ``hands`` and ``stock``) is set to
its limit, one past it, 0, -1, 2**31, 2**63, ``²`` and a 4,301-digit number, and,
in valid positions, the counters to exactly the most the parser takes;
every card key (``forced``, ``turnbonus``, ``pending``, ``stackbonus``, the phase's
card) gets a card of the wrong kind, a card held elsewhere, a bonus card; every
rules field goes to its bounds and one past them in the ``rules=`` token, alone
and with showdown and tiny thresholds; perft-suite lines get edge depths, counts
and seeds.  Record files (``file``) mix real records with runs of up to two million
blank lines, lines at, under and over the reader's cap (``--max-line``, by
default the real one) and up to three times it, every reader's line breaks as
separators and inside records, pretty-printed records, arrays, truncations,
deep nesting and 5,000-digit numbers; they are read strictly and not, every
record replayed.  Records with odd text in their string fields (``fields``:
every line break, lone surrogates, any code point) are written, read back and
must be equal, on one line by any reader's count.  Self-play manifests
(``manifest``) and training data files (``training``) are built real, then fields at
any depth deleted or replaced by odd values (wrong types, NaN, 5,000 digits, lone
surrogates), truncated or nested 100,000 deep, and read as a resume and a fit read
them; SVG calls (``svg``) get sizes, card indices, colours and columns of every odd
kind, and what they draw must parse as XML with no script (tests/fuzz/files.py).  A string a parser accepts is then played: the legal moves, perft(2),
random playouts, a random game to its end in which every position the engine
prints must parse again, each seat's view, and the expectimax search of the seat
to move (one sample); the game is played in lockstep with the pure-Python
reference engine, which must agree with the core at every move.

The parent sends one input at a time to a worker (``--worker``); the worker
answers ``ok`` or ``finding <text>`` (an exception that is not the engine's own
refusal), with its peak resident memory.  The worker's data segment is capped
(``resource.setrlimit``, twice ``--memory-mb``) and its peak RSS must stay
under ``--memory-mb`` after every input, or that is a finding (``memory``).  A worker killed by a signal, or silent for ``--timeout`` seconds, is a
finding too; the parent starts a new worker and goes on.  Exit code 0 when no
finding, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

HUGE = "9" * 4301
ODD = ("-1", "2147483648", str(2 ** 63), "²", HUGE, "", "x", "1.5", "+1", "0x1")


# ---------------------------------------------------------------- generation
def _set(text: str, key: str, value: str) -> str:
    """``text`` with ``key=value`` (replaced, or added at the end)."""
    pattern = re.compile(rf"(?<= ){re.escape(key)}=\S*")
    if pattern.search(text):
        return pattern.sub(lambda _: f"{key}={value}", text, count=1)
    return f"{text} {key}={value}"


def _get(text: str, key: str) -> str | None:
    m = re.search(rf"(?<= ){re.escape(key)}=(\S*)", text)
    return m.group(1) if m else None


def _numbers(limit: int) -> list[str]:
    return [str(limit - 1), str(limit), str(limit + 1), "0"] + list(ODD)


def numeric_edits(text: str, rng: random.Random) -> list[str]:
    """The string with one numeric key at or past its limit (one seat's entry for
    the per-seat lists)."""
    from gostop_core.movegen import CHIPS_CAP, PAY_CAP
    from gostop_core.notation import (MAX_BOMBS, MAX_FLIP_ONLY, MAX_LAST_GO, MAX_SEAT_COUNT,
                                      MAX_TURNS)
    players = _get(text, "players") or "2"
    n = int(players) if players in ("2", "3", "4") else 2
    per_seat = {"go": MAX_SEAT_COUNT, "lastgo": MAX_LAST_GO, "fliponly": MAX_FLIP_ONLY,
                "bombs": MAX_BOMBS, "ppeoks": MAX_SEAT_COUNT, "played": MAX_SEAT_COUNT,
                "chips": CHIPS_CAP}
    single = {"dealer": n - 1, "turn": n - 1, "turns": MAX_TURNS, "stake": 20, "flags": 63,
              "sitter": 3, "asker": n - 1, "players": 4, "points": PAY_CAP, "winner": n - 1}
    if text.startswith("gostop-view/1"):
        single["stock"] = 50
        single["seat"] = n - 1
        per_seat["hands"] = 24
    out = []
    for key, limit in single.items():
        value = rng.choice(_numbers(limit) + [str(-limit)])
        out.append(_set(text, key, value))
    for key, limit in per_seat.items():
        values = (_get(text, key) or ",".join(["0"] * n)).split(",")
        i = rng.randrange(len(values))
        values[i] = rng.choice(_numbers(limit) + [str(-limit)])
        out.append(_set(text, key, ",".join(values)))
    return out


def room_edits(text: str, rng: random.Random) -> list[str]:
    """The counters of a valid position at exactly the most the parser takes
    (the room left for the turns still possible), one at a time and all at
    once: every position the engine prints from there must parse again."""
    from gostop_core import parse_position
    from gostop_core.movegen import CHIPS_CAP
    from gostop_core.notation import (MAX_BOMBS, MAX_FLIP_ONLY, MAX_LAST_GO, MAX_SEAT_COUNT,
                                      MAX_TURNS)
    try:
        _, f = parse_position(text)
    except Exception:  # noqa: BLE001 - only valid positions are pushed to their limits
        return [text]
    if f["phase"] == 3:
        return [text]
    n, sitter = f["nplayers"], f.get("sitter")
    counts = [bin(h).count("1") for h in f["hands"]]
    stock = len(f["stock"])
    under_way = 1 if f["phase"] in (1, 2) else 0  # flip, gostop: the turn's card is used
    left = sum(k for p, k in enumerate(counts) if p != sitter) + stock + under_way
    p = rng.choice([q for q in range(n) if q != sitter])
    mover = p == f["to_move"]
    own = counts[p] + stock + (1 if mover and f["phase"] == 1 else 0)   # played, ppeoks
    own_go = counts[p] + stock + (under_way if mover else 0)
    def seat_values(key: str, value: int) -> str:
        values = [str(v) for v in f[key]] if key in f else ["0"] * n
        values[p] = str(value)
        return ",".join(values)
    room = {
        "turns": str(MAX_TURNS - left),
        "played": seat_values("turns_played", MAX_SEAT_COUNT - own),
        "ppeoks": seat_values("ppeoks", MAX_SEAT_COUNT - own),
        "bombs": seat_values("bombs", MAX_BOMBS - counts[p] // 3),
        "chips": seat_values("chips", rng.choice([CHIPS_CAP, -CHIPS_CAP])),
        "stake": "20",
    }
    if not f["go_counts"][p]:
        room["go"] = seat_values("go_counts", MAX_SEAT_COUNT - own_go)
        room["lastgo"] = seat_values("last_go_scores", MAX_LAST_GO)
    if sitter is None or p != sitter:
        room["fliponly"] = seat_values("flip_only", MAX_FLIP_ONLY - 3 * (counts[p] // 3))
    out = [_set(text, key, value) for key, value in room.items()]
    everything = text
    for key, value in room.items():
        everything = _set(everything, key, value)
    return out + [everything]


def card_edits(text: str, rng: random.Random) -> list[str]:
    """Card keys with a card of the wrong kind or place."""
    from gostop_core.cards import CARD_CODES
    hand = (_get(text, "hands") or _get(text, "hand") or "-").split("|")[0].split(",")
    field = (_get(text, "field") or "-").split(",")
    month = [c for c in CARD_CODES[:48]]
    pick = rng.choice
    cards = [pick(month), "X2", "X3", pick(hand), pick(field), "-", "", "13B", "1B,3B"]
    out = []
    for key in ("forced", "turnbonus", "pending"):
        out.append(_set(text, key, pick(cards)))
    out.append(_set(text, "pending", f"{pick(field)}/{pick(field)}"))
    out.append(_set(text, "stackbonus", f"{pick(['X2', 'X3', pick(month)])}:{rng.randint(-1, 13)}"))
    for phase in ("flip", "showdown"):
        t = _set(text, "phase", f"{phase}:{pick(cards)}")
        if phase == "showdown":
            t = _set(t, "asker", str(rng.randint(0, 3)))
        out.append(t)
    out.append(_set(text, "phase", pick(["gostop", "over", "play", "showdown", "flip"])))
    return out


def rules_edits(text: str, rng: random.Random) -> list[str]:
    """The rules token with one field at a bound, one past it, or with showdown,
    tiny thresholds and gwangpalli."""
    from gostop_core.rules import FIELDS
    token = _get(text, "rules") or "casual"
    base = token.split("+")[0]
    key = rng.choice(sorted(FIELDS))
    lo, hi = FIELDS[key][:2]
    value = rng.choice([lo - 1, lo, hi, hi + 1])
    out = [_set(text, "rules", f"{base}+{key}={value}")]
    extra = rng.choice([
        "showdown=1,threshold_2p=1,threshold_3p=1,threshold_4p=1",
        "allow_4p=1,gwangpalli=1,showdown=1",
        "bright3=100", "bright5=0", "go_scheme=0,threshold_2p=1",
        "hand_2p=24,field_2p=2", "ppeok_keeps_bonus=1,flipped_bonus=1",
    ])
    out.append(_set(text, "rules", f"{base}+{extra}"))
    return out


def suite_edits(rng: random.Random) -> list[str]:
    from gostop_core.rules import PRESETS
    preset = rng.choice(list(PRESETS) + ["bogus"])
    numbers = ["0", "1", "2", "3", "4", "64", "65", str(2 ** 64 - 1), str(2 ** 64)] + list(ODD)
    pick = rng.choice
    return [
        f"id edge\ndeal {preset} {pick(numbers)} {pick(numbers)} {pick(numbers)}\nperft 1 {pick(numbers)}\n",
        f"id edge\ndeal {preset} 2 {pick(numbers)}\nperft {pick(numbers)} {pick(numbers)}\n",
        f"perft {pick(numbers)} 1\n",
    ]


def month_edits(text: str, rng: random.Random) -> list[str]:
    """One card moved from its list to another (the field, a captured pile, a hand,
    the stock; a view: its own hand, or an unseen card out of the stock count), so
    that a month is split as a game may or may not leave it (docs/notation.md,
    "months"): a refusal is fine, an accepted split must play on with every printed
    position parsing again."""
    view = text.startswith("gostop-view/1")
    lists: dict[tuple[str, int], list[str]] = {}
    for key in ("field", "stock") if not view else ("field", "hand"):
        value = _get(text, key)
        if value is not None:
            lists[(key, 0)] = [] if value == "-" else value.split(",")
    for key in ("captured",) if view else ("captured", "hands"):
        value = _get(text, key)
        if value is not None:
            for i, part in enumerate(value.split("|")):
                lists[(key, i)] = [] if part == "-" else part.split(",")
    if view:
        from gostop_core.cards import CARD_CODES
        seen = {c for cards in lists.values() for c in cards}
        unseen = [c for c in CARD_CODES[:48] if c not in seen]
        lists[("stock", 0)] = unseen  # an unseen card, taken from the stock's count
    out = []
    for _ in range(3):
        sources = [k for k, cards in lists.items() if any(not c.startswith("X") for c in cards)]
        if not sources:
            break
        src = rng.choice(sources)
        dest = rng.choice([k for k in lists if k != src and not (view and k[0] == "stock")])
        card = rng.choice([c for c in lists[src] if not c.startswith("X")])
        moved = {k: list(v) for k, v in lists.items()}
        moved[src].remove(card)
        moved[dest].append(card)
        t = text
        for key in ("field", "hand") + (() if view else ("stock",)):
            if (key, 0) in moved:
                t = _set(t, key, ",".join(moved[(key, 0)]) or "-")
        for key in ("captured",) if view else ("captured", "hands"):
            seats = sorted(i for k, i in moved if k == key)
            if seats:
                t = _set(t, key, "|".join(",".join(moved[(key, i)]) or "-" for i in seats))
        if view:
            counts = (_get(t, "hands") or "").split(",")
            seat = int(_get(t, "seat") or 0)
            if src == ("stock", 0):
                t = _set(t, "stock", str(int(_get(t, "stock") or 0) - 1))
            for k, step in ((src, -1), (dest, 1)):
                if k == ("hand", 0) and seat < len(counts):
                    counts[seat] = str(int(counts[seat]) + step)
            t = _set(t, "hands", ",".join(counts))
        out.append(t)
    return out or [text]


KINDS = ("position", "view", "suite", "file", "fields", "manifest", "training", "svg")
#: Kinds the worker builds from a seed (tests/fuzz/files.py and targets.py).
SEEDED = ("file", "fields", "manifest", "training", "svg")


def generate(count: int, seed: int, kinds: tuple[str, ...] = KINDS,
             max_line: int | None = None) -> list[dict]:
    """``count`` inputs: ``{"kind": "position"|"view"|"suite", "text": ...}``, or
    for record files and fields ``{"kind": "file"|"fields", "seed": n,
    "max_line": cap}`` (the worker builds the text from its seed)."""
    from targets import seed_positions, seed_views
    from gostop_core.records import MAX_LINE
    rng = random.Random(seed)
    positions, views = list(seed_positions()), list(seed_views())
    weights = {"position": 2, "view": 1, "suite": 1, "file": 1, "fields": 1, "manifest": 1,
               "training": 1, "svg": 1}
    choices = [k for k in kinds for _ in range(weights[k])]
    out: list[dict] = []
    while len(out) < count:
        kind = rng.choice(choices)
        if kind in SEEDED:
            out.append({"kind": kind, "seed": rng.randrange(2 ** 32),
                        "max_line": max_line or MAX_LINE})
            continue
        if kind == "suite":
            items = suite_edits(rng)
        else:
            base = rng.choice(positions if kind == "position" else views)
            how = rng.choice((numeric_edits, card_edits, rules_edits, room_edits, month_edits))
            items = how(base, rng)
            if rng.random() < 0.3:  # two edits at once
                items = [rng.choice(how(t, rng)) for t in items]
        out += [{"kind": kind, "text": t} for t in items]
    return out[:count]


# ---------------------------------------------------------------- the worker
def run_one(item: dict, rng: random.Random) -> str:
    """Feed one input; ``accepted`` or ``refused``.  Anything else raises."""
    from targets import EXPECTED
    from gostop_core import Game, parse_position, parse_view
    from gostop_core.testing.perft_suite import parse_suite
    from gostop_core.bots.ismcts import ismcts_fields
    from gostop_core.bots.search import search_fields, chance_distribution
    if item["kind"] == "file":
        return run_file(item)
    if item["kind"] == "fields":
        return run_fields(item)
    if item["kind"] in ("manifest", "training", "svg"):
        import files
        return getattr(files, f"run_{item['kind']}")(item["seed"])
    text = item["text"]
    if item["kind"] == "selftest":  # the harness's own check: a signal must be caught
        os.kill(os.getpid(), getattr(signal, text))
    if item["kind"] == "memtest":  # the harness's own check: too much memory is caught
        hog = bytearray(int(text) * 2 ** 20)
        hog[::4096] = b"x" * len(hog[::4096])
        return "accepted"
    if item["kind"] == "suite":
        try:
            entries = parse_suite(text, "edge.perft")
        except EXPECTED:
            return "refused"
        for e in entries:
            Game.from_position(e.position).perft(1)
        return "accepted"
    if item["kind"] == "view":
        try:
            rules, fields = parse_view(text)
        except EXPECTED:
            return "refused"
        if fields["phase"] != 3 and fields["seat"] == fields["to_move"]:
            try:
                search_fields(rules, fields, depth=1, samples=1, seed=rng.randrange(100))
            except ValueError as exc:  # a view the search cannot deal from: a clear refusal
                return f"refused-by-search: {exc}"
            ismcts_fields(rules, fields, iterations=8, seed=rng.randrange(100))
            # the search's own start (view_base): a view of the seat to move only
            chance_distribution(rules, fields, samples=1)
        return "accepted"
    try:
        parse_position(text)
        game = Game.from_position(text)
    except EXPECTED:
        return "refused"
    play(game, rng)
    return "accepted"


def _scratch() -> str:
    import tempfile
    return os.path.join(tempfile.gettempdir(), f"gostop-crash-fuzz-{os.getpid()}.jsonl")


def run_file(item: dict) -> str:
    """A hostile record file, read a record at a time, strictly and not, every
    record replayed; a record read back prints as a line that reads the same."""
    from targets import build_record_file
    from gostop_core import records
    records.MAX_LINE = item["max_line"]
    path = _scratch()
    with open(path, "w", encoding="utf-8", errors="surrogatepass", newline="") as fh:
        fh.write(build_record_file(item["seed"], item["max_line"]))
    try:
        good = 0
        with records.open_record_file(path) as fh:
            try:
                for entry in records.iter_records(fh, strict=False, verify=True):
                    if isinstance(entry, records.Record):
                        good += 1
                        again = records.read_records(entry.to_json())
                        assert again == [entry], "a record does not read back the same"
            except records.RecordError as exc:
                assert exc.kind == "json"  # only text that is not UTF-8 ends the reading
        with records.open_record_file(path) as fh:
            try:
                for _ in records.iter_records(fh):
                    pass
            except records.RecordError:
                pass
    finally:
        os.unlink(path)
    return "accepted" if good else "refused"


def run_fields(item: dict) -> str:
    """A record with odd text in its string fields: written to a file, it is one
    line by any reader's count, and reads back equal (pretty-printed too)."""
    from targets import build_record_fields
    from gostop_core import records
    records.MAX_LINE = item["max_line"]
    rec = records.Record.from_dict(build_record_fields(item["seed"]))
    path = _scratch()
    try:
        with records.RecordWriter(path) as out:
            out.write(rec)
        with open(path, encoding="utf-8", newline="") as fh:
            text = fh.read()
        assert text.endswith("\n") and len(text.splitlines()) == 1, "more than one line"
        back = records.load_records(path)
    finally:
        os.unlink(path)
    # a record of Unicode text reads back equal; lone surrogates (no Unicode text) are
    # written escaped, and a high one next to a low one reads back as their pair
    paired = re.search("[\ud800-\udbff][\udc00-\udfff]", json.dumps(
        rec.to_dict(), ensure_ascii=False))
    expected = records.read_records(rec.to_json()) if paired else [rec]
    assert back == expected, "the record does not read back the same"
    assert records.read_records(rec.to_json(pretty=True)) == expected
    try:
        records.replay(rec, records.RecordVisitor())
    except records.RecordError:
        return "refused"
    return "accepted"


def play(game, rng: random.Random) -> None:
    """Exercise the engine on an accepted position; every position it prints
    must parse again (the parser's limits hold every reachable state), and the
    reference engine, following every move, must agree with the core."""
    from gostop_core import Game, parse_view
    from gostop_core.testing.lockstep import Lockstep
    from gostop_core.bots.search import search_fields
    moves = list(game.legal_moves)
    assert game.perft(1) == len(moves)
    game.perft(2)
    if not game.is_over():
        game._core.random_playouts(2, rng.randrange(1000))
        seat = game.turn
        rules, fields = parse_view(game.view(seat).to_str())
        search_fields(rules, fields, depth=1, samples=1, seed=rng.randrange(100))
    for p in range(game.players):
        parse_view(game.view(p).to_str())
    twin = Lockstep(game)  # the reference engine follows: same moves, state, events, outcome
    for _ in range(200):
        moves = list(game.legal_moves)
        if not moves:
            break
        twin.push(rng.choice(moves))
        Game.from_position(game.position())
    if game.is_over():
        game.outcome().report()


def peak_rss_mb() -> float:
    """The worker's peak resident memory so far (ru_maxrss is in kB on Linux)."""
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker(memory_mb: float) -> None:
    """Read inputs (JSON lines) from stdin, answer one line each, with the peak
    resident memory: ``ok <verdict> <MB>`` or ``finding <json> <MB>``.  The data
    segment is capped at twice ``memory_mb`` (an allocation past it is a
    MemoryError, a finding); a peak past ``memory_mb`` after an input is a
    finding, and the worker then ends (its peak cannot go down again)."""
    import resource
    if "ASAN_OPTIONS" in os.environ:
        # under AddressSanitizer (scripts/sanitize.sh) the shadow memory needs huge
        # mappings that a data cap refuses, and the footprint is ASan's: that run
        # checks memory errors, the normal runs check the bound
        memory_mb = float("inf")
    else:
        cap = int(2 * memory_mb * 2 ** 20)
        resource.setrlimit(resource.RLIMIT_DATA, (cap, cap))
    rng = random.Random(0)
    for line in sys.stdin:
        item = json.loads(line)
        try:
            verdict = run_one(item, rng)
        except BaseException as exc:  # noqa: BLE001 - every escape is a finding
            tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
            print("finding " + json.dumps("".join(tb[-3:])) + f" {peak_rss_mb():.0f}", flush=True)
            continue
        peak = peak_rss_mb()
        if peak > memory_mb:
            print("memory " + json.dumps(f"peak RSS {peak:.0f} MB, more than {memory_mb:.0f} MB")
                  + f" {peak:.0f}", flush=True)
            return
        print(f"ok {verdict.split(':')[0]} {peak:.0f}", flush=True)


# ---------------------------------------------------------------- the parent
#: A worker's peak resident memory must stay under this (MB): the largest input,
#: a record file of about 6 MB, is read a chunk at a time.  The short run peaked at
#: 198 MB here and at 436 MB in a CI environment with every extra installed.
MEMORY_MB = 512.0


class Worker:
    def __init__(self, env: dict, memory_mb: float = MEMORY_MB):
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker", str(memory_mb)],
                                     stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                     start_new_session=True)
        self.buffer = b""

    def ask(self, item: dict, timeout: float) -> tuple[str, str]:
        """``("ok", verdict)``, ``("finding", text)``, ``("signal", name)`` or ``("hang", "")``."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write((json.dumps(item) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            return self.died()
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                return "hang", f"no answer in {timeout:.0f} s"
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    return self.died()
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        word, _, rest = line.decode().partition(" ")
        rest, _, peak = rest.rpartition(" ")
        try:
            self.peak_mb = max(getattr(self, "peak_mb", 0.0), float(peak))
        except ValueError:
            rest = f"{rest} {peak}".strip()
        if word == "memory":
            self.proc.wait()
        return word, rest

    def died(self) -> tuple[str, str]:
        code = self.proc.wait()
        err = self.proc.stderr.read().decode(errors="replace")[-2000:] if self.proc.stderr else ""
        name = signal.Signals(-code).name if code < 0 else f"exit {code}"
        return "signal", f"{name} {err}"

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()


def fuzz(count: int, seed: int, timeout: float = 60.0, kinds: tuple[str, ...] = KINDS,
         max_line: int | None = None, memory_mb: float = MEMORY_MB) -> dict:
    """Run ``count`` generated inputs in worker processes; returns the figures
    (inputs by kind, accepted, refused, signals, hangs, the workers' peak
    memory) and the findings (input, kind, text)."""
    items = generate(count, seed, kinds, max_line)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE)] + [p for p in sys.path if p])
    start = time.perf_counter()
    w = Worker(env, memory_mb)
    tally: dict[str, int] = {}
    by_kind: dict[str, int] = {}
    findings = []
    signals = hangs = 0
    peak = 0.0
    for item in items:
        by_kind[item["kind"]] = by_kind.get(item["kind"], 0) + 1
        word, rest = w.ask(item, timeout)
        peak = max(peak, getattr(w, "peak_mb", 0.0))
        if word == "ok":
            tally[rest] = tally.get(rest, 0) + 1
            continue
        shown = dict(item)
        if "text" in shown:
            shown["text"] = shown["text"][:2000]
        findings.append({"input": shown, "kind": word, "detail": rest[-1500:]})
        if word in ("signal", "hang", "memory"):
            signals += word == "signal"
            hangs += word == "hang"
            w = Worker(env, memory_mb)
    w.close()
    return {"inputs": len(items), "seed": seed, "by_kind": by_kind,
            "accepted": tally.get("accepted", 0),
            "refused": tally.get("refused", 0) + tally.get("refused-by-search", 0),
            "signals": signals, "hangs": hangs, "peak_rss_mb": round(peak),
            "memory_bound_mb": memory_mb, "findings": findings,
            "seconds": round(time.perf_counter() - start, 1)}


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        worker(float(sys.argv[2]) if len(sys.argv) > 2 else MEMORY_MB)
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds one input may take")
    ap.add_argument("--kinds", default=",".join(KINDS),
                    help=f"kinds of input, comma-separated (default: {','.join(KINDS)})")
    ap.add_argument("--max-line", type=int, default=None,
                    help="the record reader's line cap in the worker (default: the real one)")
    ap.add_argument("--memory-mb", type=float, default=MEMORY_MB,
                    help="a worker's peak RSS bound (MB)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    kinds = tuple(k for k in args.kinds.split(",") if k)
    if not kinds or set(kinds) - set(KINDS):
        ap.error(f"--kinds takes {', '.join(KINDS)}")
    result = fuzz(args.inputs, args.seed, args.timeout, kinds, args.max_line, args.memory_mb)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(result["by_kind"].items()))
        print(f"{result['inputs']} inputs ({kinds}; seed {result['seed']}): "
              f"{result['accepted']} accepted and played, {result['refused']} refused; "
              f"signals caught: {result['signals']}; hangs: {result['hangs']}; peak worker RSS "
              f"{result['peak_rss_mb']} MB (bound {result['memory_bound_mb']:.0f}); "
              f"findings: {len(result['findings'])} ({result['seconds']} s)")
        for f in result["findings"][:20]:
            what = f["input"].get("text", "")[:300] or f"seed {f['input'].get('seed')}"
            print(f"  {f['kind']}: {f['input']['kind']} {what!r}\n    {f['detail'][-600:]}")
    sys.exit(1 if result["findings"] else 0)


if __name__ == "__main__":
    main()
