"""The arenas' store in Redis, one node or a Redis Cluster (see :mod:`.arenas_base`).

Keys (``P`` the prefix):

* ``P{arena:ID}`` hash: ``record`` (the arena, JSON), ``version``, ``admin`` (the admin
  token's hash); written by ``record_write``; it expires a week after the arena ends;
* ``P{arena:ID}:seen`` sorted set: player id -> the lease of their arena sockets (unix ms);
* ``P{arenas}:index`` sorted set: arena id -> its start (unix ms); read by start, trimmed of
  arenas that started over a week ago.
"""

from __future__ import annotations

from typing import Any

from .cluster import ClusterPipe
from .resp import Address, Pipe, Script
from .scripts import lua

__all__ = ["RedisArenaStore"]

KEPT_MS = 7 * 86_400_000


class RedisArenaStore:
    def __init__(self, url: str, prefix: str = "sr:", cluster: bool = False) -> None:
        address = Address.parse(url).named("stalactites-arenas")
        self._pipe: Pipe | ClusterPipe = ClusterPipe(address) if cluster else Pipe(address)
        self._prefix = prefix
        self._write = Script(self._pipe, lua("record_write"))
        self._create = Script(self._pipe, lua("arenas/create"))

    def _arena(self, arena_id: str) -> str:
        return f"{self._prefix}{{arena:{arena_id}}}"

    @property
    def _index(self) -> str:
        return f"{self._prefix}{{arenas}}:index"

    def _call(self, key: str, *args: Any) -> Any:
        return self._pipe.call_at(key, *args)

    async def create(
        self, arena_id: str, document: str, admin_hash: str, starts_ms: int, ttl_ms: int
    ) -> bool:
        if not await self._create([self._arena(arena_id)], [document, admin_hash, ttl_ms]):
            return False
        await self._call(self._index, "ZADD", self._index, starts_ms, arena_id)
        await self._call(self._index, "ZREMRANGEBYSCORE", self._index, "-inf", starts_ms - KEPT_MS)
        return True

    async def read(self, arena_id: str) -> tuple[str | None, int]:
        key = self._arena(arena_id)
        record, version = await self._call(key, "HMGET", key, "record", "version")
        return (None if record is None else str(record)), int(version or 0)

    async def write(self, arena_id: str, document: str, version: int) -> bool:
        return bool(await self._write([self._arena(arena_id)], [document, version]))

    async def admin_hash(self, arena_id: str) -> str | None:
        key = self._arena(arena_id)
        found = await self._call(key, "HGET", key, "admin")
        return None if found is None else str(found)

    async def starting(self, from_ms: int, until_ms: int, limit: int) -> list[str]:
        key = self._index
        found = await self._call(
            key, "ZRANGE", key, from_ms, f"({until_ms}", "BYSCORE", "LIMIT", 0, limit
        )
        return [str(arena_id) for arena_id in found]

    async def seen(self, arena_id: str, player_id: str, until_ms: int) -> None:
        key = self._arena(arena_id) + ":seen"
        await self._call(key, "ZADD", key, "GT", until_ms, player_id)
        await self._call(key, "PEXPIRE", key, KEPT_MS)

    async def gone(self, arena_id: str, player_id: str) -> None:
        key = self._arena(arena_id) + ":seen"
        await self._call(key, "ZREM", key, player_id)

    async def present(self, arena_id: str, now_ms: int) -> set[str]:
        key = self._arena(arena_id) + ":seen"
        return {
            str(p) for p in await self._call(key, "ZRANGE", key, f"({now_ms}", "+inf", "BYSCORE")
        }

    async def close(self) -> None:
        await self._pipe.close()
