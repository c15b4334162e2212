#!/usr/bin/env python3
"""A deliberately broken gostop bot program for the arena's forfeit tests.

usage: broken_bot.py [v2-]MODE [MARKER]

MODE says how it misbehaves at its first request: crash, hang, garbage, flood
(10 MB on one line), flood-lines (10 MB of short info lines), illegal, noflush
(never flushes its answer), late (answers 50 ms past time_ms), grandchild (starts a sleeping child, then hangs),
setsid (starts a sleeping child that leaves the process group with setsid(),
then hangs; escape is the same), daemon (a child that calls setsid() and exits, leaving an orphaned
sleeping grandchild, then hangs), wrong-id (answers version 2 requests with
another id), leak (plays properly but starts a sleeping child that calls
setsid(), and leaves it running when it quits), sleep (answers each request after its time_ms plus two seconds), tokenless
(plays properly but leaves a grandchild that called setsid(), dropped the token
and was orphaned at once), early (writes the move 1B as it starts, before it
reads anything, then plays properly).
With the prefix v2- it speaks protocol version 2 until it misbehaves (ready
choosing gostop-bot/2, readyok, replies with ids; ``v2-fine`` never
misbehaves).  With MARKER (a file path), it misbehaves only when the file does not exist yet,
creating it: the restarted process then plays properly.  Its pid (and its
child's) are appended to $BOT_PID_FILE when that is set.
"""
import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]
v2 = mode.startswith("v2-")
if v2:
    mode = mode[3:]
marker = sys.argv[2] if len(sys.argv) > 2 else None
if marker:
    if os.path.exists(marker):
        mode = "fine"
    else:
        open(marker, "w").close()


def note_pid(pid):
    path = os.environ.get("BOT_PID_FILE")
    if path:
        with open(path, "a") as f:
            f.write(f"{pid}\n")


note_pid(os.getpid())
if mode == "early":
    # a line before any request (before it has read a thing), then proper play
    print("1B", flush=True)
    mode = "fine"
if mode == "tokenless":
    # plays properly, but leaves a grandchild behind that called setsid(),
    # dropped GOSTOP_BOT_TOKEN and was orphaned at once (its parent exits)
    helper = subprocess.Popen([sys.executable, "-c",
                               "import os, subprocess; os.setsid(); "
                               "env = {k: v for k, v in os.environ.items() "
                               "if k != 'GOSTOP_BOT_TOKEN'}; "
                               "p = subprocess.Popen(['sleep', '3600'], env=env); "
                               "print(p.pid, flush=True)"], stdout=subprocess.PIPE)
    note_pid(int(helper.stdout.readline()))
    helper.wait()
    mode = "fine"
if mode == "leak":
    # plays properly, but leaves a child behind that left the process group
    note_pid(subprocess.Popen(["sleep", "3600"], start_new_session=True).pid)
    mode = "fine"

def reply(message, move):
    """The answer to a request: bare (version 1) or with the request's id."""
    if v2:
        return json.dumps({"type": "move", "id": message.get("id"), "move": move})
    return move


for line in sys.stdin:
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        continue  # the conformance test sends garbage on purpose
    if not isinstance(message, dict):
        continue
    kind = message.get("type")
    if kind == "quit":
        break
    if v2 and kind == "hello":
        print(json.dumps({"type": "ready", "name": f"broken-{mode}", "protocol": "gostop-bot/2",
                          "options": []}), flush=True)
        continue
    if v2 and kind == "isready":
        print(json.dumps({"type": "readyok", "id": message.get("id")}), flush=True)
        continue
    if v2 and kind in ("analyse", "setoption") or (v2 and kind == "request" and
                                                    "legal" not in message):
        if message.get("id") is not None:
            print(json.dumps({"type": "error", "id": message["id"], "message": "no"}),
                  flush=True)
        continue
    if kind not in ("request",) or not isinstance(message.get("legal"), list):
        if v2 and message.get("id") is not None and kind not in ("newhand", "end", "stop"):
            print(json.dumps({"type": "error", "id": message["id"], "message": "no"}),
                  flush=True)
        continue
    legal = message["legal"]
    if mode == "fine":
        print(reply(message, legal[0]), flush=True)
    elif mode == "wrong-id":
        print(json.dumps({"type": "move", "id": (message.get("id") or 0) + 1000,
                          "move": legal[0]}), flush=True)
    elif mode == "late":  # every answer 50 ms past the limit, well within any grace
        time.sleep(message.get("time_ms", 5000) / 1000 + 0.05)
        print(reply(message, legal[0]), flush=True)
    elif mode == "sleep":
        time.sleep(message.get("time_ms", 5000) / 1000 + 2)
        print(reply(message, legal[0]), flush=True)
    elif mode == "crash":
        print("Traceback: the bot fell over", file=sys.stderr, flush=True)
        sys.exit(3)
    elif mode == "hang":
        time.sleep(3600)
    elif mode == "garbage":
        print("I think I will play the pine bright", flush=True)
    elif mode == "flood":
        sys.stdout.write("x" * 10_000_000 + "\n")
        sys.stdout.flush()
        time.sleep(3600)
    elif mode == "flood-lines":
        chunk = (json.dumps({"type": "info", "text": "y" * 90}) + "\n") * 10_000
        for _ in range(10):
            sys.stdout.write(chunk)
        sys.stdout.flush()
        time.sleep(3600)
    elif mode == "illegal":
        # a well-formed move that is not legal now: go outside the Go/Stop
        # decision, a card during it
        print("go" if "go" not in legal else "1B", flush=True)
    elif mode == "noflush":
        # a buffered stream never flushed (whatever PYTHONUNBUFFERED says): never arrives
        unflushed = open(sys.stdout.fileno(), "w", buffering=65536, closefd=False)
        unflushed.write(legal[0] + "\n")
        time.sleep(3600)
    elif mode == "grandchild":
        child = subprocess.Popen(["sleep", "3600"])
        note_pid(child.pid)
        time.sleep(3600)
    elif mode in ("setsid", "escape"):
        child = subprocess.Popen(["sleep", "3600"], start_new_session=True)
        note_pid(child.pid)
        time.sleep(3600)
    elif mode == "daemon":
        # double fork: the grandchild is orphaned, in a session of its own
        helper = subprocess.Popen([sys.executable, "-c",
                                   "import os, subprocess, sys; os.setsid(); "
                                   "p = subprocess.Popen(['sleep', '3600']); "
                                   "print(p.pid, flush=True)"], stdout=subprocess.PIPE)
        note_pid(int(helper.stdout.readline()))
        helper.wait()
        time.sleep(3600)
