#!/usr/bin/env python3
"""A driver with no rules code (docs/protocol.md): it deals a hand with
`gostop deal`, and plays it to the end with `gostop engine`, asking the
engine whose turn it is, which moves are legal and how the hand ended
(`state`), and which move to play (`request`).  Nothing of gostop is imported.

    python3 driver.py --rules standard --players 3 --seed 5 [--gostop "gostop"]
"""
import argparse
import json
import shlex
import subprocess
import sys


class Engine:
    """One `gostop engine` process, spoken to in protocol version 2."""

    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.next_id = 0
        self.send({"type": "hello", "protocol": ["gostop-bot/2"]})
        ready = self.receive()
        if ready.get("protocol") != "gostop-bot/2" or "state" not in ready.get("features", []):
            sys.exit(f"the engine does not offer protocol 2 with the state message: {ready}")

    def send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def receive(self):
        line = self.proc.stdout.readline()
        if not line:
            sys.exit("the engine exited")
        return json.loads(line)

    def ask(self, message):
        """Send a message with a fresh id; its answer (an error ends the driver)."""
        self.next_id += 1
        self.send(dict(message, id=self.next_id))
        while True:
            reply = self.receive()
            if reply.get("id") != self.next_id:
                continue  # an info line of another id, say
            if reply["type"] == "error":
                sys.exit(f"the engine refused: {reply['message']}")
            return reply

    def close(self):
        self.send({"type": "quit"})
        self.proc.wait(timeout=10)


def play_hand(gostop, bot, rules, players, seed, time_ms):
    deal = subprocess.run(gostop + ["deal", "--rules", rules, "--players", str(players),
                                    "--seed", str(seed)],
                          capture_output=True, text=True, check=True)
    position = deal.stdout.strip()
    engine = Engine(gostop + ["engine", "--bot", bot])
    moves = []
    try:
        while True:
            state = engine.ask({"type": "state", "position": position, "moves": moves})
            if state["over"]:
                return moves, state["outcome"]
            # the engine answers for the seat to move, seeing only that seat's view
            reply = engine.ask({"type": "request", "position": position, "moves": moves,
                                "time_ms": time_ms})
            if reply["move"] not in state["legal"]:
                sys.exit(f"seat {state['to_move']} was answered {reply['move']}, which is not "
                         f"among {state['legal']}")
            moves.append(reply["move"])
    finally:
        engine.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="casual")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--time-ms", type=int, default=1000)
    parser.add_argument("--gostop", default="gostop", help="the command that runs gostop")
    args = parser.parse_args()
    moves, outcome = play_hand(shlex.split(args.gostop), args.bot, args.rules, args.players,
                               args.seed, args.time_ms)
    print(json.dumps({"moves": moves, "outcome": outcome}))


if __name__ == "__main__":
    main()
