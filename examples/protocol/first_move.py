#!/usr/bin/env python3
"""A gostop bot program speaking protocol version 2 (docs/protocol.md): it
plays the first legal move, answers isready, and refuses what it cannot do."""
import json
import sys


def send(message):
    print(json.dumps(message), flush=True)


for line in sys.stdin:
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        continue  # not a message: ignore it
    if not isinstance(message, dict):
        continue
    kind, id = message.get("type"), message.get("id")
    if kind == "hello":
        send({"type": "ready", "name": "first-move", "protocol": "gostop-bot/2", "options": []})
    elif kind == "isready":
        send({"type": "readyok", "id": id})
    elif kind == "request":
        send({"type": "move", "id": id, "move": message["legal"][0]})
    elif kind == "quit":
        break
    elif id is not None and kind not in ("newhand", "end", "stop"):
        send({"type": "error", "id": id, "message": f"first-move cannot do {kind}"})
