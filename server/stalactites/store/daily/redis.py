"""The daily deal's store in Redis, one node or a Redis Cluster (see :mod:`.base`).

Keys (``P`` the prefix; a day's keys share the hash tag ``{daily:GAME:DATE}``):

* ``P{daily:GAME:DATE}:deal`` string: the day's deal id (set once).
* ``P{daily:GAME:DATE}:official`` hash: player id -> their official attempt's room id.
* ``P{daily:GAME:DATE}:board`` sorted set, all scored 0: rank keys (:func:`.rank_key`), so
  that lexical order is the leaderboard's; ``...:entries`` hash: rank key -> entry JSON;
  ``...:placed`` hash: player id -> their rank key (one entry each).  The anonymous
  players' board apart: ``...:guests``, ``...:guest-entries``, ``...:guest-placed``.
* ``P{daily:GAME}:days`` sorted set: the game's dates scored by day number.
* ``P{daily-player:ID}:days`` sorted set: the player's days with an official attempt.

A day's keys expire a year after its last change (the archive reaches that far back).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from ..redis.cluster import ClusterPipe
from ..redis.resp import Address, Pipe, Script
from ..redis.scripts import lua
from .base import DailyBoard, DailyEntry, DailyPage, rank_key

__all__ = ["RedisDailyStore"]

KEEP_MS = 366 * 86_400_000


class RedisDailyStore:
    def __init__(self, url: str, prefix: str = "sr:", cluster: bool = False) -> None:
        address = Address.parse(url).named("stalactites-daily")
        self._pipe: Pipe | ClusterPipe = ClusterPipe(address) if cluster else Pipe(address)
        self._prefix = prefix
        self._claim = Script(self._pipe, lua("daily/claim"), repeatable=True)
        self._record = Script(self._pipe, lua("daily/record"), repeatable=True)
        self._remove = Script(self._pipe, lua("daily/remove"), repeatable=True)

    def _day(self, game: str, date: str, name: str) -> str:
        return f"{self._prefix}{{daily:{game}:{date}}}:{name}"

    def _call(self, key: str, *args: Any) -> Any:
        return self._pipe.call_at(key, *args)

    async def close(self) -> None:
        await self._pipe.close()

    async def keep_deal(self, game: str, date: str, deal: str) -> str:
        key = self._day(game, date, "deal")
        await self._call(key, "SET", key, deal, "NX", "PX", KEEP_MS)
        return str(await self._call(key, "GET", key))

    async def claim(self, game: str, date: str, player_id: str, room_id: str, day: int) -> str:
        key = self._day(game, date, "official")
        official = await self._claim([key], [player_id, room_id, KEEP_MS])
        days = f"{self._prefix}{{daily:{game}}}:days"
        mine = f"{self._prefix}{{daily-player:{player_id}}}:days"
        await self._call(days, "ZADD", days, day, date)
        await self._call(mine, "ZADD", mine, day, str(day))
        return str(official)

    async def official(self, game: str, date: str, player_id: str) -> str | None:
        key = self._day(game, date, "official")
        found = await self._call(key, "HGET", key, player_id)
        return None if found is None else str(found)

    def _board(self, game: str, date: str, board: DailyBoard) -> list[str]:
        """The board's keys: the sorted set, the entries, who is placed."""
        names = ("board", "entries", "placed")
        if board == "guests":
            names = ("guests", "guest-entries", "guest-placed")
        return [self._day(game, date, name) for name in names]

    async def record(
        self, game: str, date: str, entry: DailyEntry, board: DailyBoard = "ranked"
    ) -> bool:
        keys = [self._day(game, date, "official"), *self._board(game, date, board)]
        args = [entry.player_id, entry.room_id, rank_key(entry), json.dumps(asdict(entry)), KEEP_MS]
        return bool(await self._record(keys, args))

    async def remove(self, game: str, date: str, player_id: str) -> None:
        keys = [*self._board(game, date, "ranked"), *self._board(game, date, "guests")]
        await self._remove(keys, [player_id])

    async def leaderboard(
        self, game: str, date: str, offset: int, limit: int, board: DailyBoard = "ranked"
    ) -> DailyPage:
        ranks, entries, _ = self._board(game, date, board)
        ranked = await self._call(ranks, "ZRANGE", ranks, offset, offset + limit - 1)
        total = int(await self._call(ranks, "ZCARD", ranks))
        if not ranked:
            return DailyPage([], total)
        found = await self._call(entries, "HMGET", entries, *ranked)
        return DailyPage([DailyEntry(**json.loads(text)) for text in found if text], total)

    async def days(self, game: str, before: str | None, limit: int) -> list[str]:
        key = self._prefix + "{daily:" + game + "}:days"
        dates = await self._call(key, "ZREVRANGE", key, 0, -1)
        return [str(date) for date in dates if before is None or str(date) < before][:limit]

    async def player_days(self, player_id: str) -> list[int]:
        key = f"{self._prefix}{{daily-player:{player_id}}}:days"
        return [int(day) for day in await self._call(key, "ZRANGE", key, 0, -1)]
