"""The web table as an ASGI application (Starlette): the lobby, the tables'
pages and WebSockets, card pictures, record downloads and the replay.

Security (docs/web.md): a WebSocket frame to a seat is built from that seat's
:class:`~gostop_core.PlayerView` only; every client message is checked (size,
JSON shape, the seat's own move, on its turn, legal now, a rate limit) and a bad
one gets an error frame and changes nothing; WebSocket handshakes and table
creation are refused from another origin or for a host name the server does not
serve (DNS rebinding)."""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any, Iterable
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from gostop_core import Rules, preset_names, svg
from gostop_core.bots import BOT_NAMES, SETTINGS_PREFIXES
from gostop_core.cards import CARD_CODES
from gostop_web.replay import ReplayLibrary
from gostop_web.tables import BUILTIN_BOTS, MAX_TABLES, HintFunction, Table, TableError

__all__ = ["create_app", "MAX_MESSAGE_BYTES", "RATE_PER_SECOND", "RATE_BURST",
           "LOOPBACK_HOSTS"]

#: The largest client message accepted (a move is a few bytes).
MAX_MESSAGE_BYTES = 1024
#: Messages a connection may send: RATE_BURST at once, then RATE_PER_SECOND.
RATE_PER_SECOND = 10.0
RATE_BURST = 20
#: Host names a server bound to the loopback interface answers to.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
#: Width of a served card picture (the page scales it).
CARD_PICTURE_WIDTH = 120
#: Keys a client message may hold, by type.
_MESSAGE_KEYS = {"move": {"type", "move", "seat", "turn"}, "hint": {"type", "seat"},
                 "next": {"type", "seat"}, "ping": {"type"}}


class TokenBucket:
    """A rate limit: ``burst`` messages at once, refilled at ``rate`` per second."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST):
        self.rate, self.burst = rate, float(burst)
        self.level = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1.0:
            return False
        self.level -= 1.0
        return True


class WsConnection:
    """One browser connection to a table: its seat (``None``: a watcher)."""

    def __init__(self, ws: WebSocket, seat: int | None,
                 rate: tuple[float, int] = (RATE_PER_SECOND, RATE_BURST)):
        self.ws = ws
        self.seat = seat
        self.bucket = TokenBucket(*rate)
        self._send_lock = asyncio.Lock()

    async def send_json(self, data: Any) -> None:
        async with self._send_lock:  # a bot task and the handler may both send
            await self.ws.send_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


class MessageError(ValueError):
    """A client message that is refused."""


def parse_message(text: str | None, seat: int | None) -> dict[str, Any]:
    """A client message checked for size and shape; raises :class:`MessageError`."""
    if text is None:
        raise MessageError("send text frames holding JSON")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise MessageError(f"message too long (at most {MAX_MESSAGE_BYTES} bytes)")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise MessageError("a message is a JSON object") from None
    if not isinstance(msg, dict):
        raise MessageError("a message is a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in _MESSAGE_KEYS:
        raise MessageError(f"unknown message type; one of {', '.join(_MESSAGE_KEYS)}")
    extra = set(msg) - _MESSAGE_KEYS[kind]
    if extra:
        raise MessageError(f"unknown key(s) in a {kind} message: {', '.join(sorted(extra))}")
    if "seat" in msg:
        if type(msg["seat"]) is not int:
            raise MessageError("seat must be a whole number")
        if msg["seat"] != seat:
            raise MessageError("you can act only for your own seat")
    if kind == "move":
        move = msg.get("move")
        if not isinstance(move, str) or not 1 <= len(move) <= 16:
            raise MessageError("a move message needs a move string (e.g. \"3B/3R\")")
        turn = msg.get("turn")
        if turn is not None and type(turn) is not int:
            raise MessageError("turn must be a whole number")
    if kind in ("move", "hint", "next") and seat is None:
        raise MessageError("a watcher cannot play: join with your seat's link")
    return msg


def _builtin_spec(spec: str) -> bool:
    key = spec.strip().lower()
    return key in BOT_NAMES or key.startswith(SETTINGS_PREFIXES)


def _page(name: str) -> str:
    return resources.files("gostop_web").joinpath("static", name).read_text("utf-8")


def create_app(*, hint: HintFunction | None = None, bots: Iterable[str] = (),
               trusted_hosts: Iterable[str] | None = LOOPBACK_HOSTS,
               move_delay: float = 0.6, seed: int | None = None,
               replay: ReplayLibrary | None = None, workers: int = 4,
               max_tables: int = MAX_TABLES,
               rate: tuple[float, int] = (RATE_PER_SECOND, RATE_BURST)) -> Starlette:
    """The web table.  ``hint`` ranks a view's moves (``gostop serve`` passes
    ``gostop hint``'s function; ``None`` turns the hint button off).  ``bots``
    are the bot specifications the lobby offers besides the built-in bots and
    installed plug-ins (an outside ``cmd:`` program or a Python file is run only
    when the person who started the server named it).  ``trusted_hosts`` are
    the host names the server answers to (``None``: any).  ``move_delay`` is the
    pause before each bot move, for the eye; ``seed`` fixes the deals (tests);
    ``rate`` is each connection's message limit (per second, burst)."""
    approved = {b.strip() for b in bots}
    hosts = None if trusted_hosts is None else {h.lower().strip("[]") for h in trusted_hosts}
    tables: dict[str, Table] = {}
    executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gostop-bot")

    def allow_spec(spec: str) -> bool:
        if _builtin_spec(spec) or spec.strip() in approved:
            return True
        # a name alone is a registered plug-in (installed code); a path, a module
        # or a command runs code and must be named by whoever started the server
        return ":" not in spec and "/" not in spec and "\\" not in spec and "." not in spec

    def host_ok(headers) -> bool:
        try:
            name = urlsplit("//" + headers.get("host", "")).hostname or ""
        except ValueError:  # a malformed Host header
            return False
        return hosts is None or name.lower() in hosts

    def origin_ok(headers) -> bool:
        """Same origin (or no Origin header: not a browser) and a host we serve."""
        if not host_ok(headers):
            return False
        origin = headers.get("origin")
        if origin is None:
            return True
        try:
            parts = urlsplit(origin)
        except ValueError:
            return False
        return parts.scheme in ("http", "https") and parts.netloc == headers.get("host")

    # ------------------------------------------------------------ pages
    async def lobby(request: Request) -> Response:
        if not host_ok(request.headers):
            return PlainTextResponse("unknown host", 400)
        return HTMLResponse(_page("index.html"))

    async def table_page(request: Request) -> Response:
        if not host_ok(request.headers):
            return PlainTextResponse("unknown host", 400)
        if request.path_params["table"] not in tables:
            return PlainTextResponse("no such table", 404)
        return HTMLResponse(_page("table.html"))

    async def replay_page(request: Request) -> Response:
        if not host_ok(request.headers):
            return PlainTextResponse("unknown host", 400)
        if replay is None:
            return PlainTextResponse("no replay: start the server with --replay FILE", 404)
        return HTMLResponse(_page("replay.html"))

    async def presets(request: Request) -> Response:
        out = []
        for name in preset_names():
            rules = Rules(name)
            out.append({"name": name, "players": list(rules.allowed_players()),
                        "go_stop": bool(rules.go_stop)})
        return JSONResponse({"presets": out, "bots": list(BUILTIN_BOTS) + sorted(approved),
                             "hint": hint is not None, "replay": replay is not None})

    async def create_table(request: Request) -> Response:
        if not origin_ok(request.headers):
            return JSONResponse({"error": "cross-origin request refused"}, 403)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"error": "send JSON"}, 415)
        body = await request.body()
        if len(body) > 4096:
            return JSONResponse({"error": "request too large"}, 413)
        try:
            data = json.loads(body)
            rules, players, seats = _table_request(data)
        except (ValueError, MessageError) as exc:
            return JSONResponse({"error": str(exc)}, 400)
        if len(tables) >= max_tables:
            _drop_idle(tables)
            if len(tables) >= max_tables:
                return JSONResponse({"error": "the server holds as many tables as it may"}, 503)
        try:
            table = await asyncio.get_running_loop().run_in_executor(
                executor, lambda: Table.create(rules, players, seats, executor, move_delay,
                                               seed, allow_spec))
        except TableError as exc:
            return JSONResponse({"error": str(exc)}, 400)
        tables[table.id] = table
        base = f"/t/{table.id}"
        return JSONResponse({
            "table": table.id, "watch": base,
            "seats": [{"seat": s.index, "name": s.name, "bot": s.bot_spec,
                       "link": f"{base}?token={s.token}" if s.token else None}
                      for s in table.seats]})

    async def records(request: Request) -> Response:
        if not host_ok(request.headers):
            return PlainTextResponse("unknown host", 400)
        table = tables.get(request.path_params["table"])
        if table is None:
            return PlainTextResponse("no such table", 404)
        return Response(table.record_lines(), media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="gostop-{table.id}.jsonl"'})

    async def card(request: Request) -> Response:
        code = request.path_params["code"]
        # the package's own drawings (gostop_core.svg): no image file from outside
        if code == "back":
            body = svg.back(size=CARD_PICTURE_WIDTH)
        elif code in CARD_CODES:
            body = svg.card(code, size=CARD_PICTURE_WIDTH)
        else:
            return PlainTextResponse("no such card", 404)
        return Response(body, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    async def replay_data(request: Request) -> Response:
        if replay is None:
            return JSONResponse({"error": "no replay loaded"}, 404)
        return JSONResponse(replay.summary())

    async def replay_game(request: Request) -> Response:
        if replay is None:
            return JSONResponse({"error": "no replay loaded"}, 404)
        try:
            index = int(request.path_params["index"])
            return JSONResponse(replay.frames(index))
        except (ValueError, IndexError):
            return JSONResponse({"error": "no such game"}, 404)

    # ------------------------------------------------------------ the socket
    async def socket(ws: WebSocket) -> None:
        table = tables.get(ws.path_params["table"])
        if not origin_ok(ws.headers):
            await ws.close(code=4403)  # the handshake is refused
            return
        if table is None:  # accepted, so that the page can tell "no such table"
            await ws.accept()
            await ws.close(code=4404)
            return
        seat = table.seat_of_token(ws.query_params.get("token"))
        await ws.accept()
        conn = WsConnection(ws, seat, rate)
        table.connections.add(conn)
        strikes = 0
        try:
            await conn.send_json(table.state_for(seat))
            table.wake_bots()
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not conn.bucket.take():
                    strikes += 1
                    await conn.send_json({"type": "error", "error": "too many messages: slow down"})
                    if strikes > 50:
                        await ws.close(code=1008)
                        break
                    continue
                try:
                    msg = parse_message(message.get("text"), seat)
                    await _handle(table, conn, msg, hint)
                except (MessageError, TableError) as exc:
                    await conn.send_json({"type": "error", "error": str(exc)})
        except WebSocketDisconnect:
            pass
        finally:
            table.connections.discard(conn)

    @asynccontextmanager
    async def lifespan(app):
        yield
        for table in tables.values():
            table.close()
        tables.clear()
        executor.shutdown(wait=False, cancel_futures=True)

    routes = [
        Route("/", lobby),
        Route("/t/{table}", table_page),
        Route("/replay", replay_page),
        Route("/api/presets", presets),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table}/records", records),
        Route("/api/replay", replay_data),
        Route("/api/replay/{index}", replay_game),
        Route("/cards/{code}.svg", card),
        WebSocketRoute("/ws/{table}", socket),
        Mount("/static", StaticFiles(packages=[("gostop_web", "static")]), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.tables = tables
    app.state.executor = executor
    return app


async def _handle(table: Table, conn: WsConnection, msg: dict[str, Any],
                  hint: HintFunction | None) -> None:
    kind = msg["type"]
    seat = conn.seat
    if kind == "ping":
        await conn.send_json({"type": "pong"})
    elif kind == "move":
        assert seat is not None
        await table.play(seat, msg["move"], msg.get("turn"))
    elif kind == "next":
        assert seat is not None
        await table.next_hand(seat)
    elif kind == "hint":
        assert seat is not None
        if hint is None:
            raise TableError("this server gives no hints")
        await conn.send_json(await table.hint(seat, hint))


def _table_request(data: Any) -> tuple[str, int, list[str | None]]:
    """``{"rules": "casual", "players": 2, "seats": [null, "greedy"]}`` checked."""
    if not isinstance(data, dict) or set(data) - {"rules", "players", "seats"}:
        raise MessageError('send {"rules": ..., "players": ..., "seats": [...]}')
    rules, players, seats = data.get("rules"), data.get("players"), data.get("seats")
    if not isinstance(rules, str) or rules not in preset_names():
        raise MessageError(f"rules: one of {', '.join(preset_names())}")
    if type(players) is not int or not 2 <= players <= 4:
        raise MessageError("players: 2, 3 or 4")
    if not isinstance(seats, list) or len(seats) != players:
        raise MessageError(f"seats: a list of {players} entries (null for a person, "
                           "or a bot specification)")
    for s in seats:
        if s is not None and (not isinstance(s, str) or not 1 <= len(s) <= 200):
            raise MessageError("each seat is null (a person) or a bot specification")
    return rules, players, seats


def _drop_idle(tables: dict[str, Table], idle_seconds: float = 3600.0) -> None:
    """Free the places of tables nobody has watched for an hour."""
    now = time.monotonic()
    for tid, table in list(tables.items()):
        if not table.connections and now - table.created > idle_seconds:
            table.close()
            del tables[tid]
