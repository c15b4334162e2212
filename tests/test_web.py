"""The web table (gostop_web, docs/web.md) through Starlette's TestClient:
the lobby's checks, seat tokens, what a watcher and a seat are sent, error
frames for bad messages (nothing changes), the Origin check, the rate limit,
hints equal to ``gostop hint``'s, records and the replay."""

from __future__ import annotations

import json
import re
import shlex
import sys
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from click.testing import CliRunner  # noqa: E402
with warnings.catch_warnings():  # Starlette suggests httpx2, which the extra need not have
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from gostop_core import Game, read_records, svg  # noqa: E402
from gostop_core.cards import CARD_CODES  # noqa: E402
from gostop_core.bots.external import live_bot_pids  # noqa: E402
from gostop_core.rules import Rules, preset_names  # noqa: E402
from gostop_core.bots.analysis import hint_moves  # noqa: E402
from gostop_cli.main import cli  # noqa: E402
from gostop_web import ReplayLibrary, create_app  # noqa: E402
from gostop_web.app import MAX_MESSAGE_BYTES, RATE_BURST  # noqa: E402

BASE = "http://127.0.0.1:8000"
HOST = {"host": "127.0.0.1:8000"}


def quick_hint(view):
    """``gostop hint``'s function with a small, untimed search (deterministic)."""
    return hint_moves(view, depth=1, samples=8, time_ms=0)


@pytest.fixture
def client():
    app = create_app(hint=quick_hint, move_delay=0, seed=11)
    with TestClient(app, base_url=BASE) as c:
        c.app_state = app.state
        yield c


def new_table(c, rules="casual", players=2, seats=None):
    seats = seats if seats is not None else [None] + ["greedy"] * (players - 1)
    r = c.post("/api/tables", json={"rules": rules, "players": players, "seats": seats})
    assert r.status_code == 200, r.text
    return r.json()


def token_of(table, seat=0):
    return table["seats"][seat]["link"].split("token=")[1]


def watch_token(table):
    return table["watch"].split("token=")[1]


def records_of(c, table):
    return c.get(f"/api/tables/{table['table']}/records?token={watch_token(table)}")


def connect(c, table, token=None, headers=None):
    url = f"/ws/{table['table']}" + (f"?token={token}" if token else "")
    return c.websocket_connect(url, headers=headers or HOST)


def game_of(c, table) -> Game:
    return c.app_state.tables[table["table"]].game


def receive_until(ws, kind, errors_fail=False):
    """The next frame of ``kind``; with ``errors_fail`` an error frame on the way
    fails the test (a broken bot would otherwise leave it waiting for ever)."""
    while True:
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
        assert not (errors_fail and msg["type"] == "error"), msg


# ------------------------------------------------------------------ the lobby
def test_presets_list_the_player_counts_each_preset_allows(client):
    data = client.get("/api/presets").json()
    assert {p["name"]: p["players"] for p in data["presets"]} == {
        name: list(Rules(name).allowed_players()) for name in preset_names()}
    assert "greedy" in data["bots"] and data["hint"] is True
    assert client.get("/").status_code == 200


@pytest.mark.parametrize("body, status, words", [
    ({"rules": "nope", "players": 2, "seats": [None, "greedy"]}, 400, "rules"),
    ({"rules": "traditional", "players": 4, "seats": [None, "greedy", "greedy", "greedy"]},
     400, "player"),
    ({"rules": "casual", "players": 3, "seats": [None, "greedy"]}, 400, "seats"),
    ({"rules": "casual", "players": 2, "seats": ["greedy", "greedy"]}, 400, "person"),
    ({"rules": "casual", "players": 2, "seats": [None, "no-such-bot"]}, 400, "seat 1"),
    ({"rules": "casual", "players": 2, "seats": [None, "cmd:rm -rf /"]}, 400, "--bot"),
    ({"rules": "casual", "players": 2, "seats": [None, "greedy"], "x": 1}, 400, "send"),
    ([1, 2], 400, "send"),
])
def test_a_bad_table_request_is_refused_with_a_reason(client, body, status, words):
    r = client.post("/api/tables", json=body)
    assert r.status_code == status
    assert words in r.json()["error"]
    assert client.app_state.tables == {}


def test_table_creation_from_another_origin_or_host_is_refused(client):
    body = {"rules": "casual", "players": 2, "seats": [None, "greedy"]}
    assert client.post("/api/tables", json=body,
                       headers={"origin": "http://evil.example"}).status_code == 403
    assert client.post("/api/tables", json=body,
                       headers={"host": "evil.example"}).status_code == 400
    assert client.post("/api/tables", content=json.dumps(body),
                       headers={"content-type": "text/plain"}).status_code == 415
    assert client.post("/api/tables", json=body,
                       headers={"origin": BASE}).status_code == 200


LINE_BOT = (f"cmd:{shlex.quote(sys.executable)} "
            f"{Path(__file__).resolve().parents[1] / 'examples' / 'protocol' / 'line_bot.py'}")


def test_a_bot_program_plays_only_when_the_server_was_started_with_it():
    with TestClient(create_app(move_delay=0), base_url=BASE) as c:
        r = c.post("/api/tables", json={"rules": "casual", "players": 2,
                                        "seats": [None, LINE_BOT]})
        assert r.status_code == 400 and "--bot" in r.json()["error"]
    app = create_app(bots=[LINE_BOT], move_delay=0, seed=4)
    with TestClient(app, base_url=BASE) as c:
        c.app_state = app.state
        assert LINE_BOT in c.get("/api/presets").json()["bots"]
        table = new_table(c, seats=[None, LINE_BOT])
        assert table["seats"][1]["bot"] == LINE_BOT
        last = play_out(c, table)  # the program answers over the bot protocol
        assert last["outcome"] is not None
        assert any(d.seat == 1 for d in read_records(
            records_of(c, table).text)[0].decisions)
    assert live_bot_pids() == []  # the server's shutdown ended the program


# ------------------------------------------------------------------ card pictures
def test_card_pictures_come_from_the_svg_module(client):
    for code in ("1B", "11D", "X2", "back"):
        r = client.get(f"/cards/{code}.svg")
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        ET.fromstring(r.text)
    assert client.get("/cards/8B.svg").text == svg.card("8B", size=120)
    assert client.get("/cards/13Z.svg").status_code == 404


# ------------------------------------------------------------------ seats and watchers
def test_each_person_gets_an_unguessable_token_and_its_own_seat(client):
    table = new_table(client, players=3, seats=[None, None, "greedy"])
    tokens = [token_of(table, 0), token_of(table, 1)]
    assert len(set(tokens)) == 2 and all(len(t) >= 24 for t in tokens)
    assert table["seats"][2]["link"] is None
    g = game_of(client, table)
    for seat, tok in enumerate(tokens):
        with connect(client, table, tok) as ws:
            frame = ws.receive_json()
            assert frame["you"] == seat
            assert frame["view"]["hand"] == g.view(seat).hand.codes()


def hidden_cards(g: Game, seat: int | None) -> set[str]:
    """The cards ``seat`` may not see (a watcher: every hand), the stock's
    included: every card not on the field, in a captured pile or flipped."""
    seen = set(g.field.codes())
    for q in range(g.players):
        seen |= set(g.captured(q).codes())
    if seat is not None:
        seen |= set(g.hand(seat).codes())
    if g.flip_card:
        seen.add(g.flip_card)
    pack = CARD_CODES if g.rules.bonus_cards else CARD_CODES[:48]
    hidden = set(pack) - seen
    assert hidden  # the other hands and the stock
    return hidden


def names_a_card(text: str, code: str) -> bool:
    return re.search(rf"(?<![0-9A-Z]){re.escape(code)}(?![0-9])", text) is not None


def test_a_watcher_sees_only_public_information(client):
    table = new_table(client, players=3, seats=[None, "greedy", "greedy"])
    with connect(client, table, token=watch_token(table)) as ws:
        frame = ws.receive_json()
    assert frame["you"] is None and frame["view"]["hand"] is None and frame["legal"] == []
    g = game_of(client, table)
    text = json.dumps({k: v for k, v in frame.items() if k != "table"})  # the id is random text
    leaked = [c for c in hidden_cards(g, None) if names_a_card(text, c)]
    assert leaked == []
    assert "stock" not in frame["view"] or isinstance(frame["view"]["stock"], int)


def test_a_seat_is_sent_its_view_and_nothing_of_the_other_hands(client):
    table = new_table(client, players=2, seats=[None, None])
    g = game_of(client, table)
    with connect(client, table, token_of(table, 1)) as ws:
        frame = ws.receive_json()
    assert frame["view"] == json.loads(json.dumps(frame["view"]))
    text = json.dumps({k: v for k, v in frame.items() if k != "table"})  # the id is random text
    assert [c for c in hidden_cards(g, 1) if names_a_card(text, c)] == []
    assert set(frame["view"]["hand"]) == set(g.hand(1).codes())


# ------------------------------------------------------------------ bad messages
BAD_MESSAGES = [
    ("not json", "JSON"),
    ("[1, 2]", "JSON object"),
    (json.dumps({"type": "dance"}), "unknown message type"),
    (json.dumps({"type": "move", "move": "1B", "extra": 1}), "unknown key"),
    (json.dumps({"type": "move"}), "move string"),
    (json.dumps({"type": "move", "move": 7}), "move string"),
    (json.dumps({"type": "move", "move": "x" * 40}), "move string"),
    (json.dumps({"type": "move", "move": "1B", "seat": 1}), "own seat"),
    (json.dumps({"type": "move", "move": "1B", "seat": "0"}), "whole number"),
    (json.dumps({"type": "move", "move": "zz"}), "bad move"),
    (json.dumps({"type": "move", "move": "go"}), "not a legal move"),
    (json.dumps({"type": "move", "move": "1B", "turn": 99}), "earlier turn"),
    (json.dumps({"type": "next"}), "not over"),
    ("{" * 5000, "too long"),
    (json.dumps({"type": "move", "move": "1B", "pad": "y" * MAX_MESSAGE_BYTES}), "too long"),
]


@pytest.mark.parametrize("text, words", BAD_MESSAGES)
def test_a_bad_message_gets_an_error_frame_and_changes_nothing(client, text, words):
    table = new_table(client, seats=[None, None])
    g = game_of(client, table)
    before = g.position()
    with connect(client, table, token_of(table, 0)) as ws:
        ws.receive_json()
        ws.send_text(text)
        reply = ws.receive_json()
        assert reply["type"] == "error" and words in reply["error"], reply
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}  # the connection goes on
    assert g.position() == before


def test_binary_frames_are_refused(client):
    table = new_table(client, seats=[None, None])
    with connect(client, table, token_of(table, 0)) as ws:
        ws.receive_json()
        ws.send_bytes(b'{"type": "ping"}')
        assert ws.receive_json()["type"] == "error"


def test_only_the_seat_to_move_may_move_and_a_watcher_never(client):
    table = new_table(client, seats=[None, None])
    g = game_of(client, table)
    before = g.position()
    legal = str(next(iter(g.legal_moves)))
    assert g.turn == 0
    with connect(client, table, token_of(table, 1)) as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "move": legal})
        assert "not your turn" in ws.receive_json()["error"]
    with connect(client, table, watch_token(table)) as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "move": legal})
        assert "watcher" in ws.receive_json()["error"]
    assert g.position() == before


def test_a_legal_move_of_the_seat_to_move_is_played_and_broadcast(client):
    table = new_table(client, seats=[None, None])
    g = game_of(client, table)
    with connect(client, table, token_of(table, 0)) as me, \
            connect(client, table, token_of(table, 1)) as other:
        first = me.receive_json()
        other.receive_json()
        # seat 1's arrival is broadcast too (its connected mark)
        assert me.receive_json()["connected"] == [True, True]
        move = first["legal"][-1]
        me.send_json({"type": "move", "move": move, "turn": first["view"]["turns"]})
        mine, theirs = me.receive_json(), other.receive_json()
    assert str(g.move_stack[-1]) == move
    assert mine["view"]["turns"] == theirs["view"]["turns"] == g.view(0).turns
    assert theirs["view"]["hand"] == g.view(1).hand.codes()


def test_messages_beyond_the_rate_limit_get_error_frames(client):
    table = new_table(client, seats=[None, None])
    with connect(client, table, token_of(table, 0)) as ws:
        ws.receive_json()
        for _ in range(RATE_BURST + 10):
            ws.send_json({"type": "ping"})
        replies = [ws.receive_json() for _ in range(RATE_BURST + 10)]
    assert sum(r["type"] == "pong" for r in replies) >= RATE_BURST
    assert any(r["type"] == "error" and "too many" in r["error"] for r in replies)


def test_the_websocket_origin_is_checked(client):
    table = new_table(client, seats=[None, "greedy"])
    from starlette.websockets import WebSocketDisconnect
    for bad, code in (({"host": "127.0.0.1:8000", "origin": "http://evil.example"}, 4403),
                      ({"host": "evil.example:8000", "origin": "http://evil.example:8000"}, 4400)):
        with pytest.raises(WebSocketDisconnect) as info:
            with connect(client, table, token_of(table), headers=bad) as ws:
                ws.receive_json()
        assert info.value.code == code
    with connect(client, table, token_of(table),
                 headers={"host": "127.0.0.1:8000", "origin": BASE}) as ws:
        assert ws.receive_json()["type"] == "state"


# ------------------------------------------------------------------ hints
def test_the_hint_is_gostop_hint_ranking_of_the_seat_view(client):
    table = new_table(client, rules="standard", seats=[None, "greedy"])
    g = game_of(client, table)
    with connect(client, table, token_of(table)) as ws:
        ws.receive_json()
        ws.send_json({"type": "hint"})
        hint = receive_until(ws, "hint")
    expected = quick_hint(g.view(0))
    assert [m["move"] for m in hint["moves"]] == [str(r.move) for r in expected]
    assert [m["value"] for m in hint["moves"]] == pytest.approx([r.value for r in expected],
                                                                abs=1e-9)
    assert hint["unit"] == "chips"


# ------------------------------------------------------------------ whole hands, records
def play_out(c, table, seat=0):
    """Play the first legal move at each of ``seat``'s decisions to the hand's end."""
    with connect(c, table, token_of(table, seat)) as ws:
        frame = ws.receive_json()
        while frame["outcome"] is None:
            if frame["legal"]:
                ws.send_json({"type": "move", "move": frame["legal"][0]})
            frame = receive_until(ws, "state", errors_fail=True)
        return frame


@pytest.mark.parametrize("rules, players", [("casual", 4), ("traditional", 3),
                                            ("standard", 2), ("family", 3)])
def test_a_whole_hand_against_bots_gives_the_report_and_a_record(client, rules, players):
    table = new_table(client, rules=rules, players=players)
    last = play_out(client, table)
    g = game_of(client, table)
    names = last["names"]
    # the table's report opens with the engine's account of the hand (its payments
    # said in the preset's terms: tests/test_web_report.py); the record keeps the
    # engine's report as it is
    assert last["outcome"]["report"][0] == g.outcome().report(names)[0]
    r = records_of(client, table)
    assert r.status_code == 200
    records = read_records(r.text, verify=True)
    assert len(records) == 1 and records[0].outcome["report"] == g.outcome().report(names)
    assert records[0].format == "gostop-record/1"


def test_the_next_hand_is_dealt_on_request(client):
    table = new_table(client, seats=[None, "greedy"])
    play_out(client, table)
    with connect(client, table, token_of(table)) as ws:
        ws.receive_json()
        ws.send_json({"type": "next"})
        frame = receive_until(ws, "state")
    assert frame["hand_number"] == 2 and frame["outcome"] is None


# ------------------------------------------------------------------ replay and the CLI
def test_replay_serves_every_position_of_saved_hands(tmp_path, client):
    table = new_table(client, rules="standard")
    play_out(client, table)
    path = tmp_path / "games.jsonl"
    path.write_text(records_of(client, table).text)
    library = ReplayLibrary.from_file(str(path))
    app = create_app(replay=library)
    with TestClient(app, base_url=BASE) as c:
        assert c.get("/replay").status_code == 200
        summary = c.get("/api/replay").json()
        assert len(summary["games"]) == 1
        data = c.get("/api/replay/0").json()
        record = library.records[0]
        assert len(data["frames"]) == len(record.decisions) + 1
        # the replay's report is the table's, opening with the record's account
        assert data["frames"][-1]["outcome"]["report"][0] == record.outcome["report"][0]
        assert data["frames"][-1]["outcome"]["report"][-1].startswith("chips: ")
        assert [f["decision"] for f in data["frames"][1:]] == [d.move for d in record.decisions]
        assert c.get("/api/replay/5").status_code == 404


def test_serve_help_and_bad_replay_file(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0 and "gostop serve --open" in result.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    result = runner.invoke(cli, ["serve", "--replay", str(bad)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith("Error:")


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "gostop_web", None)  # import fails
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 2
    assert "pip install 'gostop[web]'" in result.output and result.output.count("\n") == 1


def test_the_hint_frame_matches_the_gostop_hint_command(client):
    """The same view through ``gostop hint --json`` with the same settings: the
    same moves in the same order with the same values."""
    table = new_table(client, rules="casual", seats=[None, "greedy"])
    g = game_of(client, table)
    with connect(client, table, token_of(table)) as ws:
        ws.receive_json()
        ws.send_json({"type": "hint"})
        hint = receive_until(ws, "hint")
    result = CliRunner().invoke(cli, ["hint", g.view(0).to_str(), "--depth", "1", "--samples",
                                      "8", "--time", "0", "--json"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert [m["move"] for m in hint["moves"]] == [m["move"] for m in printed["moves"]]
    # the command's JSON rounds the values: equal to its precision
    assert [m["value"] for m in hint["moves"]] == pytest.approx(
        [m["value"] for m in printed["moves"]], abs=1e-3)


def test_gostop_serve_listens_on_the_loopback_and_stops_on_ctrl_c():
    """The real command: it serves the lobby on 127.0.0.1 and Ctrl-C ends it at once."""
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "gostop_cli", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as r:
                    assert r.status == 200 and "Go-Stop" in r.read().decode()
                break
            except OSError:
                assert proc.poll() is None, proc.communicate()
                assert time.monotonic() < deadline, "gostop serve did not start"
                time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert f"http://127.0.0.1:{port}/" in out
    assert "Traceback" not in err


def test_a_repeated_hint_request_is_searched_once(client):
    calls = []

    def counting_hint(view):
        calls.append(view.to_str())
        return quick_hint(view)
    app = create_app(hint=counting_hint, move_delay=0, seed=3)
    with TestClient(app, base_url=BASE) as c:
        table = new_table(c, seats=[None, "greedy"])
        with connect(c, table, token_of(table)) as ws:
            ws.receive_json()
            for _ in range(3):
                ws.send_json({"type": "hint"})
            hints = [receive_until(ws, "hint") for _ in range(3)]
    assert len(calls) == 1
    assert hints[0] == hints[1] == hints[2] and hints[0]["moves_played"] == 0


def test_a_malformed_host_or_origin_is_refused(client):
    body = {"rules": "casual", "players": 2, "seats": [None, "greedy"]}
    assert client.post("/api/tables", json=body, headers={"host": "[::1"}).status_code == 400
    assert client.post("/api/tables", json=body,
                       headers={"origin": "http://[::1"}).status_code == 403
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400


def test_gostop_serve_on_a_port_in_use_says_so_on_one_line():
    import socket
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: cannot listen on 127.0.0.1:{port}")
    assert result.output.count("\n") == 1


SLOW_BOT = f"{Path(__file__).parent / 'bots' / 'slow_bot.py'}:SlowBot"


def test_a_thinking_bot_does_not_block_the_other_tables():
    """While one table's bot thinks (1.5 s, in a worker thread), another table
    answers at once."""
    import time
    app = create_app(bots=[SLOW_BOT], move_delay=0, seed=8)
    with TestClient(app, base_url=BASE) as c:
        slow = new_table(c, seats=[None, SLOW_BOT])
        other = new_table(c, seats=[None, None])
        with connect(c, slow, token_of(slow)) as ws:
            frame = ws.receive_json()
            ws.send_json({"type": "move", "move": frame["legal"][-1]})
            assert ws.receive_json()["view"]["to_move"] == 1  # the bot starts thinking
            with connect(c, other, token_of(other)) as ws2:
                started = time.monotonic()
                ws2.receive_json()
                ws2.send_json({"type": "ping"})
                assert ws2.receive_json() == {"type": "pong"}
                assert time.monotonic() - started < 1.0
            assert receive_until(ws, "state")["view"]["to_move"] == 0  # the bot played


def test_a_socket_to_no_table_is_closed_with_4404(client):
    from starlette.websockets import WebSocketDisconnect
    with pytest.raises(WebSocketDisconnect) as info:
        with client.websocket_connect("/ws/no-such-table", headers=HOST) as ws:
            ws.receive_json()
    assert info.value.code == 4404
