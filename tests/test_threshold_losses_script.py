"""scripts/threshold_losses.py: the loss analysis behind docs/strength.md's
3-player explanation."""

from __future__ import annotations

from conftest import load_script

from gostop_core import Game
from gostop_core.bots import make_bot, play_game

def load():
    return load_script("threshold_losses")


def test_counts_add_up_and_match_the_games_played():
    stats = load().threshold_losses("greedy", players=3, deals=2, seed=1_000_000)
    assert stats["games"] == 6
    assert stats["won"] + stats["lost"] + stats["drawn"] == 6
    assert stats["lost_never_reached"] + stats["lost_after_reaching"] == stats["lost"]
    # the same games by play_game: seat 0's wins agree
    wins = 0
    for d in range(2):
        for seat in range(3):
            game = Game("casual", 3, seed=1_000_000 + d)
            outcome = play_game(game, [make_bot("greedy", seed=1_000_000 + d) for _ in range(3)])
            wins += outcome.winner == seat
    assert stats["won"] == wins
