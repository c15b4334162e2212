"""Build the perft suites in this folder (a maintainer's tool, not a test).

    python tests/perft/make_suites.py           # count every entry on both engines
    python tests/perft/make_suites.py --reuse   # count only new or changed positions

Seeded deals for every preset and player count, and built positions for the tricky
cases, each found as the first position of a seeded random game that shows the case.
A depth is written only when the core and the pure-Python reference agree on it;
depths grow while the count stays under a node budget.  With ``--reuse`` an entry
whose id and position are already in the suite files keeps its counts when the core
still counts the same at every depth (those counts were agreed by both engines when
they were written); every other entry is counted on both engines.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from gostop_core import Game, Rules
from gostop_core.cards import card_month
from gostop_core.testing.perft_suite import _reference_game, load_suite

HERE = Path(__file__).resolve().parent
NODE_BUDGET = 200_000       # the reference counts about 10k nodes/s
MAX_DEPTH = 6

PRESETS = {
    "casual": Rules("casual"),
    "traditional": Rules("traditional"),
    "standard": Rules("standard"),
    "family": Rules("family"),
    "standard+gwangpalli": Rules("standard", allow_4p=1, gwangpalli=1),
    "standard+showdown": Rules("standard", showdown=1),
}


#: (id, position) -> counts of the suite files as they stand (filled by --reuse).
KNOWN: dict[tuple[str, str], list[tuple[int, int]]] = {}
REUSED = [0]


def load_known() -> None:
    for path in HERE.glob("*.perft"):
        for e in load_suite(path):
            KNOWN[(e.id, e.position)] = list(e.counts)


def counts_for(position: str, ident: str = "") -> list[tuple[int, int]]:
    game = Game.from_position(position)
    known = KNOWN.get((ident, position))
    if known and all(game.perft(d) == c for d, c in known):
        REUSED[0] += 1
        return known
    ref = _reference_game(position)
    out = []
    for depth in range(1, MAX_DEPTH + 1):
        core = game.perft(depth)
        if core > NODE_BUDGET and depth > 3:
            break
        theirs = ref.perft(depth)
        if theirs != core:
            sys.exit(f"engines disagree at depth {depth} on {position}: core {core}, reference {theirs}")
        out.append((depth, core))
        if core == 0:
            break
    return out


def entry(ident: str, position: str, comment: str = "") -> str:
    lines = [f"id {ident}"]
    if comment:
        lines.append(f"# {comment}")
    lines.append(f"position {position}")
    lines += [f"perft {d} {c}" for d, c in counts_for(position, ident)]
    return "\n".join(lines)


def deals() -> str:
    parts = ["# Seeded deals: every preset and player count (tests/perft/make_suites.py)."]
    for name, rules in PRESETS.items():
        players = (4,) if "gwangpalli" in name else rules.allowed_players()
        for n in players:
            for seed in (1, 2, 3):
                game = Game(rules, players=n, seed=seed)
                parts.append(entry(f"{name}-{n}p-seed{seed}", game.position(),
                                   f"gostop deal --rules {name.split('+')[0]} --players {n} --seed {seed}"))
    return "\n\n".join(parts) + "\n"


def _features(game: Game) -> set[str]:
    found = set()
    kinds = {m.kind for m in game.legal_moves}
    for kind in ("bomb", "bonus", "shake", "fliponly", "showdown"):
        if kind in kinds:
            found.add(kind)
    if game.phase in ("flip", "gostop", "showdown"):
        found.add(game.phase)
    stock = game.stock()
    if stock and stock[0] in ("X2", "X3"):
        found.add("bonus_on_stock")
    field_months = [card_month(c) for c in game.field.codes() if card_month(c)]
    if any(field_months.count(m) == 3 for m in set(field_months)):
        found.add("stack" if game.rules.field_stacks else "three_on_field")
    if stock and game.phase == "play" and not game.rules.capture_at_play and card_month(stock[0]):
        # a play that pairs with the only field card of the top stock card's month
        top = card_month(stock[0])
        if field_months.count(top) == 1 and any(
                m.kind == "play" and card_month(m.card) == top for m in game.legal_moves):
            found.add("ppeok_chance")
    if game.phase == "play" and sum(len(game.hand(p)) for p in range(game.players)) == 1:
        found.add("last_turn")
    return found


WANTED = ["bomb", "bonus", "bonus_on_stock", "shake", "fliponly", "flip", "gostop",
          "stack", "three_on_field", "ppeok_chance", "last_turn", "showdown"]


def tricky() -> str:
    parts = ["# Built positions for the tricky cases, each the first position of a seeded",
             "# random game that shows the case (tests/perft/make_suites.py)."]
    for name, rules in PRESETS.items():
        missing = set(WANTED)
        chongtong_done = not rules.chongtong
        players_list = (4,) if "gwangpalli" in name else rules.allowed_players()
        for seed in range(4000):
            if not missing:
                break
            n = players_list[seed % len(players_list)]
            game = Game(rules, players=n, seed=seed)
            rng = random.Random(seed)
            if game.is_over():
                if not chongtong_done:
                    parts.append(entry(f"{name}-chongtong-{n}p-seed{seed}", game.position(),
                                       "chongtong at the deal: the hand is over, nothing to count"))
                    chongtong_done = True
                continue
            while not game.is_over() and missing:
                hit = _features(game) & missing
                for feature in sorted(hit):
                    parts.append(entry(f"{name}-{feature}-{n}p-seed{seed}-ply{len(game.move_stack)}",
                                       game.position(), feature.replace("_", " ")))
                    missing.discard(feature)
                game.push(rng.choice(list(game.legal_moves)))
    return "\n\n".join(parts) + "\n"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reuse", action="store_true",
                        help="keep the counts of unchanged positions the core still agrees with")
    if parser.parse_args().reuse:
        load_known()
    start = time.time()
    (HERE / "deals.perft").write_text(deals(), encoding="utf-8")
    print(f"deals.perft written ({time.time() - start:.0f} s)")
    (HERE / "tricky.perft").write_text(tricky(), encoding="utf-8")
    print(f"tricky.perft written ({time.time() - start:.0f} s)")
    if KNOWN:
        print(f"{REUSED[0]} entries kept their counts; the others were counted on both engines")
