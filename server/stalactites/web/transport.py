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
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import Counter
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from ..config import ServerConfig

__all__ = ["ConnectionCount", "guarded_protocols"]

REFUSED = b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"
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


def _is_network(text: str) -> bool:
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


def guarded_protocols(config: ServerConfig) -> tuple[type[Any], type[Any]]:
    """uvicorn's ``http`` and ``ws`` protocol classes with this process's guards."""
    count = ConnectionCount(config.address_connections, config.forwarded_allow_ips)
    head_timeout_s = config.head_timeout_s

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        """A websocket upgraded from a :class:`GuardedHttp` connection: still counted."""

        counted = ""

        def connection_lost(self, exc: Exception | None) -> None:
            count.release(self.counted)
            self.counted = ""
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
