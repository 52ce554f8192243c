"""Guards below the app, in uvicorn's protocols (``stalactites serve`` uses them): a cap on a
client address's open connections and a deadline for an HTTP request's head.

uvicorn's own timeouts do not cover a slow head: ``timeout_keep_alive`` runs only
between requests and is cancelled by the first byte of the next one, and
``h11_max_incomplete_event_size`` bounds a head's size, not its time.  So a
:class:`GuardedHttp` connection has ``head_timeout_s`` from its opening (or from
the end of its previous response) until its request's head is complete; past it,
the server answers 408 and closes.  A connection from an address that already
holds ``address_connections`` open connections to this process (HTTP and
websockets alike: an upgraded connection stays counted until it closes) gets 503
and is closed at once.  The cap is per process and skips the trusted proxies
(``FORWARDED_ALLOW_IPS``): behind nginx every connection comes from nginx, which
caps and times out its clients itself.

A websocket is held for as long as its client stays, thousands at once: the
:class:`GuardedWebSocket` also keeps uvicorn's per-connection state small.  Its
attributes are slots (uvicorn's protocol has more than the 30 an instance dict
shares with its class, so each connection would get a dict of its own), its queue of
events for the app and its "may write" flag are a list and a flag (:class:`Inbox`,
:class:`Flag`) instead of an ``asyncio.Queue`` and an ``asyncio.Event`` (four deques between
them), and the handshake's request and response (their headers) are let go once the socket is
accepted (the app has the request's headers in its scope; websockets' parser keeps the
request object, emptied).

Its keepalive pings (uvicorn's, every ``ws_ping_interval``) go only to a socket whose client
has sent the app nothing since the last one was due: a client whose frames already show it
is alive (the web client pings every 15 s) is not pinged as well.

It also pauses reading a socket only once ``INBOX_PAUSE`` frames wait for the app, where
uvicorn pauses at the first and resumes when the app takes it: two ``epoll_ctl`` calls for
every frame of a client that sends one frame and waits for its answer (a racer), on the path
of every move.  Back-pressure is the same past a few frames (a frame is
at most ``max_frame_bytes``, and the connection's frame rate is capped).

And it offers the app a way to send text frames at once, in one write, without the ASGI
``send`` coroutine's chain (Starlette, the middlewares, uvicorn): the callable
:data:`SEND_NOW` in the scope's ``extensions``, taking a list of texts, answering False (nothing
sent) unless the socket is open and uvicorn would write them straight away (its writing not
paused by a client that does not read), when the app falls back to ``send``; it raises
:class:`ClientDisconnected` once the client is gone, like ``send``.  A text sent to many
sockets at once is framed once (:func:`framed`: frames are not masked from a server, and
compression is off), each socket's frames written as they are.
"""

from __future__ import annotations

import asyncio
import ipaddress
import struct
from collections import Counter
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.protocol import State

from ..config import ServerConfig

__all__ = ["SEND_NOW", "ConnectionCount", "Flag", "Inbox", "guarded_protocols"]

REFUSED = b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"
SEND_NOW = "stalactites.send_now"  # the scope's extension: send text frames at once
INBOX_PAUSE = 8  # frames waiting for the app before the socket's reading pauses
TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"


class ConnectionCount:
    """Open connections per peer address; the trusted proxies are not counted."""

    def __init__(self, cap: int, trusted: str) -> None:
        self.cap = cap
        self.counts: Counter[str] = Counter()
        self._any = "*" in (entry.strip() for entry in trusted.split(","))
        self._trusted = [
            ipaddress.ip_network(entry.strip(), strict=False)
            for entry in trusted.split(",")
            if entry.strip() and entry.strip() != "*" and _is_network(entry.strip())
        ]

    def admit(self, transport: asyncio.BaseTransport) -> str | None:
        """The address now counted for ``transport`` ("" if it is not counted), or None
        when its address already holds ``cap`` connections."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if self.cap <= 0 or not address or self._is_trusted(address):
            return ""
        if self.counts[address] >= self.cap:
            return None
        self.counts[address] += 1
        return address

    def release(self, address: str) -> None:
        if address:
            self.counts[address] -= 1
            if self.counts[address] <= 0:
                del self.counts[address]

    def _is_trusted(self, address: str) -> bool:
        if self._any:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self._trusted)


class Inbox:
    """What uvicorn's websocket protocol queues for the app (ASGI events): ``put_nowait``,
    ``get``, ``empty``, as an ``asyncio.Queue`` without a size limit; a list that is
    nearly always empty, and the futures of whoever waits for it."""

    __slots__ = ("_items", "_waiters")

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._waiters: list[asyncio.Future[None]] = []

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
                return

    async def get(self) -> Any:
        while not self._items:
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            except BaseException:
                if self._items and waiter.done() and not waiter.cancelled():
                    self._pass_on()  # woken, then cancelled: another waiter takes the item
                raise
            finally:
                self._waiters.remove(waiter)
        return self._items.pop(0)

    def _pass_on(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
                return


class Flag:
    """An ``asyncio.Event`` (``set``, ``clear``, ``is_set``, ``wait``) without its deque."""

    __slots__ = ("_set", "_waiters")

    def __init__(self) -> None:
        self._set = False
        self._waiters: list[asyncio.Future[None]] = []

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        self._set = True
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._set = False

    async def wait(self) -> bool:
        if self._set:
            return True
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            self._waiters.remove(waiter)
        return True


# uvicorn's websocket protocol's attributes (0.54) that are set when it is made: slots.
# Others (the handshake's request, response and scope) stay in the instance's dict.
UVICORN_WS_SLOTS = (
    "app",
    "app_state",
    "asgi_version",
    "client",
    "close_sent",
    "close_timeout",
    "close_timer",
    "config",
    "conn",
    "connections",
    "curr_msg_data_type",
    "default_headers",
    "disconnected",
    "frames",
    "handshake_complete",
    "handshake_initiated",
    "initial_response",
    "last_ping_rtt",
    "logger",
    "loop",
    "pending_ping_payload",
    "ping_interval",
    "ping_sent_at",
    "ping_timeout",
    "ping_timer",
    "pong_timer",
    "queue",
    "read_paused",
    "root_path",
    "scheme",
    "server",
    "tasks",
    "transport",
    "writable",
)


def _is_network(text: str) -> bool:
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


_FRAMED: dict[str, bytes] = {}  # the texts sent lately, as frames
FRAMED_MOST = 256
TEXT_FINAL = 0x81  # FIN and the text opcode (RFC 6455, 5.2)
_LENGTH_16 = struct.Struct("!BBH")  # a payload of 126 to 65,535 bytes: 126, then 16 bits
_LENGTH_64 = struct.Struct("!BBQ")  # longer: 127, then 64 bits


def framed(text: str) -> bytes:
    """``text`` as a server's text frame (final, unmasked, no extension), made once for all
    the sockets it goes to at once (a room event, a spectator's board): the last few are
    kept.  The two to ten bytes of its head are written here rather than by websockets'
    general ``Frame.serialize``, which checks and masks what this never needs."""
    frame = _FRAMED.get(text)
    if frame is None:
        if len(_FRAMED) >= FRAMED_MOST:
            _FRAMED.clear()
        data = text.encode()
        size = len(data)
        if size < 126:
            head = bytes((TEXT_FINAL, size))
        elif size < 65_536:
            head = _LENGTH_16.pack(TEXT_FINAL, 126, size)
        else:
            head = _LENGTH_64.pack(TEXT_FINAL, 127, size)
        frame = _FRAMED[text] = head + data
    return frame


def guarded_protocols(config: ServerConfig) -> tuple[type[Any], type[Any]]:
    """uvicorn's ``http`` and ``ws`` protocol classes with this process's guards."""
    count = ConnectionCount(config.address_connections, config.forwarded_allow_ips)
    head_timeout_s = config.head_timeout_s

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        """A websocket upgraded from a :class:`GuardedHttp` connection: still counted; kept
        small (see the module's docstring)."""

        __slots__ = (*UVICORN_WS_SLOTS, "counted", "heard")

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.counted = ""
            self.heard = False  # a frame came for the app since the last keepalive was due
            self.queue = Inbox()  # type: ignore[assignment]
            self.writable = Flag()  # type: ignore[assignment]
            self.writable.set()

        async def send(self, message: Any) -> None:
            await super().send(message)
            if message["type"] == "websocket.accept":  # the handshake is answered
                self.request.headers.clear()  # websockets' parser keeps the request itself
                self.request = self.response = None  # type: ignore[assignment]

        def send_receive_event_to_app(self) -> None:
            """uvicorn's, pausing reading only once ``INBOX_PAUSE`` frames wait (it pauses
            at the first); uvicorn's ``receive`` resumes it when the app has taken them all."""
            self.heard = True
            paused = self.read_paused
            self.read_paused = True  # skips uvicorn's own pause
            try:
                super().send_receive_event_to_app()
            finally:
                self.read_paused = paused
            if not paused and self.queue.qsize() >= INBOX_PAUSE:
                self.read_paused = True
                self.transport.pause_reading()

        def send_keepalive_ping(self) -> None:
            """uvicorn's keepalive ping, sent only to a client that has sent the app nothing
            since the last one was due: one that has (the web client pings every 15 s) is
            alive, and the timer just starts again.  A client gone silent is pinged one
            interval later than uvicorn would, and closed if it does not answer in time."""
            if self.heard and not (self.close_sent or self.transport.is_closing()):
                self.heard = False
                self.schedule_ping()
                return
            super().send_keepalive_ping()

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = self.__dict__.get("scope")  # none for a refused handshake
            if scope is not None:
                scope["extensions"][SEND_NOW] = self.send_now

        def send_now(self, texts: list[str]) -> bool:
            """Text frames written at once, in one write; False (nothing sent) unless the
            socket is open and may be written to now (see the module's docstring)."""
            if self.disconnected or self.transport.is_closing():
                raise ClientDisconnected()
            if not (self.handshake_complete and self.writable.is_set()) or self.close_sent:
                return False
            if self.initial_response is not None:
                return False
            conn = self.conn
            if conn.state is State.OPEN and not (conn.writes or conn.extensions):
                self.transport.write(b"".join([framed(text) for text in texts]))
                return True
            try:  # websockets frames them (it has frames of its own to send first)
                for text in texts:
                    conn.send_text(text.encode())
            except InvalidState:
                raise ClientDisconnected() from None
            self.transport.write(b"".join(conn.data_to_send()))
            return True

        def connection_lost(self, exc: Exception | None) -> None:
            count.release(self.counted)
            self.counted = ""
            scope = self.__dict__.get("scope")
            if scope is not None:  # no cycle through the scope: the protocol goes with it
                scope["extensions"].pop(SEND_NOW, None)
            super().connection_lost(exc)

    class GuardedHttp(H11Protocol):
        """h11, with the address cap and the head deadline."""

        counted = ""
        upgraded = False
        head_timer: asyncio.TimerHandle | None = None
        timed_cycle: object = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = count.admit(transport)
            if address is None:
                transport.write(REFUSED)
                transport.close()
                return
            self.counted = address
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if not self.upgraded:
                count.release(self.counted)
                self.counted = ""
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not self.timed_cycle:  # a head is complete: the app has it
                self._disarm()

        def on_response_complete(self) -> None:
            self._arm()  # the next request's head (a pipelined one disarms it at once)
            super().on_response_complete()

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._disarm()
            self.upgraded = True
            super().handle_websocket_upgrade(event)
            protocol = self.transport.get_protocol()
            if isinstance(protocol, GuardedWebSocket):
                protocol.counted = self.counted
            else:  # pragma: no cover - uvicorn always sets the ws protocol it made
                count.release(self.counted)

        def _arm(self) -> None:
            self._disarm()
            if head_timeout_s > 0 and not self.transport.is_closing():
                self.timed_cycle = self.cycle
                self.head_timer = self.loop.call_later(head_timeout_s, self._head_too_slow)

        def _disarm(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def _head_too_slow(self) -> None:
            self.head_timer = None
            if not self.transport.is_closing():
                self.transport.write(TIMED_OUT)
                self.transport.close()

    GuardedHttp.__name__ = GuardedHttp.__qualname__ = "GuardedHttp"
    GuardedWebSocket.__name__ = GuardedWebSocket.__qualname__ = "GuardedWebSocket"
    return GuardedHttp, GuardedWebSocket
