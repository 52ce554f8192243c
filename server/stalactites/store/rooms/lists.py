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

from ..redis.resp import Caller
from .base import ROOM_LISTS, RoomPage, RoomRow, listable

__all__ = ["RoomIndex"]

SCANS = 8  # batches read at most for one page (each mends the lists as it goes)
STALE_MS = 7 * 24 * 3600_000  # entries this old are dropped unread (their rooms expired)
KEEP_MS = STALE_MS  # a list no room has entered for this long expires

Loader = Callable[[str, int], Awaitable[RoomRow | None]]
Place = tuple[int, str]


class RoomIndex:
    """The room lists, through the store's own connection (on a cluster each list's key has
    its own slot: each command goes to its owner)."""

    def __init__(self, caller: Caller, prefix: str) -> None:
        self._caller = caller
        self._keys = {name: f"{prefix}rooms:{name}" for name in ROOM_LISTS}

    def _call(self, key: str, *args: Any) -> Awaitable[Any]:
        return self._caller.call_at(key, *args)

    async def created(self, room_id: str, created_ms: int) -> None:
        key = self._keys["waiting"]
        await asyncio.gather(
            self._call(key, "ZADD", key, created_ms, room_id),
            self._call(key, "PEXPIRE", key, KEEP_MS),
        )

    async def racing(self, room_id: str, starts_at: int) -> None:
        """The room's countdown has begun: from the waiting list to the racing one."""
        waiting, racing = self._keys["waiting"], self._keys["racing"]
        await asyncio.gather(
            self._call(waiting, "ZREM", waiting, room_id),
            self._call(racing, "ZADD", racing, starts_at, room_id),
            self._call(racing, "PEXPIRE", racing, KEEP_MS),
        )

    async def left_waiting(self, room_id: str) -> None:
        """The room is full: out of the waiting list (it enters the racing one at its
        countdown)."""
        waiting = self._keys["waiting"]
        await self._call(waiting, "ZREM", waiting, room_id)

    async def finished(self, room_id: str) -> None:
        racing = self._keys["racing"]
        await self._call(racing, "ZREM", racing, room_id)

    async def page(
        self, name: str, after: Place | None, limit: int, now_ms: int, load: Loader
    ) -> RoomPage:
        """Up to ``limit`` rooms of the list after ``after``, each checked against its hash."""
        key, rows, cursor = self._keys[name], [], after
        await self._call(key, "ZREMRANGEBYSCORE", key, "-inf", now_ms - STALE_MS)
        for _ in range(SCANS):
            batch = await self._places(key, cursor, limit)
            loaded = await asyncio.gather(*(load(room_id, now_ms) for _, room_id in batch))
            for place, row in zip(batch, loaded, strict=True):
                cursor = place
                if row is not None and listable(name, row):
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
        since = now_ms - STALE_MS
        counts = await asyncio.gather(
            *(self._call(key, "ZCOUNT", key, since, "+inf") for key in self._keys.values())
        )
        return {name: int(count) for name, count in zip(self._keys, counts, strict=True)}

    async def _places(self, key: str, after: Place | None, count: int) -> list[Place]:
        """The next ``count`` entries after ``after``, newest first (ties: by id, descending)."""
        if after is None:
            return await self._newest(key, "+inf", count)
        score, room_id = after
        ties = await self._call(key, "ZCOUNT", key, score, score)
        places = await self._newest(key, score, count + int(ties))
        return [place for place in places if place < (score, room_id)][:count]

    async def _newest(self, key: str, top: int | str, count: int) -> list[Place]:
        """Up to ``count`` entries scored ``top`` or less, highest first."""
        flat = await self._call(
            key, "ZREVRANGEBYSCORE", key, top, "-inf", "WITHSCORES", "LIMIT", 0, count
        )
        return [(int(float(flat[i + 1])), str(flat[i])) for i in range(0, len(flat), 2)]

    async def _mend(self, name: str, room_id: str, row: RoomRow | None) -> None:
        """A listed room that is not what the list says: move it where it belongs, or drop it."""
        listed, racing = self._keys[name], self._keys["racing"]
        await self._call(listed, "ZREM", listed, room_id)
        if row is not None and listable("racing", row) and name != "racing":
            await self._call(racing, "ZADD", racing, row.starts_at or 0, room_id)
