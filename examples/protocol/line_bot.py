#!/usr/bin/env python3
"""A complete gostop bot program (docs/protocol.md): it plays the first legal move."""
import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "first-move"}), flush=True)
    elif message["type"] == "request":
        print(message["legal"][0], flush=True)
    elif message["type"] == "quit":
        break
