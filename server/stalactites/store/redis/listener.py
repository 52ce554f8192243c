"""A subscriber connection (Redis pub/sub) that hands each message to a callback.

Messages are read as bytes arrive, by the connection's protocol (no task wakes for them), each
handed to the callback at once.  It pings a connection that has been quiet, and after a lost
or silent connection reconnects (at the next address it knows, on a cluster), subscribes again
and, once Redis has confirmed the subscriptions, says so.  :mod:`.doorbells` keeps one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, cast

import hiredis

from .resp import Address, pack, reply_parser

__all__ = ["HEALTH_S", "Listener"]

log = logging.getLogger(__name__)

HEALTH_S = 5.0  # a subscription quiet this long is pinged; no answer for as long again: dropped


class Listener:
    """A subscriber connection: ``on_message(channel, data)`` for every message;
    ``on_reconnect()`` once a lost connection was made again and Redis has confirmed its
    subscriptions (messages may have been lost meanwhile; any published after the call are
    heard).  A connection quiet for ``health_s`` is pinged, and dropped when the ping is not
    answered within ``health_s`` more.  ``others()``, if given, names more addresses to try in
    turn when a connection fails."""

    def __init__(
        self,
        address: Address,
        on_message: Callable[[str, str], None],
        on_reconnect: Callable[[], None],
        others: Callable[[], Sequence[Address]] | None = None,
        health_s: float = HEALTH_S,
    ) -> None:
        self._address = address
        self._others = others
        self._on_message = on_message
        self._on_reconnect = on_reconnect
        self._channels: set[str] = set()
        self._acks: dict[str, asyncio.Future[None]] = {}
        self._transport: asyncio.Transport | None = None
        self._task: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self._health_s = health_s
        self._received = 0  # chunks read, for the health check
        self._unconfirmed = 0  # subscriptions made again, not yet confirmed

    async def subscribe(self, channel: str) -> None:
        """Subscribe, returning once Redis has confirmed it."""
        self._channels.add(channel)
        await self._started()
        ack = self._acks.setdefault(channel, asyncio.get_running_loop().create_future())
        self._send("SUBSCRIBE", channel)
        await asyncio.wait_for(asyncio.shield(ack), 5)

    async def unsubscribe(self, channel: str) -> None:
        self._channels.discard(channel)
        self._send("UNSUBSCRIBE", channel)

    async def _started(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="redis-listener")
        await asyncio.wait_for(self._connected.wait(), 10)

    def _send(self, *args: Any) -> None:
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(pack(args))

    async def _run(self) -> None:
        first, failures = True, 0
        while True:
            transport = None
            health: asyncio.Task[None] | None = None
            address = self._choose(failures)
            try:
                transport = await address.open(lambda: _Messages(self))
                self._transport = transport
                for command in address.greeting():
                    transport.write(pack(command))
                self._unconfirmed = 0 if first else len(self._channels)
                for channel in self._channels:
                    self._send("SUBSCRIBE", channel)
                self._connected.set()
                if not first and not self._channels:
                    self._on_reconnect()
                first = False
                health = asyncio.create_task(self._check_health(transport))
                why = await cast(_Messages, transport.get_protocol()).lost
                log.warning("redis subscription lost: %s; reconnecting", why)
            except OSError as error:
                log.warning("redis subscription lost: %s; reconnecting", error)
            finally:
                if health is not None:
                    health.cancel()
                if transport is not None:
                    transport.close()
            self._connected.clear()
            failures += 1
            await asyncio.sleep(0.5)

    def _choose(self, failures: int) -> Address:
        """The address to subscribe at: the first one, or after failures the others in turn
        (any node of a Redis Cluster hears every PUBLISH)."""
        others = self._others() if self._others is not None else ()
        choices = [self._address, *(replace(o, name=self._address.name) for o in others)]
        return choices[failures % len(choices)]

    async def _check_health(self, transport: asyncio.Transport) -> None:
        """Ping a quiet connection; drop it when even the ping gets no answer."""
        while True:
            seen = self._received
            await asyncio.sleep(self._health_s)
            if self._received != seen:
                continue
            transport.write(pack(("PING",)))
            await asyncio.sleep(self._health_s)
            if self._received == seen:
                log.warning("redis subscription silent for %.1f s; reconnecting", self._health_s)
                transport.abort()
                return

    def _take(self, reply: Any) -> None:
        if not isinstance(reply, list) or len(reply) < 3:
            return
        kind, channel = reply[0], reply[1]
        if kind == "message":
            try:
                self._on_message(channel, reply[2])
            except Exception:  # one bell's failure is not the others'
                log.exception("a doorbell on %s failed", channel)
        elif kind == "subscribe":
            ack = self._acks.pop(channel, None)
            if ack is not None and not ack.done():
                ack.set_result(None)
            if self._unconfirmed > 0:  # the subscriptions made again are answered in order:
                self._unconfirmed -= 1  # after the last one, every bell is heard again
                if self._unconfirmed == 0:
                    self._on_reconnect()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._transport is not None:
            self._transport.close()


class _Messages(asyncio.Protocol):
    """A :class:`Listener`'s connection, read as bytes arrive; ``lost`` is done, with why,
    when it is lost or speaks nonsense."""

    def __init__(self, listener: Listener) -> None:
        self._listener = listener
        self._parser = reply_parser()
        self._transport: asyncio.Transport | None = None
        self.lost: asyncio.Future[object] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        listener, parser = self._listener, self._parser
        listener._received += 1
        try:
            parser.feed(data)
            while (reply := parser.gets()) is not False:
                listener._take(reply)
        except hiredis.ProtocolError as error:
            self._lose(error)
            if self._transport is not None:
                self._transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self._lose(exc or "redis closed the subscription")

    def _lose(self, why: object) -> None:
        if not self.lost.done():
            self.lost.set_result(why)
