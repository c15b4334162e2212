"""Where a bot's lost games are lost: did it reach the Stop threshold in them?

Plays BOT against greedy bots in every seat rotation of DEALS duplicate deals
(from --seed) and counts, over the games BOT lost, those in which its score never
reached the threshold (the game was lost before any Go/Stop of its own) and those
in which it did.  docs/strength.md uses it for the 3-player casual losses.

    python scripts/threshold_losses.py --players 3 --deals 40 --seed 1000000 expectimax-v1
"""
from __future__ import annotations

import argparse
import json

from gostop_core import Game
from gostop_core.bots import make_bot


def threshold_losses(bot: str, players: int, deals: int, seed: int, rules: str = "casual") -> dict:
    stats = {"games": 0, "won": 0, "lost": 0, "drawn": 0,
             "lost_never_reached": 0, "lost_after_reaching": 0}
    for d in range(deals):
        deal = seed + d
        for seat in range(players):
            game = Game(rules, players, seed=deal)
            bots = [make_bot("greedy", seed=deal) for _ in range(players)]
            bots[seat] = make_bot(bot, seed=deal)
            reached = False
            for s, b in enumerate(bots):  # the hooks play_game calls
                b.start_hand(game.view(s))
            while not game.is_over():
                turn = game.turn
                game.push(bots[turn].choose(game.view(turn), list(game.legal_moves)))
                reached = reached or game.score(seat).total >= game.threshold()
            outcome = game.outcome()
            for s, b in enumerate(bots):
                b.end_hand(game.view(s), outcome)
            stats["games"] += 1
            if outcome.winner is None:
                stats["drawn"] += 1
            elif outcome.winner == seat:
                stats["won"] += 1
            else:
                stats["lost"] += 1
                stats["lost_after_reaching" if reached else "lost_never_reached"] += 1
    return stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bot", help="the bot to examine, e.g. expectimax-v1")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1_000_000)
    ap.add_argument("--rules", default="casual")
    args = ap.parse_args()
    print(json.dumps(threshold_losses(args.bot, args.players, args.deals, args.seed, args.rules)))


if __name__ == "__main__":
    main()
