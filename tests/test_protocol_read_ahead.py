"""The engine's reader (docs/protocol.md, "Bounded work"; issue 31): a
control line behind a flood is served before the flood is parsed, every other
answer keeps the order read, and what is read ahead of the parsing is bounded.
Order and behaviour only: the time it takes is measured by
benchmarks/engine_time.py (``--flood``), never here."""
from __future__ import annotations

import json
import os
import threading
import time

import pytest

from gostop_core.bots import GreedyBot
from gostop_core.game import Game
from gostop_core.protocol import server as engine_server
from gostop_core.protocol import wire
from gostop_core.protocol.wire import BlockReader, TooLong

HELLO = {"type": "hello", "protocol": ["gostop-bot/2"]}


class _Gate(GreedyBot):
    """Holds its first choice until the gate opens: every answer after it waits."""

    def __init__(self):
        super().__init__()
        self.gate = threading.Event()

    def choose(self, view, legal):
        self.gate.wait(20)
        return legal[0]


def _line(message: dict) -> str:
    return json.dumps(message)


def _wait_for(predicate, seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.005)
    return False


def _view() -> str:
    game = Game("casual", 2, seed=7)
    return game.view(game.turn).to_str()


@pytest.mark.parametrize("form", ["one block", "lines"])
def test_isready_behind_a_flood_is_answered_before_the_flood_is_parsed(form, monkeypatch):
    """The parsing is held up (the first request's answer is held back, and
    at most 16 finished answers may wait behind it), so the isready behind
    300 requests can only be answered by the reader, before it is parsed."""
    monkeypatch.setattr(engine_server, "MAX_WAITING", 16)
    view = _view()
    bot = _Gate()
    out: list[str] = []
    seen: dict = {}
    flood = [_line({"type": "request", "id": i, "view": view, "time_ms": 60000})
             for i in range(300)]
    ping = _line({"type": "isready", "id": "ping"})

    def lines():
        yield _line(HELLO)
        assert _wait_for(lambda: len(out) == 1)  # a driver waits for ready
        if form == "one block":
            yield ("\n".join(flood + [ping]) + "\n").encode()
        else:
            yield from flood
            yield ping
        seen["answered"] = _wait_for(lambda: any('"readyok"' in x for x in out))
        seen["out"] = [json.loads(x) for x in out]
        bot.gate.set()
        yield _line({"type": "quit"})

    engine_server.serve(bot, lines(), out.append, max_queue=8)
    replies = [json.loads(x) for x in out]
    assert seen["answered"]
    # nothing of the flood is answered yet (its first answer is held), and
    # the readyok is out
    assert seen["out"][0]["type"] == "ready"
    assert seen["out"][1:] == [{"type": "readyok", "id": "ping"}]
    answers = [m for m in replies[1:] if m["type"] != "readyok"]
    assert [m["id"] for m in answers] == list(range(300))  # in the order read
    assert [m for m in replies if m["type"] == "readyok"] == [{"type": "readyok", "id": "ping"}]
    assert answers[0]["type"] == "move"
    assert all(m["type"] == "move" or m["message"].startswith("busy: ") for m in answers)


def test_what_is_read_ahead_of_a_held_up_parsing_is_bounded(monkeypatch):
    """With the parsing held up, the reader stops taking input once the
    read-ahead is full: the rest stays with the driver (its pipe fills)."""
    monkeypatch.setattr(engine_server, "MAX_WAITING", 16)
    monkeypatch.setattr(engine_server, "MAX_READ_AHEAD", 64 * 1024)
    view = _view()
    line = _line({"type": "request", "id": 0, "view": view, "time_ms": 60000})
    bot = _Gate()
    out: list[str] = []
    taken = [0]

    def lines():
        yield _line(HELLO)
        for i in range(5000):
            taken[0] += 1
            yield line.replace('"id": 0', f'"id": {i}')
        yield _line({"type": "quit"})

    thread = threading.Thread(target=engine_server.serve, args=(bot, lines(), out.append),
                              kwargs={"max_queue": 8})
    thread.start()
    try:
        # the reader comes to rest: it waits for room in the read-ahead
        last = -1
        while taken[0] != last:
            last = taken[0]
            time.sleep(0.3)
        # the read-ahead's lines, the ones parsed (8 queued, 16 waiting, the
        # one running and the one the parsing holds) and the one in hand
        assert taken[0] <= 64 * 1024 // len(line) + 8 + 16 + 4
    finally:
        bot.gate.set()
        thread.join(timeout=60)
    answers = [json.loads(x) for x in out[1:]]
    assert [m["id"] for m in answers] == list(range(5000))


def _serve_bytes(data: bytes, bot=None) -> list[dict]:
    """``data`` through a pipe, read by a BlockReader, as ``gostop engine`` reads."""
    r, w = os.pipe()

    def writer():
        with os.fdopen(w, "wb") as f:
            f.write(data)

    thread = threading.Thread(target=writer)
    thread.start()
    out: list[str] = []
    try:
        engine_server.serve(bot or GreedyBot(), BlockReader(r), out.append)
    finally:
        thread.join()
        os.close(r)
    return [json.loads(x) for x in out]


def test_isready_read_with_a_hello_comes_after_the_ready():
    data = (_line(HELLO) + "\n" + _line({"type": "isready", "id": 1}) + "\n").encode()
    assert [m["type"] for m in _serve_bytes(data)] == ["ready", "readyok"]


def test_isready_behind_a_few_bad_lines_comes_after_their_errors():
    """Behind a few lines the parsing reaches isready soon: it is answered in
    turn, after the errors of the lines before it (the conformance test's
    garbage, a line nested too deep, a line over the cap)."""
    deep = '{"type": "isready", "id": 5, "x": ' + "[" * 10000 + "]" * 10000 + "}"
    long = '{"type": "isready", "id": 6, "pad": "' + "x" * (wire.MAX_LINE + 10) + '"}'
    data = "\n".join([_line(HELLO), "not json", deep, long,
                      _line({"type": "chat", "id": 7}), _line({"type": "isready", "id": 8}),
                      ""]).encode()
    replies = _serve_bytes(data)
    assert [(m["type"], m.get("id")) for m in replies] == [
        ("ready", None), ("error", None), ("error", 5), ("error", 6), ("error", 7),
        ("readyok", 8)]


def test_a_control_line_that_the_quick_look_misses_is_served_in_turn():
    """A type written with an escape, or an isready inside another message,
    is not taken for a control line by the reader; the parsing serves each."""
    data = "\n".join([_line(HELLO), '{"type": "\\u0069sready", "id": 1}',
                      _line({"type": "chat", "id": 2, "x": {"type": "isready"}}),
                      '{"type": "quit"}', _line({"type": "isready", "id": 3}), ""]).encode()
    replies = _serve_bytes(data)
    assert [(m["type"], m.get("id")) for m in replies] == [
        ("ready", None), ("readyok", 1), ("error", 2)]  # nothing after quit


def test_the_block_reader_gives_whole_lines_and_skips_an_over_long_one():
    """Lines split across reads come out whole; a line over the cap that
    spans reads is a TooLong (its head kept for the id); a last line without
    its newline is kept."""
    r, w = os.pipe()

    def writer():
        with os.fdopen(w, "wb", buffering=0) as f:
            f.write(b'{"type": "isre')
            time.sleep(0.05)
            f.write(b'ady", "id": 1}\n{"type": "request", "id": 9, "legal": ["')
            for _ in range(40):
                f.write(b"x" * 500_000)
            f.write(b'"]}\n{"type": "quit"}')

    thread = threading.Thread(target=writer)
    thread.start()
    reader = BlockReader(r)
    reader.CHUNK = 65536
    items = list(reader)
    thread.join()
    os.close(r)
    lines = []
    for item in items:
        if isinstance(item, TooLong):
            lines.append(item)
        else:
            assert len(item) <= wire.MAX_LINE + reader.CHUNK  # one read and a partial line
            lines.extend(x for x in item.split(b"\n") if x)
    assert lines[0] == b'{"type": "isready", "id": 1}'
    assert isinstance(lines[1], TooLong) and lines[1].size > 20_000_000
    assert wire.peek_id(lines[1].head) == 9
    assert lines[2:] == [b'{"type": "quit"}']
