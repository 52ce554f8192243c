"""The fair-play store in Redis, one node or a Redis Cluster (see :mod:`.base`).

Keys (``P`` the prefix):

* ``P{fair:PLAYER_ID}`` hash: ``record`` (JSON), ``version``; written by ``record_write``.
* ``P{fair}:NAME`` sorted sets, the shared lists (``cases``, ``marked``, ``moderators``,
  ``bots``); ``P{fair}:audit`` list, newest first.

Nothing here expires: fair-play records are evidence, kept as long as their players.
"""

from __future__ import annotations

from typing import Any

from ..redis.cluster import ClusterPipe
from ..redis.resp import Address, Pipe, Script
from ..redis.scripts import lua
from .base import AUDIT_KEPT, ListName

__all__ = ["RedisFairPlayStore"]


class RedisFairPlayStore:
    def __init__(self, url: str, prefix: str = "sr:", cluster: bool = False) -> None:
        address = Address.parse(url).named("stalactites-fairplay")
        self._pipe: Pipe | ClusterPipe = ClusterPipe(address) if cluster else Pipe(address)
        self._prefix = prefix
        self._write = Script(self._pipe, lua("record_write"))

    def _record(self, player_id: str) -> str:
        return f"{self._prefix}{{fair:{player_id}}}"

    def _list(self, name: str) -> str:
        return f"{self._prefix}{{fair}}:{name}"

    def _call(self, key: str, *args: Any) -> Any:
        return self._pipe.call_at(key, *args)

    async def read(self, player_id: str) -> tuple[str | None, int]:
        key = self._record(player_id)
        record, version = await self._call(key, "HMGET", key, "record", "version")
        return (None if record is None else str(record)), int(version or 0)

    async def write(self, player_id: str, record: str, version: int) -> bool:
        return bool(await self._write([self._record(player_id)], [record, version]))

    async def put(self, name: ListName, member: str, score: int) -> None:
        key = self._list(name)
        await self._call(key, "ZADD", key, score, member)

    async def drop(self, name: ListName, member: str) -> None:
        key = self._list(name)
        await self._call(key, "ZREM", key, member)

    async def has(self, name: ListName, member: str) -> bool:
        key = self._list(name)
        return await self._call(key, "ZSCORE", key, member) is not None

    async def members(self, name: ListName, offset: int, limit: int) -> list[tuple[str, int]]:
        key = self._list(name)
        found = await self._call(key, "ZRANGE", key, offset, offset + limit - 1, "WITHSCORES")
        return [(str(found[i]), int(float(found[i + 1]))) for i in range(0, len(found), 2)]

    async def audit(self, entry: str) -> None:
        key = self._list("audit")
        await self._call(key, "LPUSH", key, entry)
        await self._call(key, "LTRIM", key, 0, AUDIT_KEPT - 1)

    async def audit_log(self, offset: int, limit: int) -> list[str]:
        key = self._list("audit")
        found = await self._call(key, "LRANGE", key, offset, offset + limit - 1)
        return [str(entry) for entry in found]

    async def close(self) -> None:
        await self._pipe.close()
