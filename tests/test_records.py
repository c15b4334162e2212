"""Game records (docs/records.md): round trips, every kind of bad record, matches,
the arena's records and the seed rule of ``gostop play``.

The fixtures in ``tests/records/`` are written by ``tests/records/make_records.py``:
three whole hands played by the greedy bot, and one file per kind of fault."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from gostop_core import Game, Match, Record, RecordError, Rules, read_records, write_records
from gostop_core.arena import run_arena
from gostop_core.records import (
    SKIP, Decision, MatchRecord, RecordVisitor, Seat, game_from_record, match_records,
    record_from_game, replay,
)

HERE = Path(__file__).resolve().parent / "records"
PRESETS = ("casual", "traditional", "standard", "family")
CONFIGS = [(p, n) for p in PRESETS for n in Rules(p).allowed_players()]


class Positions(RecordVisitor):
    """Collects the position string at the start and after every decision."""

    def __init__(self) -> None:
        self.positions: list[str] = []

    def begin_game(self, game):
        self.positions.append(game.position())

    def visit_decision(self, game, index, decision, events):
        self.positions.append(game.position())

    def result(self):
        return self.positions


def played(preset: str, players: int, seed: int, move_seed: int, stop_after: int | None,
           dealer: int = 0) -> tuple[Game, list[str]]:
    """A game of random legal moves (cut after ``stop_after`` decisions, if given)
    and its positions at every step."""
    g = Game(preset, players, seed=seed, dealer=dealer)
    rng = random.Random(move_seed)
    positions = [g.position()]
    while not g.is_over() and (stop_after is None or len(g.move_stack) < stop_after):
        g.push(rng.choice(list(g.legal_moves)))
        positions.append(g.position())
    return g, positions


# ---------------------------------------------------------------- round trips
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2 ** 64 - 1),
       move_seed=st.integers(0, 2 ** 32), dealer=st.integers(0, 3),
       stop_after=st.none() | st.integers(0, 40), keep_seed=st.booleans())
def test_round_trip_same_position_at_every_step(config, seed, move_seed, dealer, stop_after,
                                                keep_seed):
    preset, players = config
    game, positions = played(preset, players, seed, move_seed, stop_after, dealer % players)
    rec = record_from_game(game, [f"p{i}" for i in range(players)])
    if not keep_seed:  # the start position alone replays the hand
        rec = Record.from_dict({**rec.to_dict(), "seed": None})
    text = rec.to_json(pretty=bool(move_seed % 2))
    back = read_records(text)
    assert back == [rec]
    assert replay(back[0], Positions()) == positions
    again = game_from_record(back[0])
    assert again.position() == game.position()
    assert again.outcome() == game.outcome()
    assert [str(m) for m in again.move_stack] == [str(m) for m in game.move_stack]
    assert record_from_game(again, rec.seats, date=rec.date).to_dict()["decisions"] == \
        rec.to_dict()["decisions"]


def test_a_record_holds_what_docs_records_md_lists():
    game, _ = played("standard", 3, 11, 4, None)
    rec = record_from_game(game, [Seat("Ann"), Seat("Bot 1", "greedy"), ("Bot 2", "expectimax:depth=2")],
                         date="2026-01-01T00:00:00Z")
    data = json.loads(rec.to_json())
    assert data["format"] == "gostop-record/1"
    assert data["rules"] == "standard" and data["players"] == 3 and data["dealer"] == 0
    assert data["seed"] == 11 and data["start"] == Game("standard", 3, seed=11).position()
    assert data["seats"] == [{"name": "Ann"}, {"name": "Bot 1", "bot": "greedy"},
                             {"name": "Bot 2", "bot": "expectimax:depth=2"}]
    assert [(d["seat"], d["move"]) for d in data["decisions"]] == [
        (d.seat, d.move) for d in rec.decisions]
    outcome = game.outcome()
    assert data["outcome"]["winner"] == outcome.winner
    assert data["outcome"]["chips"] == list(outcome.chips)
    assert data["outcome"]["report"] == outcome.report(["Ann", "Bot 1", "Bot 2"])
    assert data["engine"].startswith("gostop ") and data["date"] == "2026-01-01T00:00:00Z"


def test_unknown_keys_survive_a_round_trip():
    rec = record_from_game(Game("casual", 2, seed=3))
    data = {**rec.to_dict(), "event": "club night", "round": 4}
    back = Record.from_dict(data)
    assert back.meta == {"event": "club night", "round": 4}
    assert json.loads(back.to_json()) == data


def test_from_position_game_records_without_seed():
    g = Game("casual", 2, seed=5)
    for _ in range(4):
        g.push(next(iter(g.legal_moves)))
    mid = Game.from_position(g.position())
    mid.push(next(iter(mid.legal_moves)))
    rec = record_from_game(mid)
    assert rec.seed is None and rec.start == g.position()
    assert game_from_record(rec).position() == mid.position()


def test_visitor_skip_stops_the_replay():
    game, positions = played("casual", 2, 9, 9, None)

    class UpTo(Positions):
        def visit_decision(self, game, index, decision, events):
            super().visit_decision(game, index, decision, events)
            return SKIP if index == 2 else None

    assert replay(record_from_game(game), UpTo()) == positions[:4]


# ---------------------------------------------------------------- bad records
@pytest.mark.parametrize("name, kind, index", [
    ("bad-truncated.jsonl", "json", None),
    ("bad-unknown-format.jsonl", "format", None),
    ("bad-illegal-move.jsonl", "illegal", 2),
    ("bad-wrong-seat.jsonl", "wrong_seat", 3),
    ("bad-position.jsonl", "position", None),
    ("bad-outcome.jsonl", "outcome_mismatch", None),
])
def test_every_kind_of_bad_record(name, kind, index):
    with open(HERE / name, encoding="utf-8") as fh:
        with pytest.raises(RecordError) as info:
            read_records(fh, verify=True)
    err = info.value
    assert (err.kind, err.line, err.index) == (kind, 1, index)
    assert isinstance(err, ValueError)
    assert str(err).startswith("line 1: ")
    assert "\n" not in str(err)
    if index is not None:
        good = read_records((HERE / "good.jsonl").read_text())[0]
        bad = json.loads((HERE / name).read_text())
        assert err.move == bad["decisions"][index]["move"]
        # nothing after the bad decision was played: the same record up to it replays
        assert good.decisions[:index] == tuple(
            Decision(d["seat"], d["move"]) for d in bad["decisions"][:index])


def test_bad_records_are_found_only_by_replaying_when_asked():
    text = (HERE / "bad-illegal-move.jsonl").read_text()
    (rec,) = read_records(text)  # it is well-formed
    with pytest.raises(RecordError) as info:
        game_from_record(rec)
    assert info.value.kind == "illegal" and info.value.line == 1


def test_lenient_reading_returns_every_error_in_its_place():
    entries = read_records((HERE / "mixed.jsonl").read_text(), strict=False, verify=True)
    kinds = [e.kind if isinstance(e, RecordError) else "ok" for e in entries]
    assert kinds == ["ok", "json", "ok", "illegal", "ok"]
    assert [e.line for e in entries] == [1, 2, 3, 4, 5]
    with pytest.raises(RecordError) as info:
        read_records((HERE / "mixed.jsonl").read_text(), verify=True)
    assert info.value.line == 2


def test_the_good_fixtures_replay_to_their_outcomes():
    recs = read_records((HERE / "good.jsonl").read_text(), verify=True)
    assert [(r.rules, r.players) for r in recs] == [("casual", 2), ("standard", 3),
                                                     ("family", 4)]
    for r in recs:
        assert game_from_record(r).outcome().winner == r.outcome["winner"]


@pytest.mark.parametrize("edit, kind", [
    (lambda d: d.pop("start"), "format"),
    (lambda d: d.update(players=5), "format"),
    (lambda d: d.update(players=True), "format"),
    (lambda d: d.update(dealer=2), "format"),
    (lambda d: d.update(seed=-1), "format"),
    (lambda d: d.update(decisions=[{"seat": "0", "move": "3B"}]), "format"),
    (lambda d: d.update(seats=[{"name": "a"}]), "format"),
    (lambda d: d.update(rules="casual+nonsense=1"), "format"),
    (lambda d: d.update(start="gostop/1 rules=casual"), "position"),
    (lambda d: d.update(players=3), "position"),
    (lambda d: d.update(seed=8), "position"),
    (lambda d: d.update(outcome={"winner": 1}), "outcome_mismatch"),
    (lambda d: d.update(decisions=d["decisions"][:-1]), "outcome_mismatch"),
    (lambda d: d.update(outcome=None), "outcome_mismatch"),
    (lambda d: d["decisions"].append({"seat": 0, "move": "go"}), "illegal"),
    (lambda d: d["decisions"].__setitem__(0, {"seat": 0, "move": "bomb13"}), "illegal"),
])
def test_field_faults(edit, kind):
    data = json.loads((HERE / "good.jsonl").read_text().splitlines()[0])
    if kind == "position" and data.get("players") == 2:
        data.pop("seats")
    edit(data)
    with pytest.raises(RecordError) as info:
        game_from_record(data)
    assert info.value.kind == kind, str(info.value)


@settings(max_examples=150, deadline=None)
@given(cut=st.integers(0, 2000), pos=st.integers(0, 2000), char=st.characters())
def test_mangled_records_raise_only_record_error(cut, pos, char):
    """Fuzzing the reader: a record cut short or with one character changed either
    reads (and replays) or raises RecordError, never anything else."""
    line = (HERE / "good.jsonl").read_text().splitlines()[1]
    for text in (line[:cut], line[:pos] + char + line[pos + 1:]):
        try:
            read_records(text, verify=True)
        except RecordError:
            pass


# ---------------------------------------------------------------- files and matches
def test_json_lines_write_and_read(tmp_path):
    recs = read_records((HERE / "good.jsonl").read_text())
    path = tmp_path / "out.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        assert write_records(fh, recs) == 3
    assert read_records(path.read_text()) == recs
    pretty = recs[1].to_json(pretty=True)
    assert "\n" in pretty and read_records(pretty) == [recs[1]]


@pytest.mark.parametrize("preset, players", [("traditional", 2), ("standard", 3),
                                             ("casual", 4), ("family", 3)])
def test_a_match_is_its_records_and_ledger(preset, players):
    match = Match(preset, players, seed=21)
    rng = random.Random(1)
    match.play(6, lambda g: rng.choice(list(g.legal_moves)))
    recs = match_records(match)
    assert [r.match["hand"] for r in recs] == [1, 2, 3, 4, 5, 6]
    text = "".join(r.to_json() + "\n" for r in recs)
    m = MatchRecord.from_records(read_records(text, verify=True))
    assert m.ledger == tuple(match.ledger) and m.seed == 21
    bad = [Record.from_dict({**r.to_dict(), "match": {**r.match, "ledger": [0] * players}})
           if r.match["hand"] == 4 and any(r.match["ledger"]) else r for r in recs]
    if bad != recs:
        with pytest.raises(RecordError) as info:
            MatchRecord.from_records(bad)
        assert info.value.kind == "outcome_mismatch"


def test_arena_records_replay_to_their_outcomes():
    """The arena's records: every game, in deal and rotation order, replays to
    the outcome the arena booked."""
    result = run_arena(["greedy", "random"], deals=6, players=2, workers=1, game_records=True)
    recs = [r.record for r in result.records]
    assert len(recs) == 12 and all(r is not None for r in recs)
    text = "".join(r.to_json() + "\n" for r in recs)
    for game_rec, rec in zip(result.records, read_records(text, verify=True)):
        game = game_from_record(rec)
        winner = game.outcome().winner
        assert (None if winner is None else game_rec.seats[winner]) == game_rec.winner
        assert rec.meta["arena"] == {"seed": 0, "deal": game_rec.deal,
                                     "rotation": game_rec.rotation}
        assert [s.bot for s in rec.seats] == [["greedy", "random"][e] for e in game_rec.seats]


# ---------------------------------------------------------------- the seed rule
@pytest.mark.parametrize("preset, players, dealer", [("casual", 2, 0), ("traditional", 3, 1),
                                                     ("standard", 2, 1), ("family", 4, 2)])
def test_first_hand_of_a_match_is_the_deal_of_its_seed(preset, players, dealer):
    """``gostop play --seed S`` starts with the deal of ``gostop deal --seed S``
    (same rules, players and dealer); later hands follow from the match seed."""
    for seed in (0, 7, 2 ** 64 - 1):
        match = Match(preset, players, seed, dealer=dealer)
        first = match.new_hand()
        assert first.position() == Game(preset, players, seed=seed, dealer=dealer).position()
        rng = random.Random(seed)
        while not first.is_over():
            first.push(rng.choice(list(first.legal_moves)))
        second = match.new_hand()
        assert second.seed != seed
        again = Match(preset, players, seed, dealer=dealer)
        again.record(_finish(again.new_hand(), seed))
        assert again.new_hand().position() == second.position()


def _finish(game: Game, seed: int) -> Game:
    rng = random.Random(seed)
    while not game.is_over():
        game.push(rng.choice(list(game.legal_moves)))
    return game
