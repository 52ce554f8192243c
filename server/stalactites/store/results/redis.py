"""The Redis store's results log and deadlines (see :mod:`.base`).

Keys (``P`` the configured prefix; ``K`` a shard, ``0`` on one Redis server and ``0``-``15`` on a
Cluster, a room's shard being CRC-32 of its id modulo the shards):

* ``P{results:K}:log`` stream: entries ``room ROOM_ID``, one a finished race not yet recorded,
  read by the consumer group ``recorders`` (one consumer a process, named by its store's
  origin); an entry is deleted once acknowledged, so the stream holds the backlog only.
* ``P{results:K}:due`` sorted set: room id scored by its next deadline (unix ms).

``P{results:K}:aof`` counts the waits for the append-only file (:mod:`.durable`): the
write each wait sends first.

On one Redis server the finish script (``rooms/finish.lua``) appends to the log and writes the
room's recheck in the same atomic step.  On a Cluster no script can reach a room's keys and a
shard's (other slots): the store appends right after the finish (``results/finished.lua``), and
should its process die in between, the room's deadline, written before the race could end
and taken out only once it is recorded, brings it back (:meth:`RedisResults.record_again`).
"""

from __future__ import annotations

import asyncio
import zlib
from typing import Any

from ..redis.cluster import ClusterPipe
from ..redis.resp import Pipe, ReplyError, Script
from ..redis.scripts import lua
from .base import Backlog, Due, Entry
from .durable import AofWait

__all__ = ["GROUP", "RedisResults"]

GROUP = "recorders"
CLUSTER_SHARDS = 16


class RedisResults:
    """See :class:`~.base.ResultsLog`."""

    def __init__(self, pipe: Pipe | ClusterPipe, prefix: str, cluster: bool) -> None:
        self._pipe = pipe
        self.atomic = not cluster  # the finish script appends to the log itself
        shards = CLUSTER_SHARDS if cluster else 1
        self._shards = [
            (f"{prefix}{{results:{k}}}:log", f"{prefix}{{results:{k}}}:due") for k in range(shards)
        ]
        self._finished = Script(pipe, lua("results/finished"), repeatable=False)
        self._recorded = Script(pipe, lua("results/recorded"), repeatable=True)
        self._take_due = Script(pipe, lua("results/take_due"), repeatable=False)
        self._aof: dict[str, AofWait] | None = None  # by shard's log key: None, no waits
        self._aof_pipe: Pipe | ClusterPipe | None = None

    def wait_for_aof(self, on: bool) -> None:
        if not on:
            self._aof = None
            return
        if self._aof_pipe is None:  # a connection of its own (see durable.py)
            pipe = self._pipe
            if isinstance(pipe, ClusterPipe):
                self._aof_pipe = ClusterPipe(pipe.nodes()[0])
            else:
                name = f"{pipe.address.name or 'stalactites'}-aof"
                self._aof_pipe = Pipe(pipe.address.named(name))
        self._aof = {
            log: AofWait(self._aof_pipe, log.removesuffix(":log") + ":aof")
            for log, _ in self._shards
        }

    async def durable(self, room_id: str) -> None:
        """Return once the room's finish (and its results log entry) is in Redis's append-only
        file, when waits are on; on a Cluster, the node of the room's results shard."""
        if self._aof is not None:
            await self._aof[self.keys(room_id)[0]].wait()

    @property
    def aof_available(self) -> bool | None:
        """Whether Redis waits for its append-only file (None: waits off, or not asked yet)."""
        if self._aof is None:
            return None
        known = {wait.available for wait in self._aof.values()} - {None}
        return None if not known else all(known)

    async def close(self) -> None:
        if self._aof_pipe is not None:
            await self._aof_pipe.close()

    def keys(self, room_id: str) -> tuple[str, str]:
        """The room's shard: its log and its deadlines."""
        return self._shards[zlib.crc32(room_id.encode()) % len(self._shards)]

    async def finished(self, room_id: str, recheck_at: int) -> None:
        """A race ended (on a Cluster, after the finish script)."""
        await self._finished(list(self.keys(room_id)), [room_id, recheck_at])

    async def to_record(self, consumer: str, count: int, claim_idle_ms: int | None) -> list[Entry]:
        calls = [self._take(log, consumer, count, claim_idle_ms) for log, _ in self._shards]
        return [entry for found in await asyncio.gather(*calls) for entry in found]

    async def _take(
        self, log: str, consumer: str, count: int, claim_idle_ms: int | None
    ) -> list[Entry]:
        call = self._pipe.call_at
        try:
            found = []
            if claim_idle_ms is not None:
                reply = await call(
                    log, "XAUTOCLAIM", log, GROUP, consumer, claim_idle_ms, "0-0", "COUNT", count
                )
                found += _entries(reply[1])
            reply = await call(
                log, "XREADGROUP", "GROUP", GROUP, consumer, "COUNT", count, "STREAMS", log, ">"
            )
            return found + ([] if reply is None else _entries(reply[0][1]))
        except ReplyError as error:
            if not str(error).startswith("NOGROUP"):
                raise
        # The group is made with the log (or again, after the log was lost): from its start.
        try:
            await call(log, "XGROUP", "CREATE", log, GROUP, "0", "MKSTREAM")
        except ReplyError as error:
            if not str(error).startswith("BUSYGROUP"):
                raise
        return await self._take(log, consumer, count, claim_idle_ms)

    async def recorded(self, entry: Entry) -> None:
        await self._recorded(list(self.keys(entry.room_id)), [GROUP, entry.entry_id, entry.room_id])

    async def record_again(self, room_id: str) -> None:
        log, _ = self.keys(room_id)
        await self._pipe.call_at(log, "XADD", log, "*", "room", room_id)

    async def backlog(self, now_ms: int) -> Backlog:
        async def one(log: str) -> tuple[int, int | None]:
            length, first = await asyncio.gather(
                self._pipe.call_at(log, "XLEN", log),
                self._pipe.call_at(log, "XRANGE", log, "-", "+", "COUNT", 1),
            )
            return int(length), (int(first[0][0].split("-")[0]) if first else None)

        found = await asyncio.gather(*(one(log) for log, _ in self._shards))
        stamps = [stamp for _, stamp in found if stamp is not None]
        oldest = None if not stamps else max(now_ms - min(stamps), 0)
        return Backlog(sum(length for length, _ in found), oldest)

    async def due(self, room_id: str, at_ms: int | None, how: Due = Due.SET) -> None:
        _, due = self.keys(room_id)
        if at_ms is None:
            await self._pipe.call_at(due, "ZREM", due, room_id)
            return
        flags = {Due.SET: [], Due.EARLIER: ["LT"], Due.KEPT: ["XX"]}[how]
        await self._pipe.call_at(due, "ZADD", due, *flags, at_ms, room_id)

    async def take_due(self, now_ms: int, lease_ms: int, count: int) -> list[str]:
        calls = [self._take_due([due], [now_ms, lease_ms, count]) for _, due in self._shards]
        return [str(room) for found in await asyncio.gather(*calls) for room in found]


def _entries(items: list[Any]) -> list[Entry]:
    """A stream reply's entries ([id, [field, value, ...]]; a deleted one's fields are nil)."""
    found = []
    for item in items:
        if item is None or item[1] is None:
            continue
        fields = dict(zip(item[1][::2], item[1][1::2], strict=True))
        found.append(Entry(str(item[0]), str(fields["room"])))
    return found
