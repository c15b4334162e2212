"""The web table's fast path (issue 33, docs/performance.md): a broadcast builds
the public part of a position once and each seat's frame from it (the frames
sent are checked in test_web_report.py), frames are
encoded by orjson where it is installed, a slow reader's read is cancelled
without a second future per message, closing a table stops its bots' searches
(never every search in the process), and a table keeps no unbounded history."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra")

from gostop_core import Game  # noqa: E402
from gostop_core.bots.search import StopToken, stop_requested  # noqa: E402
from gostop_web import encoding  # noqa: E402
from gostop_web.app import Routes  # noqa: E402
from gostop_web.botspecs import BotPolicy  # noqa: E402
from gostop_web.connection import CLOSE_SLOW, WsConnection  # noqa: E402
from gostop_web.registry import TableRegistry  # noqa: E402
from gostop_web.state import seat_view_state, view_state  # noqa: E402
from gostop_web.tables import Table  # noqa: E402


@pytest.mark.parametrize("rules,players", [("casual", 2), ("standard", 3), ("traditional", 2),
                                           ("family", 4), ("casual", 4)])
def test_each_seats_state_built_on_the_public_one_is_its_own_view_state(rules, players):
    """At every decision of a seeded hand, every seat's state made from any
    seat's public state is exactly the state of that seat's own view."""
    rng = random.Random(players)
    game = Game(rules, players, seed=17)
    while True:
        public = [view_state(game.view(p), own_hand=False) for p in range(players)]
        assert all(pub == public[0] for pub in public)  # the public part is every seat's
        for q in range(players):
            own = view_state(game.view(q))
            for p in range(players):
                assert seat_view_state(game.view(q), public[p]) == own
        if game.is_over():
            break
        game.push(rng.choice(list(game.legal_moves)))


def test_frames_are_encoded_the_same_with_either_encoder():
    frame = {"text_ko": "봇 1이(가) 3B를 냅니다", "stop_value": {"1": 3}, "n": [1, 2.5, None],
             "ok": True}
    text = encoding.dumps(frame)
    assert json.loads(text) == frame
    assert text == json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
    assert encoding.dumps({3: "x"}) == '{"3":"x"}'  # a key that is not a string
    assert json.loads(encoding.dumps({"big": 2 ** 70})) == {"big": 2 ** 70}  # past orjson's ints
    assert encoding.ENCODER in ("orjson", "json")


def test_closing_a_table_stops_its_bots_searches_and_no_other():
    """A searching bot of a table holds a stop token of its own: closing the
    table (Ctrl-C ends the server this way) sets it, and the process-wide stop
    of the deprecated request_stop stays off, so other searches go on."""
    table = Table.create("casual", 2, [None, "expectimax-v1"], move_delay=0, seed=1)
    other = Table.create("casual", 2, [None, "expectimax-v1"], move_delay=0, seed=1)
    token = table.seats[1].bot.stop_token
    assert isinstance(token, StopToken) and not token.is_set()
    assert other.seats[1].bot.stop_token is not token
    table.close()
    assert token.is_set() and not other.seats[1].bot.stop_token.is_set()
    assert not stop_requested()
    other.close()


def test_a_replaced_bot_stops_searching():
    """A bot that took too long is replaced by greedy; its search, still running in
    a worker, is told to stop so that the worker is free again."""
    table = Table.create("casual", 2, [None, "expectimax-v1"], move_delay=0, seed=1)
    token = table.seats[1].bot.stop_token
    table._replace_bot(table.seats[1], "took_too_long")
    assert token.is_set() and table.seats[1].bot_spec == "greedy"
    table.close()


class NeverSends:
    """A socket whose peer reads nothing and sends nothing."""

    def __init__(self):
        self.closed_with = None

    async def send_text(self, text):
        await asyncio.Event().wait()

    async def receive(self):
        await asyncio.Event().wait()

    async def close(self, code=1000):
        self.closed_with = code


def test_a_slow_reader_waiting_on_its_read_is_dropped_and_its_serving_ends():
    """The serving loop waits on the socket alone; dropping the connection as a
    slow reader cancels that wait, and the loop ends without an error."""
    async def scenario():
        routes = Routes(TableRegistry(4, 4), None, BotPolicy(), None, None, 0, 1,
                        (10.0, 20), 4, None)
        table = Table.create("casual", 2, [None, None], None, 0, seed=3)
        conn = WsConnection(NeverSends(), 1, queue_size=4)
        table.join(conn)
        conn.start()
        serving = asyncio.ensure_future(routes._serve(table, conn))
        await asyncio.sleep(0)
        for _ in range(10):
            await table.broadcast()
            await asyncio.sleep(0)
        await asyncio.wait_for(serving, 2)
        assert serving.result() is None  # ended, not failed nor cancelled
        await asyncio.sleep(0)
        assert conn.closed and conn.ws.closed_with == CLOSE_SLOW
    asyncio.run(scenario())


def test_a_table_keeps_its_records_compressed_and_no_hand_list():
    async def run():
        table = Table.create("casual", 2, [None, None], move_delay=0, seed=2)
        rng = random.Random(2)
        for _ in range(4):
            g = table.game
            while not g.is_over():
                await table.play(g.turn, str(rng.choice(list(g.legal_moves))))
            await table.next_hand(0)
        return table
    table = asyncio.run(run())
    assert table.match.hands == [] and table.match.hands_played == 4
    assert table.hand_number == 5
    lines = table.record_lines().splitlines()
    assert [json.loads(x)["match"]["hand"] for x in lines] == [1, 2, 3, 4]
    assert sum(map(len, table.records)) < sum(map(len, lines)) / 2
