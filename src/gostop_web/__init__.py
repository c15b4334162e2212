"""gostop_web: a Go-Stop table in the browser (``gostop serve``, docs/web.md).

Needs the ``web`` extra (``pip install 'gostop[web]'``: Starlette, uvicorn,
websockets).  :func:`create_app` builds the ASGI application; :func:`serve`
runs it with uvicorn."""

from __future__ import annotations

from typing import Iterable

from gostop_web.app import create_app
from gostop_web.security import LOOPBACK_HOSTS, is_loopback, is_wildcard, lan_addresses, machine_hosts
from gostop_web.replay import ReplayLibrary
from gostop_web.tables import HintFunction

__all__ = ["create_app", "serve", "ReplayLibrary", "is_loopback"]


def is_loopback(host: str) -> bool:
    """Whether ``host`` is an address on the loopback interface."""
    import ipaddress
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serve(host: str = "127.0.0.1", port: int = 8000, *, hint: HintFunction | None = None,
          bots: Iterable[str] = (), replay: ReplayLibrary | None = None,
          open_browser: bool = False, move_delay: float = 0.6) -> None:
    """Run the web table until Ctrl-C.  Bound to a loopback address, it answers
    only to loopback host names; bound elsewhere (``--host``), to any."""
    import socket
    import threading
    import webbrowser

    import uvicorn

    trusted = LOOPBACK_HOSTS if is_loopback(host) else None
    app = create_app(hint=hint, bots=bots, trusted_hosts=trusted, replay=replay,
                     move_delay=move_delay)
    # bind here, so that a port in use is an OSError for the caller to report
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/" + ("replay" if replay is not None else "")
    print(f"gostop serve: {url}  (Ctrl-C stops)", flush=True)
    if open_browser:
        threading.Timer(0.8, webbrowser.open, (url,)).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_max_size=64 * 1024))
    server.run(sockets=[sock])
