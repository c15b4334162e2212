"""Differential tests: the compiled core against the independent pure-Python
reference engine (:mod:`gostop_core.testing.reference`), played in lockstep.

At every step both engines must agree on the state (``to_fields`` dicts equal),
on the legal moves (as strings), on the events of the move (same kinds, players,
cards and order: the two engines emit them in the same order, so the lists are
compared as they are), and at the end on the outcome and the chips; in the
Go/Stop phase they must also agree on what a Stop would be worth.  A hypothesis
state machine pushes and pops at random on both; perft counts agree from deals
and from positions in the middle of a hand.  Last, a few hand-made scenarios test
the reference alone, each naming the seed or matrix line it plays.

The default run plays about 3,400 whole games; ``-m slow`` adds 10,000 more.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine, initialize, invariant, precondition, rule,
)

from conftest import check_seed_quotes, matrix_text
from gostop_core import CardSet, Game, Rules, preset_names
from gostop_core.cards import CARD_CODES
from gostop_core.testing.reference import (
    ReferenceGameError, ReferenceGame, Seat, SplitMix64, State, go_value, month_of, score_pile,
)

PRESET_PLAYERS = [(p, n) for p in preset_names() for n in Rules(p).allowed_players()]
GAMES_PER_CASE = 250            # default run, per (preset, players)
SLOW_GAMES = 10_000             # -m slow, spread over every case and option
MAX_DECISIONS = 400

# Documented options off the presets, each played for a few games (rules.md rows).
OPTIONS = [
    ("casual", {"threshold_2p": 3, "threshold_3p": 2}, (2, 3, 4)),
    ("casual", {"chongtong": 1, "four_on_field_redeal": 1}, (2, 3, 4)),
    ("casual", {"bomb_flip_only_optional": 1, "shaking": 1}, (2, 3)),
    ("casual", {"capture_at_play": 0, "ppeok": 1, "jjok_steal": 1, "ttadak_steal": 1}, (2, 3)),
    ("casual", {"showdown": 1}, (2, 3, 4)),
    ("casual", {"payment": 1, "gwang_bak": 1, "pi_bak_threshold": 6,
                "pi_bak_threshold_2p": 7, "go_bak": 1, "go_bak_pays_third": 1}, (2, 3, 4)),
    ("traditional", {"gwang_bak": 2, "first_turn_capture_chips": 3}, (2, 3)),
    ("traditional", {"bonus_cards": 1, "bonus_in_hand": 2, "bonus_to_dealer": 1,
                     "bonus_x2_effect": 1, "bonus_x3_effect": 2}, (2, 3)),
    ("traditional", {"bonus_cards": 1, "bonus_in_hand": 1, "bonus_to_dealer": 0}, (2, 3)),
    ("traditional", {"sake_cup_junk": 2, "godori": 3, "bright4_rain": 3, "go_scheme": 3}, (2, 3)),
    ("traditional", {"gwangpalli": 1, "allow_4p": 1, "gwangpalli_chips": 2}, (4,)),
    ("traditional", {"sseul_steal": 0, "last_turn_no_steal": 0, "three_ppeok_chips": 3}, (2, 3)),
    ("standard", {"gwangpalli": 1, "allow_4p": 1, "showdown": 1}, (4,)),
    ("standard", {"flipped_bonus": 0, "ppeok_keeps_bonus": 0}, (2, 3)),
    ("standard", {"bonus_x2_effect": 1, "bonus_x3_effect": 1, "threshold_2p": 4}, (2, 3)),
    ("standard", {"bonus_x2_effect": 2, "bonus_x3_effect": 2, "gwang_bak": 2}, (2, 3)),
    ("standard", {"bomb_flip_only_optional": 0, "bomb_counts_as_shake": 1}, (2, 3)),
    ("standard", {"ppeok": 2, "bonus_in_hand": 1, "bridge_junk": 0, "rain_ribbon_counts": 1}, (2, 3)),
    ("standard", {"bright5": 50, "chongtong_chips": 5, "go_scheme": 0}, (2, 3)),
    ("standard", {"threshold_2p": 3, "go_scheme": 1, "mong_bak_animals": 6}, (2, 3)),
    ("family", {"hand_4p": 7, "field_4p": 6}, (4,)),
    # (family balances refuse four_on_field_redeal=0: four dealt to the field would stay
    # unwon; the stack rules without the redeal are played by traditional below)
    ("family", {"ppeok": 1, "jjok_steal": 1}, (2, 3, 4)),
    ("traditional", {"four_on_field_redeal": 0}, (2, 3)),
]
OPTION_CASES = [(preset, over, n) for preset, over, counts in OPTIONS for n in counts]
GAMES_PER_OPTION_CASE = 20


# ---------------------------------------------------------------- lockstep helpers
def event_tuple(e) -> tuple:
    return (e.kind, e.player, e.card, e.other, tuple(CardSet(e.cards).codes()))


def core_moves(game: Game) -> list[str]:
    return [str(m) for m in game.legal_moves]


def assert_same_state(core: Game, ref: ReferenceGame, where: str) -> None:
    a, b = core._core.to_fields(), ref.to_fields()
    if a != b:
        diff = {k: (a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)}
        raise AssertionError(f"{where}: state differs (core, reference): {diff}")


def assert_same_moves(core: Game, ref: ReferenceGame, where: str) -> list[str]:
    a, b = core_moves(core), ref.legal_moves()
    assert len(a) == len(set(a)) and len(b) == len(set(b)), f"{where}: a move listed twice"
    assert sorted(a) == sorted(b), f"{where}: legal moves differ: core {a}, reference {b}"
    return sorted(a)


def assert_same_outcome(core: Game, ref: ReferenceGame, where: str) -> None:
    o, r = core.outcome(), ref.outcome()
    assert o is not None and r is not None, f"{where}: one engine's hand is not over"
    got = (o.winner, o.points, tuple(o.chips), o.reason, tuple(o.scores), tuple(o.go_counts))
    want = (r.winner, r.points, r.chips, r.reason, r.scores, r.go_counts)
    assert got == want, f"{where}: outcome differs: core {got}, reference {want}"


def assert_same_stop_value(core: Game, ref: ReferenceGame, where: str) -> None:
    sv = core.stop_value()
    assert sv is not None
    rv = ref.settlement(core.turn)
    got = (sv["base"], sv["score"], list(sv["pay"]))
    want = (rv["base"], rv["score"], rv["pay"])
    assert got == want, f"{where}: stop value differs: core {got}, reference {want}"


def choose(rng: random.Random, moves: list[str], go_bias: float | None) -> str:
    if go_bias is not None and moves == ["go", "stop"]:
        return "go" if rng.random() < go_bias else "stop"
    return rng.choice(moves)


def play_lockstep(rules: Rules, players: int, seed: int, *, dealer: int = 0, stake: int = 0,
                  move_seed: int | None = None, go_bias: float | None = None) -> int:
    """Play one whole hand in both engines with random decisions; every step is
    compared.  Returns the number of decisions."""
    core = Game(rules, players, seed, dealer, stake)
    ref = ReferenceGame(rules, players, seed, dealer, stake)
    tag = f"{rules.preset} {players}p seed={seed} dealer={dealer} stake={stake}"
    assert_same_state(core, ref, f"{tag} deal")
    assert [event_tuple(e) for e in core.deal_events()] == list(ref.deal_events), \
        f"{tag}: deal events differ"
    rng = random.Random(seed if move_seed is None else move_seed)
    history: list[str] = []
    while not core.is_over():
        where = f"{tag} after {history}"
        assert not ref.is_over(), f"{where}: the reference ended the hand"
        assert len(history) < MAX_DECISIONS, f"{where}: the hand does not end"
        moves = assert_same_moves(core, ref, where)
        if core.phase == "gostop":
            assert_same_stop_value(core, ref, where)
        move = choose(rng, moves, go_bias)
        core_events = [event_tuple(e) for e in core.push(move)]
        ref_events = list(ref.push(move))
        assert core_events == ref_events, \
            f"{where} {move}: events differ:\ncore {core_events}\nref  {ref_events}"
        history.append(move)
        assert_same_state(core, ref, f"{tag} after {history}")
    assert ref.is_over() and ref.legal_moves() == []
    assert_same_outcome(core, ref, f"{tag} after {history}")
    return len(history)


# ---------------------------------------------------------------- whole games
@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_lockstep_random_games(preset, players):
    rules = Rules(preset)
    decisions = 0
    for seed in range(GAMES_PER_CASE):
        # a varied dealer and nagari stake; every other game leans to Go for longer hands
        dealer = seed % players
        stake = (seed // players) % 3
        go_bias = 0.85 if seed % 2 else None
        decisions += play_lockstep(rules, players, 1_000 * players + seed, dealer=dealer,
                                   stake=stake, go_bias=go_bias)
    assert decisions > GAMES_PER_CASE * 5


@pytest.mark.parametrize("preset,overrides,players", OPTION_CASES,
                         ids=[f"{p}-{','.join(f'{k}={v}' for k, v in o.items())}-{n}p"
                              for p, o, n in OPTION_CASES])
def test_lockstep_rule_options(preset, overrides, players):
    rules = Rules(preset, **overrides)
    for seed in range(GAMES_PER_OPTION_CASE):
        play_lockstep(rules, players, 77 + seed, dealer=seed % players, stake=seed % 2,
                      go_bias=0.8 if seed % 3 == 0 else None)


def test_lockstep_deals_over_many_seeds():
    """Deals only (cheap): shuffle, redeals, bonus top-ups, chongtong and the
    gwangpalli payment agree over many seeds, big ones included."""
    rng = random.Random(5)
    for preset, players in PRESET_PLAYERS:
        rules = Rules(preset)
        for _ in range(150):
            seed = rng.randrange(2 ** 64)
            dealer = rng.randrange(players)
            core = Game(rules, players, seed, dealer)
            ref = ReferenceGame(rules, players, seed, dealer)
            assert_same_state(core, ref, f"{preset} {players}p seed={seed}")
            assert [event_tuple(e) for e in core.deal_events()] == list(ref.deal_events)


def test_reference_builds_from_core_fields_mid_game():
    """``from_fields`` takes the core's dict at any point and gives it back, and
    play continues identically from there."""
    for preset, players in PRESET_PLAYERS:
        rules = Rules(preset)
        for seed in range(4):
            core = Game(rules, players, 300 + seed)
            rng = random.Random(seed)
            while not core.is_over():
                fields = core._core.to_fields()
                ref = ReferenceGame.from_fields(rules, fields)
                assert ref.to_fields() == fields
                assert sorted(ref.legal_moves()) == sorted(core_moves(core))
                move = rng.choice(core_moves(core))
                assert [event_tuple(e) for e in core.push(move)] == list(ref.push(move))
                assert_same_state(core, ref, f"{preset} {players}p seed {seed} {move}")


@pytest.mark.slow
def test_lockstep_ten_thousand_games():
    cases = [(Rules(p), n) for p, n in PRESET_PLAYERS]
    cases += [(Rules(p, **o), n) for p, o, n in OPTION_CASES]
    for i in range(SLOW_GAMES):
        rules, players = cases[i % len(cases)]
        play_lockstep(rules, players, 10_000_000 + i, dealer=i % players, stake=i % 3,
                      go_bias=(0.9, None, 0.6)[i % 3])


# ---------------------------------------------------------------- push and pop at random
CASES = [(p, {}, n) for p, n in PRESET_PLAYERS] + [
    ("standard", {"gwangpalli": 1, "allow_4p": 1, "showdown": 1}, 4),
    ("traditional", {"bonus_cards": 1, "bonus_in_hand": 2, "bonus_x2_effect": 1}, 3),
    ("casual", {"showdown": 1, "threshold_2p": 3}, 2),
]


class LockstepMachine(RuleBasedStateMachine):
    """Random pushes and take-backs on both engines; they must never drift apart."""

    @initialize(case=st.sampled_from(CASES), seed=st.integers(0, 2 ** 64 - 1),
                dealer=st.integers(0, 3), stake=st.integers(0, 2))
    def deal(self, case, seed, dealer, stake):
        preset, overrides, players = case
        self.rules = Rules(preset, **overrides)
        dealer %= players
        self.core = Game(self.rules, players, seed, dealer, stake)
        self.ref = ReferenceGame(self.rules, players, seed, dealer, stake)
        self.pushed: list[str] = []

    @precondition(lambda self: not self.core.is_over())
    @rule(data=st.data())
    def push(self, data):
        moves = assert_same_moves(self.core, self.ref, f"after {self.pushed}")
        move = data.draw(st.sampled_from(moves))
        assert [event_tuple(e) for e in self.core.push(move)] == list(self.ref.push(move))
        self.pushed.append(move)

    @precondition(lambda self: bool(self.pushed))
    @rule()
    def pop(self):
        assert str(self.core.pop()) == self.ref.pop() == self.pushed.pop()

    @precondition(lambda self: self.core.is_over())
    @rule()
    def outcomes_agree(self):
        assert_same_outcome(self.core, self.ref, f"after {self.pushed}")
        with pytest.raises(ReferenceGameError):
            self.ref.push("go")

    @invariant()
    def same_state(self):
        assert_same_state(self.core, self.ref, f"after {self.pushed}")
        assert sorted(core_moves(self.core)) == sorted(self.ref.legal_moves())
        rebuilt = ReferenceGame.from_fields(self.rules, self.core._core.to_fields())
        assert rebuilt.to_fields() == self.ref.to_fields()


LockstepMachine.TestCase.settings = settings(
    max_examples=60, stateful_step_count=60, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
test_lockstep_push_pop_machine = LockstepMachine.TestCase


# ---------------------------------------------------------------- perft
@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_perft_agrees_from_the_deal(preset, players):
    rules = Rules(preset)
    for seed, depth in ((1, 4), (2, 3), (3, 3)):
        core = Game(rules, players, seed)
        ref = ReferenceGame(rules, players, seed)
        for d in range(1, depth + 1):
            assert ref.perft(d) == core.perft(d), f"{preset} {players}p seed {seed} depth {d}"


@pytest.mark.parametrize("preset,players", PRESET_PLAYERS)
def test_perft_agrees_mid_hand(preset, players):
    """Perft from positions some decisions into the hand (flip choices, Go/Stop,
    waiting pairs...), bulk and non-bulk, and divide move by move."""
    rules = Rules(preset)
    for seed in range(3):
        core = Game(rules, players, 50 + seed)
        rng = random.Random(seed)
        for _ in range(4 + 3 * seed):
            if core.is_over():
                break
            core.push(rng.choice(core_moves(core)))
        ref = ReferenceGame.from_fields(rules, core._core.to_fields())
        for d in (1, 2, 3):
            assert ref.perft(d) == core.perft(d)
        assert ref.perft(2, bulk=False) == core.perft(2, bulk=False)
        assert ref.divide(2) == {str(m): n for m, n in core.divide(2).items()}


# ---------------------------------------------------------------- the reference alone
def scenario(rules="casual", players=2, *, field="", hands=None, piles=None, stock="",
             to_move=0, dealer=0, first_turn=False, go=None, lastgo=None, fill="stock"):
    """A reference game with the named cards placed (codes separated by spaces);
    every other card of the pack goes to the bottom of the stock (``fill="stock"``)
    or into a seat's pile (``fill="pile1"``)."""
    rules = Rules(rules) if isinstance(rules, str) else rules
    hands = [h.split() for h in (hands or [""] * players)]
    piles = [p.split() for p in (piles or [""] * players)]
    field_cards, stock_cards = field.split(), stock.split()
    placed = field_cards + stock_cards + sum(hands, []) + sum(piles, [])
    assert len(placed) == len(set(placed)), "a card is placed twice"
    pack = CARD_CODES[:50 if rules.bonus_cards else 48]
    rest = [c for c in pack if c not in placed]
    if fill == "stock":
        stock_cards += rest
    else:
        piles[int(fill[4:])] += rest
    g = ReferenceGame(rules, players, 0)
    g.s = State(nplayers=players, dealer=dealer, to_move=to_move, field=set(field_cards),
                stock=stock_cards,
                seats=[Seat(hand=set(hands[p]), pile=set(piles[p]),
                            go_count=(go or [0] * players)[p],
                            last_go_score=(lastgo or [0] * players)[p],
                            turns_played=0 if first_turn else 1) for p in range(players)])
    return g


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def test_scenario_capture_at_play():
    """Seed 000: "If it matches the month of a card already on the field, you capture
    both." The pair is taken at the play, before the flip."""
    g = scenario(field="3R 5A", hands=["3B 9R", "10A"], stock="12A")
    events = g.push("3B")
    assert kinds(events)[:3] == ["played", "captured", "flipped"]
    assert {"3B", "3R"} <= g.s.seats[0].pile and g.s.field == {"5A", "12A"}


def test_scenario_choose_among_two():
    """Seed 000: "If the field holds more than one card of that month, you choose
    which one to take." """
    g = scenario(field="3R 3J1 5A", hands=["3B 9R", "10A"], stock="12A")
    assert sorted(g.legal_moves()) == ["3B/3J1", "3B/3R", "9R"]
    g.push("3B/3J1")
    assert {"3B", "3J1"} <= g.s.seats[0].pile and "3R" in g.s.field


def test_scenario_bonus_in_hand_is_free():
    """Seed 000: "Playing one banks it straight into your junk pile, you draw a
    replacement from the stock, and you still play a card that turn" """
    g = scenario(hands=["X2 1B", "2A"], stock="7J1 8J1")
    events = g.push("X2")
    assert kinds(events) == ["bonus", "drawn"]
    assert "X2" in g.s.seats[0].pile and g.s.seats[0].hand == {"1B", "7J1"}
    assert g.s.to_move == 0 and g.s.phase == "play"


def test_scenario_bonus_in_hand_with_empty_stock():
    """Seed 000: "If the stock is empty there is nothing to draw, so the banking is
    the turn." """
    g = scenario(hands=["X3 1B", "2A"], stock="", fill="pile1")
    events = g.push("X3")
    assert kinds(events) == ["bonus", "turn_end"] and g.s.to_move == 1


def test_scenario_flipped_bonus_banks_and_flips_again():
    """Seed 000: "A bonus card turned up from the stock during your flip banks the
    same way, and another is turned up behind it." """
    g = scenario(field="9R", hands=["1B", "2A"], stock="X2 9J1")
    events = g.push("1B")
    assert kinds(events)[:5] == ["played", "flipped", "bonus", "flipped", "captured"]
    assert {"X2", "9R", "9J1"} <= g.s.seats[0].pile


def test_scenario_bomb_and_forced_flip_only_turns():
    """Seed 000: "play all three at once, take all four cards, and take one junk card
    from every opponent." Then "your next two turns only flip the deck" """
    g = scenario(field="7J2", hands=["7A 7R 7J1 1B", "2A 3B 4A"],
                 piles=["", "1J1 11D"], stock="12A 10J1 11J1 6J1 5J1")
    events = g.push("bomb7")
    assert kinds(events)[:3] == ["bomb", "captured", "stolen"]
    assert {"7A", "7R", "7J1", "7J2", "1J1"} <= g.s.seats[0].pile
    assert g.s.seats[0].flip_only == 2
    events = g.push(g.legal_moves()[0])        # the opponent plays
    assert "flip_only" in kinds(events)         # the bomber's turn is a forced flip
    assert g.s.seats[0].hand == {"1B"} and g.s.to_move == 1 and g.s.seats[0].flip_only == 1


def test_scenario_go_value_casual():
    """Seed 000: "Each Go adds +1 point to your eventual score, and from the fourth
    Go onward your whole total doubles." """
    assert [go_value(7, gos, 0) for gos in range(6)] == [7, 8, 9, 10, 22, 48]


def test_scenario_asked_again_only_when_the_score_rose():
    """Seed 000: "You are only asked again once your score has actually gone up since
    your last Go." """
    rules = Rules("casual", threshold_2p=3)
    piles = ["1B 3B 8B 2A 4A", "1J1"]       # 3 brights + 2 birds: 3 points
    g = scenario(rules, 2, field="5J1", hands=["6J1 9J1", "6J2 10J1"], piles=piles,
                 stock="11J1 12A 5J2", go=[1, 0], lastgo=[3, 0])
    g.push("6J1")                     # no capture: score stays 3, no question
    assert g.s.phase == "play" and g.s.to_move == 1
    g = scenario(rules, 2, field="8A", hands=["8J1 9J1", "6J2 10J1"], piles=piles,
                 stock="11J1 12A 5J2", go=[1, 0], lastgo=[3, 0])
    g.push("8J1")                     # 8A completes godori: the score rises
    assert g.s.phase == "gostop" and g.legal_moves() == ["go", "stop"]


def test_scenario_ppeok_leaves_a_stack_and_pays_on_the_first_turn():
    """Matrix: "all three stay as a stack" and a first-turn ppeok: "each opponent pays
    3 chips" (traditional)."""
    g = scenario("traditional", 3, field="3R 5A", hands=["3B 9R", "10A", "11J1"],
                 stock="3J1 12A", first_turn=True)
    events = g.push("3B")
    assert "ppeok" in kinds(events)
    assert {"3B", "3R", "3J1"} <= g.s.field and g.s.seats[0].ppeoks == 1
    assert [s.chips for s in g.s.seats] == [6, -3, -3]


def test_scenario_flipped_bonus_stays_with_a_ppeok_stack():
    """Matrix: "stack; a flipped bonus stays with it" (standard); the fourth card then
    takes the stack with the bonus card."""
    g = scenario("standard", 2, field="3R", hands=["3B 1B", "3J2 2A"],
                 stock="X3 3J1 12A 10J1")
    g.push("3B")
    assert {"3B", "3R", "3J1", "X3"} <= g.s.field and g.s.stack_bonus == {"X3": 3}
    events = g.push("3J2")
    stack = [e for e in events if e.kind == "stack"]
    assert stack and set(stack[0].cards) == {"3B", "3R", "3J1", "3J2", "X3"}


def test_scenario_ttadak_takes_all_four_and_steals():
    """Matrix: "all four + steal" (standard ttadak: played onto two, the flip is the
    fourth)."""
    g = scenario("standard", 2, field="3R 3J1", hands=["3B 1B", "2A 4A"],
                 piles=["", "1J1 11D"], stock="3J2 12A")
    events = g.push("3B/3R")
    assert kinds(events).count("ttadak") == 1
    assert {"3B", "3R", "3J1", "3J2", "1J1"} <= g.s.seats[0].pile


def test_scenario_steal_gives_the_least_valuable_junk():
    """Matrix: "the opponent gives its least valuable junk (a single junk; if none, a
    double junk; bonus cards last)" """
    for piles, gives in (
            (["", "12D 11D 3J1", "X3 X2", "9A"], {1: "3J1", 2: "X2"}),   # 9A alone: nothing
            (["", "12D 11D", "X3", "2J2 1J2"], {1: "11D", 2: "X3", 3: "1J2"})):
        g = scenario("casual", 4, field="7J2", hands=["7A 7R 7J1 1B", "2A", "4A", "6A"],
                     piles=piles, stock="12A 10J1")
        g.push("bomb7")
        assert {e.other: e.card for e in g.events_log if e.kind == "stolen"} == gives


def test_scenario_last_turn_steals_nothing_but_a_stack_still_does():
    """Matrix: "sseul/ttadak/chok steal nothing; stack capture still steals" """
    g = scenario("traditional", 2, field="3R 3J1", hands=["3B", ""], stock="3J2",
                 fill="pile1")
    events = g.push("3B/3R")
    assert "ttadak" in kinds(events) and "stolen" not in kinds(events)
    g = scenario("traditional", 2, field="4A 4R 4J1", hands=["4J2", ""], stock="9J1",
                 fill="pile1")
    events = g.push("4J2")
    assert "stack" in kinds(events) and "stolen" in kinds(events)


def test_scenario_worked_payment_check():
    """Matrix: "an opponent with 4 junk pays 7 x 2 (mong-bak) x 2 (pi-bak) = 28." """
    winner = "2A 4A 5A 6A 7A 10A 12A 1J1 1J2 2J1 2J2 3J1 3J2 4J1 4J2 5J1 5J2 6J1"
    g = scenario("traditional", 2, piles=[winner, "7J1 7J2 8J1 8J2"], go=[2, 0],
                 fill="stock")
    st_ = g.settlement(0)
    assert (st_["score"], st_["base"], st_["pay"]) == (5, 7, [0, 28])


def test_scenario_chongtong_wins_at_once():
    """Matrix: "that player wins at once (5 chips from each)" (traditional)."""
    for seed in range(2000):
        g = ReferenceGame("traditional", 3, seed)
        if g.s.end_reason == "chongtong" and g.s.winner is not None:
            break
    else:  # pragma: no cover
        pytest.fail("no chongtong deal in 2000 seeds")
    w = g.s.winner
    holders = [e.player for e in g.deal_events if e.kind == "chongtong"]
    assert g.is_over() and g.legal_moves() == [] and w == holders[0]
    assert g.s.seats[w].chips == 5 * (3 - len(holders))


def test_scenario_four_on_the_field_redeals():
    """Matrix: "void deal, same dealer redeals" """
    for seed in range(3000):
        g = ReferenceGame("traditional", 2, seed, dealer=1)
        if any(e.kind == "redeal" for e in g.deal_events):
            break
    else:  # pragma: no cover
        pytest.fail("no redeal in 3000 seeds")
    assert g.s.dealer == 1 and g.s.to_move == 1
    for month in range(1, 13):
        assert sum(1 for c in g.s.field if month_of(c) == month) < 4


def test_scenario_bonus_dealt_to_the_field_goes_to_the_dealer():
    """Seed 000: "A bonus card dealt face-up to the field could never be captured, so
    it is given to the dealer and the field is topped up" """
    for seed in range(500):
        g = ReferenceGame("casual", 2, seed, dealer=1)
        if g.deal_events:
            break
    else:  # pragma: no cover
        pytest.fail("no bonus card dealt to the field in 500 seeds")
    assert g.deal_events[0].kind == "dealt_bonus" and g.deal_events[0].player == 1
    assert g.deal_events[0].card in g.s.seats[1].pile
    assert len(g.s.field) == 8 and not g.s.field & {"X2", "X3"}


def test_scenario_family_balances_sum_to_zero():
    """Matrix: "Balance = own total + bonuses received - bonuses paid - target;
    balances sum to zero." """
    for players in (2, 3, 4):
        for seed in range(10):
            g = ReferenceGame("family", players, seed)
            rng = random.Random(seed)
            while not g.is_over():
                g.push(rng.choice(g.legal_moves()))
            assert sum(s.chips for s in g.s.seats) == 0
            assert g.s.end_reason == "family"


def test_scenario_quotes_are_verbatim():
    """Matrix: "The seed text is the authority" — every scenario above names its seed
    or matrix line, quoted word for word."""
    scenarios = {k: v for k, v in globals().items() if k.startswith("test_scenario_")}
    # without ../shared (the seeds and the matrix) the quotes cannot be checked
    assert check_seed_quotes(scenarios, need_seed=False) >= len(scenarios) - 1 \
        or matrix_text() is None


# ---------------------------------------------------------------- small reference checks
def test_splitmix64_first_output_for_seed_zero():
    # the published first output of splitmix64 from state 0
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


@given(st.integers(1, 60), st.integers(0, 2 ** 64 - 1))
@settings(max_examples=50, deadline=None)
def test_bounded_draws_are_in_range(bound, seed):
    rng = SplitMix64(seed)
    assert all(0 <= rng.below(bound) < bound for _ in range(20))


def test_reference_scores_agree_with_the_core_scorer():
    from gostop_core import score
    rng = random.Random(3)
    for preset in preset_names():
        rules = Rules(preset)
        pack = list(CARD_CODES[:50 if rules.bonus_cards else 48])
        for _ in range(300):
            pile = rng.sample(pack, rng.randint(0, 30))
            assert score_pile(pile, rules) == score(pile, rules).total, (preset, sorted(pile))


def test_reference_rejects_illegal_moves_and_empty_history():
    g = ReferenceGame("casual", 2, 1)
    with pytest.raises(ReferenceGameError):
        g.push("stop")
    with pytest.raises(ReferenceGameError):
        g.pop()
    with pytest.raises(ReferenceGameError):
        ReferenceGame("traditional", 4, 1)
