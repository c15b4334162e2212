"""Protocol version 2 (docs/protocol.md): the wire format's caps, the engine
side (ids, the engine's own legal moves, errors only as replies, options,
analysis, stop, isready while searching, time limits), the client
(SimpleEngine) and its clean shutdown, and the conformance test."""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gostop_cli.main import cli
from gostop_core.bots import ExpectimaxBot, GreedyBot
from gostop_core.bots.external import ExternalBot, serve
from gostop_core.errors import BotProtocolError, BotTimeoutError
from gostop_core.game import Game
from gostop_core.protocol import wire
from gostop_core.protocol.client import EngineReplyError, Limit, SimpleEngine
from gostop_core.protocol.conformance import run_conformance
from gostop_core.protocol.positions import legal_moves_of_view
from gostop_core.protocol.wire import LineReader, MessageError, TooLong, decode

ROOT = Path(__file__).resolve().parent.parent
BROKEN = [sys.executable, str(ROOT / "tests" / "bots" / "broken_bot.py")]
EXAMPLES = ROOT / "examples" / "protocol"
NODE = shutil.which("node")
GOSTOP = [sys.executable, "-m", "gostop_cli.main"]
ENGINE = GOSTOP + ["engine"]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


# ---------------------------------------------------------------- the wire format

def test_a_deeply_nested_line_is_refused_without_recursion():
    started = time.monotonic()
    with pytest.raises(MessageError, match="too deep: more than 16") as info:
        decode('{"type": "request", "id": 5, "x": ' + "[" * 30_000 + "]" * 30_000 + "}")
    assert info.value.id == 5  # read from the line's start, so the error can be answered
    assert time.monotonic() - started < 1.0


def test_brackets_inside_strings_do_not_count():
    message = decode(json.dumps({"type": "info", "text": "[" * 100}))
    assert message["text"] == "[" * 100


@pytest.mark.parametrize("line, text", [
    ("[1, 2]", "not a JSON object"),
    ('{"id": 3}', 'no string "type"'),
    ("{not json", "not valid JSON"),
    ('{"type": "isready", "x": NaN}', "not valid JSON"),
])
def test_lines_that_are_no_message(line, text):
    with pytest.raises(MessageError, match=text):
        decode(line)


def test_a_huge_line_is_skipped_while_reading_never_held_whole():
    """A 20 MB line through a pipe: the reader keeps at most a chunk plus the
    cap, reports the line as TooLong (its head kept for the id), and reads the
    next line normally."""
    r, w = os.pipe()

    def writer():
        with os.fdopen(w, "wb") as f:
            f.write(b'{"type": "request", "id": 9, "legal": ["' + b"x" * 20_000_000 + b'"]}\n')
            f.write(b'{"type": "isready", "id": 10}\n')

    thread = threading.Thread(target=writer)
    thread.start()
    reader = LineReader(r)
    biggest = 0
    items = []
    for item in reader:
        biggest = max(biggest, len(reader._buf))
        items.append(item)
    thread.join()
    os.close(r)
    assert isinstance(items[0], TooLong) and items[0].size > 20_000_000
    assert wire.peek_id(items[0].head) == 9
    assert decode(items[1]) == {"type": "isready", "id": 10}
    assert biggest <= wire.MAX_LINE + LineReader.CHUNK


def test_list_caps_are_checked_before_the_entries():
    with pytest.raises(MessageError, match="more than 512"):
        wire.validate_moves({"type": "request", "legal": ["3B"] * 1_000_000}, "legal", 1)


def test_protocol_choice():
    assert wire.choose_protocol(None) == wire.PROTOCOL_V1
    assert wire.choose_protocol("gostop-bot/1") == wire.PROTOCOL_V1
    assert wire.choose_protocol(["gostop-bot/1", "gostop-bot/2"]) == wire.PROTOCOL_V2
    assert wire.choose_protocol(["gostop-bot/2", "gostop-bot/9"]) == wire.PROTOCOL_V2
    with pytest.raises(MessageError, match="no protocol offered"):
        wire.choose_protocol(["gostop-bot/9"])


@pytest.mark.parametrize("value, parsed", [(3, 3), ("3", 3), (1, 1)])
def test_spin_options_parse(value, parsed):
    assert wire.Option("depth", "spin", 1, 1, 3).parse(value) == parsed


@pytest.mark.parametrize("option, value, text", [
    (wire.Option("depth", "spin", 1, 1, 3), 4, "takes 1..3: 4"),
    (wire.Option("depth", "spin", 1, 1, 3), 1.5, "whole number"),
    (wire.Option("depth", "spin", 1, 1, 3), True, "whole number"),
    (wire.Option("leaf", "combo", "a", choices=("a", "b")), "c", "one of a, b"),
    (wire.Option("halving", "check", False), 1, "true or false"),
])
def test_bad_option_values(option, value, text):
    with pytest.raises(MessageError, match=text):
        option.parse(value)


# ---------------------------------------------------------------- the rules side

@pytest.mark.parametrize("preset, players", [("casual", 2), ("traditional", 2), ("standard", 3),
                                             ("family", 4)])
def test_the_engine_finds_the_legal_moves_of_a_view_alone(preset, players):
    """Every decision of a few hands: the moves found from the seat's view
    string are the game's legal moves (fliponly included, which needs a stock)."""
    import random
    for seed in range(4):
        game = Game(preset, players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            view = type(game.view(game.turn)).from_str(game.view(game.turn).to_str())
            assert sorted(map(str, legal_moves_of_view(view))) == \
                sorted(map(str, game.legal_moves))
            game.push(rng.choice(list(game.legal_moves)))


# ---------------------------------------------------------------- the engine side

def _serve(lines, bot=None):
    out: list[str] = []
    serve(bot or GreedyBot(), [json.dumps(x) if isinstance(x, dict) else x for x in lines],
          out.append, name="greedy")
    return [json.loads(x) for x in out]


HELLO = {"type": "hello", "protocol": ["gostop-bot/1", "gostop-bot/2"]}


def test_version_2_session_ids_echoed_and_the_engines_own_legal_moves():
    game = Game("casual", 2, seed=7)
    view = game.view(game.turn).to_str()
    expected = str(GreedyBot().choose(game.view(game.turn), list(game.legal_moves)))
    out = _serve([HELLO, {"type": "isready", "id": 1},
                  {"type": "request", "id": 7, "view": view},
                  {"type": "request", "id": 8, "view": view,
                   "legal": [str(m) for m in reversed(list(game.legal_moves))]},
                  {"type": "quit"}])
    assert out[0]["type"] == "ready" and out[0]["protocol"] == "gostop-bot/2"
    assert out[0]["name"] == "greedy" and "rules" in out[0]["features"]
    assert out[1:] == [{"type": "readyok", "id": 1},
                       {"type": "move", "id": 7, "move": expected},
                       {"type": "move", "id": 8, "move": expected}]


def test_every_bad_message_gets_an_error_reply_in_the_order_read():
    game = Game("casual", 2, seed=7)
    seat = game.turn
    out = _serve([HELLO, "not json", {"type": "newhand", "view": "garbage"},
                  {"type": "chat"}, {"type": "chat", "id": 3},
                  {"type": "request", "id": 4, "view": game.view(1 - seat).to_str()},
                  {"type": "request", "id": 5, "view": game.view(seat).to_str(),
                   "legal": ["go"]},
                  {"type": "request", "id": 6, "view": game.view(seat).to_str(),
                   "legal": ["3B"] * 600},
                  {"type": "request", "id": 7, "view": "gostop-view/1 nonsense"},
                  {"type": "isready", "id": 8}])
    # isready is answered at once, ahead of the requests still in the queue
    assert ("readyok", 8) in [(m["type"], m.get("id")) for m in out[1:]]
    errors = [(m["type"], m.get("id")) for m in out[1:] if m["type"] != "readyok"]
    assert errors == [("error", None), ("error", None), ("error", None), ("error", 3),
                      ("error", 4), ("error", 5), ("error", 6), ("error", 7)]
    by_id = {m.get("id"): m["message"] for m in out[1:] if m["type"] == "error"}
    assert "is not to move" in by_id[4]
    assert "are not the view's" in by_id[5]
    assert "more than 512" in by_id[6]


def test_a_request_as_a_position_plus_the_moves_since():
    game = Game("standard", 3, seed=5)
    start = game.position()
    moves = []
    for _ in range(4):
        move = list(game.legal_moves)[-1]
        moves.append(str(move))
        game.push(move)
    expected = str(GreedyBot().choose(game.view(game.turn), list(game.legal_moves)))
    out = _serve([HELLO, {"type": "request", "id": 1, "position": start, "moves": moves},
                  {"type": "request", "id": 2, "position": start, "moves": ["go"]}])
    assert out[1] == {"type": "move", "id": 1, "move": expected}
    assert out[2]["type"] == "error" and out[2]["id"] == 2


def test_version_1_still_gets_bare_answers_and_its_error_lines():
    game = Game("casual", 2, seed=7)
    view = game.view(game.turn).to_str()
    out = _serve([{"type": "hello", "protocol": "gostop-bot/1"},
                  {"type": "request", "view": view, "legal": [str(m) for m in game.legal_moves]},
                  {"type": "request"}])
    assert out[0]["protocol"] == "gostop-bot/1"
    assert set(out[1]) == {"move"}
    assert out[2]["type"] == "error" and "id" not in out[2]


def test_options_and_setoption():
    game = Game("casual", 2, seed=3)
    view = game.view(game.turn).to_str()
    bot = ExpectimaxBot(0)
    out = _serve([HELLO, {"type": "setoption", "id": 1, "name": "samples", "value": 8},
                  {"type": "setoption", "id": 2, "name": "samples", "value": 5000},
                  {"type": "setoption", "id": 3, "name": "nope", "value": 1},
                  {"type": "analyse", "id": 4, "view": view}, {"type": "quit"}], bot)
    options = {o["name"]: o for o in out[0]["options"]}
    assert options["samples"] == {"name": "samples", "type": "spin", "default": 256, "min": 1,
                                  "max": 1024}
    assert options["leaf"]["choices"] == ["rollout", "estimate"]
    assert [(m["type"], m["id"]) for m in out[1:4]] == [("option", 1), ("error", 2),
                                                         ("error", 3)]
    assert out[1] == {"type": "option", "id": 1, "name": "samples", "value": 8}
    infos = [m for m in out if m["type"] == "info"]
    analysis = out[-1]
    assert analysis["type"] == "analysis" and analysis["id"] == 4
    assert analysis["samples"] == 8  # the option was set
    assert infos and all(m["id"] == 4 for m in infos)
    assert {m["move"] for m in analysis["moves"]} == {str(m) for m in game.legal_moves}
    assert all(isinstance(m["value"], float) and m["line"] for m in analysis["moves"])
    values = [m["value"] for m in analysis["moves"]]
    assert values == sorted(values, reverse=True)
    assert analysis["move"] == analysis["moves"][0]["move"]


def test_a_request_over_its_time_gets_the_fallback_move_in_time():
    """A bot that would think for a second: the deadline answers for it."""
    class Slow(GreedyBot):
        def choose(self, view, legal):
            time.sleep(1.0)
            return legal[0]
    game = Game("casual", 2, seed=3)
    view = game.view(game.turn).to_str()
    out: list[str] = []
    started = time.monotonic()
    times = []

    def write(line):
        out.append(line)
        times.append(time.monotonic() - started)
    serve(Slow(), [json.dumps(HELLO), json.dumps({"type": "request", "id": 1, "view": view,
                                                  "time_ms": 100})], write)
    reply = json.loads(out[1])
    assert reply["id"] == 1 and reply["fallback"] is True
    assert reply["move"] == str(GreedyBot().choose(game.view(game.turn), list(game.legal_moves)))
    assert times[1] < 0.1
    assert len(out) == 2  # the slow answer, later, is dropped


# ---------------------------------------------------------------- the client

def test_simple_engine_against_gostop_engine():
    game = Game("casual", 2, seed=11)
    with SimpleEngine.popen(ENGINE + ["--bot", "best"]) as engine:
        assert engine.protocol == "gostop-bot/2" and engine.name == "best"
        assert "samples" in engine.options and {"rules", "analyse"} <= engine.features
        assert engine.ping() < 1.0
        engine.configure({"samples": 32})
        with pytest.raises(ValueError, match="1..1024"):  # checked before it is sent
            engine.configure({"samples": 2000})
        with pytest.raises(ValueError, match="no option"):
            engine.configure({"depht": 2})
        # a refusal by the engine itself: raised, and nothing of it left unread
        engine.options["samples"] = wire.Option("samples", "spin", 256, 1, 5000)
        with pytest.raises(EngineReplyError, match="samples takes 1..1024"):
            engine.configure({"samples": 2000})
        assert engine.ping() < 1.0
        result = engine.play(game, Limit(time=0.2))
        assert result.move in game.legal_moves and result.seconds < 0.2
        analysis = engine.analyse(game, Limit(time=0.2))
        assert {m["move"] for m in analysis.moves} == {str(m) for m in game.legal_moves}
        assert analysis.info and analysis.samples > 0
        proc = engine.transport.proc
    assert proc.poll() is not None


def test_stop_and_isready_while_searching():
    game = Game("casual", 2, seed=11)
    with SimpleEngine.popen(ENGINE + ["--bot", "best:samples=1024,depth=2"]) as engine:
        engine.transport.send(wire.encode({"type": "analyse", "id": 50,
                                           "view": game.view(game.turn).to_str()}))
        time.sleep(0.3)
        started = time.monotonic()
        assert engine.ping() < 0.5  # answered while the search runs
        engine.stop()
        reply = engine._await(50, ("analysis",), 2.0, "analysis")
        assert reply["stopped"] == "stop" and time.monotonic() - started < 1.0


def test_every_call_has_a_timeout_and_the_program_is_killed():
    game = Game("casual", 2, seed=1)
    engine = SimpleEngine.popen(BROKEN + ["v2-hang"])
    proc = engine.transport.proc
    with pytest.raises(BotTimeoutError, match="no move within 0.1 s"):
        engine.play(game, Limit(time=0.1), timeout=0.5)
    assert proc.wait(timeout=2) is not None


@pytest.mark.parametrize("mode", ["v2-setsid", "v2-daemon", "grandchild"])
def test_children_that_left_the_process_group_go_with_the_program(mode, tmp_path, monkeypatch):
    pid_file = tmp_path / "pids"
    monkeypatch.setenv("BOT_PID_FILE", str(pid_file))
    game = Game("casual", 2, seed=1)
    # time enough for the bot to start its children (daemon: a second Python)
    # and note their pids on a loaded machine, before the limit ends it
    bot = ExternalBot(BROKEN + [mode], move_time=1.5)
    with pytest.raises(BotTimeoutError):
        bot.choose(game.view(game.turn), list(game.legal_moves))
    pids = [int(x) for x in pid_file.read_text().split()]
    assert len(pids) == 2
    time.sleep(0.1)
    assert not any(_alive(p) for p in pids), pids


def test_a_wrong_id_is_a_protocol_error():
    game = Game("casual", 2, seed=1)
    with SimpleEngine.popen(BROKEN + ["v2-wrong-id"]) as engine:
        with pytest.raises(BotProtocolError, match="answered with id"):
            engine.play(game, Limit(time=1.0))


def test_arena_tables_and_records_name_the_announced_bot():
    from gostop_core.arena import run_arena
    program = f"cmd:{sys.executable} {EXAMPLES / 'first_move.py'}"
    result = run_arena([program, "greedy"], deals=1, players=2, workers=1, seed=3,
                       game_records=True)
    assert result.announced == ["first-move", None]
    assert result.label(0) == f"{program} (first-move)" and result.label(1) == "greedy"
    seats = [r.record.seats[r.seats.index(0)] for r in result.records]
    assert all(seat.name == "first-move" and seat.bot == program for seat in seats)
    table = CliRunner().invoke(cli, ["arena", program, "greedy", "--deals", "1",
                                     "--workers", "1"])
    assert table.exit_code == 0, table.output
    assert f"{program} (first-move)" in table.output


# ---------------------------------------------------------------- the conformance test

def test_conformance_passes_for_gostop_engine():
    report = run_conformance(ENGINE + ["--bot", "best"], time_ms=100, presets=["casual"])
    assert report.passed, "\n".join(report.lines())
    assert report.protocol == "gostop-bot/2" and report.slowest_ms is not None
    assert [c.name for c in report.checks if c.passed is None] == []


EXAMPLE_PROGRAMS = [[sys.executable, str(EXAMPLES / "first_move.py")],
                    [sys.executable, str(EXAMPLES / "line_bot.py")]]
if NODE:
    EXAMPLE_PROGRAMS += [[NODE, str(EXAMPLES / "last_move.js")],
                         [NODE, str(EXAMPLES / "line_bot.js")]]


@pytest.mark.parametrize("command", EXAMPLE_PROGRAMS, ids=lambda c: Path(c[-1]).name)
def test_conformance_passes_for_the_documented_examples(command):
    # 500 ms: every answer must come within it, and a program just started on
    # a machine the test suite loads (node compiling its first parse) can take 150
    report = run_conformance(command, time_ms=500, timeout=1.0, presets=["casual"])
    assert report.passed, "\n".join(report.lines())


# the arena's forfeit tests (test_external_bots.py) cover the slow ones' reasons too
SLOW = pytest.mark.slow


@pytest.mark.parametrize("mode, check, reason", [
    pytest.param("flood", "play", "longer than 65536 bytes", marks=SLOW),
    pytest.param("flood-lines", "play", "more than 1048576 bytes", marks=SLOW),
    ("garbage", "play", "which is not a move"),
    pytest.param("v2-sleep", "play", "no move within 0.1 s", marks=SLOW),
    pytest.param("crash", "play", "exit code 3", marks=SLOW),
    ("v2-wrong-id", "play", "answered with id"),
    ("v2-late", "play", "over time_ms=100, the first"),
    ("v2-leak", "quit", "left 1 process(es) running"),
    ("v2-tokenless", "quit", "left 1 process(es) running"),
    pytest.param("illegal", "play", "not legal here", marks=SLOW),
])
def test_conformance_fails_with_a_reason_for_each_hostile_program(mode, check, reason):
    report = run_conformance(BROKEN + [mode], time_ms=100, timeout=1.0, presets=["casual"])
    assert not report.passed
    failed = {c.name: c.detail for c in report.checks if c.passed is False}
    assert check in failed and reason in failed[check], failed


def test_protocol_test_command_exit_codes():
    runner = CliRunner()
    ok = runner.invoke(cli, ["protocol-test", f"cmd:{sys.executable} {EXAMPLES / 'first_move.py'}",
                             "--presets", "casual", "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output)["passed"] is True
    bad = runner.invoke(cli, ["protocol-test", f"cmd:{' '.join(BROKEN)} garbage",
                              "--presets", "casual", "--timeout", "1"])
    assert bad.exit_code == 1 and "FAIL  play" in bad.output and "FAILED" in bad.output
    usage = runner.invoke(cli, ["protocol-test", "greedy"])
    assert usage.exit_code == 2 and "expected cmd:PROGRAM" in usage.output
    assert "Traceback" not in usage.output
    unknown = runner.invoke(cli, ["protocol-test", "cmd:x", "--presets", "chess"])
    assert unknown.exit_code == 2 and "unknown preset" in unknown.output


def test_a_greedy_engine_refuses_analyse():
    game = Game("casual", 2, seed=3)
    out = _serve([HELLO, {"type": "analyse", "id": 1, "view": game.view(game.turn).to_str()}])
    assert "analyse" not in out[0]["features"]
    assert out[1]["type"] == "error" and out[1]["id"] == 1 and "does not analyse" in \
        out[1]["message"]


def test_gostop_engine_survives_hostile_lines():
    """A 100 MB line, a line nested a million deep and a 1M-entry legal list: each
    answered by an error echoing its id (read from the line's start), quickly,
    and the engine still plays."""
    import subprocess
    game = Game("casual", 2, seed=3)
    view = game.view(game.turn).to_str()
    proc = subprocess.Popen(ENGINE + ["--bot", "greedy"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        def send(data: bytes):
            proc.stdin.write(data + b"\n")
            proc.stdin.flush()

        def answer():
            return json.loads(proc.stdout.readline())
        started = time.monotonic()
        send(json.dumps(HELLO).encode())
        assert answer()["protocol"] == "gostop-bot/2"
        send(b'{"type": "request", "id": 1, "view": "' + b"x" * 100_000_000 + b'"}')
        assert answer() == {"type": "error", "id": 1,
                            "message": "message: the line is too long: more than 65536 bytes"}
        send(b'{"type": "request", "id": 2, "x": ' + b"[" * 1_000_000 + b"]" * 1_000_000 + b"}")
        assert answer()["id"] == 2
        legal = json.dumps({"type": "request", "id": 3, "view": view,
                            "legal": ["3B"] * 1_000_000})
        send(legal.encode())
        assert answer()["id"] == 3
        send(json.dumps({"type": "request", "id": 4, "view": view}).encode())
        assert answer()["type"] == "move"
        assert time.monotonic() - started < 20
        send(b'{"type": "quit"}')
        assert proc.wait(timeout=10) == 0
    finally:
        proc.kill()
        proc.wait()


def _view_plus_moves(game: Game, steps: int, seed: int):
    """From the view of the seat to move: the moves of every seat until that
    seat moves again (at least ``steps``), and the stock cards it saw taken."""
    import random
    rng = random.Random(seed)
    seat = game.turn
    start = game.view(seat).to_str()
    moves, stock = [], []
    while True:
        move = rng.choice(list(game.legal_moves))
        for event in game.push(move):
            if event.kind == "flipped":
                stock.append(event.card)
            elif event.kind == "drawn":
                stock.append(event.card if event.player == seat else None)
        moves.append(str(move))
        if game.is_over() or (game.turn == seat and len(moves) >= steps):
            return seat, start, moves, stock


@pytest.mark.parametrize("preset, players", [("casual", 3), ("traditional", 2),
                                             ("standard", 3), ("family", 4)])
def test_a_request_as_a_starting_view_plus_the_moves_and_stock_cards_since(preset, players):
    """The engine replays every seat's moves and the stock cards the seat saw
    from its starting view, with its own rules, and reaches the seat's real
    view: no rules code in the driver."""
    from gostop_core.protocol.positions import replay_view
    for seed in range(3):
        game = Game(preset, players, seed=seed)
        seat, start, moves, stock = _view_plus_moves(game, 4, seed)
        if game.is_over():
            continue
        assert replay_view(start, moves, stock) == game.view(seat)
        out = _serve([HELLO, {"type": "request", "id": 1, "view": start, "moves": moves,
                              "stock": stock}])
        expected = GreedyBot().choose(game.view(seat), list(game.legal_moves))
        assert out[1] == {"type": "move", "id": 1, "move": str(expected)}


def test_a_starting_view_plus_moves_needs_the_flips_named():
    game = Game("casual", 2, seed=1)
    seat, start, moves, stock = _view_plus_moves(game, 2, 1)
    out = _serve([HELLO, {"type": "request", "id": 1, "view": start, "moves": moves},
                  {"type": "request", "id": 2, "view": start, "moves": moves,
                   "stock": [None] * len(stock)},
                  {"type": "request", "id": 3, "view": start, "moves": moves, "stock": "5A"}])
    assert [m["type"] for m in out[1:]] == ["error"] * 3
    assert "stock does not name" in out[1]["message"]
    assert "must be named" in out[2]["message"]


def test_a_program_silent_after_hello_is_spoken_to_in_version_1():
    silent = [sys.executable, "-c", "import sys\nfor line in sys.stdin:\n"
              "    import json; m = json.loads(line)\n"
              "    if m['type'] == 'request': print(m['legal'][-1], flush=True)\n"]
    game = Game("casual", 2, seed=2)
    with SimpleEngine.popen(silent, ready_timeout=0.5) as engine:
        assert engine.protocol == "gostop-bot/1" and engine.ready is None
        assert engine.play(game, Limit(time=1.0)).move == list(game.legal_moves)[-1]
        with pytest.raises(BotProtocolError, match="needs protocol version 2"):
            engine.ping()
