"""Where the late answers of ``gostop engine`` lose their time
(docs/performance.md): the positions of benchmarks/engine_time.py at one
limit, each request traced on one clock (``time.monotonic``, the same for
every process of the machine) from the driver's send, to the engine's read,
to its answer written, to the driver's receipt.

    python benchmarks/engine_time_trace.py --time-ms 20 [--clock] [--load 2]

Prints one JSON line: the answers over the limit, and for those the largest
of each stage in milliseconds: ``pipe_in`` (sent to read by the engine),
``engine`` (read to written: parsing, the search or the fallback),
``pipe_out`` (written to received by the driver, its wake-up included).
The engine runs in this file (``--serve``), its server's read, answer and
write wrapped to take the times; they go to a file at its exit.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time


def serve_traced(out_path: str, bot: str) -> None:
    from gostop_core.protocol import server
    trace: dict[str, dict] = {}
    read_block = server._Server._read_block
    answer = server._Server.answer

    def traced_read(self, block, ahead):
        now = time.monotonic()
        for piece in block.split(b"\n"):
            message = piece.decode("utf-8", "replace")
            if message.startswith('{"type": "request"'):
                trace.setdefault(str(json.loads(message)["id"]), {})["read"] = now
        return read_block(self, block, ahead)

    def traced_answer(self, job, message):
        done = answer(self, job, message)
        if done:
            entry = trace.setdefault(str(job.request.id), {})
            entry["written"] = time.monotonic()
            entry["fallback"] = bool(message and message.get("fallback"))
        return done

    server._Server._read_block = traced_read
    server._Server.answer = traced_answer
    from gostop_cli.main import main
    sys.argv = ["gostop", "engine", "--bot", bot]
    try:
        main()
    finally:
        with open(out_path, "w") as f:
            json.dump(trace, f)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time-ms", type=float, default=20)
    parser.add_argument("--clock", action="store_true",
                        help="a clock of --time-ms with no increment instead")
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--load", type=int, default=2)
    parser.add_argument("--bot", default="best")
    parser.add_argument("--serve", metavar="TRACE_FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_traced(args.serve, args.bot)
        return
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from engine_time import _busy, positions
    from gostop_core.protocol.client import Limit, SimpleEngine
    from gostop_core.protocol.server import time_budget_ms
    if args.clock:
        limit = Limit(remaining=args.time_ms / 1000)
        allowed = time_budget_ms({"remaining_ms": args.time_ms})
    else:
        limit, allowed = Limit(time=args.time_ms / 1000), args.time_ms
    sent: dict[str, float] = {}
    received: dict[str, float] = {}

    def log(direction: str, line: str) -> None:
        now = time.monotonic()
        message = json.loads(line)
        if direction == ">" and message.get("type") == "request":
            sent[str(message["id"])] = now
        elif direction == "<" and message.get("type") == "move":
            received[str(message["id"])] = now

    load = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(args.load)]
    for p in load:
        p.start()
    trace_file = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
    try:
        with SimpleEngine.popen([sys.executable, os.path.abspath(__file__), "--bot", args.bot,
                                 "--serve", trace_file], log=log) as engine:
            for preset, players in (("casual", 2), ("standard", 3)):
                for view in positions(preset, players, args.positions):
                    engine.play(view, limit)
    finally:
        for p in load:
            p.terminate()
            p.join()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and os.path.getsize(trace_file) == 0:
        time.sleep(0.05)
    with open(trace_file) as f:
        trace = json.load(f)
    os.unlink(trace_file)
    late = [i for i in sent if (received[i] - sent[i]) * 1000 > allowed]

    def worst(start: str | None, end: str | None) -> float:
        values = []
        for i in late:
            a = sent[i] if start is None else trace[i][start]
            b = received[i] if end is None else trace[i][end]
            values.append((b - a) * 1000)
        return round(max(values), 1) if values else 0.0
    print(json.dumps({"limit": f"clock={args.time_ms:g}ms" if args.clock else
                      f"time_ms={args.time_ms:g}", "allowed_ms": allowed, "load": args.load,
                      "answers": len(sent), "over_limit": len(late),
                      "late_by_fallback": sum(1 for i in late if trace[i].get("fallback")),
                      "late_worst_ms": {"pipe_in": worst(None, "read"),
                                        "engine": worst("read", "written"),
                                        "pipe_out": worst("written", None)}}))


if __name__ == "__main__":
    main()
