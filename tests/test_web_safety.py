"""The web table opened to a room (issue 33): each defect found in round 2 has
a test here.  A slow reader is dropped and the table goes on; a page seats only
the registry's bots with capped settings and can name no file; every route
checks the Host; a deep JSON body is a 400; quotas on tables, watchers, the
rate limit and the records; a failing or stuck bot is replaced by greedy; a
fault while handling a message is an error frame, not a dead socket."""

from __future__ import annotations

import asyncio
import json
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from gostop_web import create_app  # noqa: E402
from gostop_web.botspecs import BotPolicy, BotRefused  # noqa: E402
from gostop_web.connection import CLOSE_SLOW, WsConnection  # noqa: E402
from gostop_web.registry import TableRegistry  # noqa: E402
from gostop_web.security import (  # noqa: E402
    STRIKE_LIMIT, HostGuard, RequestError, TokenBucket, load_json, machine_hosts,
)
from gostop_web.tables import MAX_RECORDS, Table  # noqa: E402

BASE = "http://127.0.0.1:8000"
HOST = {"host": "127.0.0.1:8000"}
BOTS = Path(__file__).parent / "bots"


@pytest.fixture
def client():
    app = create_app(move_delay=0, seed=5, tables_per_client=3, max_watchers=2)
    with TestClient(app, base_url=BASE) as c:
        c.app_state = app.state
        yield c


def new_table(c, seats=(None, "greedy"), rules="casual"):
    return c.post("/api/tables", json={"rules": rules, "players": len(seats),
                                       "seats": list(seats)})


def token(table, seat=0):
    return table["seats"][seat]["link"].split("token=")[1]


def watch(table):
    return table["watch"].split("token=")[1]


# ------------------------------------------------------------ 1: a slow reader
class NeverReads:
    """A socket whose peer reads nothing: every send waits for ever."""

    def __init__(self):
        self.sent = 0
        self.closed_with = None

    async def send_text(self, text):
        self.sent += 1
        if self.sent > 3:
            await asyncio.Event().wait()

    async def close(self, code=1000):
        self.closed_with = code
        await asyncio.Event().wait()  # not even the close frame gets through


class Reads:
    def __init__(self):
        self.frames = []

    async def send_text(self, text):
        self.frames.append(json.loads(text))

    async def close(self, code=1000):
        pass


def test_a_reader_that_never_reads_is_dropped_and_the_table_goes_on():
    async def scenario():
        table = Table.create("casual", 2, [None, None], None, 0, seed=3)
        slow = WsConnection(NeverReads(), 1, queue_size=8)
        good = WsConnection(Reads(), 0, queue_size=8)
        for conn in (slow, good):
            table.join(conn)
            conn.start()
        for _ in range(40):  # far more frames than the slow queue holds
            await table.broadcast()
            await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        assert slow.closed and slow.ws.closed_with == CLOSE_SLOW
        assert slow not in table.connections and good in table.connections
        await good.drain()
        assert len(good.ws.frames) == 40
        assert good.ws.frames[-1]["connected"] == [True, False]  # seat 1 shown as gone
    asyncio.run(scenario())


# ------------------------------------------------------------ 2, 3: bots from a page
@pytest.mark.parametrize("spec", [
    "learned:weights=/dev/stdin", "learned:weights=/etc/shadow",
    "expectimax:depth=2,samples=1024", "ismcts:iterations=16777216",
    "expectimax:depth=3", "cmd:python bot.py", "tests/bots/slow_bot.py:SlowBot",
    "some_module:Bot", "someplugin", "ismcts:time=100000",
])
def test_a_page_cannot_seat_a_costly_bot_or_name_a_file(client, spec):
    r = new_table(client, seats=(None, spec))
    assert r.status_code == 400
    error = r.json()["error"]
    assert error.startswith("seat 1:")
    # the server never opened the path, so the answer tells nothing about it
    for word in ("JSON", "exist", "directory", "permission", "format", "readable"):
        assert word not in error
    assert client.app_state.tables == {}


@pytest.mark.parametrize("spec", ["greedy", "learned", "expectimax:depth=2,samples=64",
                                  "ismcts:iterations=2000,c=0.7", "best:samples=128"])
def test_the_registry_bots_with_settings_inside_the_caps_are_seated(spec):
    assert BotPolicy().check(spec)


def test_a_bot_named_with_dash_dash_bot_is_seated_as_given():
    slow = f"{BOTS / 'slow_bot.py'}:SlowBot"
    assert BotPolicy([slow]).check(slow) == slow
    with pytest.raises(BotRefused):
        BotPolicy([slow]).check(slow + "x")


# ------------------------------------------------------------ 4, 6: hosts
@pytest.mark.parametrize("path", ["/", "/api/presets", "/api/replay", "/replay",
                                  "/cards/1B.svg", "/static/style.css", "/t/x",
                                  "/api/tables/x/records"])
def test_every_route_refuses_an_unknown_host(client, path):
    r = client.get(path, headers={"host": "evil.example:8000"})
    assert r.status_code == 400 and r.text == "unknown host"


def test_a_loopback_address_other_than_127_0_0_1_answers_to_its_own_name():
    assert "127.0.0.2" in machine_hosts("127.0.0.2")
    guard = HostGuard(None, machine_hosts("127.0.0.2"))
    assert guard.allows({"host": "127.0.0.2:8000"})
    assert not guard.allows({"host": "evil.example"})


def test_a_wildcard_bind_answers_to_the_machine_not_to_any_name():
    hosts = machine_hosts("0.0.0.0")
    assert "127.0.0.1" in hosts and "evil.example" not in hosts
    assert not HostGuard(None, hosts).allows({"host": "evil.example:8000"})


def test_a_table_from_evil_example_is_refused_on_a_lan_server():
    app = create_app(move_delay=0, trusted_hosts=machine_hosts("0.0.0.0"))
    with TestClient(app, base_url=BASE) as c:
        r = c.post("/api/tables", json={"rules": "casual", "players": 2,
                                        "seats": [None, "greedy"]},
                   headers={"host": "evil.example", "origin": "http://evil.example"})
        assert r.status_code == 400 and app.state.tables == {}


# ------------------------------------------------------------ 5: deep JSON
def test_a_deeply_nested_body_is_a_400_with_a_reason(client):
    body = "[" * 1500 + "]" * 1500
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "nested deeper" in r.json()["error"]


def test_the_depth_cap_ignores_brackets_inside_strings():
    assert load_json('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') == {"a": "[" * 28}
    with pytest.raises(RequestError):
        load_json("[" * 17 + "]" * 17)


# ------------------------------------------------------------ 7: quotas
def test_one_client_address_holds_a_few_tables_only(client):
    for _ in range(3):
        assert new_table(client).status_code == 200
    r = new_table(client)
    assert r.status_code == 503 and "tables" in r.json()["error"]


def test_a_table_admits_a_few_watchers_and_no_link_without_a_token(client):
    table = new_table(client).json()
    url = f"/ws/{table['table']}?token={watch(table)}"
    with client.websocket_connect(url, headers=HOST) as w1, \
            client.websocket_connect(url, headers=HOST) as w2:
        w1.receive_json(), w2.receive_json()
        with pytest.raises(WebSocketDisconnect) as info:
            with client.websocket_connect(url, headers=HOST) as w3:
                assert "watchers" in w3.receive_json()["error"]
                w3.receive_json()
        assert info.value.code == 4429
    for bad in ("", "?token=wrong"):
        with pytest.raises(WebSocketDisconnect) as info:
            with client.websocket_connect(f"/ws/{table['table']}{bad}", headers=HOST) as ws:
                ws.receive_json()
        assert info.value.code == 4401
    assert client.get(f"/api/tables/{table['table']}/records").status_code == 403


def test_the_rate_limit_forgets_old_refusals():
    now = [0.0]
    bucket = TokenBucket(rate=10, burst=2, window=10, clock=lambda: now[0])
    for _ in range(STRIKE_LIMIT - 1):  # a burst too fast...
        bucket.strike()
    now[0] += 11  # ...long ago
    assert bucket.strike() == 1


def test_a_table_keeps_a_bounded_ring_of_records():
    table = Table.create("casual", 2, [None, "greedy"], None, 0, seed=1)
    for i in range(MAX_RECORDS + 5):
        table.records.append(str(i))
    assert len(table.records) == MAX_RECORDS and table.records[0] == "5"


# ------------------------------------------------------------ 11: the registry, faults
def test_idle_tables_are_dropped_by_last_activity_not_by_age():
    now = [10_000.0]
    registry = TableRegistry(max_tables=2, per_client=2, idle_seconds=100,
                             clock=lambda: now[0])
    old_but_busy = Table.create("casual", 2, [None, "greedy"], None, 0, seed=1)
    idle = Table.create("casual", 2, [None, "greedy"], None, 0, seed=2)
    old_but_busy.created = idle.created = now[0] - 1000
    old_but_busy.last_active, idle.last_active = now[0] - 10, now[0] - 1000
    registry.add(old_but_busy, "a")
    registry.add(idle, "b")
    assert registry.drop_idle() == 1
    assert old_but_busy.id in registry and idle.id not in registry


def test_a_fault_in_the_hint_is_an_error_frame_and_the_socket_lives():
    def broken_hint(view):
        raise RuntimeError("the search broke")
    app = create_app(hint=broken_hint, move_delay=0, seed=5)
    with TestClient(app, base_url=BASE) as c:
        table = new_table(c, seats=(None, None)).json()
        with c.websocket_connect(f"/ws/{table['table']}?token={token(table)}",
                                 headers=HOST) as ws:
            ws.receive_json()
            ws.send_json({"type": "hint"})
            error = ws.receive_json()
            assert error["type"] == "error" and "the search broke" in error["error"]
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}


def test_a_stuck_bot_is_replaced_by_greedy_with_a_notice():
    import importlib.util
    spec = importlib.util.spec_from_file_location("stuck_bot", BOTS / "stuck_bot.py")
    stuck = f"{BOTS / 'stuck_bot.py'}:StuckBot"
    app = create_app(bots=[stuck], move_delay=0, seed=4, bot_seconds=0.3)
    with TestClient(app, base_url=BASE) as c:
        table = new_table(c, seats=(None, stuck)).json()
        with c.websocket_connect(f"/ws/{table['table']}?token={token(table)}",
                                 headers=HOST) as ws:
            frame = ws.receive_json()
            while frame["type"] != "state" or frame["view"]["to_move"] != 0 or not frame["legal"]:
                frame = ws.receive_json()
            ws.send_json({"type": "move", "move": frame["legal"][-1]})
            seen = []
            while True:
                msg = ws.receive_json()
                seen.append(msg["type"])
                if msg["type"] == "notice":
                    assert msg["problem"] == "took_too_long" and msg["seat"] == 1
                if msg["type"] == "state" and "notice" in seen and msg["bots"][1] == "greedy":
                    break
        tbl = next(iter(app.state.tables.values()))
        assert tbl.seats[1].bot.__class__.__name__ == "GreedyBot"
    module = [m for m in __import__("sys").modules.values()
              if getattr(m, "__file__", None) == str(BOTS / "stuck_bot.py")]
    for m in module:
        m.RELEASE.set()
    del spec


def test_gostop_serve_on_every_interface_warns_and_prints_the_lan_link_with_its_qr():
    """The real command on 0.0.0.0: a warning, the LAN address and its QR code;
    a request with another site's Host is refused; Ctrl-C ends it at once."""
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "gostop_cli", "serve", "--host", "0.0.0.0",
                             "--port", str(port), "--allow-host", "table.lan"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as r:
                    assert r.status == 200
                break
            except OSError:
                assert proc.poll() is None, proc.communicate()
                assert time.monotonic() < deadline, "gostop serve did not start"
                time.sleep(0.1)
        for host, status in (("evil.example", 400), ("table.lan", 200)):
            req = urllib.request.Request(f"http://127.0.0.1:{port}/api/presets",
                                         headers={"Host": host})
            try:
                with urllib.request.urlopen(req, timeout=2) as r:
                    got = r.status
            except urllib.error.HTTPError as exc:
                got = exc.code
            assert got == status, host
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        assert time.monotonic() - started < 5
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "warning: the table is open to the local network" in out
    lan = machine_hosts("0.0.0.0")
    if any(h[0].isdigit() and not h.startswith("127.") for h in lan):
        assert "on the local network: http://" in out and "▄" in out  # the QR code
    assert "0.0.0.0" not in out.splitlines()[0]
    assert "Traceback" not in err


# ------------------------------------------------------------ 8: Korean from the one table
@pytest.mark.parametrize("rules, players", [("casual", 3), ("traditional", 2),
                                            ("standard", 2), ("family", 4)])
def test_the_korean_report_and_names_come_from_the_shared_table(rules, players):
    import re
    from gostop_core.bots import GreedyBot
    from gostop_core.korean import translate
    from gostop_cli.korean import translate as cli_translate
    assert cli_translate is translate  # one table for the terminal and the web
    greedy = GreedyBot(1)
    for seed in range(3):
        table = Table.create(rules, players, [None] + ["greedy"] * (players - 1), None, 0,
                             seed=seed)
        g = table.game
        while not g.is_over():
            table._push(greedy.choose(g.view(g.turn), list(g.legal_moves)))
        frame = table.state_for(0)
        assert frame["names_ko"][0] == "참가자 0" and frame["names_ko"][1].startswith("봇 1")
        for line in frame["outcome"]["report_ko"]:
            words = re.findall(r"[A-Za-z]{2,}", re.sub(r"\((greedy)\)", "", line))
            assert words == [], line


def test_the_shipped_korean_font_has_every_hangul_character_the_page_uses():
    import importlib.util
    from fontTools.ttLib import TTFont
    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("subset_font",
                                                  root / "scripts" / "subset_korean_font.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    font = TTFont(script.OUT)
    cmap = font.getBestCmap()
    missing = [c for c in script.used_hangul() if ord(c) not in cmap]
    assert missing == [], "run scripts/subset_korean_font.py again"
    assert script.OUT.stat().st_size < 300_000
    names = {r.toUnicode() for r in font["name"].names if r.nameID == 1}
    assert names == {"Gostop Hangul"}  # renamed, as the OFL asks of a modified font
    licence = (script.OUT.parent / "hangul-LICENSE.txt").read_text()
    assert "SIL OPEN FONT LICENSE" in licence and "NAVER" in licence  # shipped beside it
