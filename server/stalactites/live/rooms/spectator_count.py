"""Counting spectators: their leases in the store, and the ``spectators`` room event.

Each spectator connection holds a lease in the store, renewed by the process's
upkeep like a player's presence.  Whenever this process sees the number change
(a spectator came or went, or upkeep noticed leases running out) it asks the
store to announce the new count; the store announces at most once a
second per room, whichever processes ask, and answers when to ask again.  So
however many spectators come and go, the players get one count a second at most.
"""

from __future__ import annotations

import asyncio
import logging

from ...clock import Clock
from ...store import Store

__all__ = ["SpectatorCount"]

log = logging.getLogger(__name__)

GAP_MS = 1000  # the least time between two spectator counts in a room
RETRY_S = 0.5


class SpectatorCount:
    def __init__(self, store: Store, clock: Clock, lease_ms: int) -> None:
        self._store = store
        self._clock = clock
        self._lease_ms = lease_ms
        self._dirty: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}

    async def arrive(self, room_id: str, connection_id: str) -> None:
        await self.renew(room_id, connection_id)
        self.changed(room_id)

    async def renew(self, room_id: str, connection_id: str) -> None:
        until = self._clock.now_ms() + self._lease_ms
        await self._store.touch_watcher(room_id, connection_id, until)

    async def depart(self, room_id: str, connection_id: str) -> None:
        await self._store.drop_watcher(room_id, connection_id)
        self.changed(room_id)

    def changed(self, room_id: str) -> None:
        """The count may have changed: have it announced (now, or when the store allows)."""
        self._dirty.add(room_id)
        if room_id not in self._tasks:
            task = asyncio.create_task(self._announce(room_id), name=f"spectator-count:{room_id}")
            self._tasks[room_id] = task
            task.add_done_callback(lambda _: self._done(room_id))

    def _done(self, room_id: str) -> None:
        self._tasks.pop(room_id, None)
        if room_id in self._dirty:  # changed after the last look, before the task was gone
            self.changed(room_id)

    async def _announce(self, room_id: str) -> None:
        while room_id in self._dirty:
            self._dirty.discard(room_id)
            now = self._clock.now_ms()
            try:
                again = await self._store.announce_watchers(room_id, now, GAP_MS)
            except Exception:
                log.exception("room %s: announcing the spectator count failed", room_id)
                again = now + int(RETRY_S * 1000)
            if again is not None:
                self._dirty.add(room_id)
                await asyncio.sleep(max(again - self._clock.now_ms(), 0) / 1000)

    async def close(self) -> None:
        self._dirty.clear()
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
