"""Leases on hearing rooms' bells: a commit rings a room's bell only when a process other than
the committing one holds a lease on it (``lua/rooms/commit.lua``), so a room whose sockets are
all on one process (as the load balancer routes them, ``deploy/nginx.conf.template``) costs
Redis no PUBLISH and that process no bell to read: its commits' answers carry all of it.

A process takes a room's lease once it has subscribed to the room's bell and before its
stream first reads the room's events (so no commit after that read goes unrung for it), renews
every lease it holds every ``RENEW_S`` (each lasts ``LEASE_MS``, by Redis's clock), and gives
a lease back when it unsubscribes.  A lease that could not be taken is tried again every
``RETRY_S``.  A renewal that finds its lease had run out or was never taken (Redis out of
reach for longer than a lease, say) has the room's bell rung for a missed bell: commits in
the meantime may have gone unrung, so whoever holds the bell looks in the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .cluster import ClusterPipe
from .resp import Pipe, Script
from .scripts import lua

__all__ = ["LEASE_MS", "RENEW_S", "BellLeases"]

log = logging.getLogger(__name__)

LEASE_MS = 120_000
RENEW_S = 30.0
RETRY_S = 1.0
AT_ONCE = 64  # leases renewed together (their scripts go to Redis in one write)


class BellLeases:
    """This process's (``origin``'s) leases on rooms' bells; ``key(room_id)`` names a room's
    listeners, ``missed(room_id)`` rings its bell for a missed one."""

    def __init__(
        self,
        pipe: Pipe | ClusterPipe,
        origin: str,
        key: Callable[[str], str],
        missed: Callable[[str], None],
    ) -> None:
        # A lease taken twice is taken: sent once more on a lost connection.  One given back
        # is not (sent again after a newer take, it would take that lease away).
        self._take = Script(pipe, lua("rooms/listen"), repeatable=True)
        self._give_back = Script(pipe, lua("rooms/listen"))
        self._origin = origin
        self._key = key
        self._missed = missed
        self._held: set[str] = set()
        self._untaken: set[str] = set()  # held here, not yet (or not surely) taken in Redis
        self._task: asyncio.Task[None] | None = None
        self._due = asyncio.Event()
        self._everyone = False  # renew every lease at the next wake-up

    def hold(self, room_id: str) -> None:
        """Hold the room's lease from now until :meth:`give_back`, to be taken by :meth:`take`
        (or by the renewals, which ring its bell then for what it missed)."""
        self._held.add(room_id)
        if self._task is None:
            self._task = asyncio.create_task(self._renewing(), name="bell-leases")

    def retry(self, room_id: str) -> None:
        """The lease held was not taken (its subscription failed): the renewals take it within
        ``RETRY_S``."""
        if room_id in self._held:
            self._untaken.add(room_id)
            self._due.set()

    def renew_soon(self) -> None:
        """Renew every lease now (not at the next ``RENEW_S``)."""
        self._everyone = True
        self._due.set()

    async def take(self, room_id: str) -> None:
        """Take the room's lease now, holding it (a failure is retried by the renewals)."""
        self.hold(room_id)
        try:
            await self._taken(room_id)
        except Exception as error:  # Redis out of reach: retried, the bell rung once taken
            log.warning("room %s: the bell's lease not taken (%s); retrying", room_id, error)
            self._untaken.add(room_id)
            self._due.set()
        else:
            self._untaken.discard(room_id)

    async def give_back(self, room_id: str) -> None:
        self._held.discard(room_id)
        self._untaken.discard(room_id)
        await self._give_back([self._key(room_id)], [self._origin, 0])

    async def renew(self, rooms: list[str] | None = None) -> None:
        """Renew the leases of ``rooms`` (by default every one held), ``AT_ONCE`` at a time;
        ring the bell of each that had run out or had not been taken."""
        rooms = list(self._held) if rooms is None else rooms
        for start in range(0, len(rooms), AT_ONCE):
            batch = rooms[start : start + AT_ONCE]
            answers = await asyncio.gather(*map(self._taken, batch), return_exceptions=True)
            for room_id, answer in zip(batch, answers, strict=True):
                if isinstance(answer, BaseException):
                    self._untaken.add(room_id)
                elif room_id in self._held and (answer == 0 or room_id in self._untaken):
                    self._untaken.discard(room_id)
                    self._missed(room_id)

    def _taken(self, room_id: str) -> Awaitable[Any]:
        """The room's lease taken or renewed: whether it was live before (1 or 0)."""
        return self._take([self._key(room_id)], [self._origin, LEASE_MS])

    async def _renewing(self) -> None:
        """Every lease renewed every ``RENEW_S``; those not taken tried every ``RETRY_S``."""
        loop = asyncio.get_running_loop()
        renewed = loop.time()
        while True:
            wait = max(RENEW_S - (loop.time() - renewed), 0.0)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(wait, RETRY_S) if self._untaken else wait):
                    await self._due.wait()
            self._due.clear()
            everyone = self._everyone or loop.time() - renewed >= RENEW_S
            self._everyone = False
            try:
                await self.renew(
                    None if everyone else [r for r in self._untaken if r in self._held]
                )
            except Exception:
                log.exception("renewing the bells' leases failed; trying again")
            if everyone:
                renewed = loop.time()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
