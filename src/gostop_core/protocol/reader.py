"""The input side of ``gostop engine`` (docs/protocol.md, "Bounded work"):
a reader thread that takes the driver's input as it comes and serves the
control lines (``isready``, ``stop``) at once, and the read-ahead through
which every other line goes, in order, to the parsing
(:mod:`gostop_core.protocol.server`).

The reader looks at a block of lines without parsing it: only a line whose
type, by a quick look, is ``isready``, ``stop`` or ``quit`` is parsed, to be
sure, and served ahead of what came before it; so an ``isready`` behind a
flood of requests is answered before the flood is parsed.  A control line
the quick look misses (its type written with escapes, say) is served in its
turn by the parsing.
"""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from typing import Any, Callable, Iterable, Iterator

from gostop_core.protocol import wire
from gostop_core.protocol.wire import MessageError, TooLong

__all__ = ["MAX_READ_AHEAD", "OVERTAKE_LINES", "OVERTAKE_BYTES", "ReadAhead", "InputReader"]

#: Bytes of input the reader may hold ahead of the parsing.  A flood this
#: big is read at once, so that an ``isready`` behind it is answered at once;
#: behind more, the reader waits for the parsing (and the driver's pipe fills).
MAX_READ_AHEAD = 8 << 20
#: ``isready`` overtakes the lines read before it (the reader answers it)
#: only when at least this many, or :data:`OVERTAKE_BYTES`, wait to be
#: parsed: behind fewer, the parsing soon reaches it and answers it in turn,
#: still ahead of the queued requests, and after the errors of the lines
#: before it.
OVERTAKE_LINES = 64
OVERTAKE_BYTES = 256 << 10

_CONTROL_BYTES = re.compile(rb'"type"\s*:\s*"(?:isready|stop|quit)"')
_CONTROL_TEXT = re.compile(r'"type"\s*:\s*"(?:isready|stop|quit)"')
_HELLO_BYTES = b'"hello"'
_HELLO_TEXT = '"hello"'
_END_OF_INPUT = object()


class ReadAhead:
    """The input read but not parsed yet (blocks of lines, or lines), in
    order, at most ``limit`` bytes of it: the reader thread puts, the parsing
    takes."""

    def __init__(self, limit: int):
        self._items: deque[tuple[Any, int, float]] = deque()
        self._bytes = 0
        self._limit = limit
        self._abandoned = False
        self._cv = threading.Condition()

    def put(self, item: Any, size: int) -> None:
        """Add ``item`` (``size`` bytes; it is stamped with the time it was
        read); waits while the read-ahead is full."""
        read = time.monotonic()
        with self._cv:
            while self._bytes and self._bytes + size > self._limit and not self._abandoned:
                self._cv.wait()
            if self._abandoned:
                return  # the parsing has ended (quit): nothing more is read
            self._items.append((item, size, read))
            self._bytes += size
            self._cv.notify_all()

    def get(self) -> tuple[Any, float]:
        """The next item and the time it was read."""
        with self._cv:
            while not self._items:
                self._cv.wait()
            item, size, read = self._items.popleft()
            self._bytes -= size
            self._cv.notify_all()
            return item, read

    def abandon(self) -> None:
        """The parsing ends: drop what is left, release a waiting reader."""
        with self._cv:
            self._abandoned = True
            self._items.clear()
            self._bytes = 0
            self._cv.notify_all()


class InputReader:
    """The two ends of the read-ahead: :meth:`run` in the reader thread,
    :meth:`lines` in the parsing.  ``on_stop()`` acts on a ``stop`` read,
    ``on_ready(id)`` answers an ``isready`` read (both at once, from the
    reader thread).  Each counter is written by one thread only."""

    def __init__(self, ahead: ReadAhead, on_stop: Callable[[], None],
                 on_ready: Callable[[Any], None]):
        self.ahead = ahead
        self.on_stop = on_stop
        self.on_ready = on_ready
        #: What the reader thread raised (re-raised once the answers are out).
        self.error: BaseException | None = None
        # hellos the reader passed on, and the parsing took: isready is not
        # answered ahead of a hello still unparsed (its ready comes first)
        self.hellos_read = self.hellos_parsed = 0
        # lines and bytes the reader passed on, and the parsing took
        self.lines_read = self.bytes_read = 0
        self.lines_parsed = self.bytes_parsed = 0

    # ---- the reader thread
    def run(self, lines: Iterable[bytes | str | TooLong]) -> None:
        """Take the input as it comes (blocks of lines from a
        :class:`~gostop_core.protocol.wire.BlockReader`, or lines), serve the
        control lines, pass every other line on, in order, until ``quit``."""
        try:
            for item in lines:
                if isinstance(item, bytes):
                    if not self._read_block(item):
                        return
                elif isinstance(item, str) and _CONTROL_TEXT.search(item):
                    verdict = self._control(item)
                    if verdict != "done":
                        self._pass_on(item)
                    if verdict == "quit":
                        return
                else:
                    self._pass_on(item)
        except BaseException as exc:  # re-raised by serve, once the answers are out
            self.error = exc
        finally:
            self.ahead.put(_END_OF_INPUT, 0)

    def _read_block(self, block: bytes) -> bool:
        """Serve the control lines of ``block`` and pass the rest on; False at quit."""
        start = 0  # where the part not passed on yet begins
        checked = 0  # where the lines looked at end
        for match in _CONTROL_BYTES.finditer(block):
            if match.start() < checked:
                continue  # a second match in a line already looked at
            begin = block.rfind(b"\n", 0, match.start()) + 1
            end = block.find(b"\n", match.end())
            end = len(block) if end < 0 else end + 1
            checked = end
            if begin > start:  # first what came before it (a hello there counts)
                self._pass_on(block[start:begin])
                start = begin
            verdict = self._control(block[begin:end])
            if verdict == "forward":
                continue  # not a control line: it stays in the block
            if verdict == "quit":
                self._pass_on(block[begin:end])
                return False
            start = end  # served: dropped from the input
        if start < len(block):
            self._pass_on(block[start:] if start else block)
        return True

    def _pass_on(self, item: bytes | str | TooLong) -> None:
        if isinstance(item, bytes):
            self.hellos_read += item.count(_HELLO_BYTES)
            self.lines_read += item.count(b"\n") + (not item.endswith(b"\n"))
            size = len(item)
        elif isinstance(item, str):
            self.hellos_read += item.count(_HELLO_TEXT)
            self.lines_read += 1
            size = len(item) + 1
        else:
            self.lines_read += 1
            size = len(item.head)
        self.bytes_read += size
        self.ahead.put(item, size)

    def _control(self, raw: bytes | str) -> str:
        """``done`` when the line was a control message and is served,
        ``quit`` for quit, ``forward`` for a line the parsing must serve."""
        if len(raw) > wire.MAX_LINE:
            return "forward"
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        try:
            message = wire.decode(text)
        except MessageError:
            return "forward"
        kind = message["type"]
        if kind == "quit":
            return "quit"
        if kind == "stop":
            self.on_stop()
            return "done"
        if kind != "isready" or self.hellos_parsed < self.hellos_read or (
                self.lines_read - self.lines_parsed < OVERTAKE_LINES
                and self.bytes_read - self.bytes_parsed < OVERTAKE_BYTES):
            return "forward"  # answered in turn: after a ready, or soon
        try:
            id = wire.validate_id(message, required=False)
        except MessageError:
            return "forward"  # its error is answered in turn
        self.on_ready(id)
        return "done"

    # ---- the parsing
    def lines(self) -> Iterator[tuple[str | TooLong, float]]:
        """Every line passed on, in order, with the time it was read (a line
        over the cap as a :class:`~gostop_core.protocol.wire.TooLong`), until
        the end of the input."""
        while True:
            item, read = self.ahead.get()
            if item is _END_OF_INPUT:
                return
            if isinstance(item, bytes):
                pieces = item.split(b"\n")
                if not pieces[-1]:
                    pieces.pop()  # after the last newline
                for raw in pieces:
                    self.lines_parsed += 1
                    self.bytes_parsed += len(raw) + 1
                    if raw:
                        yield (TooLong(raw[:4096], len(raw)) if len(raw) > wire.MAX_LINE
                               else raw.decode("utf-8", "replace")), read
                self.hellos_parsed += item.count(_HELLO_BYTES)
            else:
                yield item, read
                self.lines_parsed += 1
                self.bytes_parsed += len(item) + 1 if isinstance(item, str) else len(item.head)
                if isinstance(item, str):
                    self.hellos_parsed += item.count(_HELLO_TEXT)
