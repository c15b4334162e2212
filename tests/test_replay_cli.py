"""``gostop replay`` and ``gostop analyse`` on records from ``gostop play --save``,
``gostop arena --records`` and the API, and on every kind of bad record; the
seed rule of ``gostop play`` (its first hand is the deal of ``gostop deal``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gostop_core import Game, PlayerView, read_records
from gostop_core.records import RecordVisitor, game_from_record, replay
from gostop_core.bots.analysis import THRESHOLDS, mark_of
from gostop_cli.main import cli

HERE = Path(__file__).resolve().parent / "records"
GOOD = str(HERE / "good.jsonl")


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


class Positions(RecordVisitor):
    def __init__(self, seat=None):
        self.seat = seat
        self.out: list[str] = []

    def _take(self, game):
        self.out.append(game.position() if self.seat is None else game.view(self.seat).to_str())

    def begin_game(self, game):
        self._take(game)

    def visit_decision(self, game, index, decision, events):
        self._take(game)

    def result(self):
        return self.out


# ---------------------------------------------------------------- replay
@pytest.mark.parametrize("game, seat", [(1, None), (2, None), (3, 2), (2, 1)])
def test_position_at_every_step(game, seat):
    record = read_records(Path(GOOD).read_text())[game - 1]
    expected = replay(record, Positions(seat))
    for k in (0, 1, 5, len(record.decisions)):
        args = [GOOD, "--game", str(game), "--position-at", str(k)]
        if seat is not None:
            args += ["--seat", str(seat)]
        r = run("replay", *args)
        assert r.exit_code == 0, r.output
        assert r.output.strip() == expected[k]
    r = run("replay", GOOD, "--game", str(game), "--position-at", str(len(record.decisions) + 1))
    assert r.exit_code == 2 and "no position after" in r.output


def test_position_at_feeds_hint():
    r = run("replay", GOOD, "--position-at", "4")
    h = run("hint", r.output.strip(), "--samples", "4", "--json")
    assert h.exit_code == 0, h.output
    assert json.loads(h.output)["seat"] == Game.from_position(r.output.strip()).turn


def test_json_lists_every_decision_with_its_events():
    r = run("replay", GOOD, "--game", "2", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    record = read_records(Path(GOOD).read_text())[1]
    positions = replay(record, Positions())
    assert data["start"] == positions[0]
    assert [(d["seat"], d["move"]) for d in data["decisions"]] == [
        (d.seat, d.move) for d in record.decisions]
    assert [d["position"] for d in data["decisions"]] == positions[1:]
    assert all(d["events"] for d in data["decisions"])
    assert data["outcome"] == record.outcome


def test_json_with_a_seat_hides_the_others_cards():
    r = run("replay", GOOD, "--game", "2", "--json", "--seat", "1")
    data = json.loads(r.output)
    assert data["start"].startswith("gostop-view/1") and "view" in data["decisions"][0]
    for d in data["decisions"]:
        for ev in d["events"]:
            if ev["kind"] == "drawn" and ev["player"] != 1:
                assert ev["card"] is None


def test_stepping_on_the_board():
    r = run("replay", GOOD, "--game", "1", input="\n\nb\nx\nq\n")
    assert r.exit_code == 0, r.output
    out = r.output
    assert out.count("Decision 1 of 19") == 2  # forward, then back
    assert "Decision 2 of 19" in out
    assert "Enter: next decision" in out      # 'x' is no key
    assert "greedy 1's hand" in out           # every hand open


def test_stepping_to_the_end_shows_the_report():
    r = run("replay", GOOD, "--game", "1", "--seat", "0", input="\n" * 30)
    assert r.exit_code == 0
    assert "Hand over" in r.output and "End of the record" in r.output
    assert "greedy 1's hand" not in r.output  # one seat's view


@pytest.mark.parametrize("name, words", [
    ("bad-truncated.jsonl", "truncated JSON"),
    ("bad-unknown-format.jsonl", "unknown format"),
    ("bad-illegal-move.jsonl", "decision 3 (seat 1, 10R): illegal move"),
    ("bad-wrong-seat.jsonl", "seat 1 is to move, not seat 0"),
    ("bad-position.jsonl", "start position is for rules"),
    ("bad-outcome.jsonl", "stored outcome says points"),
])
@pytest.mark.parametrize("command", ["replay", "analyse"])
def test_bad_records_are_one_line_and_exit_2(command, name, words):
    r = run(command, str(HERE / name), "--position-at", "0") if command == "replay" \
        else run(command, str(HERE / name))
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "line 1: " in lines[0]
    assert words in lines[0] and "Traceback" not in r.output


def test_skip_bad_names_each_bad_line_and_replays_the_good_ones():
    mixed = str(HERE / "mixed.jsonl")
    r = run("replay", mixed, "--position-at", "0")
    assert r.exit_code == 2 and "line 2" in r.output and "--skip-bad" in r.output
    r = CliRunner().invoke(cli, ["replay", mixed, "--skip-bad", "--game", "3",
                                                 "--position-at", "0"])
    assert r.exit_code == 0
    assert [line.split(": ")[1] for line in r.stderr.splitlines()] == [
        "skipped line 2", "skipped line 4"]
    assert r.stdout.strip() == Game("standard", 3, seed=11).position()
    r = run("replay", mixed, "--skip-bad", "--game", "4", "--position-at", "0")
    assert r.exit_code == 2 and "game 4 is a bad record" in r.output
    r = run("replay", mixed, "--skip-bad", "--game", "9")
    assert r.exit_code == 2 and "holds 5 record(s)" in r.output


def test_missing_file_and_empty_file(tmp_path):
    r = run("replay", str(tmp_path / "nothing.jsonl"))
    assert r.exit_code == 2 and r.output.startswith("Error: ")
    (tmp_path / "empty.jsonl").write_text("\n")
    r = run("analyse", str(tmp_path / "empty.jsonl"))
    assert r.exit_code == 2 and "no record" in r.output


# ---------------------------------------------------------------- analyse
def test_analyse_json_values_and_marks():
    r = run("analyse", GOOD, "--game", "1", "--seat", "0", "--samples", "8", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    record = read_records(Path(GOOD).read_text())[0]
    assert data["decisions"]
    for d in data["decisions"]:
        assert set(d) >= {"index", "seat", "move", "best", "value_played", "value_best",
                          "loss"}
        assert d["seat"] == 0 and record.decisions[d["index"]].move == d["move"]
        assert d["loss"] == pytest.approx(max(0.0, d["value_best"] - d["value_played"]),
                                          abs=2e-3)
        assert d["mark"] == mark_of(d["loss"])
        if d["move"] == d["best"]:
            assert d["loss"] == 0
    assert data["total_loss"] == pytest.approx(sum(d["loss"] for d in data["decisions"]),
                                               abs=1e-2)
    assert data["thresholds"] == {name: at for name, at in THRESHOLDS}


def test_analyse_sees_only_the_deciding_seats_view(monkeypatch):
    from gostop_core.bots import ExpectimaxBot
    seen = []
    real = ExpectimaxBot.analyse

    def spy(self, view):
        seen.append(view)
        return real(self, view)

    monkeypatch.setattr(ExpectimaxBot, "analyse", spy)
    r = run("analyse", GOOD, "--game", "2", "--samples", "2", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert len(seen) == len(data["decisions"]) > 0
    for view, d in zip(seen, data["decisions"]):
        assert isinstance(view, PlayerView) and view.seat == d["seat"] == view.to_move


def test_analyse_text_names_thresholds_and_totals():
    r = run("analyse", GOOD, "--samples", "4")
    assert r.exit_code == 0, r.output
    assert "marks: inaccuracy >= 0.5, mistake >= 1.5, blunder >= 3.0" in r.output
    lines = [line for line in r.output.splitlines() if "total expected loss" in line]
    assert len(lines) == 2 + 3 + 4 + 1  # every seat of the 3 games, then all games


# ---------------------------------------------------------------- records from play and arena
@pytest.mark.parametrize("preset, players", [("casual", 4), ("traditional", 3),
                                             ("standard", 2), ("family", 3)])
def test_play_save_replays_and_first_hand_is_the_deal(tmp_path, preset, players):
    """The seed rule: the first hand of ``gostop play --seed S`` is the deal of
    ``gostop deal --seed S`` with the same rules, players and dealer."""
    path = str(tmp_path / "games.jsonl")
    r = run("play", "--auto", "--quiet", "--rules", preset, "--players", str(players),
            "--seed", "31", "--hands", "2", "--dealer", "1", "--bot", "greedy", "--save", path)
    assert r.exit_code == 0, r.output
    records = read_records(Path(path).read_text(), verify=True)
    assert [rec.match["hand"] for rec in records] == [1, 2]
    deal = run("deal", "--rules", preset, "--players", str(players), "--seed", "31",
               "--dealer", "1")
    assert records[0].start == deal.output.strip()
    assert records[0].seed == 31 and records[1].seed != 31
    assert [s.bot for s in records[0].seats] == ["greedy"] * players
    r = run("replay", path, "--game", "2", "--position-at", str(len(records[1].decisions)))
    assert r.exit_code == 0 and Game.from_position(r.output.strip()).is_over()
    r = run("analyse", path, "--game", "1", "--seat", "0", "--samples", "2", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["decisions"]


def test_play_save_keeps_appending(tmp_path):
    path = str(tmp_path / "games.jsonl")
    for seed in ("1", "2"):
        assert run("play", "--auto", "--quiet", "--seed", seed, "--bot", "greedy",
                   "--save", path).exit_code == 0
    assert [r.seed for r in read_records(Path(path).read_text(), verify=True)] == [1, 2]


def test_play_save_to_an_unwritable_place(tmp_path):
    r = run("play", "--auto", "--quiet", "--save", str(tmp_path / "no" / "such" / "f.jsonl"))
    assert r.exit_code == 2 and r.output.startswith("Error: cannot write")


def test_position_key_during_play():
    """'p' prints the seat's view string (gostop hint takes it); the full
    position string, which holds the hidden cards, only in practice."""
    game = Game("casual", 2, seed=3)
    r = run("play", "--seed", "3", "--dealer", "0", input="p\nq\n")
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert game.view(0).to_str() in lines
    assert game.position() not in r.output
    assert "p position" in r.output  # the legend lists the key
    r = run("play", "--seed", "3", "--dealer", "0", "--practice", input="p\nq\n")
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert game.view(0).to_str() in lines and game.position() in lines
    assert Game.from_position(game.position()) == game


def test_arena_records_replay_to_their_outcomes(tmp_path):
    """``gostop arena greedy random --records FILE``: every game replays through
    Game.from_record to the outcome the arena stored."""
    path = str(tmp_path / "r.jsonl")
    r = run("arena", "greedy", "random", "--deals", "5", "--workers", "1", "--records", path,
            "--json")
    assert r.exit_code == 0, r.output
    records = read_records(Path(path).read_text(), verify=True)
    assert len(records) == json.loads(r.output)["games"] == 10
    for rec in records:
        game = game_from_record(rec)
        assert game.outcome().winner == rec.outcome["winner"]
        assert list(game.outcome().chips) == rec.outcome["chips"]
    r = run("replay", path, "--game", "10", "--position-at", "3", "--seat", "1")
    assert r.exit_code == 0 and r.output.startswith("gostop-view/1")
