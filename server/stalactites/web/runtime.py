"""What one server process holds while it runs: made in the app's lifespan, never at import."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from ..clock import Clock
from ..config import ServerConfig
from ..rooms import Play, RoomService
from ..store import Store, open_store
from .audience import Audience
from .framesocket import CLOSE_RESTART, FrameSocket
from .hub import Hubs
from .limits import Limits
from .metrics import Metrics

__all__ = ["Runtime", "running"]

log = logging.getLogger(__name__)


@dataclass
class Runtime:
    config: ServerConfig
    clock: Clock
    store: Store
    rooms: RoomService
    play: Play
    hubs: Hubs
    audience: Audience
    limits: Limits = field(init=False)  # per client address, in this process
    metrics: Metrics = field(default_factory=Metrics)
    sockets: set[FrameSocket[Any, Any]] = field(default_factory=set)  # open websockets
    draining: bool = False  # shutting down: no new websockets

    def __post_init__(self) -> None:
        self.limits = Limits(self.config)

    async def serve_socket(self, socket: FrameSocket[Any, Any]) -> None:
        """Run one websocket while the process runs; refused (1012) once it is draining."""
        if self.draining:
            await socket.websocket.close(CLOSE_RESTART)
            return
        self.sockets.add(socket)
        try:
            await socket.serve()
        finally:
            self.sockets.discard(socket)
            who = getattr(socket, "player_id", None) or getattr(socket, "you", None)
            log.info("websocket closed (%s)", socket.role, extra={"player_id": who})

    def connections(self) -> dict[str, int]:
        """Open websockets by role."""
        counts: dict[str, int] = {}
        for socket in self.sockets:
            counts[socket.role] = counts.get(socket.role, 0) + 1
        return counts

    async def drain(self, grace_s: float) -> None:
        """Close every websocket with 1012 (the server restarts) once the frame it is handling
        is answered, so that moves being committed finish; wait ``grace_s`` at most."""
        self.draining = True
        log.info("draining %d websockets", len(self.sockets))
        for socket in list(self.sockets):
            socket.restart()
        deadline = time.monotonic() + grace_s
        while self.sockets and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        for socket in list(self.sockets):  # still busy after the grace time: cut off
            socket.restart(now=True)

    async def upkeep(self) -> None:
        """Forever: disconnect stalled clients; renew the presence of this process's
        connections; close idle hubs."""
        config = self.config
        period = max(min(config.presence_ttl_s / 3, config.send_timeout_s / 2), 0.05)
        while True:
            await asyncio.sleep(period)
            try:
                self._drop_stalled()
                await self._renew()
                await self.hubs.sweep()
            except Exception:
                log.exception("upkeep failed; trying again in %.1f s", period)

    def _drop_stalled(self) -> None:
        now = time.monotonic()
        for _, subscriber in self.hubs.subscribers():
            if subscriber.stalled(now, self.config.send_timeout_s):
                subscriber.kick()

    async def _renew(self) -> None:
        """Renew the leases of players and spectators; have spectator counts checked (a lease
        of another process's that ran out counts as leaving)."""
        until = self.clock.now_ms() + int(self.config.presence_ttl_s * 1000)
        watched = set()
        for room_id, subscriber in self.hubs.subscribers():
            if subscriber.player_id is not None:
                await self.store.touch_presence(
                    room_id, subscriber.player_id, subscriber.connection_id, until
                )
            else:
                await self.audience.renew(room_id, subscriber.connection_id)
                watched.add(room_id)
        for room_id in watched:
            self.audience.changed(room_id)


@asynccontextmanager
async def running(config: ServerConfig, clock: Clock) -> AsyncIterator[Runtime]:
    """Open the store and start the background work; undo it all on the way out."""
    store = open_store(
        config.store_url,
        config.redis_prefix,
        config.max_events,
        config.redis_connections,
        config.redis_cluster,
    )
    rooms = RoomService(store, config, clock)
    linger_ms = int(config.presence_ttl_s * 1000)
    metrics = Metrics()
    hubs = Hubs(store, rooms.current, clock, linger_ms, metrics.fanout_seconds)
    rooms.add_sink(hubs)
    audience = Audience(store, clock, linger_ms)
    runtime = Runtime(config, clock, store, rooms, Play(rooms), hubs, audience, metrics=metrics)
    upkeep = asyncio.create_task(runtime.upkeep(), name="upkeep")
    try:
        yield runtime
    finally:
        upkeep.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await upkeep
        await hubs.close()
        await audience.close()
        await rooms.close()
        await store.close()
