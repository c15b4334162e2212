"""Load on the web table (docs/performance.md): TABLES tables of bots playing each
other over WebSockets on 127.0.0.1, against a ``gostop serve`` app in its own
process.

    python benchmarks/web_load.py [--tables 50] [--hands 2] [--seconds 120] [--json]

Every seat of every table is a person's seat (its own token and WebSocket);
this script plays each seat as a simple bot: a seeded random choice among the
legal moves its frame lists.  A move's latency is the time from sending it to
receiving the frame that shows it played.  The server runs with no bot delay
and a per-connection rate limit raised to 1000 messages/s (the default, 10/s,
is a person's pace); everything else is as ``gostop serve`` runs it.  The run
is bounded: TABLES tables, HANDS hands each, and a time limit after which the
clients stop.  Reports moves/s, p50/p99 latency, errors, the server's own CPU
time a move (what it costs apart from the client, which shares the machine) and
its resident memory idle, once the tables are made (the start of the play),
through the play and at the end.  Needs the web extra.

``GOSTOP_WEB_PATH=DIR`` runs the server from another tree's ``gostop_web`` (put
first on its path): an earlier server against this client, in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

import websockets

try:  # the client shares the machine with the server: parse frames as cheaply as it can
    from orjson import loads
except ImportError:
    from json import loads

SERVER = """
import sys, uvicorn, gostop_web
app = gostop_web.create_app(move_delay=0, rate=(1000.0, 1000), tables_per_client=100_000)
# the configuration gostop serve runs with, on the benchmark's port (a tree from
# before server_config: uvicorn's defaults, as its gostop serve ran)
if hasattr(gostop_web, "server_config"):
    config = gostop_web.server_config(app, host="127.0.0.1", port=int(sys.argv[1]))
else:
    config = uvicorn.Config(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
uvicorn.Server(config).run()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def create_table(base: str, rules: str, players: int) -> dict:
    req = urllib.request.Request(
        base + "/api/tables", method="POST",
        data=json.dumps({"rules": rules, "players": players,
                         "seats": [None] * players}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


class Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.hands = 0


async def play_seat(url: str, seat: int, hands: int, rng: random.Random, tally: Tally,
                    deadline: float) -> None:
    """One seat until HANDS hands are over or the deadline passes."""
    try:
        await asyncio.wait_for(_play_seat(url, seat, hands, rng, tally),
                               timeout=max(0.1, deadline - time.monotonic()))
    except asyncio.TimeoutError:
        return


async def _play_seat(url: str, seat: int, hands: int, rng: random.Random, tally: Tally) -> None:
    """Answer every frame that offers moves, until HANDS hands are over.  One
    time limit for the whole seat (not one per frame: the client's own cost is
    kept low, since it shares the machine with the server)."""
    async with websockets.connect(url, max_size=2 ** 20) as ws:
        sent_at: float | None = None
        # the decision a frame shows; a frame that repeats it (another seat
        # connecting, say) is not answered twice
        acted: tuple[int, int] | None = None
        while True:
            msg = loads(await ws.recv())
            if msg["type"] == "error":
                tally.errors.append(msg["error"])
                continue
            if msg["type"] != "state":
                continue
            at = (msg["hand_number"], msg["moves"])
            if sent_at is not None and at != acted:
                tally.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if at == acted:
                continue
            if msg["outcome"] is not None:
                if seat == 0:
                    tally.hands += 1
                if msg["hand_number"] >= hands:
                    return
                if seat == 0:
                    acted = at
                    await ws.send(json.dumps({"type": "next"}))
                continue
            if msg["legal"]:
                acted = at
                move = rng.choice(msg["legal"])
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": move,
                                          "turn": msg["view"]["turns"]}))


async def run(base: str, tables: int, hands: int, seconds: float,
              on_start=lambda: None) -> tuple[Tally, float, int]:
    presets = [("casual", 2), ("standard", 2), ("traditional", 3), ("family", 4),
               ("casual", 3), ("casual", 4)]
    loop = asyncio.get_running_loop()
    made = await asyncio.gather(*[
        loop.run_in_executor(None, create_table, base, *presets[i % len(presets)])
        for i in range(tables)])
    on_start()  # the tables are made: the memory the play starts from
    tally = Tally()
    deadline = time.monotonic() + seconds
    ws_base = base.replace("http://", "ws://")
    jobs = []
    for i, table in enumerate(made):
        for s in table["seats"]:
            token = s["link"].split("token=")[1]
            url = f"{ws_base}/ws/{table['table']}?token={token}"
            jobs.append(play_seat(url, s["seat"], hands, random.Random(i * 10 + s["seat"]),
                                  tally, deadline))
    started = time.perf_counter()
    results = await asyncio.gather(*jobs, return_exceptions=True)
    elapsed = time.perf_counter() - started
    tally.errors += [repr(r) for r in results if isinstance(r, BaseException)]
    return tally, elapsed, sum(len(t["seats"]) for t in made)


def run_client(main):
    """Run the client's event loop: uvloop's where it is installed (as the server
    runs on it too), the client's own cost being kept low."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--hands", type=int, default=2, help="hands per table")
    ap.add_argument("--seconds", type=float, default=120.0, help="time limit of the clients")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not (1 <= args.tables <= 200 and 1 <= args.hands <= 20 and 0 < args.seconds <= 600):
        ap.error("at most 200 tables, 20 hands, 600 seconds")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ)
    if os.environ.get("GOSTOP_WEB_PATH"):
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.environ["GOSTOP_WEB_PATH"],
                                                          env.get("PYTHONPATH")]))
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port)], env=env)
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/api/presets", timeout=1).read()
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise SystemExit("the server did not start")
        rss = {"idle": rss_mib(server.pid)}
        samples: list[float] = []
        done = threading.Event()

        def sample() -> None:  # the server's memory through the play, twice a second
            while not done.wait(0.5):
                samples.append(rss_mib(server.pid))
        sampler = threading.Thread(target=sample, daemon=True)

        cpu_start: list[float] = []

        def started() -> None:
            rss["start"] = rss_mib(server.pid)
            cpu_start.append(cpu_seconds(server.pid))
            sampler.start()
        tally, elapsed, connections = run_client(run(
            base, args.tables, args.hands, args.seconds, started))
        done.set()
        sampler.join()
        rss_end = rss_mib(server.pid)
        server_cpu = cpu_seconds(server.pid) - cpu_start[0]
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    lat = sorted(tally.latencies)
    figures = {
        "tables": args.tables, "connections": connections, "hands": tally.hands,
        "moves": len(lat), "seconds": round(elapsed, 2),
        "moves_per_second": round(len(lat) / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(1000 * statistics.median(lat), 2) if lat else None,
        "p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 2) if lat else None,
        "errors": len(tally.errors), "first_errors": tally.errors[:3],
        # the server's own CPU time a move through the play (connections opened,
        # frames built and sent), and the moves a second one core of it could
        # serve: what the server costs, apart from the client beside it
        "server_cpu_ms_per_move": round(1000 * server_cpu / len(lat), 3) if lat else None,
        "server_moves_per_cpu_second": round(len(lat) / server_cpu, 1) if lat and server_cpu else None,
        "server_rss_mib_idle": round(rss["idle"], 1),
        "server_rss_mib_start": round(rss["start"], 1), "server_rss_mib_end": round(rss_end, 1),
        # through the play, at 0%, 25%, 50%, 75% and 100% of its samples
        "server_rss_mib_through": [round(samples[min(len(samples) - 1, k * len(samples) // 4)], 1)
                                   for k in range(5)] if samples else [],
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:>22}: {value}")
    if tally.errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
