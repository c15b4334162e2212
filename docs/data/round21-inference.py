"""How much the network's opponent model knows: at each decision of seat 0, the
likelihood of the opponent's observed decisions in the true deal against 20
deals of the unseen cards drawn at random (the rank of the true one).  Seat 0 greedy, seat 1 expectimax-v1,
seeds from 600,000.  Usage: python round21-inference.py GAMES T1,T2,..."""
import random, sys, math
from gostop_core import Game
from gostop_core.bots import make_bot
from gostop_core.bots.learned import LearnedBot
from gostop_core.bots.neural import _playout
from gostop_core.neural.network import shipped_weights
from gostop_core.neural.playout import NeuralOpponentModel
from gostop_core.notation import parse_view
from gostop_core.rules import Rules

temps = [float(t) for t in sys.argv[2].split(",")] if len(sys.argv) > 2 else [1.0, 2.0, 4.0]
games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
playout = _playout(str(shipped_weights(Rules("casual"), 2)))
models = {t: NeuralOpponentModel(playout, t) for t in temps}
rng = random.Random(1)
ranks = {t: [] for t in temps}
for g in range(games):
    game = Game("casual", 2, seed=600000 + g)
    bots = [make_bot("greedy", seed=1), make_bot("expectimax-v1", seed=2)]
    holder = type("H", (), {})()
    holder._seen = []
    while game.outcome() is None:
        seat = game.to_move
        legal = list(game.legal_moves)
        view = game.view(seat)
        move = bots[seat].choose(view, legal)
        if seat == 1:
            holder._seen.append((game.view(0).to_str(), move.code))
        elif holder._seen and len(legal) > 1:
            rules, fields = parse_view(view.to_str())
            obs = LearnedBot._observations(holder, fields)
            if obs:
                true_opp = parse_view(game.view(1).to_str())[1]["hand"]
                n = bin(true_opp).count("1")
                unseen = ~(fields["hand"] | fields["field"] | sum(fields["captured"])) & ((1 << 48) - 1)
                # the pool: every card seat 0 cannot see (opponent's hand + stock)
                pool = [c for c in range(50) if unseen >> c & 1 and (c < 48)]
                for t, model in models.items():
                    model.set_observations(rules, obs)
                    wt = model.weight(rules, fields, {1: true_opp})
                    others = []
                    for _ in range(20):
                        cards = rng.sample(pool, n)
                        others.append(model.weight(rules, fields, {1: sum(1 << c for c in cards)}))
                    ranks[t].append(sum(o < wt for o in others) + 0.5 * sum(o == wt for o in others))
        game.push(move)
for t in temps:
    r = ranks[t]
    print(f"T={t}: decisions {len(r)}, mean rank of the true deal among 20 random {sum(r)/len(r):.2f} (10 = no information)")
