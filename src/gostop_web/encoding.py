"""Frames as JSON text, fast: :func:`dumps` uses orjson when it is installed
(the ``web`` extra pins it) and the standard library's encoder otherwise; both
write the same JSON (UTF-8 text, no spaces), so a frame reads the same either
way.  Encoding is the largest single cost of a frame after it is built
(docs/performance.md)."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["dumps", "ENCODER"]

try:
    import orjson
except ImportError:  # the web extra without orjson: the standard encoder
    orjson = None


def _dumps_std(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


if orjson is not None:
    _OPTIONS = orjson.OPT_NON_STR_KEYS

    def dumps(data: Any) -> str:
        """``data`` as compact JSON text."""
        try:
            return orjson.dumps(data, option=_OPTIONS).decode("utf-8")
        except TypeError:  # what orjson does not take (an int past 64 bits, say)
            return _dumps_std(data)

    #: Which encoder :func:`dumps` uses.
    ENCODER = "orjson"
else:
    dumps = _dumps_std
    ENCODER = "json"
