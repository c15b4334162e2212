"""The bot protocol on a scripted transport (MockTransport): the messages
gostop sends, every kind of answer, the errors; the view rebuilt by the serving
side; `gostop engine`."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gostop_cli.main import cli
from gostop_core import (
    BotProtocolError, BotTerminatedError, BotTimeoutError, Game, GoStopError, IllegalBotMoveError,
    PositionError,
)
from gostop_core.bots import GreedyBot, RandomBot, play_game
from gostop_core.moves import Move
from gostop_core.bots.external import (
    MAX_OUTPUT, PROTOCOL, BotProtocol, ExternalBot, MockTransport, outcome_from_dict,
    parse_answer, serve, view_from_string,
)

LEGAL = [Move.from_str("3B"), Move.from_str("4J1")]


def scripted(*answers: str) -> tuple[MockTransport, BotProtocol]:
    t = MockTransport()
    t.expect({"type": "request"}, answers)
    return t, BotProtocol(t, move_time=2.0)


def test_error_classes_subclass_the_builtins():
    assert issubclass(BotTimeoutError, TimeoutError) and issubclass(BotTimeoutError, GoStopError)
    assert issubclass(BotTerminatedError, RuntimeError)
    assert issubclass(IllegalBotMoveError, BotProtocolError)


@pytest.mark.parametrize("answer", ["3B", "  3b  ", '{"move": "3B"}', '{"type": "move", "move": "3B"}'])
def test_a_move_bare_or_as_json(answer):
    t, p = scripted(answer)
    assert p.request("gostop-view/1 x", LEGAL) == Move.from_str("3B")
    t.assert_done()


def test_the_request_carries_only_view_legal_and_time():
    t, p = scripted("4J1")
    p.request("gostop-view/1 the-view", LEGAL)
    message = json.loads(t.sent[0])
    assert message == {"type": "request", "view": "gostop-view/1 the-view",
                       "legal": ["3B", "4J1"], "time_ms": 2000}


def test_ready_info_and_blank_lines_before_the_move():
    t, p = scripted('{"type": "ready", "name": "mine"}', "", '{"type": "info", "depth": 3}', "4J1")
    assert str(p.request("v", LEGAL)) == "4J1"
    assert p.name == "mine"
    t.assert_done()


@pytest.mark.parametrize("answer, error, text", [
    ("hello there", BotProtocolError, "not a move"),
    ("{not json", BotProtocolError, "not valid JSON"),
    ("[1, 2]", BotProtocolError, "not a move"),
    ("{\"a\": 1}", BotProtocolError, "unknown type None"),
    ('{"move": 3}', BotProtocolError, "not a string"),
    ('{"type": "chat"}', BotProtocolError, "unknown type"),
    ("5A", IllegalBotMoveError, "not legal here"),
])
def test_bad_answers(answer, error, text):
    t, p = scripted(answer)
    with pytest.raises(error, match=text):
        p.request("v", LEGAL)


def test_silence_is_a_timeout():
    t, p = scripted()
    with pytest.raises(BotTimeoutError, match="no move within 2 s"):
        p.request("v", LEGAL)


def test_too_much_output_for_one_move():
    info = json.dumps({"type": "info", "text": "z" * 1000})
    t, p = scripted(*[info] * (MAX_OUTPUT // 1000 + 1))
    with pytest.raises(BotProtocolError, match="more than"):
        p.request("v", LEGAL)


def test_a_move_nobody_asked_for():
    t = MockTransport()
    t.expect({"type": "hello"}, ["3B"])
    t.expect({"type": "newhand"})
    p = BotProtocol(t)
    p.hello()
    with pytest.raises(BotProtocolError, match="when no move was asked"):
        p.new_hand("v", 1, 0, 2, "casual")


def test_transcript_of_a_whole_hand_on_a_scripted_bot():
    """ExternalBot over a MockTransport: hello, newhand, one request per turn
    of its seat (each answered with the first legal move), end, quit."""
    game = Game("casual", 2, seed=4)
    # replay the hand once with a first-move bot to learn the requests to expect
    probe = Game("casual", 2, seed=4)
    script = []
    while not probe.is_over():
        seat = probe.turn
        legal = list(probe.legal_moves)
        if seat == 0:
            script.append((probe.view(0).to_str(), [str(m) for m in legal]))
        probe.push(legal[0] if seat == 0 else GreedyBot().choose(probe.view(seat), legal))
    t = MockTransport()
    t.expect({"type": "hello", "protocol": PROTOCOL}, ['{"type": "ready", "name": "scripted"}'])
    t.expect({"type": "newhand", "hand": 1, "seat": 0, "players": 2, "rules": "casual",
              "view": game.view(0).to_str()})
    for view, legal in script:
        t.expect({"type": "request", "view": view, "legal": legal, "time_ms": 5000}, [legal[0]])
    t.expect({"type": "end"})
    t.expect({"type": "quit"})
    bot = ExternalBot(["scripted"], transport=lambda: t)
    outcome = play_game(game, [bot, GreedyBot()])
    assert bot.bot_name == "scripted"
    end = json.loads(t.sent[-1])
    assert end["outcome"] == json.loads(json.dumps(outcome.as_dict()))
    assert end["view"] == game.view(0).to_str()
    bot.close()
    t.assert_done()
    assert t.closed and not bot.running


def test_external_bot_is_killed_and_restarted_after_an_error():
    transports = []

    def factory():
        t = MockTransport()
        t.expect({"type": "hello"})
        t.expect({"type": "newhand"})
        t.expect({"type": "request"}, ["nonsense"] if not transports else ["3B"])
        transports.append(t)
        return t

    game = Game("casual", 2, seed=1)
    bot = ExternalBot(["x"], transport=factory)
    bot.start_hand(game.view(0))
    with pytest.raises(BotProtocolError):
        bot.choose(game.view(0), LEGAL)
    assert transports[0].closed and not bot.running
    bot.start_hand(game.view(0))  # the next hand starts a new process
    assert bot.choose(game.view(0), LEGAL) == LEGAL[0]
    assert bot.starts == 2


def test_parse_answer_kinds():
    assert parse_answer("  ") == ("blank", None)
    assert parse_answer("go") == ("move", "go")
    assert parse_answer('{"type": "ready"}')[0] == "ready"


# ---------------------------------------------------------------- the serving side

@pytest.mark.parametrize("preset, players", [("casual", 2), ("traditional", 3), ("standard", 3),
                                             ("family", 4), ("casual", 4)])
def test_views_rebuild_exactly(preset, players):
    game = Game(preset, players, seed=21)
    bots = [RandomBot(seed=s) for s in range(players)]
    while True:
        for seat in range(players):
            text = game.view(seat).to_str()
            assert view_from_string(text).to_str() == text
        if game.is_over():
            break
        seat = game.turn
        game.push(bots[seat].choose(game.view(seat), list(game.legal_moves)))


def test_greedy_decides_the_same_on_a_rebuilt_view():
    game = Game("standard", 3, seed=8)
    greedy = GreedyBot()
    while not game.is_over():
        seat = game.turn
        legal = list(game.legal_moves)
        view = game.view(seat)
        move = greedy.choose(view, legal)
        assert GreedyBot().choose(view_from_string(view.to_str()), legal) == move
        game.push(move)


def test_view_from_string_rejects_garbage():
    with pytest.raises(PositionError):
        view_from_string("gostop-view/1 rules=casual")


def test_outcome_round_trip():
    game = Game("standard", 2, seed=5)
    outcome = play_game(game, [GreedyBot(), GreedyBot()])
    again = outcome_from_dict(json.loads(json.dumps(outcome.as_dict())))
    assert (again.winner, again.points, again.scores, again.chips, again.reason) == (
        outcome.winner, outcome.points, outcome.scores, outcome.chips, outcome.reason)


def _session(game: Game, seat: int) -> list[str]:
    lines = [json.dumps({"type": "hello", "protocol": PROTOCOL}),
             json.dumps({"type": "newhand", "hand": 1, "seat": seat, "players": game.players,
                         "rules": "casual", "view": game.view(seat).to_str()})]
    lines.append(json.dumps({"type": "request", "view": game.view(seat).to_str(),
                             "legal": [str(m) for m in game.legal_moves]}))
    return lines


def test_serve_answers_hello_and_requests():
    game = Game("casual", 2, seed=7)
    out: list[str] = []
    lines = _session(game, 0) + ["", "not json", json.dumps({"type": "request"}),
                                 json.dumps({"type": "quit"}), json.dumps({"type": "hello"})]
    moves = serve(GreedyBot(), lines, out.append, name="greedy")
    assert moves == 1
    ready, move, bad, missing = (json.loads(x) for x in out)
    assert ready["type"] == "ready" and ready["name"] == "greedy"
    assert move == {"move": str(GreedyBot().choose(game.view(0), list(game.legal_moves)))}
    assert bad["type"] == "error" and missing["type"] == "error"
    assert "missing" in missing["message"]


def test_engine_command():
    game = Game("casual", 2, seed=7)
    text = "\n".join(_session(game, 0) + [json.dumps({"type": "quit"})]) + "\n"
    result = CliRunner().invoke(cli, ["engine", "--bot", "greedy"], input=text)
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.output.splitlines()]
    assert lines[0]["type"] == "ready"
    assert lines[1]["move"] == str(GreedyBot().choose(game.view(0), list(game.legal_moves)))


def test_engine_command_rejects_an_unknown_bot():
    result = CliRunner().invoke(cli, ["engine", "--bot", "nobody"])
    assert result.exit_code == 2
    assert "unknown bot 'nobody'" in result.output


def test_too_much_output_between_requests():
    t = MockTransport()
    info = json.dumps({"type": "info", "text": "z" * 1000})
    t.expect({"type": "hello"}, [info] * (MAX_OUTPUT // 1000 + 1))
    t.expect({"type": "newhand"})
    p = BotProtocol(t)
    p.hello()
    with pytest.raises(BotProtocolError, match="between two requests"):
        p.new_hand("v", 1, 0, 2, "casual")


def test_a_signal_while_a_bot_starts_is_delivered_after_its_registration():
    """Ctrl-C arriving while the process starts waits until the process is
    registered (so that it is ended with the others), then interrupts."""
    import signal
    import sys

    from gostop_core.bots import external as protocol
    started: list = []
    real_popen = protocol.subprocess.Popen

    def popen(*args, **kwargs):
        proc = real_popen(*args, **kwargs)
        started.append(proc)
        signal.raise_signal(signal.SIGINT)  # "Ctrl-C" right after the fork
        return proc

    import unittest.mock
    with unittest.mock.patch.object(protocol.subprocess, "Popen", popen):
        with pytest.raises(KeyboardInterrupt):
            protocol.ProcessTransport([sys.executable, "-c", "import time; time.sleep(60)"])
    assert started and started[0].pid in protocol.live_bot_pids()
    protocol.close_all_bots()
    assert started[0].wait(timeout=5) is not None
    assert protocol.live_bot_pids() == []
