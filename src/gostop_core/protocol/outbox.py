"""The output side of ``gostop engine`` (docs/protocol.md, "Order"): the
answers, written in the order their messages were read, whichever thread
finishes them (the parsing, the worker, the deadline keeper), and the lines
written out of turn (``readyok``)."""

from __future__ import annotations

import threading
from typing import Callable

from gostop_core.protocol import wire

__all__ = ["Outbox", "MAX_WAITING"]

#: Finished answers that may wait for an earlier one (a search still
#: running); past that the parsing waits, so that the refusals of a flood
#: cost bounded memory.
MAX_WAITING = 4096


class Outbox:
    """Answers written in the order their messages were read: a finished
    answer waits (as its encoded line) until every earlier one is written."""

    def __init__(self, write_line: Callable[[str], None], max_waiting: int = MAX_WAITING):
        self._write_line = write_line
        self._lock = threading.Lock()
        self._room = threading.Condition(self._lock)
        self._max_waiting = max_waiting
        self._next = 0
        self._issued = 0
        self._waiting: dict[int, str | None] = {}

    def wait_for_room(self) -> None:
        """Wait while too many finished answers wait for an earlier one (the
        parsing calls it; the worker and the deadlines never wait)."""
        with self._room:
            while len(self._waiting) >= self._max_waiting:
                self._room.wait()

    def reserve(self) -> int:
        with self._lock:
            seq = self._issued
            self._issued += 1
            return seq

    def at_once(self, message: dict) -> None:
        """A line out of turn (``readyok``, ``ready``)."""
        line = wire.encode(message)
        with self._lock:
            self._write_line(line)

    def is_next(self, seq: int) -> bool:
        with self._lock:
            return seq == self._next

    def progress(self, seq: int, message: dict) -> None:
        """An ``info`` line of answer ``seq``: written when it is next, else dropped."""
        line = wire.encode(message)
        with self._lock:
            if seq == self._next:
                self._write_line(line)

    def finish(self, seq: int, message: dict | None) -> None:
        """Answer ``seq`` (None: the message gets no answer)."""
        line = None if message is None else wire.encode(message)
        with self._lock:
            self._waiting[seq] = line
            written = False
            while self._next in self._waiting:
                out = self._waiting.pop(self._next)
                self._next += 1
                written = True
                if out is not None:
                    self._write_line(out)
            if written:
                self._room.notify_all()
