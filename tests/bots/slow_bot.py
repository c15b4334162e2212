"""A bot that takes its time (tests/test_web.py: the web table stays live while a
bot thinks)."""

import time

from gostop_core.bots import Bot


class SlowBot(Bot):
    name = "slow"

    def choose(self, view, legal):
        time.sleep(1.5)
        return legal[0]
