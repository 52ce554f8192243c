"""What one server process holds while it runs: made in the app's lifespan, never at import."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from ..clock import Clock
from ..config import ServerConfig
from ..rooms import Play, RoomService
from ..store import Store, open_store
from .audience import Audience
from .hub import Hubs
from .limits import Limits

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

    def __post_init__(self) -> None:
        self.limits = Limits(self.config)

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
        config.store_url, config.redis_prefix, config.max_events, config.redis_connections
    )
    rooms = RoomService(store, config, clock)
    linger_ms = int(config.presence_ttl_s * 1000)
    hubs = Hubs(store, rooms.current, clock, linger_ms)
    rooms.add_sink(hubs)
    audience = Audience(store, clock, linger_ms)
    runtime = Runtime(config, clock, store, rooms, Play(rooms), hubs, audience)
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
