"""A driver's message as ``gostop engine`` reads it (docs/protocol.md):
each field checked by type into a :class:`ParsedMessage` (the values
themselves, a position say, are read later), the id to echo on an error, and
the time a request may take (:func:`time_budget_ms`)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from gostop_core.protocol import wire
from gostop_core.protocol.wire import MessageError

__all__ = ["MIN_SHARE_MS", "ParsedMessage", "time_budget_ms", "echo_id", "parse_message"]


#: The smallest share of a clock one move is given (unless less than twice
#: that is left): below it, the pipe and the process alone would miss it.
MIN_SHARE_MS = 20.0


def time_budget_ms(message: dict, id: Any = None) -> float | None:
    """The time to use for one move: ``time_ms``, or a share of the clock
    (``remaining_ms``, ``increment_ms``): a twentieth of what is left plus
    three quarters of the increment, at least :data:`MIN_SHARE_MS`, and never
    more than half of what is left.  None when the message gives no limit."""
    per_move = wire.validate_time(message, "time_ms", id)
    remaining = wire.validate_time(message, "remaining_ms", id)
    increment = wire.validate_time(message, "increment_ms", id) or 0.0
    budget = per_move
    if remaining is not None:
        share = min(max(remaining / 20 + 0.75 * increment, MIN_SHARE_MS), remaining / 2)
        budget = share if budget is None else min(budget, share)
    return budget


@dataclass
class ParsedMessage:
    """One driver message, its fields checked by type (the values themselves,
    a position say, are read by the worker).  Nothing of the server's own
    state lives here: an unknown field of the message is simply not copied."""

    kind: str
    id: Any
    received: float
    position: str | None = None
    view: str | None = None
    moves: list[str] | None = None
    stock: list[str | None] | None = None
    legal: list[str] | None = None
    seat: int | None = None
    budget: float | None = None
    name: str | None = None
    value: Any = None
    outcome: Any = None


def _shown(value: Any) -> str:
    """A value as the driver wrote it (JSON), cut short."""
    try:
        return json.dumps(value)[:40]
    except (TypeError, ValueError):
        return repr(value)[:40]


def echo_id(message: dict) -> Any:
    """The id to put on an error reply: the one given when it is a JSON scalar
    a reader can compare, else None."""
    value = message.get("id")
    if isinstance(value, bool) or value is None:
        return value if isinstance(value, bool) else None
    if isinstance(value, (int, float)) and math.isfinite(value):
        return value
    if isinstance(value, str) and len(value) <= wire.MAX_ID_LENGTH:
        return value
    return None


def parse_message(message: dict, received: float) -> ParsedMessage:
    """The typed form of a message (raises :class:`MessageError`)."""
    kind = message["type"]
    id = wire.validate_id(message, required=False)
    parsed = ParsedMessage(kind, id, received)
    if kind in ("request", "analyse", "state"):
        has_position = "position" in message
        has_view = "view" in message
        if has_position and has_view:
            raise MessageError(f"{kind}: give a view or a position, not both: "
                               "\"view\" and \"position\"", id)
        for field in ("position", "view"):
            if field in message:
                text = message[field]
                if not isinstance(text, str) or len(text) > 4096:
                    raise MessageError(f"{kind}: \"{field}\" must be a {field} string: "
                                       f"{_shown(text)}", id)
                setattr(parsed, field, text)
                break
        if not (has_position or has_view):
            raise MessageError(f"{kind}: missing \"view\" or \"position\": none given", id)
        parsed.moves = wire.validate_moves(message, "moves", id)
        if "stock" in message:
            stock = message["stock"]
            if not isinstance(stock, list) or len(stock) > wire.MAX_LIST or not all(
                    c is None or (isinstance(c, str) and len(c) <= 8) for c in stock):
                raise MessageError(f"{kind}: \"stock\" must be a list of card codes or null: "
                                   f"{_shown(stock)}", id)
            parsed.stock = stock
        parsed.legal = wire.validate_moves(message, "legal", id)
        if "seat" in message and message["seat"] is not None:
            seat = message["seat"]
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 8:
                raise MessageError(f"{kind}: \"seat\" must be a seat number: "
                                   f"{_shown(seat)}", id)
            parsed.seat = seat
        if kind != "state":
            parsed.budget = time_budget_ms(message, id)
    elif kind == "setoption":
        name = message.get("name")
        if not isinstance(name, str) or len(name) > 64:
            raise MessageError(f"setoption: \"name\" must be an option name: "
                               f"{_shown(name)}", id)
        if "value" not in message:
            raise MessageError(f"setoption: missing \"value\": option {name}", id)
        parsed.name, parsed.value = name, message["value"]
    elif kind in ("newhand", "end"):
        view = message.get("view")
        if not isinstance(view, str) or len(view) > 4096:
            raise MessageError(f"{kind}: \"view\" must be a view string: "
                               f"{_shown(view)}", id)
        parsed.view = view
        parsed.outcome = message.get("outcome")
    return parsed
