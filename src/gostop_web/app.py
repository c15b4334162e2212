"""The web table as an ASGI application (Starlette): the lobby, the tables'
pages and WebSockets, card pictures, record downloads and the replay.

The checks live with their jobs: :mod:`gostop_web.security` (host names on
every route, Origin, depth-capped JSON, the rate limit), :mod:`gostop_web.messages`
(what a client may send), :mod:`gostop_web.botspecs` (which bots a page may
seat), :mod:`gostop_web.registry` (the tables and their quotas) and
:mod:`gostop_web.connection` (a bounded send queue per socket).  Every failure
becomes an error frame or an HTTP error with its reason, and a log line."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any, Iterable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from gostop_core import Rules, preset_names, svg
from gostop_core.cards import CARD_CODES
from gostop_core.korean import BOT_NAMES_KO, card_name_ko
from gostop_web.botspecs import BotPolicy, BotRefused
from gostop_web.connection import WsConnection
from gostop_web.messages import MAX_MESSAGE_BYTES, MessageError, parse_message, table_request
from gostop_web.registry import MAX_TABLES, TABLES_PER_CLIENT, RegistryFull, TableRegistry
from gostop_web.replay import ReplayLibrary
from gostop_web.security import (
    LOOPBACK_HOSTS, RATE_BURST, RATE_PER_SECOND, STRIKE_LIMIT, HostGuard, origin_ok,
)
from gostop_web.tables import MAX_WATCHERS, HintFunction, Table, TableError

__all__ = ["create_app", "MAX_MESSAGE_BYTES", "RATE_PER_SECOND", "RATE_BURST",
           "LOOPBACK_HOSTS", "CLOSE_NO_TOKEN", "CLOSE_FULL"]

log = logging.getLogger("gostop_web")

#: Width of a served card picture (the page scales it).
CARD_PICTURE_WIDTH = 120
#: WebSocket close codes: no seat or watch token; the table admits no more watchers.
CLOSE_NO_TOKEN = 4401
CLOSE_FULL = 4429


def _page(name: str) -> str:
    return resources.files("gostop_web").joinpath("static", name).read_text("utf-8")


def create_app(*, hint: HintFunction | None = None, bots: Iterable[str] = (),
               trusted_hosts: Iterable[str] | None = LOOPBACK_HOSTS,
               move_delay: float = 0.6, seed: int | None = None,
               replay: ReplayLibrary | None = None, workers: int = 4,
               max_tables: int = MAX_TABLES, tables_per_client: int = TABLES_PER_CLIENT,
               max_watchers: int = MAX_WATCHERS, bot_seconds: float | None = None,
               rate: tuple[float, int] = (RATE_PER_SECOND, RATE_BURST)):
    """The web table.  ``hint`` ranks a view's moves (``gostop serve`` passes
    ``gostop hint``'s function; ``None`` turns the hint button off).  ``bots``
    are the exact bot specifications the lobby offers besides the registry's
    bots with capped settings (:mod:`gostop_web.botspecs`).  ``trusted_hosts``
    are the host names the server answers to on every route (``None``: any;
    tests only).  ``move_delay`` is the pause before each bot move, for the
    eye; ``seed`` fixes the deals (tests); ``rate`` is each connection's
    message limit (per second, burst); ``bot_seconds`` a bot's time a move
    before greedy plays for it."""
    policy = BotPolicy(bots)
    registry = TableRegistry(max_tables, tables_per_client)
    executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gostop-bot")
    routes = Routes(registry, executor, policy, hint, replay, move_delay, seed, rate,
                    max_watchers, bot_seconds)

    @asynccontextmanager
    async def lifespan(app):
        yield
        registry.close()
        executor.shutdown(wait=False, cancel_futures=True)

    app = Starlette(routes=routes.table(), lifespan=lifespan)
    app.state.tables = registry
    app.state.executor = executor
    guarded = HostGuard(app, trusted_hosts)
    guarded.state = app.state  # tests reach the registry through the outer app
    return guarded


def qr_svg(url: str) -> str | None:
    """``url`` as a QR code, an SVG data: URI (segno, the web extra); ``None`` without segno."""
    try:
        import segno
    except ImportError:
        return None
    return segno.make(url, error="m").svg_data_uri(scale=3, border=2)


def _client_address(conn) -> str:
    return conn.client.host if conn.client is not None else "?"


class Routes:
    """The app's routes, over one registry of tables."""

    def __init__(self, registry: TableRegistry, executor, policy: BotPolicy,
                 hint: HintFunction | None, replay: ReplayLibrary | None,
                 move_delay: float, seed: int | None, rate: tuple[float, int],
                 max_watchers: int, bot_seconds: float | None):
        self.registry, self.executor, self.policy = registry, executor, policy
        self.hint, self.replay = hint, replay
        self.move_delay, self.seed, self.rate = move_delay, seed, rate
        self.max_watchers, self.bot_seconds = max_watchers, bot_seconds

    def table(self) -> list:
        return [
            Route("/", self.lobby),
            Route("/t/{table}", self.table_page),
            Route("/replay", self.replay_page),
            Route("/api/presets", self.presets),
            Route("/api/tables", self.create_table, methods=["POST"]),
            Route("/api/tables/{table}/records", self.records),
            Route("/api/replay", self.replay_data),
            Route("/api/replay/{index}", self.replay_game),
            Route("/cards/{code}.svg", self.card),
            WebSocketRoute("/ws/{table}", self.socket),
            Mount("/static", StaticFiles(packages=[("gostop_web", "static")]), name="static"),
        ]

    # ------------------------------------------------------------ pages
    async def lobby(self, request: Request) -> Response:
        return HTMLResponse(_page("index.html"))

    async def table_page(self, request: Request) -> Response:
        if request.path_params["table"] not in self.registry:
            return PlainTextResponse("no such table", 404)
        return HTMLResponse(_page("table.html"))

    async def replay_page(self, request: Request) -> Response:
        if self.replay is None:
            return PlainTextResponse("no replay: start the server with --replay FILE", 404)
        return HTMLResponse(_page("replay.html"))

    async def presets(self, request: Request) -> Response:
        out = []
        for name in preset_names():
            rules = Rules(name)
            out.append({"name": name, "players": list(rules.allowed_players()),
                        "go_stop": bool(rules.go_stop)})
        return JSONResponse({"presets": out, "bots": self.policy.offered(),
                             "hint": self.hint is not None, "replay": self.replay is not None,
                             # the Korean names the page writes beside the codes
                             "card_names_ko": {c: card_name_ko(c) for c in CARD_CODES},
                             "bot_names_ko": dict(BOT_NAMES_KO)})

    async def create_table(self, request: Request) -> Response:
        if not origin_ok(request.headers):
            log.warning("refused a table from origin %r", request.headers.get("origin"))
            return JSONResponse({"error": "cross-origin request refused"}, 403)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"error": "send JSON"}, 415)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > 4096:
                return JSONResponse({"error": "request too large"}, 413)
        try:
            rules, players, seats = table_request(body)
            specs = [None if s is None else self.policy.check(s) for s in seats]
        except BotRefused as exc:
            index = next(i for i, s in enumerate(seats) if s is not None and _refused(self.policy, s))
            return JSONResponse({"error": f"seat {index}: {exc}"}, 400)
        except MessageError as exc:
            return JSONResponse({"error": str(exc)}, 400)
        client = _client_address(request)
        try:
            self.registry.reserve(client)
        except RegistryFull as exc:
            log.warning("refused a table for %s: %s", client, exc)
            return JSONResponse({"error": str(exc)}, 503)
        try:
            table = await asyncio.get_running_loop().run_in_executor(
                self.executor, lambda: Table.create(rules, players, specs, self.executor,
                                                    self.move_delay, self.seed))
        except TableError as exc:
            return JSONResponse({"error": str(exc)}, 400)
        table.max_watchers = self.max_watchers
        if self.bot_seconds is not None:
            table.bot_seconds = self.bot_seconds
        try:
            self.registry.add(table, client)
        except RegistryFull as exc:  # another request took the place meanwhile
            table.close()
            return JSONResponse({"error": str(exc)}, 503)
        origin = f"{request.url.scheme}://{request.headers['host']}"  # a host we serve
        # the QR codes (several ms each, pure Python) in a worker, not on the
        # loop that sends every table's frames
        body = await asyncio.get_running_loop().run_in_executor(
            self.executor, _table_links, table, origin)
        return JSONResponse(body)

    async def records(self, request: Request) -> Response:
        table = self.registry.get(request.path_params["table"])
        if table is None:
            return PlainTextResponse("no such table", 404)
        if table.seat_of_token(request.query_params.get("token")) is None:
            return PlainTextResponse("the records need a seat's or the watch link's token", 403)
        return Response(table.record_lines(), media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="gostop-{table.id}.jsonl"'})

    async def card(self, request: Request) -> Response:
        code = request.path_params["code"]
        korean = request.query_params.get("lang") == "ko"  # the title's language
        # the package's own drawings (gostop_core.svg): no image file from outside
        if code == "back":
            body = svg.back(size=CARD_PICTURE_WIDTH)
        elif code in CARD_CODES:
            body = svg.card(code, size=CARD_PICTURE_WIDTH, korean=korean)
        else:
            return PlainTextResponse("no such card", 404)
        return Response(body, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    async def replay_data(self, request: Request) -> Response:
        if self.replay is None:
            return JSONResponse({"error": "no replay loaded"}, 404)
        return JSONResponse(self.replay.summary())

    async def replay_game(self, request: Request) -> Response:
        if self.replay is None:
            return JSONResponse({"error": "no replay loaded"}, 404)
        try:
            index = int(request.path_params["index"])
            return JSONResponse(self.replay.frames(index))
        except (ValueError, IndexError):
            return JSONResponse({"error": "no such game"}, 404)

    # ------------------------------------------------------------ the socket
    async def socket(self, ws: WebSocket) -> None:
        if not origin_ok(ws.headers):
            log.warning("refused a socket from origin %r", ws.headers.get("origin"))
            await ws.close(code=4403)  # the handshake is refused
            return
        table = self.registry.get(ws.path_params["table"])
        await ws.accept()  # accepted, so that the page can tell why it is closed
        if table is None:
            await ws.close(code=4404)
            return
        seat = table.seat_of_token(ws.query_params.get("token"))
        if seat is None:
            await ws.close(code=CLOSE_NO_TOKEN)
            return
        conn = WsConnection(ws, None if seat == Table.WATCHER else seat, self.rate)
        try:
            table.join(conn)
        except TableError as exc:
            await ws.send_json({"type": "error", "error": str(exc)})
            await ws.close(code=CLOSE_FULL)
            return
        conn.start()
        try:
            await table.broadcast()  # the newcomer's frame, and everyone's connected marks
            table.wake_bots()
            await self._serve(table, conn)
        finally:
            table.leave(conn)
            conn.close()
            if not table._closed:
                await table.broadcast()

    async def _serve(self, table: Table, conn: WsConnection) -> None:
        ws = conn.ws
        # a slow reader is dropped by its connection (conn.close), which cancels
        # this read: no second future to wait on beside every message
        conn.reader = asyncio.current_task()
        try:
            while True:
                try:
                    message = await ws.receive()
                except WebSocketDisconnect:
                    return
                if message["type"] == "websocket.disconnect":
                    return
                if not conn.bucket.take():
                    conn.send_nowait({"type": "error", "error": "too many messages: slow down"})
                    if conn.bucket.strike() > STRIKE_LIMIT:
                        log.warning("table %s: a connection was closed for flooding", table.id)
                        conn.close(1008)
                        return
                    continue
                try:
                    msg = parse_message(message.get("text"), conn.seat)
                    await _handle(table, conn, msg, self.hint)
                except (MessageError, TableError) as exc:
                    conn.send_nowait({"type": "error", "error": str(exc)})
                except Exception as exc:  # a fault of ours: say so and go on
                    log.exception("table %s: a %s message failed", table.id,
                                  message.get("text", "")[:40])
                    conn.send_nowait({"type": "error", "error": f"the server failed: "
                                                                f"{type(exc).__name__}: {exc}"})
        except asyncio.CancelledError:
            if conn.closed:  # dropped as a slow reader (at a read, or waiting for the table)
                task = asyncio.current_task()
                if task is not None and hasattr(task, "uncancel"):
                    task.uncancel()  # the cancel is handled: later waits of the task are not cut
                return
            raise


def _table_links(table: Table, origin: str) -> dict[str, Any]:
    """A new table's answer: its id, each person's seat link and the watch link,
    each with its QR code for ``origin``."""
    base = f"/t/{table.id}"
    watch = f"{base}?token={table.watch_token}"
    return {
        "table": table.id, "watch": watch, "watch_qr": qr_svg(origin + watch),
        "seats": [{"seat": s.index, "name": s.name, "bot": s.bot_spec,
                   "link": f"{base}?token={s.token}" if s.token else None,
                   "qr": qr_svg(f"{origin}{base}?token={s.token}") if s.token else None}
                  for s in table.seats]}


def _refused(policy: BotPolicy, spec: str) -> bool:
    try:
        policy.check(spec)
    except BotRefused:
        return True
    return False


async def _handle(table: Table, conn: WsConnection, msg: dict[str, Any],
                  hint: HintFunction | None) -> None:
    kind = msg["type"]
    seat = conn.seat
    if kind == "ping":
        conn.send_nowait({"type": "pong"})
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
        conn.send_nowait(await table.hint(seat, hint))
