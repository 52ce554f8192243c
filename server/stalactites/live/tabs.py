"""This process's sockets that hear their player's channel, by player: the notification
sockets (a tab each) and the arena sockets.  The frames published to a player are handed to
each of their sockets of the frame's topic here; the tabs' presence leases are renewed, and
leases left by dead processes swept, while the process runs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from ..friends import Friends

__all__ = ["SWEEP_S", "Tab", "Tabs"]

log = logging.getLogger(__name__)

SWEEP_S = 5.0  # how often leases left by dead processes are looked for
RENEWED_AT_ONCE = 64


class Tab(Protocol):
    connection_id: str
    topic: str  # "" a notification socket; "arena:ID" an arena socket (its frames only)

    def offer(self, text: str) -> None: ...
    def kick(self) -> None: ...


class Tabs:
    def __init__(self, friends: Friends, lease_ms: int) -> None:
        self.friends = friends
        self.lease_ms = lease_ms
        self.by_player: dict[str, dict[str, Tab]] = {}
        friends.store.on_frame(self.deliver, self.resubscribed)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._upkeep(), name="friends-upkeep")

    async def open(self, player_id: str, tab: Tab, presence: bool = True) -> None:
        """A socket said hello: its player's frames of its topic reach it; a tab's
        (``presence``) makes the player online."""
        tabs = self.by_player.setdefault(player_id, {})
        first = not tabs
        tabs[tab.connection_id] = tab
        if first:
            await self.friends.store.listen(player_id)
        if presence:
            await self.friends.presence.tab_on(player_id, tab.connection_id)

    async def close(self, player_id: str, tab: Tab) -> None:
        tabs = self.by_player.get(player_id, {})
        if tabs.pop(tab.connection_id, None) is None:
            return
        if not tabs:
            del self.by_player[player_id]
            await self.friends.store.unlisten(player_id)
        if not tab.topic:
            await self.friends.presence.tab_off(player_id, tab.connection_id)

    def deliver(self, player_id: str, frame: str) -> None:
        """Hand a frame to the player's sockets of its topic: ``TOPIC|FRAME`` (an arena's)
        or a plain frame (the notification sockets')."""
        topic = ""
        if frame.startswith("arena:"):
            topic, frame = frame.split("|", 1)
        for tab in list(self.by_player.get(player_id, {}).values()):
            if tab.topic == topic:
                tab.offer(frame)

    def resubscribed(self) -> None:
        """Frames may have been lost: every tab reconnects and reads what is true now."""
        for tabs in list(self.by_player.values()):
            for tab in list(tabs.values()):
                tab.kick()

    def count(self) -> int:
        return sum(len(tabs) for tabs in self.by_player.values())

    async def _upkeep(self) -> None:
        renew_s = self.lease_ms / 3000
        period = min(renew_s, SWEEP_S)
        since_renewal = since_sweep = 0.0
        while True:
            await asyncio.sleep(period)
            since_renewal += period
            since_sweep += period
            try:
                if since_renewal >= renew_s:
                    since_renewal = 0.0
                    await self._renew()
                if since_sweep >= SWEEP_S:
                    since_sweep = 0.0
                    await self.friends.presence.sweep()
            except Exception:
                log.exception("friends' upkeep failed; trying again in %.1f s", period)

    async def _renew(self) -> None:
        """Renew every tab's lease, ``RENEWED_AT_ONCE`` calls to the store together."""
        held = [
            (player, tab_id)
            for player, tabs in self.by_player.items()
            for tab_id, tab in tabs.items()
            if not tab.topic
        ]
        for start in range(0, len(held), RENEWED_AT_ONCE):
            some = held[start : start + RENEWED_AT_ONCE]
            await asyncio.gather(
                *(self.friends.presence.tab_on(player, tab, renew=True) for player, tab in some),
                return_exceptions=True,
            )

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
