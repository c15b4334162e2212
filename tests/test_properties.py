"""Engine invariants over thousands of seeded random games (2, 3 and 4 players),
perft consistency, and a hypothesis state machine that pushes and pops at random.

The default run plays about 3,000 whole games; ``-m slow`` adds a bigger sweep.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine, initialize, invariant, precondition, rule,
)

from conftest import assert_cards_conserved, random_game
from gostop_core import (
    CardSet, Game, GameOverError, IllegalMoveError, Move, Rules,
)
from gostop_core.cards import CARD_CODES

PLAYERS = (2, 3, 4)
GAMES_PER_COUNT = 1500          # whole games per player count in the main sweep
SLOW_GAMES_PER_COUNT = 20_000
MAX_DECISIONS = 400             # far above any real hand: the game must end before


def _fast_conserved(core, pack):
    """Card conservation straight from the C state (used in the big sweeps)."""
    f = core.to_fields()
    seen = f["field"]
    total = bin(f["field"]).count("1")
    for m in f["hands"] + f["captured"]:
        assert seen & m == 0
        seen |= m
        total += bin(m).count("1")
    for c in f["stock"]:
        assert not seen >> c & 1
        seen |= 1 << c
        total += 1
    if f["flip_card"] is not None:
        assert not seen >> f["flip_card"] & 1
        seen |= 1 << f["flip_card"]
        total += 1
    assert seen == pack and total == bin(pack).count("1")
    return f


def _hand_total(f):
    return sum(bin(h).count("1") for h in f["hands"])


def go_value(score, gos):
    """Seed 000: "Each Go adds +1 point to your eventual score, and from the fourth Go
    onward your whole total doubles." """
    points = score + gos
    for go in range(1, gos + 1):
        if go >= 4:
            points *= 2
    return points


def _sweep(players, seeds, rules="casual"):
    """Play whole random games, checking after every move: card conservation, the
    legal-move / game-over equivalence, perft(1), the hand-card bookkeeping, and
    that the hand ends.  Returns the number of games and decisions."""
    decisions = 0
    r = Rules(rules)
    pack = (1 << (50 if r.bonus_cards else 48)) - 1
    outcomes = {"stop": 0, "last_turn_stop": 0, "draw": 0}
    threshold = r.threshold(players)
    seen = {}  # move kinds and event kinds met: the sweep must reach every rule
    for seed in seeds:
        g = Game(rules=r, players=players, seed=seed, dealer=seed % players)
        core = g._core
        rng = random.Random(seed * 7919 + players)
        f = _fast_conserved(core, pack)
        n = 0
        while True:
            legal = core.legal_moves()
            over = g.is_over()
            assert bool(legal) != over
            assert core.perft(1) == len(legal) == g.legal_moves.count()
            if over:
                break
            move = rng.choice(legal)
            kind = Move.from_code(move).kind
            seen[kind] = seen.get(kind, 0) + 1
            stock_before = len(f["stock"])
            hand_before = _hand_total(f)
            own_before = bin(f["hands"][f["to_move"]]).count("1")
            mover = f["to_move"]
            g.push(move)
            f = _fast_conserved(core, pack)
            expected_drop = {"play": 1, "bomb": 3, "bonus": 0 if stock_before else 1}.get(kind, 0)
            assert hand_before - _hand_total(f) == expected_drop, (seed, kind)
            # only the mover's hand changes, and only by its own move
            assert own_before - bin(f["hands"][mover]).count("1") == expected_drop
            n += 1
            assert n < MAX_DECISIONS, f"seed {seed}: the hand does not end"
            if g.phase == "gostop":
                # asked only at the threshold, and after a Go only once the score rose
                p = f["to_move"]
                sc = core.score(p)
                assert sc >= threshold
                assert f["go_counts"][p] == 0 or sc > f["last_go_scores"][p]
        out = g.outcome()
        outcomes[out.reason] += 1
        assert (out.winner is None) == (out.reason == "draw")
        if out.winner is not None:
            gos = out.go_counts[out.winner]
            seen["max_winner_goes"] = max(seen.get("max_winner_goes", 0), gos)
            assert out.points == go_value(out.scores[out.winner], gos)
            assert out.scores[out.winner] >= threshold
        for e in g.events():
            seen[e.kind] = seen.get(e.kind, 0) + 1
        decisions += n
    return len(seeds), decisions, outcomes, seen


# What a sweep of random games must have met, so that the invariants above were
# checked through every rule of the turn.
MUST_SEE = {"play", "flip", "bonus", "bomb", "go", "stop", "dealt_bonus", "flip_only",
            "stolen", "drawn", "bonus"}


@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_keep_every_invariant(players):
    games, decisions, outcomes, seen = _sweep(players, range(GAMES_PER_COUNT))
    assert games == GAMES_PER_COUNT and decisions > games * 10
    # random play reaches every kind of ending and every rule of the turn
    assert all(outcomes.values()), outcomes
    assert MUST_SEE <= set(seen), MUST_SEE - set(seen)


def test_random_games_with_a_low_threshold():
    """A threshold of 2 makes Go/Stop decisions frequent (many Goes, the doubling from
    the fourth Go), through the same invariants."""
    rules = Rules("casual", threshold_2p=2, threshold_3p=2, threshold_4p=2)
    most_goes = 0
    for players in PLAYERS:
        games, _, outcomes, seen = _sweep(players, range(400), rules=rules)
        assert seen.get("go", 0) > 400 and outcomes["stop"] > 100
        most_goes = max(most_goes, seen.get("max_winner_goes", 0))
    assert most_goes >= 4  # some winner's total was doubled


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_keep_every_invariant_big(players):
    games, _, outcomes, seen = _sweep(players, range(10_000, 10_000 + SLOW_GAMES_PER_COUNT))
    assert games == SLOW_GAMES_PER_COUNT
    assert all(outcomes.values()) and MUST_SEE <= set(seen)


def test_random_games_full_api_conservation():
    """The same card bookkeeping through the public API (hands, field, piles, stock
    and the pending flip card) on fewer games."""
    for players in PLAYERS:
        for seed in range(40):
            random_game(players, seed, check=assert_cards_conserved)


def _walk(players, seed, move_seed):
    """Positions, events and moves of one random game."""
    g = Game(players=players, seed=seed)
    rng = random.Random(move_seed)
    positions = [g.position()]
    moves = []
    while not g.is_over():
        m = rng.choice(list(g.legal_moves))
        g.push(m)
        moves.append(str(m))
        positions.append(g.position())
    return positions, [e.as_dict() for e in g.events()], moves, g


@pytest.mark.parametrize("players", PLAYERS)
def test_push_then_pop_restores_the_exact_state(players):
    for seed in range(120):
        g = Game(players=players, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            before = g.position()
            snapshot = g.copy()
            events_before = len(g.events())
            # try every legal move and take it back
            for m in list(g.legal_moves):
                g.push(m)
                assert g.pop() == m
                assert g.position() == before
                assert g == snapshot
                assert len(g.events()) == events_before
            g.push(rng.choice(list(g.legal_moves)))
        # unwind the whole game to the deal
        end = g.position()
        stack = g.move_stack
        while g.move_stack:
            g.pop()
        assert g.position() == Game(players=players, seed=seed).position()
        for m in stack:
            g.push(m)
        assert g.position() == end


@pytest.mark.parametrize("players", PLAYERS)
def test_replay_is_deterministic(players):
    for seed in range(60):
        a = _walk(players, seed, seed + 1)
        b = _walk(players, seed, seed + 1)
        assert a[0] == b[0] and a[1] == b[1] and a[2] == b[2]
        # replaying the recorded move strings on a fresh deal gives the same game
        g = Game(players=players, seed=seed)
        positions = [g.position()]
        for text in a[2]:
            g.push(text)
            positions.append(g.position())
        assert positions == a[0]
        assert g.outcome() == a[3].outcome()


ALL_MOVE_STRINGS = (
    [c for c in CARD_CODES]
    + [f"{c}/{t}" for c in CARD_CODES[:48] for t in CARD_CODES[:48]
       if c != t and c.rstrip("0123456789")[:-1] == t.rstrip("0123456789")[:-1]]
    + [f"bomb{m}" for m in range(1, 13)]
    + [f"flip/{c}" for c in CARD_CODES[:48]]
    + ["go", "stop"]
)


@pytest.mark.parametrize("players", PLAYERS)
def test_illegal_moves_raise_and_change_nothing(players):
    all_moves = [Move.from_str(s) for s in ALL_MOVE_STRINGS]
    tried = 0
    for seed in range(25):
        g = Game(players=players, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            legal = set(g.legal_moves)
            before = g.position()
            illegal = [m for m in all_moves if m not in legal]
            for m in rng.sample(illegal, 12):
                with pytest.raises(IllegalMoveError):
                    g.push(m)
                assert g.position() == before
                assert m not in g.legal_moves
                tried += 1
            # the legal ones are exactly those the generator lists
            assert {m for m in all_moves if m in g.legal_moves} == legal
            g.push(rng.choice(sorted(legal, key=str)))
        before = g.position()
        with pytest.raises(GameOverError):
            g.push(rng.choice(all_moves))
        assert g.position() == before
    assert tried > 1000


@pytest.mark.parametrize("players", PLAYERS)
def test_perft_bulk_equals_plain_and_divide_sums(players):
    for seed in range(12):
        g = Game(players=players, seed=seed)
        rng = random.Random(seed)
        # sample positions along a random game (flip and gostop phases included)
        step = 0
        while not g.is_over():
            if step % 5 == 0 or g.phase != "play":
                core = g._core
                for depth in (1, 2, 3):
                    bulk = core.perft(depth, True)
                    plain = core.perft(depth, False)
                    assert bulk == plain
                    div = core.divide(depth)
                    assert sum(n for _, n in div) == bulk
                    assert [m for m, _ in div] == core.legal_moves()
                # perft(2) is the sum over the children of their perft(1)
                total = 0
                for m in list(g.legal_moves):
                    g.push(m)
                    total += g._core.perft(1)
                    g.pop()
                assert total == core.perft(2)
                assert core.perft(0) == 1
            g.push(rng.choice(list(g.legal_moves)))
            step += 1
        assert g._core.perft(1) == 0 and g._core.perft(3) == 0


def test_perft_rejects_negative_depth():
    g = Game(seed=1)
    with pytest.raises(ValueError):
        g._core.perft(-1)
    with pytest.raises(ValueError):
        g._core.divide(0)


def test_random_playouts_account_for_every_game():
    for players in PLAYERS:
        g = Game(players=players, seed=3)
        wins, draws = g._core.random_playouts(300, seed=9)
        assert len(wins) == players and sum(wins) + draws == 300
        assert g.position() == Game(players=players, seed=3).position()  # untouched


# ------------------------------------------------------------------ the deal is deterministic

@pytest.mark.parametrize("players", PLAYERS)
def test_deal_is_a_pure_function_of_its_inputs(players):
    seen = set()
    for seed in range(100):
        for dealer in range(players):
            a = Game(players=players, seed=seed, dealer=dealer)
            b = Game(rules=Rules("casual"), players=players, seed=seed, dealer=dealer)
            assert a.position() == b.position() and a == b
            assert a.deal_events() == b.deal_events()
            assert a.turn == dealer
            seen.add(a.position())
    # every (seed, dealer) gives its own position
    assert len(seen) == 100 * players
    # the seed only decides the order of the pack: hands and field differ by seed
    layouts = {(str(Game(players=players, seed=s).hand(0)), str(Game(players=players, seed=s).field))
               for s in range(100)}
    assert len(layouts) == 100


def test_deal_is_the_same_in_another_process():
    script = ("from gostop_core import Game\n"
              "for n in (2, 3, 4):\n"
              "    for s in (0, 1, 12345, 2**63 + 5):\n"
              "        print(Game(players=n, seed=s, dealer=n - 1).position())\n")
    expected = "".join(Game(players=n, seed=s, dealer=n - 1).position() + "\n"
                       for n in (2, 3, 4) for s in (0, 1, 12345, 2 ** 63 + 5))
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, check=True).stdout
    assert out == expected


def test_rules_outside_the_deal_do_not_change_the_deal():
    for seed in range(20):
        a = Game(players=2, seed=seed)
        b = Game(rules=Rules("casual", threshold_2p=5, godori=3), players=2, seed=seed)
        assert a.field == b.field and a.hand(0) == b.hand(0) and a.stock() == b.stock()
        assert a.rules != b.rules and a.position() != b.position()


def test_seed_range_is_checked():
    with pytest.raises(ValueError):
        Game(seed=-1)
    with pytest.raises(ValueError):
        Game(seed=2 ** 64)
    Game(seed=2 ** 64 - 1)


# ------------------------------------------------------------------ a hypothesis state machine

class PushPopMachine(RuleBasedStateMachine):
    """Random legal pushes and random pops; a stack of saved position strings must
    always match the game's own history."""

    def __init__(self):
        super().__init__()
        self.game = None
        self.saved = []

    @initialize(players=st.sampled_from(PLAYERS), seed=st.integers(0, 2 ** 32),
                dealer=st.integers(0, 3))
    def deal(self, players, seed, dealer):
        self.game = Game(players=players, seed=seed, dealer=dealer % players)
        self.start = self.game.position()
        self.saved = []

    @precondition(lambda self: self.game is not None and not self.game.is_over())
    @rule(data=st.data())
    def push_legal(self, data):
        legal = list(self.game.legal_moves)
        m = data.draw(st.sampled_from(legal))
        self.saved.append(self.game.position())
        events = self.game.push(m)
        assert self.game.peek() == m
        assert events and all(e.turn >= 0 for e in events)

    @precondition(lambda self: self.game is not None and not self.game.is_over())
    @rule(data=st.data())
    def push_illegal(self, data):
        legal = set(map(str, self.game.legal_moves))
        text = data.draw(st.sampled_from(ALL_MOVE_STRINGS).filter(lambda s: s not in legal))
        before = self.game.position()
        with pytest.raises(IllegalMoveError):
            self.game.push(text)
        assert self.game.position() == before

    @precondition(lambda self: self.game is not None and self.saved)
    @rule(k=st.integers(1, 6))
    def pop_some(self, k):
        for _ in range(min(k, len(self.saved))):
            self.game.pop()
            assert self.game.position() == self.saved.pop()

    @precondition(lambda self: self.game is not None)
    @rule()
    def round_trip_position(self):
        again = Game.from_position(self.game.position())
        assert again.position() == self.game.position()
        assert again == self.game

    @invariant()
    def conserved(self):
        if self.game is not None:
            assert_cards_conserved(self.game)

    @invariant()
    def history_matches(self):
        if self.game is not None:
            assert len(self.game.move_stack) == len(self.saved)
            assert bool(list(self.game.legal_moves)) != self.game.is_over()
            if not self.saved:
                assert self.game.position() == self.start


PushPopMachine.TestCase.settings = settings(
    max_examples=60, stateful_step_count=60, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
test_push_pop_state_machine = PushPopMachine.TestCase
