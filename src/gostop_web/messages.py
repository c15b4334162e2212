"""What a browser may send: WebSocket messages and the lobby's table request,
each checked field by field (a bad one raises :class:`MessageError` with the
reason, and nothing changes)."""

from __future__ import annotations

from typing import Any

from gostop_core import preset_names
from gostop_web.security import RequestError, load_json

__all__ = ["MessageError", "MAX_MESSAGE_BYTES", "MAX_BODY_BYTES", "parse_message",
           "table_request"]

#: The largest client message accepted (a move is a few bytes).
MAX_MESSAGE_BYTES = 1024
#: The largest table request accepted.
MAX_BODY_BYTES = 4096
#: Keys a client message may hold, by type.
_MESSAGE_KEYS = {"move": {"type", "move", "seat", "turn"}, "hint": {"type", "seat"},
                 "next": {"type", "seat"}, "ping": {"type"}}


class MessageError(RequestError):
    """A client message that is refused."""


def parse_message(text: str | None, seat: int | None) -> dict[str, Any]:
    """A client message checked for size and shape; raises :class:`MessageError`."""
    if text is None:
        raise MessageError("send text frames holding JSON")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise MessageError(f"message too long (at most {MAX_MESSAGE_BYTES} bytes)")
    try:
        msg = load_json(text)
    except RequestError:
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


def table_request(body: bytes) -> tuple[str, int, list[str | None]]:
    """``{"rules": "casual", "players": 2, "seats": [null, "greedy"]}`` checked."""
    if len(body) > MAX_BODY_BYTES:
        raise MessageError(f"request too large (at most {MAX_BODY_BYTES} bytes)")
    try:
        data = load_json(body, max_depth=2)
    except RequestError as exc:
        raise MessageError(f'send {{"rules": ..., "players": ..., "seats": [...]}}: {exc}') \
            from None
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
