"""Waiting until Redis has a race's finish in its append-only file (``WAITAOF``, Redis 7.2+).

``WAITAOF 1 0 T`` waits for the writes of the connection it is sent on.  A finish goes out on
a store's shared connection, where a wait would hold up every command behind it until the next
fsync (up to a second with ``appendfsync everysec``).  So :class:`AofWait` has a connection of
its own, on which a wait is one small write (``INCR`` of a marker key) and then ``WAITAOF``:
Redis appends to its file in the order it runs commands, so once the marker is on disk, so is
every write it answered before the marker was sent.  Callers that come while a wait is out
share the next one: one fsync answers them all.

Where Redis does not know ``WAITAOF`` (before 7.2) or keeps no append-only file, the first
wait finds out from the error, logs it once, and every wait returns at once from then on: a
finish is then as durable as Redis's ``appendfsync`` makes it.  A wait never raises: the
finish is stored whatever becomes of the wait, which is logged.
"""

from __future__ import annotations

import asyncio
import logging

from ..redis.cluster import ClusterPipe
from ..redis.resp import Pipe, ReplyError

__all__ = ["TIMEOUT_MS", "AofWait"]

log = logging.getLogger(__name__)

TIMEOUT_MS = 2_000  # WAITAOF's own limit: everysec fsyncs each second, always before replying


class AofWait:
    """``await wait()``: every write Redis answered before the call is in its append-only
    file (where Redis can say so), on the node of ``marker``'s slot."""

    def __init__(self, caller: Pipe | ClusterPipe, marker: str) -> None:
        self._caller, self._marker = caller, marker
        self.available: bool | None = None  # None: not asked yet
        self.waits = 0  # WAITAOF calls answered (each may serve many callers)
        self._next: asyncio.Future[None] | None = None  # the wait the next callers share
        self._task: asyncio.Task[None] | None = None

    async def wait(self) -> None:
        if self.available is False:
            return
        if self._next is None:
            self._next = asyncio.get_running_loop().create_future()
        shared = self._next
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="waitaof")
        await asyncio.shield(shared)

    async def _run(self) -> None:
        """Send one marker and wait for each batch of callers, until none is left."""
        while self._next is not None:
            batch, self._next = self._next, None
            try:
                await self._once()
            except Exception as error:  # (stored all the same: only the wait failed)
                log.warning("waiting for redis's append-only file failed: %s", error)
            batch.set_result(None)

    async def _once(self) -> None:
        call, marker = self._caller.call_at, self._marker
        await call(marker, "INCR", marker)
        try:
            local, _ = await call(marker, "WAITAOF", 1, 0, TIMEOUT_MS)
        except ReplyError as error:
            text = str(error).lower()
            if "unknown command" not in text and "appendonly" not in text:
                raise
            self.available = False
            log.info("redis cannot wait for its append-only file (%s); finishes do not wait", error)
            return
        self.available = True
        self.waits += 1
        if int(local) < 1:
            log.warning("a finish was not in redis's append-only file after %d ms", TIMEOUT_MS)
