"""A bot that thinks far longer than a table allows (tests/test_web_safety.py:
greedy plays for it, and the table goes on)."""

import threading

from gostop_core.bots import Bot

#: Set by the test when it is done, so that the worker thread ends.
RELEASE = threading.Event()


class StuckBot(Bot):
    name = "stuck"

    def choose(self, view, legal):
        RELEASE.wait(30)
        return legal[0]
