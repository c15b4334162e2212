"""The gostop bot protocol (docs/protocol.md), below the bots: the wire
format (:mod:`~gostop_core.protocol.wire`), the transports and process
handling (:mod:`~gostop_core.protocol.transport`,
:mod:`~gostop_core.protocol.process`), a client in the shape of
python-chess's ``chess.engine`` (:mod:`~gostop_core.protocol.client`), the
engine side (:mod:`~gostop_core.protocol.server`) and the conformance test
(:mod:`~gostop_core.protocol.conformance`).  It imports only the game API.

``ExternalBot`` (a bot that is a program) and the serving of gostop's own bots
live above, in :mod:`gostop_core.bots.external`."""

from gostop_core.protocol.client import AnalysisResult, EngineReplyError, Limit, PlayResult, \
    SimpleEngine
from gostop_core.protocol.wire import PROTOCOL_V1, PROTOCOL_V2, PROTOCOLS

__all__ = ["SimpleEngine", "Limit", "PlayResult", "AnalysisResult", "EngineReplyError",
           "PROTOCOL_V1", "PROTOCOL_V2", "PROTOCOLS"]

#: The names ``gostop_core.protocol`` (a module in gostop 0.1) offered that
#: live in :mod:`gostop_core.bots.external` now.
_MOVED_NAMES = frozenset({
    "PROTOCOL", "MAX_LINE", "MAX_OUTPUT", "GRACE", "DEFAULT_MOVE_TIME", "Transport",
    "ProcessTransport", "MockTransport", "BotProtocol", "ExternalBot", "serve",
    "view_from_string", "outcome_from_dict", "close_all_bots", "live_bot_pids",
    "sigterm_closes_bots", "parse_answer",
})


def __getattr__(name: str):
    """The 0.1 names, with a DeprecationWarning (as gostop_core._moved does
    for the other moved modules; this path is a package of its own now)."""
    if name not in _MOVED_NAMES:
        raise AttributeError(f"module 'gostop_core.protocol' has no attribute {name!r}")
    import warnings

    # The one upward import of this layer, named as an exception in the import
    # contract (pyproject.toml) and gone with the old names.
    from gostop_core.bots import external
    warnings.warn(f"gostop_core.protocol.{name} moved to gostop_core.bots.external.{name}; "
                  "the old path will be removed in a future release", DeprecationWarning,
                  stacklevel=2)
    return getattr(external, name)
