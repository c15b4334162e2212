#!/usr/bin/env python3
"""A deliberately broken gostop bot program for the arena's forfeit tests.

usage: broken_bot.py MODE [MARKER]

MODE says how it misbehaves at its first request: crash, hang, garbage, flood
(10 MB on one line), flood-lines (10 MB of short info lines), illegal, noflush
(never flushes its answer), grandchild (starts a sleeping child, then hangs),
escape (starts a sleeping child in a session of its own, out of the bot's
process group, then hangs).
With MARKER (a file path), it misbehaves only when the file does not exist yet,
creating it: the restarted process then plays properly.  Its pid (and its
child's) are appended to $BOT_PID_FILE when that is set.
"""
import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]
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

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "quit":
        break
    if message["type"] != "request":
        continue
    legal = message["legal"]
    if mode == "fine":
        print(legal[0], flush=True)
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
    elif mode == "escape":
        child = subprocess.Popen(["sleep", "3600"], start_new_session=True)
        note_pid(child.pid)
        time.sleep(3600)
