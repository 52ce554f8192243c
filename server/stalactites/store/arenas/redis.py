"""The arenas' store in Redis, one node or a Redis Cluster (see :mod:`.base`).

Keys (``P`` the prefix), an arena's in one slot, expiring a week after it ends:

* ``P{arena:ID}`` hash: ``header`` (its settings, JSON), ``version``, ``rooms`` (races
  made), ``admin`` (the admin token's hash);
* ``P{arena:ID}:e`` hash: entrant id -> their document; ``:free`` sorted set: the free
  entrants, by since when; ``:pending`` hash: match id -> a pairing whose room is being
  made; ``:scored`` set: the races scored; ``:seen`` sorted set: entrant id -> the lease of
  their arena sockets; ``:pairing`` the pairing lock (the process pairing it, 2 s);
* ``P{arenas}:index`` sorted set: arena id -> its start (unix ms), trimmed of arenas that
  started over a week ago.

Changes are ``lua/arenas/apply.lua`` (compare and set on what the change was computed from).
"""

from __future__ import annotations

import json
from typing import Any

from ..redis.cluster import ClusterPipe
from ..redis.resp import Address, Pipe, Script
from ..redis.scripts import lua
from .base import ArenaChange, ArenaParts

__all__ = ["RedisArenaStore"]

KEPT_MS = 7 * 86_400_000


class RedisArenaStore:
    def __init__(self, url: str, prefix: str = "sr:", cluster: bool = False) -> None:
        address = Address.parse(url).named("stalactites-arenas")
        self._pipe: Pipe | ClusterPipe = ClusterPipe(address) if cluster else Pipe(address)
        self._prefix = prefix
        self._create = Script(self._pipe, lua("arenas/create"))
        self._apply = Script(self._pipe, lua("arenas/apply"))

    def _key(self, arena_id: str, part: str = "") -> str:
        return f"{self._prefix}{{arena:{arena_id}}}{part}"

    @property
    def _index(self) -> str:
        return f"{self._prefix}{{arenas}}:index"

    def _call(self, key: str, *args: Any) -> Any:
        return self._pipe.call_at(key, *args)

    async def create(
        self, arena_id: str, header: str, admin_hash: str, starts_ms: int, ttl_ms: int
    ) -> bool:
        if not await self._create([self._key(arena_id)], [header, admin_hash, ttl_ms]):
            return False
        await self._call(self._index, "ZADD", self._index, starts_ms, arena_id)
        await self._call(self._index, "ZREMRANGEBYSCORE", self._index, "-inf", starts_ms - KEPT_MS)
        return True

    async def read(
        self, arena_id: str, entrants: list[str] | None, room_id: str | None = None
    ) -> ArenaParts | None:
        key = self._key(arena_id)
        header, version, rooms = await self._call(key, "HMGET", key, "header", "version", "rooms")
        if header is None:
            return None
        found: dict[str, str] = {}
        listed = self._key(arena_id, ":e")
        count = int(await self._call(listed, "HLEN", listed))
        if entrants is None:
            flat = await self._call(listed, "HGETALL", listed)
            found = {str(flat[i]): str(flat[i + 1]) for i in range(0, len(flat), 2)}
        elif entrants:
            documents = await self._call(listed, "HMGET", listed, *entrants)
            found = {p: str(d) for p, d in zip(entrants, documents, strict=True) if d is not None}
        pending_key = self._key(arena_id, ":pending")
        flat = await self._call(pending_key, "HGETALL", pending_key)
        pending = {str(flat[i]): str(flat[i + 1]) for i in range(0, len(flat), 2)}
        scored = False
        if room_id is not None:
            scored_key = self._key(arena_id, ":scored")
            scored = bool(await self._call(scored_key, "SISMEMBER", scored_key, room_id))
        return ArenaParts(
            str(header), int(version or 0), int(rooms or 0), found, pending, scored, count
        )

    async def free(self, arena_id: str) -> list[str]:
        key = self._key(arena_id, ":free")
        return [str(p) for p in await self._call(key, "ZRANGE", key, 0, -1)]

    async def apply(self, arena_id: str, change: ArenaChange) -> bool:
        keys = [self._key(arena_id, part) for part in ("", ":e", ":free", ":pending", ":scored")]
        document = {
            "e": [[p, was or False, now] for p, (was, now) in change.entrants.items()],
            "free": [[p, since] for p, since in change.free.items()],
            "busy": change.busy,
            "pending": [[match, doc] for match, doc in change.pending.items()],
            "settled": change.settled,
            "scored": change.scored or False,
            "rooms": change.rooms,
        }
        return bool(await self._apply(keys, [json.dumps(document, separators=(",", ":"))]))

    async def admin_hash(self, arena_id: str) -> str | None:
        key = self._key(arena_id)
        found = await self._call(key, "HGET", key, "admin")
        return None if found is None else str(found)

    async def starting(self, from_ms: int, until_ms: int, limit: int) -> list[str]:
        key = self._index
        found = await self._call(
            key, "ZRANGE", key, from_ms, f"({until_ms}", "BYSCORE", "LIMIT", 0, limit
        )
        return [str(arena_id) for arena_id in found]

    async def lock(self, arena_id: str, owner: str, ms: int) -> bool:
        key = self._key(arena_id, ":pairing")
        return bool(await self._call(key, "SET", key, owner, "NX", "PX", ms))

    async def unlock(self, arena_id: str, owner: str) -> None:
        key = self._key(arena_id, ":pairing")
        if await self._call(key, "GET", key) == owner:  # (its own: it ran past its time)
            await self._call(key, "DEL", key)

    async def seen(self, arena_id: str, player_id: str, until_ms: int) -> None:
        key = self._key(arena_id, ":seen")
        await self._call(key, "ZADD", key, "GT", until_ms, player_id)
        await self._call(key, "PEXPIRE", key, KEPT_MS)

    async def gone(self, arena_id: str, player_id: str) -> None:
        key = self._key(arena_id, ":seen")
        await self._call(key, "ZREM", key, player_id)

    async def present(self, arena_id: str, now_ms: int) -> set[str]:
        key = self._key(arena_id, ":seen")
        found = await self._call(key, "ZRANGE", key, f"({now_ms}", "+inf", "BYSCORE")
        return {str(p) for p in found}

    async def close(self) -> None:
        await self._pipe.close()
