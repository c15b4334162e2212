"""The engine's time keeping (docs/protocol.md, "Time"; issue 31): the
fallback move is found when a timed request is parsed, so that the deadline,
or the parsing itself when no time is left, answers it at once; a request
whose whole time passed before it could be parsed is refused; the margin kept
back grows with the wake-up delays the engine measures.  Behaviour only: how
late answers come on a loaded machine is measured by
benchmarks/engine_time.py, never here."""
from __future__ import annotations

import json
import time

from gostop_core.game import Game
from gostop_core.protocol import server as engine_server
from gostop_core.protocol.server import EngineBackend, SearchResult

HELLO = {"type": "hello", "protocol": ["gostop-bot/2"]}


class _Recording(EngineBackend):
    """Plays the first legal move when it searches, the last as its fallback,
    and records every search."""

    name = "recording"

    def __init__(self):
        self.searches = 0

    def search(self, view, legal, time_ms, info):
        self.searches += 1
        return SearchResult(legal[0])

    def fallback(self, view, legal):
        return legal[-1]


def _position():
    game = Game("casual", 2, seed=3)
    legal = [str(m) for m in game.legal_moves]
    assert len(legal) > 1
    return game.view(game.turn).to_str(), legal


def _server(backend):
    out: list[str] = []
    server = engine_server._Server(backend, out.append, lambda text: None)
    server.dispatch(json.dumps(HELLO))
    return server, out


def test_no_time_left_is_answered_with_the_fallback_without_a_search():
    view, legal = _position()
    backend = _Recording()
    out: list[str] = []
    engine_server.serve(backend, [json.dumps(HELLO),
                                  json.dumps({"type": "request", "id": 1, "view": view,
                                              "time_ms": 0}),
                                  json.dumps({"type": "request", "id": 2, "view": view})],
                        out.append)
    replies = [json.loads(x) for x in out[1:]]
    assert replies == [{"type": "move", "id": 1, "move": legal[-1], "fallback": True},
                       {"type": "move", "id": 2, "move": legal[0]}]
    assert backend.searches == 1  # the untimed request's alone


def test_a_request_whose_time_passed_before_it_was_parsed_is_refused_and_its_id_freed():
    """A flood put the parsing behind: the request was read a second ago
    with 100 ms to answer.  It is refused at once (no position read), and its
    id is free again."""
    view, legal = _position()
    server, out = _server(_Recording())
    line = json.dumps({"type": "request", "id": 5, "view": view, "time_ms": 100})
    server.dispatch(line, received=time.monotonic() - 1.0)
    server.dispatch(line.replace('"time_ms": 100', '"time_ms": 0'))
    replies = [json.loads(x) for x in out[1:]]
    assert replies[0] == {"type": "error", "id": 5, "message":
                          "busy: the request's time passed before it was parsed: 100 ms"}
    assert replies[1] == {"type": "move", "id": 5, "move": legal[-1], "fallback": True}


def test_measured_wake_up_delays_are_kept_back_from_the_deadline():
    """On a machine measured to wake a thread 30 ms late, a request of 50 ms
    leaves no time to search: the fallback answers at once.  A request of
    10 s is searched, whatever the delays (the margin has a cap)."""
    view, legal = _position()
    request = json.dumps({"type": "request", "id": 1, "view": view, "time_ms": 50})
    slow, slow_out = _server(_Recording())
    slow.wake_delays.append(30.0)
    slow.dispatch(request)
    assert json.loads(slow_out[1]) == {"type": "move", "id": 1, "move": legal[-1],
                                       "fallback": True}
    backend = _Recording()
    out: list[str] = []
    long = request.replace('"time_ms": 50', '"time_ms": 10000')
    engine_server.serve(backend, [json.dumps(HELLO), long], out.append)
    assert backend.searches == 1
    assert json.loads(out[1]) == {"type": "move", "id": 1, "move": legal[0]}


def test_timed_requests_with_bad_positions_are_refused_in_the_order_read():
    view, legal = _position()
    game = Game("casual", 2, seed=3)
    other = game.view(1 - game.turn).to_str()
    out: list[str] = []
    engine_server.serve(_Recording(), [json.dumps(m) for m in [
        HELLO, {"type": "request", "id": 1, "view": other, "time_ms": 1000},
        {"type": "request", "id": 2, "view": view, "time_ms": 1000},
        {"type": "request", "id": 3, "view": "gostop-view/1 nonsense", "time_ms": 1000},
        {"type": "request", "id": 4, "view": view, "legal": ["go"], "time_ms": 1000}]],
        out.append)
    replies = [json.loads(x) for x in out[1:]]
    assert [(m["type"], m["id"]) for m in replies] == [("error", 1), ("move", 2),
                                                        ("error", 3), ("error", 4)]
    assert "is not to move" in replies[0]["message"]
    assert replies[0]["message"].startswith("request: ")
    assert "are not the view's" in replies[3]["message"]
