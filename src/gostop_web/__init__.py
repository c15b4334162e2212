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

__all__ = ["create_app", "serve", "server_config", "ReplayLibrary", "is_loopback", "qr_text"]


def qr_text(url: str) -> str:
    """A QR code of ``url`` drawn with block characters for a terminal (the
    ``segno`` library of the web extra); empty when segno is missing."""
    try:
        import segno
    except ImportError:
        return ""
    import io
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def server_config(app, **options):
    """The uvicorn configuration ``gostop serve`` runs ``app`` with (the load
    benchmark too): messages of at most 64 KiB, a second to close on Ctrl-C,
    and no per-message compression.  A frame is a few KB of JSON, which any
    network a table is played on carries at once; compressing it cost a tenth
    of the server's time and a zlib context per connection
    (docs/performance.md)."""
    import uvicorn
    kw = dict(log_level="warning", ws_max_size=64 * 1024, timeout_graceful_shutdown=1,
              ws_per_message_deflate=False)
    kw.update(options)
    return uvicorn.Config(app, **kw)


def serve(host: str = "127.0.0.1", port: int = 8000, *, hint: HintFunction | None = None,
          bots: Iterable[str] = (), replay: ReplayLibrary | None = None,
          open_browser: bool = False, move_delay: float = 0.6,
          allow_hosts: Iterable[str] = (), echo=print) -> None:
    """Run the web table until Ctrl-C.  It answers only to the host names of
    the address it is bound to (:func:`~gostop_web.security.machine_hosts`)
    and those of ``allow_hosts``; bound beyond the loopback it says so and
    prints the address other machines use, with its QR code."""
    import socket
    import threading
    import webbrowser

    import uvicorn

    trusted = machine_hosts(host) + [h.strip().lower() for h in allow_hosts if h.strip()]
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
    path = "replay" if replay is not None else ""
    if is_wildcard(host):
        shown = next(iter(lan_addresses(trusted)), "127.0.0.1")
    else:
        shown = host
    shown = f"[{shown}]" if ":" in shown else shown
    url = f"http://{shown}:{port}/{path}"
    echo(f"gostop serve: {url}  (Ctrl-C stops)")
    if not is_loopback(host):
        echo("warning: the table is open to the local network: anyone who can reach "
             f"this machine can open the lobby (it answers to {', '.join(trusted)})")
        for lan in lan_addresses(trusted):
            lan_url = f"http://{'[' + lan + ']' if ':' in lan else lan}:{port}/{path}"
            echo(f"  on the local network: {lan_url}")
            echo(qr_text(lan_url))
    if open_browser:
        threading.Timer(0.8, webbrowser.open, (url,)).start()
    server = uvicorn.Server(server_config(app))
    try:
        server.run(sockets=[sock])
    finally:
        # every table's bots stop (a search in a worker thread at its next
        # check: its table's token, never a process-wide flag), so that the
        # interpreter's exit does not wait for them
        app.state.tables.close()
        app.state.executor.shutdown(wait=False, cancel_futures=True)
