"""The checks a request passes before the app looks at it: the host name it was
sent to (DNS rebinding), its Origin, a depth-capped JSON parser and a rate
limit that forgets.  Nothing here knows about tables."""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
import time
from typing import Any, Iterable
from urllib.parse import urlsplit

from gostop_core import GoStopError
from gostop_core.protocol.wire import nests_deeper

__all__ = ["LOOPBACK_HOSTS", "MAX_JSON_DEPTH", "RATE_PER_SECOND", "RATE_BURST",
           "STRIKE_LIMIT", "STRIKE_WINDOW", "RequestError", "load_json", "TokenBucket",
           "HostGuard", "host_name", "origin_ok", "is_loopback", "machine_hosts"]

log = logging.getLogger("gostop_web")

#: Host names a server bound to the loopback interface answers to.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
#: The deepest nesting of arrays and objects a JSON body may have.
MAX_JSON_DEPTH = 16
#: Messages a connection may send: RATE_BURST at once, then RATE_PER_SECOND.
RATE_PER_SECOND = 10.0
RATE_BURST = 20
#: Messages refused by the rate limit within STRIKE_WINDOW seconds that close
#: the connection; older refusals are forgotten.
STRIKE_LIMIT = 50
STRIKE_WINDOW = 10.0


class RequestError(GoStopError, ValueError):
    """A client request or message that is refused (its text says why)."""


def load_json(text: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``text`` parsed as JSON, refused with :class:`RequestError` when it is
    not JSON or nests deeper than ``max_depth`` (checked before parsing, so
    that no recursion limit is ever reached)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise RequestError("the body is not UTF-8") from None
    if nests_deeper(text, max_depth):
        raise RequestError(f"JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise RequestError("not valid JSON") from None


class TokenBucket:
    """A rate limit: ``burst`` messages at once, refilled at ``rate`` per second.
    :meth:`strike` counts the refusals of the last ``window`` seconds only, so
    a fast but honest client is never closed for old bursts."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST,
                 window: float = STRIKE_WINDOW, clock=time.monotonic):
        self.rate, self.burst = rate, float(burst)
        self.level = float(burst)
        self.window = window
        self.clock = clock
        self.stamp = clock()
        self._strikes: list[float] = []

    def take(self) -> bool:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1.0:
            return False
        self.level -= 1.0
        return True

    def strike(self) -> int:
        """Count one refused message; the number refused within the window."""
        now = self.clock()
        self._strikes = [t for t in self._strikes if now - t < self.window]
        self._strikes.append(now)
        return len(self._strikes)


def host_name(headers) -> str | None:
    """The host name of a request's Host header (lower case, no port, no
    brackets), ``None`` when it is missing or malformed."""
    raw = headers.get("host")
    if not raw:
        return None
    try:
        name = urlsplit("//" + raw).hostname
    except ValueError:
        return None
    return name.lower() if name else None


def origin_ok(headers) -> bool:
    """No Origin (not a browser) or the same origin as the Host."""
    origin = headers.get("origin")
    if origin is None:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == (
        headers.get("host") or "").lower()


def is_loopback(host: str) -> bool:
    """Whether ``host`` is an address on the loopback interface (or localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """Whether ``host`` is the any-address (0.0.0.0, ::): every interface."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def machine_hosts(bind: str) -> list[str]:
    """The names and addresses this machine answers to when bound to ``bind``:
    the loopback names, the bound address, and for a wildcard bind the
    machine's own name and its addresses (found without sending a packet)."""
    hosts = list(LOOPBACK_HOSTS)
    if not is_wildcard(bind):
        hosts.append(bind.strip("[]").lower())
        return list(dict.fromkeys(hosts))
    names = {socket.gethostname()}
    try:
        names.add(socket.getfqdn())
    except OSError:
        pass
    addresses: set[str] = set()
    for name in names:
        hosts.append(name.lower())
        try:
            for info in socket.getaddrinfo(name, None):
                addresses.add(str(info[4][0]).split("%")[0])
        except OSError:
            pass
    # the address of the interface a packet to the LAN would leave by
    # (connect() on a UDP socket sends nothing)
    for probe in ("192.168.0.1", "10.0.0.1"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                addresses.add(s.getsockname()[0])
        except OSError:
            pass
    hosts.extend(sorted(addresses))
    return list(dict.fromkeys(h.lower() for h in hosts))


def lan_addresses(hosts: Iterable[str]) -> list[str]:
    """The addresses among ``hosts`` another machine could reach (no loopback)."""
    out = []
    for h in hosts:
        try:
            ip = ipaddress.ip_address(h)
        except ValueError:
            continue
        if not ip.is_loopback and not ip.is_unspecified and not ip.is_link_local:
            out.append(h)
    return out


class HostGuard:
    """ASGI middleware: every HTTP request and WebSocket handshake whose Host is
    not one of ``hosts`` is refused (HTTP 400; WebSocket close 4400), on every
    route, before the app sees it.  ``hosts=None`` answers to any host (tests
    only: ``gostop serve`` always names its hosts)."""

    def __init__(self, app, hosts: Iterable[str] | None):
        self.app = app
        self.hosts = None if hosts is None else {h.lower().strip("[]") for h in hosts}

    def allows(self, headers) -> bool:
        name = host_name(headers)
        return name is not None and (self.hosts is None or name in self.hosts)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        if self.allows(headers):
            await self.app(scope, receive, send)
            return
        log.warning("refused a request for host %r", headers.get("host"))
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 400,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
            await send({"type": "http.response.body", "body": b"unknown host"})
        else:
            await send({"type": "websocket.close", "code": 4400})
