"""A gostop bot in a few lines (docs/bots.md): take the most cards, and Stop
as soon as it may."""
from gostop_core.bots import Bot, visible_capture


class CaptureBot(Bot):
    name = "capture"

    def __init__(self, seed=None):
        self.hands = self.wins = 0

    def start_hand(self, view):
        self.hands += 1

    def choose(self, view, legal):
        return max(legal, key=lambda m: (m.kind == "stop", len(visible_capture(view, m))))

    def end_hand(self, view, outcome):
        if outcome.winner == view.seat:
            self.wins += 1
