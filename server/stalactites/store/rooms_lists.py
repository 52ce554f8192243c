"""The Redis store's room lists: which rooms are waiting for players, which are racing.

Two sorted sets, ``P rooms:waiting`` (room ids scored by creation time) and
``P rooms:racing`` (scored by ``starts_at``), newest first when read.  They live
outside the rooms' hash tags, so they cannot change in the rooms' scripts: the
process that makes a change moves the room between the lists right after it,
and a list is only ever a hint.  Every read checks each listed room against its
own hash and mends the lists as it goes (a room that has moved on, finished or
expired is moved or dropped), so a process that died between the two steps
leaves nothing wrong for long.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from .cluster import RedisClient
from .rooms_base import ROOM_LISTS, RoomPage, RoomRow

__all__ = ["RoomIndex"]

SCANS = 8  # batches read at most for one page (each mends the lists as it goes)
STALE_MS = 7 * 24 * 3600_000  # entries this old are dropped unread (their rooms expired)
KEEP_MS = STALE_MS  # a list no room has entered for this long expires

Loader = Callable[[str, int], Awaitable[RoomRow | None]]
Place = tuple[int, str]


class RoomIndex:
    def __init__(self, client: RedisClient, prefix: str) -> None:
        self._redis = client
        self._keys = {name: f"{prefix}rooms:{name}" for name in ROOM_LISTS}

    async def created(self, room_id: str, created_ms: int) -> None:
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zadd(self._keys["waiting"], {room_id: created_ms})
            pipe.pexpire(self._keys["waiting"], KEEP_MS)
            await pipe.execute()

    async def racing(self, room_id: str, starts_at: int) -> None:
        """The room's countdown has begun: from the waiting list to the racing one."""
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zrem(self._keys["waiting"], room_id)
            pipe.zadd(self._keys["racing"], {room_id: starts_at})
            pipe.pexpire(self._keys["racing"], KEEP_MS)
            await pipe.execute()

    async def finished(self, room_id: str) -> None:
        await self._redis.zrem(self._keys["racing"], room_id)

    async def page(
        self, name: str, after: Place | None, limit: int, now_ms: int, load: Loader
    ) -> RoomPage:
        """Up to ``limit`` rooms of the list after ``after``, each checked against its hash."""
        key, rows, cursor = self._keys[name], [], after
        await self._redis.zremrangebyscore(key, "-inf", now_ms - STALE_MS)
        for _ in range(SCANS):
            batch = await self._places(key, cursor, limit)
            loaded = await asyncio.gather(*(load(room_id, now_ms) for _, room_id in batch))
            for place, row in zip(batch, loaded, strict=True):
                cursor = place
                if row is not None and row.status in ROOM_LISTS[name]:
                    rows.append(row)
                    if len(rows) == limit:
                        return RoomPage(rows, cursor)
                else:
                    await self._mend(name, place[1], row)
            if len(batch) < limit:
                return RoomPage(rows, None)
        return RoomPage(rows, cursor)

    async def count(self, now_ms: int) -> dict[str, int]:
        """Each list's entries, but for those too old to be read (their rooms expired)."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for key in self._keys.values():
                pipe.zcount(key, now_ms - STALE_MS, "+inf")
            counts = await pipe.execute()
        return {name: int(count) for name, count in zip(self._keys, counts, strict=True)}

    async def _places(self, key: str, after: Place | None, count: int) -> list[Place]:
        """The next ``count`` entries after ``after``, newest first (ties: by id, descending)."""
        if after is None:
            found = await self._redis.zrevrangebyscore(key, "+inf", "-inf", 0, count, True)
            return [_place(item) for item in found]
        score, room_id = after
        ties = await self._redis.zcount(key, score, score)
        found = await self._redis.zrevrangebyscore(key, score, "-inf", 0, count + ties, True)
        places = [_place(item) for item in found]
        return [place for place in places if place < (score, room_id)][:count]

    async def _mend(self, name: str, room_id: str, row: RoomRow | None) -> None:
        """A listed room that is not what the list says: move it where it belongs, or drop it."""
        await self._redis.zrem(self._keys[name], room_id)
        if row is not None and row.status in ROOM_LISTS["racing"] and name != "racing":
            await self._redis.zadd(self._keys["racing"], {room_id: row.starts_at or 0})


def _place(item: Any) -> Place:
    member, score = item
    return (int(score), str(member))
