"""``stalactites serve``: run the race server under uvicorn and print the URL to open.

Configuration comes from the environment (see :class:`stalactites.config.ServerConfig`):
the in-memory store unless ``REDIS_URL`` is set.  Logs are JSON lines on stderr unless
``STALACTITES_LOG_FORMAT=text``.  uvicorn trusts ``X-Forwarded-For`` and
``X-Forwarded-Proto`` from the addresses in ``FORWARDED_ALLOW_IPS`` (the load balancer).

On SIGTERM the server stops listening, closes every websocket with 1012 once the
frame it is handling is answered (``STALACTITES_SHUTDOWN_GRACE_S`` at most), lets
HTTP requests finish, and exits 0.

At start-up the process's open-file limit is raised to its hard limit (every
connection holds a file descriptor); connections per client address are counted and
capped as they are accepted (:mod:`stalactites.web.listening`), and the time a request's
head may take is capped below the app (:mod:`stalactites.web.transport`).
Once started, the process collects its old objects seldom (:mod:`stalactites.web.garbage`).
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
from typing import Any

__all__ = ["add_serve", "cmd_serve"]

WS_MAX_BYTES = 1 << 20  # larger frames are refused by uvicorn (close 1009); smaller ones the app


def add_serve(commands: Any) -> None:
    """Register the subcommand on the ``stalactites`` parser's subcommands."""
    serve = commands.add_parser("serve", help="run the race server (REDIS_URL selects Redis)")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks one)")
    serve.set_defaults(run=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from ..config import ServerConfig
    from ..logs import logging_config
    from ..web import create_app
    from ..web.graceful import GracefulServer
    from ..web.listening import listen
    from ..web.transport import ConnectionCount, guarded_protocols
    from .usage import store_of

    if not 0 <= args.port <= 65535:
        print(f"stalactites: error: --port {args.port}: not a port", file=sys.stderr)
        return 2
    try:
        config = ServerConfig.from_env()
        log_config = logging_config(config.log_format, config.log_level)
    except ValueError as error:
        print(f"stalactites: error: {error}", file=sys.stderr)
        return 2
    raise_open_files()
    count = ConnectionCount(config.address_connections, config.forwarded_allow_ips)
    try:
        listeners = listen(args.host, args.port, count)
    except OSError as error:
        print(f"stalactites: error: listening: {error.strerror or error}", file=sys.stderr)
        return 1
    app = create_app(config)
    http, ws = guarded_protocols(config)
    settings = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        http=http,
        ws=ws,
        ws_max_size=WS_MAX_BYTES,
        ws_per_message_deflate=False,  # small frames: compressing costs more than it saves
        lifespan="on",
        log_config=log_config,
        log_level=config.log_level,
        proxy_headers=True,
        forwarded_allow_ips=config.forwarded_allow_ips,
        timeout_graceful_shutdown=max(int(config.shutdown_grace_s), 1),
    )
    server = GracefulServer(settings, app, config.shutdown_grace_s)
    store = store_of(config)
    asyncio.run(_serve(server, listeners, args.host, store))
    return 0


def raise_open_files() -> int:
    """Raise the soft limit on open files to the hard one; the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # some systems cap the soft limit lower (macOS)
            return soft
    return hard


async def _serve(server: Any, listeners: list[Any], host: str, store: str) -> None:
    from ..web.garbage import collect_seldom

    task = asyncio.create_task(server.serve(listeners))
    while not server.started and not task.done():
        await asyncio.sleep(0.05)
    if not server.started:
        await task
        return
    collecting = collect_seldom()
    try:
        port = server.servers[0].sockets[0].getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        print(f"Stalactites Race on http://{shown}:{port}/ (store: {store})", flush=True)
        await task
    finally:
        collecting.cancel()
