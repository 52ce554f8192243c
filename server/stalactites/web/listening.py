"""The listening sockets of ``stalactites serve``: a client address's connections counted from
the moment each is accepted.

A :class:`Listener`'s ``accept`` refuses, there and then, a connection from an address that
already holds ``STALACTITES_ADDRESS_CONNECTIONS`` open connections to this process: it is
answered 503 and closed before the next one is accepted, so it holds its descriptor for no
longer than that call, however many arrive at once.  An accepted connection stays counted
until its socket is closed (an HTTP connection upgraded to a websocket is the same socket).
The trusted proxies (``FORWARDED_ALLOW_IPS``) are not counted: behind nginx every connection
comes from nginx, which caps its own clients.  The protocols of :mod:`.transport` count
again once each connection is made, but asyncio makes them only after it has accepted a
whole burst (up to the listen backlog): too late to keep one address from taking every
descriptor.

When descriptors run out all the same (many addresses, or a proxy), asyncio stops accepting
for a second and logs it; a :class:`Listener` has it logged once each time, where asyncio
would go on accepting, failing and logging for every place left in its backlog.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
from typing import Any

from .transport import REFUSED, ConnectionCount

__all__ = ["Accepted", "Listener", "listen"]

BACKLOG = 2048  # uvicorn's default
REFUSALS_AT_ONCE = 64  # then the event loop's other work goes first, and accepting goes on
OUT_OF_DESCRIPTORS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


class Accepted(socket.socket):
    """An accepted connection's socket; closing it gives its address's place back."""

    __slots__ = ("address", "count")

    def __init__(self, fd: int, count: ConnectionCount, address: str) -> None:
        super().__init__(fileno=fd)
        self.count = count
        self.address = address  # "" once released, or when not counted

    def close(self) -> None:
        address, self.address = self.address, ""
        self.count.release(address)
        super().close()


class Listener(socket.socket):
    """A listening TCP socket whose ``accept`` counts each connection's peer address and
    refuses one past the cap (see the module's docstring)."""

    __slots__ = ("count", "resting")

    def __init__(self, fd: int, count: ConnectionCount) -> None:
        super().__init__(fileno=fd)
        self.count = count
        self.resting = False  # out of descriptors: asyncio retries in a second

    def accept(self) -> tuple[socket.socket, Any]:
        if self.resting:  # asyncio goes on calling after a failure it has logged: stop it
            self.resting = False
            raise BlockingIOError(errno.EAGAIN, "accepting again in a while")
        for _ in range(REFUSALS_AT_ONCE):
            try:
                conn, peer = super().accept()
            except OSError as error:
                self.resting = error.errno in OUT_OF_DESCRIPTORS
                raise
            address = self.count.admit(Peer(peer))
            if address is not None:
                return Accepted(conn.detach(), self.count, address), peer
            refuse(conn)
        raise BlockingIOError(errno.EAGAIN, "more to accept after the loop's other work")


class Peer(asyncio.BaseTransport):
    """What :meth:`ConnectionCount.admit` asks of a connection, before it has a transport."""

    def __init__(self, peer: Any) -> None:
        super().__init__({"peername": peer})


def refuse(conn: socket.socket) -> None:
    """Answer 503 if the socket takes it at once, and close."""
    with conn:
        conn.setblocking(False)
        with contextlib.suppress(OSError):
            conn.send(REFUSED)


def listen(host: str, port: int, count: ConnectionCount) -> list[Listener]:
    """Listening sockets for ``host`` and ``port``, one per address the host resolves to (as
    asyncio's ``create_server`` binds them); OSError if one cannot be bound."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    listeners: list[Listener] = []
    try:
        for family, _, _, _, address in dict.fromkeys(found):
            bound = socket.create_server(address, family=family, backlog=BACKLOG)
            listeners.append(Listener(bound.detach(), count))
    except OSError:
        for listener in listeners:
            listener.close()
        raise
    return listeners
