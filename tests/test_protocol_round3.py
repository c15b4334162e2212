"""Protocol round 3 (docs/protocol.md, issue 31): the state message and a
driver with no rules code, ids that mean one thing, answers in the order
read, bounded work, typed setoption, the client's message holding no server
state, and one error text style."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gostop_core.bots import ExpectimaxBot, GreedyBot
from gostop_core.bots.external import serve
from gostop_core.game import Game
from gostop_core.moves import Move
from gostop_core.protocol import server as engine_server
from gostop_core.protocol.positions import replay_view
from gostop_core.protocol.wire import MAX_ID

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "examples" / "protocol" / "driver.py"
GOSTOP = f"{sys.executable} -m gostop_cli.main"
HELLO = {"type": "hello", "protocol": ["gostop-bot/2"]}


def _serve(lines, bot=None):
    out: list[str] = []
    serve(bot or GreedyBot(), [json.dumps(x) if isinstance(x, dict) else x for x in lines],
          out.append)
    return [json.loads(x) for x in out]


# ---------------------------------------------------------------- the state message
def test_state_names_the_seat_to_move_its_legal_moves_and_the_view():
    game = Game("standard", 3, seed=4)
    start = game.position()
    moves = []
    for _ in range(5):
        move = list(game.legal_moves)[-1]
        moves.append(str(move))
        game.push(move)
    out = _serve([HELLO, {"type": "state", "id": 9, "position": start, "moves": moves,
                          "seat": 2}])
    state = out[1]
    assert state["type"] == "state" and state["id"] == 9
    assert state["to_move"] == game.turn and state["phase"] == game.phase
    assert state["legal"] == [str(m) for m in game.legal_moves]
    assert state["over"] is False and state["outcome"] is None
    assert state["view"] == game.view(2).to_str()


def test_state_at_the_end_of_a_hand_gives_its_outcome():
    game = Game("casual", 2, seed=2)
    start = game.position()
    moves = []
    while not game.is_over():
        move = list(game.legal_moves)[0]
        moves.append(str(move))
        game.push(move)
    outcome = game.outcome()
    state = _serve([HELLO, {"type": "state", "id": "end", "position": start,
                            "moves": moves}])[1]
    assert state["over"] is True and state["to_move"] is None and state["legal"] == []
    assert state["outcome"] == {"winner": outcome.winner, "points": outcome.points,
                                "scores": list(outcome.scores), "chips": list(outcome.chips),
                                "reason": outcome.reason}


def test_state_gives_the_stock_cards_a_seat_saw_so_a_view_driver_can_name_them():
    game = Game("standard", 2, seed=21)
    start_position = game.position()
    seat = game.turn
    start_view = game.view(seat).to_str()
    moves = ["11J1", "shake6", "9R"]  # seed 21: the other seat shakes
    state = _serve([HELLO, {"type": "state", "id": 1, "position": start_position,
                            "moves": moves, "seat": seat}])[1]
    for move in moves:
        game.push(Move.from_str(move))
    assert state["view"] == game.view(seat).to_str()
    # the view form accepts the same game once the stock cards are named
    out = _serve([HELLO, {"type": "request", "id": 2, "view": start_view, "moves": moves,
                          "stock": state["stock"]},
                  {"type": "state", "id": 3, "view": start_view, "moves": moves,
                   "stock": state["stock"]}])
    assert out[1]["type"] == "move" and out[1]["move"] in state["legal"]
    assert out[2]["view"] == state["view"] and out[2]["legal"] == state["legal"]


def test_a_view_names_only_its_own_seat_and_too_many_stock_cards_are_refused():
    game = Game("casual", 2, seed=1)
    seat = game.turn
    start = game.view(seat).to_str()
    out = _serve([HELLO, {"type": "state", "id": 1, "view": start, "seat": 1 - seat},
                  {"type": "request", "id": 2, "view": start, "moves": [],
                   "stock": ["1B"]}])
    assert out[1]["type"] == "error" and "only its own seat" in out[1]["message"]
    assert out[2]["type"] == "error" and "stock" in out[2]["message"]


def test_the_example_driver_of_the_docs_is_the_example_file():
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    block = text.split("<!-- driver: begin -->", 1)[1].split("<!-- driver: end -->", 1)[0]
    code = block.split("```python\n", 1)[1].rsplit("```", 1)[0]
    assert code == DRIVER.read_text(encoding="utf-8")
    assert "gostop" not in {line.split()[1] for line in code.splitlines()
                            if line.startswith(("import ", "from "))}


@pytest.mark.parametrize("preset, players", [("casual", 2), ("traditional", 3),
                                             ("standard", 2), ("family", 4)])
def test_the_example_driver_plays_whole_hands_with_no_rules_code(preset, players):
    for seed in (21, 5):
        out = subprocess.run([sys.executable, str(DRIVER), "--rules", preset, "--players",
                              str(players), "--seed", str(seed), "--gostop", GOSTOP,
                              "--time-ms", "200"],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr[-400:]
        result = json.loads(out.stdout)
        game = Game.from_position(subprocess.run(
            GOSTOP.split() + ["deal", "--rules", preset, "--players", str(players),
                              "--seed", str(seed)], capture_output=True, text=True,
            check=True).stdout.strip())
        for move in result["moves"]:
            game.push(Move.from_str(move))  # every move legal, in a real game
        assert game.is_over()
        assert result["outcome"]["winner"] == game.outcome().winner
        assert result["outcome"]["points"] == game.outcome().points


# ---------------------------------------------------------------- ids
@pytest.mark.parametrize("bad", [-1, 2 ** 53, 1.5, True, None, "", "x" * 65, [1]])
def test_a_malformed_id_gets_an_error_echoing_it(bad):
    game = Game("casual", 2, seed=7)
    out = _serve([HELLO, {"type": "request", "id": bad, "view": game.view(game.turn).to_str()}])
    assert out[1]["type"] == "error"
    echoed = bad if isinstance(bad, (int, float, bool)) or (
        isinstance(bad, str) and len(bad) <= 64) else None
    assert out[1]["id"] == echoed and "id" in out[1]["message"]


def test_ids_are_whole_numbers_or_strings_and_a_missing_one_is_an_error():
    game = Game("casual", 2, seed=7)
    view = game.view(game.turn).to_str()
    out = _serve([HELLO, {"type": "request", "view": view},
                  {"type": "request", "id": "8", "view": view},
                  {"type": "request", "id": MAX_ID, "view": view}])
    assert out[1]["type"] == "error" and out[1]["id"] is None
    assert "missing" in out[1]["message"]
    assert [(m["type"], m["id"]) for m in out[2:]] == [("move", "8"), ("move", MAX_ID)]


def test_a_repeated_id_in_flight_is_refused_and_answers_keep_the_order_read():
    game = Game("casual", 2, seed=3)
    view = game.view(game.turn).to_str()
    bot = ExpectimaxBot(0, samples=64)
    out = _serve([HELLO, {"type": "analyse", "id": 1, "view": view},
                  {"type": "analyse", "id": 1, "view": view},
                  "garbage", {"type": "request", "id": 2, "view": view}], bot)
    replies = [(m["type"], m.get("id")) for m in out[1:] if m["type"] != "info"]
    assert replies == [("analysis", 1), ("error", 1), ("error", None), ("move", 2)]


# ---------------------------------------------------------------- server state
def test_the_clients_message_holds_no_server_state():
    game = Game("casual", 2, seed=3)
    view = game.view(game.turn).to_str()
    bot = ExpectimaxBot(0, samples=64)
    out = _serve([HELLO, {"type": "request", "id": 1, "view": view, "_timer": 1,
                          "time_ms": 5000},
                  {"type": "analyse", "id": 2, "view": view},
                  {"type": "request", "id": 3, "view": view, "_fallback": "hacked",
                   "time_ms": 5}], bot)
    moves = {m["id"]: m for m in out if m["type"] in ("move", "analysis")}
    legal = {str(m) for m in game.legal_moves}
    assert moves[1]["move"] in legal and moves[3]["move"] in legal
    assert moves[2]["stopped"] != "stop"  # the short request did not stop the analysis


def test_both_view_and_position_is_an_error():
    game = Game("casual", 2, seed=3)
    out = _serve([HELLO, {"type": "request", "id": 1, "view": game.view(game.turn).to_str(),
                          "position": game.position()}])
    assert out[1]["type"] == "error" and "not both" in out[1]["message"]


# ---------------------------------------------------------------- bounded work
class _Gate:
    """A bot that waits for a gate before each answer (a slow search)."""

    def __init__(self):
        self.gate = threading.Event()

    def choose(self, view, legal):
        self.gate.wait(10)
        return legal[0]


def test_a_flood_is_refused_over_the_queue_with_no_thread_per_request():
    game = Game("casual", 2, seed=7)
    view = game.view(game.turn).to_str()
    bot = _Gate()
    out: list[str] = []
    threads_seen = []

    def lines():
        yield json.dumps(HELLO)
        for i in range(300):
            yield json.dumps({"type": "request", "id": i, "view": view, "time_ms": 60000})
        threads_seen.append(threading.active_count())
        yield json.dumps({"type": "isready", "id": "ping"})
        time.sleep(0.05)
        threads_seen.append([json.loads(x) for x in out][-1])
        bot.gate.set()
    engine_server.serve(bot, lines(), out.append, max_queue=8)
    replies = [json.loads(x) for x in out[1:]]
    assert threads_seen[0] <= threading.active_count() + 3  # worker and deadline keeper
    assert threads_seen[1] == {"type": "readyok", "id": "ping"}  # ahead of the queue
    answers = [m for m in replies if m["type"] != "readyok"]
    assert [m["id"] for m in answers] == list(range(300))  # in the order read
    busy = [m for m in answers if m["type"] == "error"]
    assert len(busy) >= 300 - 10 and all(m["message"].startswith("busy: ") for m in busy)


# ---------------------------------------------------------------- typed setoption
@pytest.mark.parametrize("name, value", [("samples", "16"), ("samples", "1e3"),
                                         ("samples", " 16 "), ("consistent", "false"),
                                         ("consistent", 0), ("win", "2"),
                                         ("leaf", 1), ("win", -100.0001)])
def test_setoption_takes_typed_values_only(name, value):
    out = _serve([HELLO, {"type": "setoption", "id": 1, "name": name, "value": value}],
                 ExpectimaxBot(0))
    assert out[1]["type"] == "error" and out[1]["id"] == 1
    assert out[1]["message"].endswith(json.dumps(value))  # the value as given, unrounded


def test_setoption_is_acknowledged_with_the_value_set():
    out = _serve([HELLO, {"type": "setoption", "id": 1, "name": "samples", "value": 16},
                  {"type": "setoption", "id": 2, "name": "consistent", "value": False}],
                 ExpectimaxBot(0))
    assert out[1:] == [{"type": "option", "id": 1, "name": "samples", "value": 16},
                       {"type": "option", "id": 2, "name": "consistent", "value": False}]


# ---------------------------------------------------------------- error texts
STYLE = re.compile(r"^[a-z][a-z0-9_ ]*: [^:].*: \S")


def test_every_error_the_engine_sends_has_one_style():
    game = Game("casual", 2, seed=7)
    seat = game.turn
    view = game.view(seat).to_str()
    lines = [HELLO, "not json", "[1]", '{"x": 1}', {"type": "chat", "id": 1},
             {"type": "request", "id": 2, "view": game.view(1 - seat).to_str()},
             {"type": "request", "id": 3, "view": view, "legal": ["go"]},
             {"type": "request", "id": 4, "view": view, "legal": ["3B"] * 600},
             {"type": "request", "id": 5, "view": "gostop-view/1 nonsense"},
             {"type": "request", "id": 6, "view": 5},
             {"type": "request", "id": 7},
             {"type": "request", "id": 8, "view": view, "time_ms": -1},
             {"type": "request", "id": 9, "view": view, "moves": ["zz"], "stock": []},
             {"type": "request", "id": 10, "view": view, "stock": "5A"},
             {"type": "request", "id": 11, "view": view, "seat": "x"},
             {"type": "request", "id": 1.5, "view": view},
             {"type": "setoption", "id": 12, "name": 5, "value": 1},
             {"type": "setoption", "id": 13, "name": "x", "value": 1},
             {"type": "setoption", "id": 14, "name": "samples"},
             {"type": "setoption", "id": 15, "name": "samples", "value": 0},
             {"type": "state", "id": 16, "position": "nonsense"},
             {"type": "analyse", "id": 17, "view": view, "position": "p"},
             {"type": "newhand", "id": 18, "view": "nonsense"},
             {"type": "hello", "id": 19, "protocol": ["gostop-bot/9"]}]
    out = _serve(lines, ExpectimaxBot(0))
    errors = [m["message"] for m in out if m["type"] == "error"]
    assert len(errors) == len(lines) - 1
    for text in errors:
        assert STYLE.match(text), text
        kind = text.split(":", 1)[0]
        assert not text[len(kind) + 2:].startswith(kind + ":"), text  # said once
    assert any("\"name\" must be an option name: 5" in t for t in errors)


# ---------------------------------------------------------------- processes
def test_a_setsid_tokenless_orphan_is_ended_with_its_bot(tmp_path, monkeypatch):
    from gostop_core.protocol import process
    from gostop_core.protocol.client import SimpleEngine
    pid_file = tmp_path / "pids"
    monkeypatch.setenv("BOT_PID_FILE", str(pid_file))
    broken = [sys.executable, str(ROOT / "tests" / "bots" / "broken_bot.py"), "v2-tokenless"]
    with SimpleEngine.popen(broken) as engine:
        engine.ping()
        orphan = int(pid_file.read_text().split()[-1])
        fields = process._stat_fields(orphan)
        assert fields is not None and fields[0] not in (b"Z", b"X")
    if not process.subreaper_active():
        pytest.skip("no subreaper on this system: such an orphan cannot be found")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        fields = process._stat_fields(orphan)
        if fields is None or fields[0] in (b"Z", b"X"):
            break
        time.sleep(0.05)
    fields = process._stat_fields(orphan)
    assert fields is None or fields[0] in (b"Z", b"X")


# ---------------------------------------------------------------- an early line
@pytest.mark.parametrize("seed", range(6))
def test_a_v1_line_before_any_request_is_a_protocol_error_never_an_answer(seed):
    """A version 1 bot that writes a move as it starts, before reading
    anything (tests/bots/broken_bot.py ``early``): that line is unasked, so
    the first request fails as a protocol error, in every game, never as the
    bot's answer (legal or not).  The client's drain before the first
    request waits until the bot has read what was sent, then takes in every
    line the bot wrote."""
    from gostop_core.bots.external import ExternalBot
    from gostop_core.errors import BotProtocolError, IllegalBotMoveError
    game = Game("casual", 2, seed=seed)
    broken = [sys.executable, str(ROOT / "tests" / "bots" / "broken_bot.py"), "early"]
    with ExternalBot(broken, move_time=5.0) as bot:
        # the line may be in by the hand's start (its drain reports it there)
        # or only by the first request: either way it is unasked, never an answer
        with pytest.raises(BotProtocolError, match="when nothing was asked") as caught:
            bot.start_hand(game.view(game.turn))
            bot.choose(game.view(game.turn), list(game.legal_moves))
        assert not isinstance(caught.value, IllegalBotMoveError)


def test_a_v1_bot_that_plays_properly_is_not_held_up_by_the_settling():
    """The same program without the early line plays a whole hand, and its
    answers are taken as answers (the settling before the first request
    waits only until the program has read its input)."""
    from gostop_core.bots.external import ExternalBot
    game = Game("casual", 2, seed=3)
    fine = [sys.executable, str(ROOT / "tests" / "bots" / "broken_bot.py"), "fine"]
    with ExternalBot(fine, move_time=5.0) as bot:
        bot.start_hand(game.view(0))
        while not game.is_over():
            legal = list(game.legal_moves)
            move = bot.choose(game.view(game.turn), legal) if game.turn == 0 else legal[-1]
            assert move in legal
            game.push(move)
