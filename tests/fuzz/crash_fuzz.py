"""Crash-safety fuzzing: strings at and past every field's limit, each run in a
child process so that a signal (a segfault, SIGFPE, an abort of the debug or
sanitizer build) or a hang is caught and reported with the input.

    python tests/fuzz/crash_fuzz.py --inputs 20000 --seed 1       # a long run
    python tests/fuzz/crash_fuzz.py --inputs 600 --seed 0 --json  # what CI runs

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
and seeds.  A string a parser accepts is then played: the legal moves, perft(2),
random playouts, a random game to its end in which every position the engine
prints must parse again, each seat's view, and the expectimax search of the seat
to move (one sample); the game is played in lockstep with the pure-Python
reference engine, which must agree with the core at every move.

The parent sends one input at a time to a worker (``--worker``); the worker
answers ``ok`` or ``finding <text>`` (an exception that is not the engine's own
refusal).  A worker killed by a signal, or silent for ``--timeout`` seconds, is a
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


def generate(count: int, seed: int) -> list[dict]:
    """``count`` inputs: ``{"kind": "position"|"view"|"suite", "text": ...}``."""
    from targets import seed_positions, seed_views
    rng = random.Random(seed)
    positions, views = list(seed_positions()), list(seed_views())
    out: list[dict] = []
    while len(out) < count:
        kind = rng.choice(("position", "position", "view", "suite"))
        if kind == "suite":
            items = suite_edits(rng)
        else:
            base = rng.choice(positions if kind == "position" else views)
            how = rng.choice((numeric_edits, card_edits, rules_edits, room_edits))
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
    text = item["text"]
    if item["kind"] == "selftest":  # the harness's own check: a signal must be caught
        os.kill(os.getpid(), getattr(signal, text))
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
        chance_distribution(rules, fields, samples=1)
        return "accepted"
    try:
        parse_position(text)
        game = Game.from_position(text)
    except EXPECTED:
        return "refused"
    play(game, rng)
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


def worker() -> None:
    """Read inputs (JSON lines) from stdin, answer one line each."""
    rng = random.Random(0)
    for line in sys.stdin:
        item = json.loads(line)
        try:
            verdict = run_one(item, rng)
        except BaseException as exc:  # noqa: BLE001 - every escape is a finding
            tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
            print("finding " + json.dumps("".join(tb[-3:])), flush=True)
            continue
        print("ok " + verdict.split(":")[0], flush=True)


# ---------------------------------------------------------------- the parent
class Worker:
    def __init__(self, env: dict):
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
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


def fuzz(count: int, seed: int, timeout: float = 60.0) -> dict:
    """Run ``count`` generated inputs in worker processes; returns the figures
    and the findings (input, kind, text)."""
    items = generate(count, seed)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE)] + [p for p in sys.path if p])
    start = time.perf_counter()
    w = Worker(env)
    tally: dict[str, int] = {}
    findings = []
    signals = 0
    for item in items:
        word, rest = w.ask(item, timeout)
        if word == "ok":
            tally[rest] = tally.get(rest, 0) + 1
            continue
        findings.append({"input": item, "kind": word, "detail": rest[-1500:]})
        if word in ("signal", "hang"):
            signals += word == "signal"
            w = Worker(env)
    w.close()
    return {"inputs": len(items), "seed": seed, "accepted": tally.get("accepted", 0),
            "refused": tally.get("refused", 0) + tally.get("refused-by-search", 0),
            "signals": signals, "findings": findings,
            "seconds": round(time.perf_counter() - start, 1)}


def main() -> None:
    if sys.argv[1:] == ["--worker"]:
        worker()
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds one input may take")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result = fuzz(args.inputs, args.seed, args.timeout)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{result['inputs']} inputs (seed {result['seed']}): {result['accepted']} accepted "
              f"and played, {result['refused']} refused; signals caught: {result['signals']}; "
              f"findings: {len(result['findings'])} ({result['seconds']} s)")
        for f in result["findings"][:20]:
            print(f"  {f['kind']}: {f['input']['kind']} {f['input']['text'][:300]!r}\n    {f['detail'][-600:]}")
    sys.exit(1 if result["findings"] else 0)


if __name__ == "__main__":
    main()
