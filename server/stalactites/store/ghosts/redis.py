"""The ghosts' store in Redis, one node or a Redis Cluster (see :mod:`.base`).

Keys (``P`` the configured prefix): ``P{ghosts:POOL}:won`` and ``P{ghosts:POOL}:other``,
sorted sets of ``ROOM_ID|PLAYER_ID`` scored by the runner's rating;
``P{ghosts:POOL}:age:won`` and ``...:age:other``, the same runs scored by when they were
indexed; ``P{ghosts:POOL}:deal:DEAL``, a deal's runs by when they were indexed (for its bound;
forgotten ``deal_ttl_ms`` after its last run); all of a pool in one slot.
``P{ghosts}:due``, a sorted set of ghost races' room ids scored by when each is next due
(unix ms), dropped when it has nothing left due.  A run is indexed, and the index kept within
its bounds, by one script (``lua/ghosts/add.lua``); the rest are single commands.  The runs
leave only by the bounds: their rooms are kept for good, like the histories that point at
them.
"""

from __future__ import annotations

from typing import Any

from ..redis.cluster import ClusterPipe
from ..redis.resp import Address, Pipe, Script
from ..redis.scripts import lua
from .base import DEFAULT_BOUNDS, IndexBounds, IndexedRun

__all__ = ["RedisGhostStore"]


class RedisGhostStore:
    def __init__(
        self,
        url: str,
        prefix: str = "sr:",
        cluster: bool = False,
        bounds: IndexBounds = DEFAULT_BOUNDS,
    ) -> None:
        address = Address.parse(url).named("stalactites-ghosts")
        self._pipe: Pipe | ClusterPipe = ClusterPipe(address) if cluster else Pipe(address)
        self._prefix, self._bounds = prefix, bounds
        self._due = f"{prefix}{{ghosts}}:due"
        self._add = Script(self._pipe, lua("ghosts/add"), repeatable=True)

    def key(self, pool: str, won: bool) -> str:
        return f"{self._prefix}{{ghosts:{pool}}}:{'won' if won else 'other'}"

    def _age(self, pool: str, won: bool) -> str:
        return f"{self._prefix}{{ghosts:{pool}}}:age:{'won' if won else 'other'}"

    async def add_run(self, pool: str, run: IndexedRun, deal: str, at_ms: int) -> None:
        kinds = (run.won, not run.won)
        keys = [*(self.key(pool, won) for won in kinds), *(self._age(pool, won) for won in kinds)]
        keys.append(f"{self._prefix}{{ghosts:{pool}}}:deal:{deal}")
        bounds = self._bounds
        args = [run.member, run.rating, at_ms, bounds.band, bounds.per_band, bounds.per_deal]
        await self._add(keys, [*args, bounds.deal_ttl_ms])

    async def near(
        self, pool: str, rating: int, window: int, won: bool, limit: int
    ) -> list[IndexedRun]:
        key = self.key(pool, won)
        above = await self._side(key, rating, rating + window, False, limit)
        below = await self._side(key, rating - window, rating, True, limit)
        runs = {run.member: run for run in [*above, *below]}.values()
        ordered = sorted(runs, key=lambda run: (abs(run.rating - rating), run.member))
        return ordered[:limit]

    async def _side(
        self, key: str, low: int, high: int, downwards: bool, limit: int
    ) -> list[IndexedRun]:
        bounds: list[Any] = [high, low, "REV"] if downwards else [low, high]
        flat = await self._pipe.call_at(
            key,
            "ZRANGE",
            key,
            *bounds[:2],
            "BYSCORE",
            *bounds[2:],
            "LIMIT",
            0,
            limit,
            "WITHSCORES",
        )
        won = key.endswith(":won")
        runs = []
        for member, score in zip(flat[::2], flat[1::2], strict=True):
            text = member.decode() if isinstance(member, bytes) else str(member)
            room_id, _, player_id = text.partition("|")
            runs.append(IndexedRun(room_id, player_id, int(float(score)), won))
        return runs

    async def set_due(self, room_id: str, at_ms: int) -> None:
        await self._pipe.call_at(self._due, "ZADD", self._due, at_ms, room_id)

    async def drop_due(self, room_id: str) -> None:
        await self._pipe.call_at(self._due, "ZREM", self._due, room_id)

    async def due(self, now_ms: int, limit: int) -> list[str]:
        found = await self._pipe.call_at(
            self._due, "ZRANGE", self._due, "-inf", now_ms, "BYSCORE", "LIMIT", 0, limit
        )
        return [room.decode() if isinstance(room, bytes) else str(room) for room in found]

    async def close(self) -> None:
        await self._pipe.close()
