"""The Redis store's tournament lists: which tournaments are starting soon, which are running.

Two sorted sets, as the room lists (:mod:`..rooms.lists`): ``P tournaments:scheduled``
(tournament ids scored by creation time) and ``P tournaments:running`` (scored by
``starts_at``), newest first when read.  They live outside the tournaments' hash tags, so no
tournament script can change them: the process that makes a change moves the tournament
between the lists right after it, and a list is only ever a hint.  Every read checks each
listed tournament against its own hash and mends the lists as it goes (one that has moved
on, finished or expired is moved or dropped), so a process that died between the two steps
leaves nothing wrong for long.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from ..redis.resp import Caller
from .base import TOURNAMENT_LISTS, TournamentRow

__all__ = ["TournamentIndex"]

SCANS = 4  # batches read at most for one answer (each mends the lists as it goes)
STALE_MS = 31 * 24 * 3600_000  # entries this old are dropped unread (their tournaments expired)
KEEP_MS = STALE_MS  # a list no tournament has entered for this long expires

Loader = Callable[[str], Awaitable[TournamentRow | None]]


class TournamentIndex:
    """The tournament lists, through the store's own connection (on a cluster each list's key
    has its own slot: each command goes to its owner)."""

    def __init__(self, caller: Caller, prefix: str) -> None:
        self._caller = caller
        self._keys = {name: f"{prefix}tournaments:{name}" for name in TOURNAMENT_LISTS}

    def _call(self, key: str, *args: Any) -> Awaitable[Any]:
        return self._caller.call_at(key, *args)

    async def _add(self, name: str, tournament_id: str, score: int) -> None:
        key = self._keys[name]
        await asyncio.gather(
            self._call(key, "ZADD", key, score, tournament_id),
            self._call(key, "PEXPIRE", key, KEEP_MS),
        )

    async def _drop(self, name: str, tournament_id: str) -> None:
        key = self._keys[name]
        await self._call(key, "ZREM", key, tournament_id)

    async def created(self, tournament_id: str, created_ms: int) -> None:
        await self._add("scheduled", tournament_id, created_ms)

    async def moved(self, tournament_id: str, status: str, starts_at: int | None) -> None:
        """The tournament is now at ``status``: in the list that holds it, out of the other."""
        for name, statuses in TOURNAMENT_LISTS.items():
            if status not in statuses:
                await self._drop(name, tournament_id)
            elif name == "running":
                await self._add(name, tournament_id, starts_at or 0)

    async def page(self, name: str, limit: int, now_ms: int, load: Loader) -> list[TournamentRow]:
        """Up to ``limit`` tournaments of the list, newest first, each checked against its
        hash (those that are not what the list says are moved or dropped)."""
        key, rows, start = self._keys[name], [], 0
        await self._call(key, "ZREMRANGEBYSCORE", key, "-inf", now_ms - STALE_MS)
        for _ in range(SCANS):
            ids = await self._call(key, "ZREVRANGE", key, start, start + limit - 1)
            loaded = await asyncio.gather(*(load(str(tid)) for tid in ids))
            for tournament_id, row in zip(ids, loaded, strict=True):
                if row is not None and row.status in TOURNAMENT_LISTS[name]:
                    rows.append(row)
                    start += 1
                elif row is None:
                    await self._drop(name, str(tournament_id))
                else:
                    await self.moved(str(tournament_id), row.status, row.starts_at)
            if len(rows) >= limit or len(ids) < limit:
                break
        return rows[:limit]
