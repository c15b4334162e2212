"""A greedy bot that writes every hook call it gets, one JSON line each, to the
file named by GOSTOP_HOOK_LOG (tests/test_hand_driver.py: every loop that plays
bots gives them the same hooks)."""

import json
import os

from gostop_core.bots import GreedyBot


def _log(*entry):
    path = os.environ.get("GOSTOP_HOOK_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry) + "\n")


class HookRecorder(GreedyBot):
    name = "recorder"

    def start_hand(self, view):
        _log("start", view.seat)

    def choose(self, view, legal):
        move = super().choose(view, legal)
        _log("choose", view.seat, str(move))
        return move

    def observe(self, view, move):
        _log("observe", view.seat, str(move))

    def end_hand(self, view, outcome):
        _log("end", view.seat)
