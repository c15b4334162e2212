"""The gostop bot protocol (docs/protocol.md): the wire format
(:mod:`~gostop_core.protocol.wire`), a client in the shape of python-chess's
``chess.engine`` (:mod:`~gostop_core.protocol.client`), the engine side
(:mod:`~gostop_core.protocol.server`) and the conformance test
(:mod:`~gostop_core.protocol.conformance`)."""

from gostop_core.protocol.legacy import *  # noqa: F401,F403  (until the house move)
from gostop_core.protocol.legacy import __all__ as _legacy_all

__all__ = list(_legacy_all)
