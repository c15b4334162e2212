"""The wire format of the gostop bot protocol (docs/protocol.md): one JSON
object per line, with caps that hold before a line is parsed.

Both sides use it: the client (:mod:`gostop_core.protocol.client`) reads an
engine's lines with it, ``gostop engine`` (:mod:`gostop_core.protocol.server`)
reads a driver's.  Every cap is checked while reading or before parsing, so a
hostile line costs at most :data:`MAX_LINE` bytes of memory and never a
``RecursionError``:

- :class:`LineReader` splits a byte stream into lines of at most
  :data:`MAX_LINE` bytes; a longer line is skipped (read on to its newline
  without keeping it) and reported as :class:`TooLong`;
- :func:`check_nesting` refuses more than :data:`MAX_NESTING` levels of
  arrays and objects, scanning the text before ``json.loads`` sees it;
- :func:`decode` makes one message (a JSON object with a string ``type``) of a
  line; the ``validate_*`` functions check each field of a message, list
  lengths included (:data:`MAX_LIST`).

>>> decode('{"type": "isready", "id": 3}')
{'type': 'isready', 'id': 3}
>>> decode('[' * 100 + ']' * 100)  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
MessageError: message: the line nests arrays and objects too deep: more than 16 levels
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from gostop_core.errors import BotProtocolError

__all__ = [
    "PROTOCOL_V1", "PROTOCOL_V2", "PROTOCOLS", "MAX_LINE", "MAX_NESTING", "MAX_LIST",
    "MAX_ID", "MAX_ID_LENGTH", "MAX_TIME_MS", "MessageError", "TooLong", "LineReader", "check_nesting",
    "decode", "encode", "stream_lines", "reader_of", "BlockReader", "blocks_of", "error_message", "peek_id", "validate_id", "validate_time",
    "validate_moves", "choose_protocol", "Option", "OPTION_TYPES", "engine_name",
]

#: The first version: requests carry the legal moves, answers carry no id.
PROTOCOL_V1 = "gostop-bot/1"
#: The second: ids on every request and reply, the engine computes the legal
#: moves, isready, analyse, stop, options, clocks.
PROTOCOL_V2 = "gostop-bot/2"
#: The versions this gostop speaks, oldest first.
PROTOCOLS = (PROTOCOL_V1, PROTOCOL_V2)

#: The longest line either side may write, in bytes (newline excluded).
MAX_LINE = 64 * 1024
#: The deepest nesting of arrays and objects in one line.
MAX_NESTING = 16
#: The longest list in a message (``legal``, ``moves``, ``protocol``).
MAX_LIST = 512
#: Request ids are whole numbers 0 .. MAX_ID (exact in every JSON reader).
MAX_ID = 2 ** 53 - 1
#: The longest string id.
MAX_ID_LENGTH = 64
#: The longest time or clock a message may name, in milliseconds (one day).
MAX_TIME_MS = 86_400_000


def engine_name() -> str:
    """``gostop VERSION``: how gostop names itself in ``hello`` and ``ready``."""
    from gostop_core import __version__
    return f"gostop {__version__}"


class MessageError(BotProtocolError, ValueError):
    """A line that is no valid protocol message (too long, too deep, not JSON,
    a field missing or of the wrong kind).  ``id`` is the request id when one
    could be read, so that the error can be answered."""

    def __init__(self, message: str, id: int | str | None = None):
        super().__init__(message)
        self.id = id


@dataclass(frozen=True)
class TooLong:
    """A line longer than :data:`MAX_LINE` that was skipped; ``head`` is its
    first bytes (to find a request id in), ``size`` its length so far."""

    head: bytes
    size: int


class LineReader:
    """Lines from a file descriptor, each at most ``max_line`` bytes: an
    iterator of ``str`` (decoded as UTF-8, bad bytes replaced, ``\\r`` and
    the newline stripped) and :class:`TooLong` markers.  Reads with
    ``os.read`` in chunks, so nothing longer than a chunk plus ``max_line``
    is ever held; a final line without its newline is returned too."""

    CHUNK = 65536

    def __init__(self, fd: int, max_line: int = MAX_LINE):
        self.fd = fd
        self.max_line = max_line
        self._buf = bytearray()
        self._skipping: TooLong | None = None
        self._eof = False

    def __iter__(self) -> Iterator[str | TooLong]:
        while True:
            item = self.next_line()
            if item is None:
                return
            yield item

    def next_line(self) -> str | TooLong | None:
        """The next line (or marker), or None at the end of input."""
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                line = bytes(self._buf[:nl])
                del self._buf[:nl + 1]
                if self._skipping is not None:
                    skipped, self._skipping = self._skipping, None
                    return TooLong(skipped.head, skipped.size + len(line))
                if len(line) > self.max_line:
                    return TooLong(line[:4096], len(line))
                return line.decode("utf-8", "replace").rstrip("\r")
            if len(self._buf) > self.max_line:
                # too long already: keep only its head, drop the rest unread
                if self._skipping is None:
                    self._skipping = TooLong(bytes(self._buf[:4096]), 0)
                self._skipping = TooLong(self._skipping.head,
                                         self._skipping.size + len(self._buf))
                self._buf.clear()
            if self._eof:
                if self._skipping is not None:
                    skipped, self._skipping = self._skipping, None
                    return TooLong(skipped.head, skipped.size + len(self._buf))
                if self._buf:
                    line = bytes(self._buf)
                    self._buf.clear()
                    return line.decode("utf-8", "replace").rstrip("\r")
                return None
            chunk = _read_chunk(self.fd, self.CHUNK)
            if not chunk:
                self._eof = True
            else:
                self._buf += chunk


class BlockReader:
    """The input of a file descriptor in blocks of whole lines, for a reader
    that must look at every line cheaply before any is parsed (``gostop
    engine``'s, which answers ``isready`` ahead of a flood): an iterator of
    ``bytes`` blocks, each one or more whole lines ending in a newline (the
    last block of the input may lack it), and :class:`TooLong` markers for
    lines longer than ``max_line`` that end in another read than the one they
    began in.  A line over the cap that a block holds whole (at most
    ``max_line`` plus :attr:`CHUNK` bytes) is left for the consumer to refuse.
    Memory: one read plus one partial line (at most ``max_line``)."""

    CHUNK = 1 << 20

    def __init__(self, fd: int, max_line: int = MAX_LINE, pipe_size: int = CHUNK):
        self.fd = fd
        self.max_line = max_line
        _grow_pipe(fd, pipe_size)

    def __iter__(self) -> Iterator[bytes | TooLong]:
        tail = b""
        skipping: TooLong | None = None
        while True:
            chunk = _read_chunk(self.fd, self.CHUNK)
            if not chunk:
                if skipping is not None:
                    yield skipping
                elif tail:
                    yield tail
                return
            if skipping is not None:
                nl = chunk.find(b"\n")
                if nl < 0:
                    skipping = TooLong(skipping.head, skipping.size + len(chunk))
                    continue
                yield TooLong(skipping.head, skipping.size + nl)
                skipping = None
                chunk = chunk[nl + 1:]
            data = tail + chunk if tail else chunk
            cut = data.rfind(b"\n")
            if cut < 0:
                tail = data
            else:
                yield data[:cut + 1]
                tail = data[cut + 1:]
            if len(tail) > self.max_line:
                # too long already: keep only its head, drop the rest unread
                skipping = TooLong(tail[:4096], len(tail))
                tail = b""


def _read_chunk(fd: int, size: int) -> bytes:
    """Up to ``size`` bytes of ``fd``; ``b""`` at its end or on a read error
    (a closed or broken pipe ends the input like an end of file)."""
    while True:
        try:
            return os.read(fd, size)
        except InterruptedError:  # pragma: no cover - PEP 475 retries
            continue
        except OSError:
            return b""


def _grow_pipe(fd: int, size: int) -> None:
    """Ask Linux for a pipe buffer of ``size`` bytes on ``fd`` (64 KiB by
    default), so that a flood is taken in a few reads, each a wake-up of the
    reader, instead of one per 64 KiB; anything else (a file, a terminal,
    another system, a limit) keeps its buffer."""
    try:
        import fcntl
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, size)
    except (ImportError, AttributeError, OSError, ValueError):
        pass


def blocks_of(stream: Any) -> Iterable[bytes | str | TooLong]:
    """The input of ``stream`` for :func:`gostop_core.protocol.server.serve`:
    a :class:`BlockReader` on its file descriptor when it has one, else the
    capped lines of :func:`stream_lines`."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return stream_lines(stream)
    return BlockReader(fd)


def stream_lines(stream: Any, max_line: int = MAX_LINE) -> Iterator[str | TooLong]:
    """Lines of a text stream without a file descriptor (a test's input), with
    the cap of :class:`LineReader`: ``readline`` is never asked for more
    than ``max_line + 1`` characters at a time."""
    while True:
        line = stream.readline(max_line + 1)
        if not line:
            return
        if line.endswith("\n"):
            yield line[:-1].rstrip("\r")
            continue
        if len(line) <= max_line:
            yield line  # the last line, without its newline
            continue
        head, size = line[:4096].encode("utf-8", "replace"), len(line)
        while True:  # skip the rest of the long line
            more = stream.readline(max_line + 1)
            size += len(more)
            if not more or more.endswith("\n"):
                break
        yield TooLong(head, size)


def reader_of(stream: Any) -> Iterator[str | TooLong]:
    """Capped lines of ``stream``: a :class:`LineReader` on its file
    descriptor when it has one, else :func:`stream_lines`."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return stream_lines(stream)
    return iter(LineReader(fd))


_ID_RE = re.compile(rb'"id"\s*:\s*(\d{1,16})\b')


def peek_id(head: bytes | str) -> int | None:
    """A request id read from the start of a line that cannot be parsed whole
    (too long, too deep): the first ``"id": N``, or None."""
    data = head.encode("utf-8", "replace") if isinstance(head, str) else head
    match = _ID_RE.search(data[:4096])
    if match is None:
        return None
    value = int(match.group(1))
    return value if value <= MAX_ID else None


def nests_deeper(text: str, limit: int) -> bool:
    """Whether the JSON ``text`` nests arrays and objects deeper than ``limit``
    (brackets inside strings do not count): checked before parsing, so that no
    parser's recursion limit is ever reached (the protocol's lines, the web
    table's bodies)."""
    # most texts hold few brackets: count them before walking the text
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = False
    escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def check_nesting(text: str, limit: int = MAX_NESTING) -> None:
    """Raise :class:`MessageError` when ``text`` nests arrays and objects
    deeper than ``limit`` (:func:`nests_deeper`)."""
    if nests_deeper(text, limit):
        raise MessageError(f"the line nests arrays and objects too deep: more "
                           f"than {limit} levels", peek_id(text))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


# one decoder for every line: ``json.loads`` with an argument builds a new one
# per call, which costs more than parsing a short line
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def decode(line: str | TooLong, require_type: bool = True) -> dict:
    """The message one line holds: a JSON object whose ``type`` is a string
    (``require_type=False``: or no ``type``, as version 1's ``{"move": ...}``).
    Raises :class:`MessageError` (with the request id when one can be read)."""
    if isinstance(line, TooLong):
        raise MessageError(f"the line is too long: more than {MAX_LINE} bytes", peek_id(line.head))
    if len(line) > MAX_LINE:  # a str from elsewhere than a LineReader
        raise MessageError(f"the line is too long: more than {MAX_LINE} bytes", peek_id(line[:4096]))
    text = line.strip()
    check_nesting(text)
    try:
        message = _DECODER.decode(text)
    except (ValueError, RecursionError):
        raise MessageError(f"not valid JSON: {text[:60]!r}", peek_id(text)) from None
    if not isinstance(message, dict):
        raise MessageError(f"not a JSON object: {text[:60]!r}")
    kind = message.get("type")
    if not isinstance(kind, str) and (require_type or "type" in message):
        raise MessageError(f"the message has no string \"type\": "
                           f"{json.dumps(kind)[:40]}", _id_or_none(message))
    return message


def _id_or_none(message: dict) -> int | None:
    value = message.get("id")
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_ID:
        return value
    return None


def encode(message: dict) -> str:
    """One line (without its newline) for ``message``."""
    return json.dumps(message, separators=(", ", ": "), ensure_ascii=False, allow_nan=False)


def error_message(id: int | None, text: str) -> dict:
    """The error reply to request ``id``."""
    return {"type": "error", "id": id, "message": " ".join(str(text).split())[:500]}


def validate_id(message: dict, required: bool = True) -> int | str | None:
    """The message's ``id``: a whole number 0 .. :data:`MAX_ID` or a string of
    1 .. :data:`MAX_ID_LENGTH` characters (never a boolean, a fraction or
    null)."""
    kind = str(message.get("type"))[:40]
    if "id" not in message:
        if required:
            raise MessageError(f"{kind}: missing \"id\": none given")
        return None
    value = message["id"]
    if isinstance(value, str) and 1 <= len(value) <= MAX_ID_LENGTH:
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        raise MessageError(f"{kind}: \"id\" must be a whole number 0..{MAX_ID} or a string of "
                           f"1..{MAX_ID_LENGTH} characters: {json.dumps(value)[:40]}")
    return value


def validate_time(message: dict, key: str, id: int | None = None) -> float | None:
    """An optional time field in milliseconds (0 .. :data:`MAX_TIME_MS`)."""
    if key not in message or message[key] is None:
        return None
    value = message[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or not 0 <= value <= MAX_TIME_MS:
        raise MessageError(f"{message.get('type')}: {key!r} must be milliseconds "
                           f"0..{MAX_TIME_MS}: {json.dumps(value)[:40]}", id)
    return float(value)


def validate_moves(message: dict, key: str, id: int | str | None = None,
                   required: bool = False) -> list[str] | None:
    """An optional list of move strings, at most :data:`MAX_LIST` of them, each
    at most 32 characters (a list that is too long is refused before its
    entries are looked at)."""
    if key not in message or message[key] is None:
        if required:
            raise MessageError(f"{message.get('type')}: missing {key!r}: none given", id)
        return None
    value = message[key]
    if not isinstance(value, list):
        raise MessageError(f"{message.get('type')}: {key!r} must be a list: {json.dumps(value)[:40]}", id)
    if len(value) > MAX_LIST:
        raise MessageError(f"{message.get('type')}: {key!r} has more than {MAX_LIST} "
                           f"entries: {len(value)}", id)
    for entry in value:
        if not isinstance(entry, str) or len(entry) > 32:
            raise MessageError(f"{message.get('type')}: every entry of {key!r} must be a "
                               f"move string: {json.dumps(entry)[:40]}", id)
    return value


def choose_protocol(offered: Any) -> str:
    """The version an engine speaks with a driver whose ``hello`` carried
    ``protocol``: the newest one both know; a single string (version 1's
    hello) or nothing means version 1.  Raises :class:`MessageError` when
    nothing offered is known."""
    if offered is None or isinstance(offered, str):
        return PROTOCOL_V1 if offered in (None, PROTOCOL_V1) or offered not in PROTOCOLS \
            else offered
    if not isinstance(offered, list) or len(offered) > MAX_LIST:
        raise MessageError(f"hello: \"protocol\" must be a list of version names: "
                           f"{json.dumps(offered)[:40]}")
    known = [p for p in PROTOCOLS if p in offered]
    if not known:
        raise MessageError(f"hello: no protocol offered is known (this engine speaks "
                           f"{', '.join(PROTOCOLS)}): {json.dumps(offered)[:80]}")
    return known[-1]


@dataclass(frozen=True)
class Option:
    """One setting an engine offers (announced in ``ready``, changed by
    ``setoption``), in the shape of UCI's options: ``type`` is ``"spin"`` (a
    whole number ``min`` .. ``max``), ``"float"`` (a number ``min`` ..
    ``max``), ``"check"`` (true or false) or ``"combo"`` (one of ``choices``)."""

    name: str
    type: str
    default: Any
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        out: dict[str, Any] = {"name": self.name, "type": self.type, "default": self.default}
        if self.type in ("spin", "float"):
            out["min"], out["max"] = self.min, self.max
        if self.type == "combo":
            out["choices"] = list(self.choices)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> "Option":
        """An option from a ``ready`` line (raises :class:`MessageError`)."""
        if not isinstance(data, dict) or not isinstance(data.get("name"), str) \
                or data.get("type") not in OPTION_TYPES:
            raise MessageError(f"ready: bad option {str(data)[:80]!r}")
        choices = data.get("choices")
        choices = [] if choices is None else choices
        if not isinstance(choices, list) or len(choices) > MAX_LIST:
            raise MessageError(f"ready: bad choices of option {data['name']!r}")
        return cls(data["name"][:64], data["type"], data.get("default"), data.get("min"),
                   data.get("max"), tuple(str(c) for c in choices))

    def parse(self, value: Any, strict: bool = False) -> Any:
        """``value`` checked against the option: a number for ``spin`` and
        ``float`` (a whole one for ``spin``), a boolean for ``check``, one of
        the choices for ``combo``; raises :class:`MessageError`.  A driver's
        ``setoption`` is read with ``strict``; else a string (from a command
        line) is converted first."""
        if not strict and isinstance(value, str) and self.type != "combo":
            text = value.strip()
            if self.type == "check" and text in ("true", "false"):
                value = text == "true"
            elif self.type != "check":
                try:
                    value = float(text)
                except ValueError:
                    pass
        shown = json.dumps(value)[:40] if _jsonable(value) else repr(value)[:40]
        if self.type == "check":
            if isinstance(value, bool):
                return value
            raise MessageError(f"setoption: {self.name} takes true or false: {shown}")
        if self.type == "combo":
            if isinstance(value, str) and value in self.choices:
                return value
            raise MessageError(f"setoption: {self.name} takes one of "
                               f"{', '.join(self.choices)}: {shown}")
        whole = self.type == "spin"
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value) or (whole and value != int(value)):
            raise MessageError(f"setoption: {self.name} takes a "
                               f"{'whole ' if whole else ''}number: {shown}")
        if (self.min is not None and value < self.min) or \
                (self.max is not None and value > self.max):
            raise MessageError(f"setoption: {self.name} takes {self.min!r}..{self.max!r}: "
                               f"{shown}")
        return int(value) if whole else float(value)


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


#: The kinds of :class:`Option`.
OPTION_TYPES = ("spin", "float", "check", "combo")
