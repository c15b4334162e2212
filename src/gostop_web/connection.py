"""One browser connection: its seat, its rate limit, and a bounded queue of
frames written by a task of its own, so that a slow or dead reader never
holds up its table (it is closed when its queue is full)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from gostop_web.encoding import dumps
from gostop_web.security import RATE_BURST, RATE_PER_SECOND, TokenBucket

__all__ = ["WsConnection", "SEND_QUEUE", "CLOSE_SLOW"]

log = logging.getLogger("gostop_web")

#: Frames waiting for one connection before it is closed as too slow.
SEND_QUEUE = 32
#: WebSocket close code for a connection dropped for not reading.
CLOSE_SLOW = 4408


class WsConnection:
    """A connection of ``seat`` (``None``: a watcher).  :meth:`send_json`
    never waits for the network: it queues the frame, and a full queue closes
    the connection."""

    def __init__(self, ws, seat: int | None,
                 rate: tuple[float, int] = (RATE_PER_SECOND, RATE_BURST),
                 queue_size: int = SEND_QUEUE):
        self.ws = ws
        self.seat = seat
        self.bucket = TokenBucket(*rate)
        self.closed = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=queue_size)
        self._writer: asyncio.Task | None = None
        #: The task reading this connection's messages: closing the connection
        #: from elsewhere (a slow reader dropped) cancels it.
        self.reader: asyncio.Task | None = None

    def start(self) -> None:
        self._writer = asyncio.get_running_loop().create_task(self._write())

    async def send_json(self, data: Any) -> None:
        self.send_nowait(data)

    def send_nowait(self, data: Any) -> None:
        if self.closed:
            return
        text = data if isinstance(data, str) else dumps(data)
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("a connection of seat %s was closed: it read none of its last %d "
                        "frames", self.seat, self._queue.maxsize)
            self.close(CLOSE_SLOW)

    async def _write(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    return
                # a send that never ends fills the queue, and that closes it
                await self.ws.send_text(text)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the socket is gone: its handler ends
            log.info("a connection of seat %s ended while sending: %s", self.seat, exc)
            self.closed = True

    def close(self, code: int = 1000) -> None:
        """Stop sending and close the socket (without waiting for the peer)."""
        if self.closed:
            return
        self.closed = True
        current = asyncio.current_task()
        if self._writer is not None and self._writer is not current:
            self._writer.cancel()
        if self.reader is not None and self.reader is not current:
            self.reader.cancel()
        asyncio.get_running_loop().create_task(self._close_socket(code))

    async def _close_socket(self, code: int) -> None:
        try:
            await asyncio.wait_for(self.ws.close(code=code), 1.0)
        except Exception as exc:
            log.info("closing a connection of seat %s: %s", self.seat, exc or type(exc).__name__)

    async def drain(self) -> None:
        """Wait until every queued frame is written (tests, and an orderly end)."""
        if self._writer is None or self.closed:
            return
        await self._queue.put(None)
        await self._writer
