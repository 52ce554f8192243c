"""The arenas' store in memory, for one process (see :mod:`.base`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .base import ArenaChange, ArenaParts

__all__ = ["MemoryArenaStore"]


@dataclass
class _Arena:
    header: str
    admin: str
    starts_ms: int
    version: int = 1
    rooms: int = 0
    entrants: dict[str, str] = field(default_factory=dict)
    free: dict[str, int] = field(default_factory=dict)
    pending: dict[str, str] = field(default_factory=dict)
    scored: set[str] = field(default_factory=set)
    seen: dict[str, int] = field(default_factory=dict)


class MemoryArenaStore:
    def __init__(self) -> None:
        self._arenas: dict[str, _Arena] = {}
        self._locks: dict[str, str] = {}  # (one process: a lock is never left behind)

    async def create(
        self, arena_id: str, header: str, admin_hash: str, starts_ms: int, ttl_ms: int
    ) -> bool:
        if arena_id in self._arenas:
            return False
        self._arenas[arena_id] = _Arena(header, admin_hash, starts_ms)
        return True

    async def read(
        self, arena_id: str, entrants: list[str] | None, room_id: str | None = None
    ) -> ArenaParts | None:
        found = self._arenas.get(arena_id)
        if found is None:
            return None
        wanted = found.entrants if entrants is None else entrants
        return ArenaParts(
            found.header,
            found.version,
            found.rooms,
            {p: found.entrants[p] for p in wanted if p in found.entrants},
            dict(found.pending),
            room_id is not None and room_id in found.scored,
            len(found.entrants),
        )

    async def free(self, arena_id: str) -> list[str]:
        found = self._arenas.get(arena_id)
        return [] if found is None else sorted(found.free, key=lambda p: found.free[p])

    async def apply(self, arena_id: str, change: ArenaChange) -> bool:
        found = self._arenas.get(arena_id)
        if found is None:
            return False
        if any(found.entrants.get(p) != was for p, (was, _) in change.entrants.items()):
            return False
        if any(match not in found.pending for match in change.settled):
            return False
        if change.scored is not None and change.scored in found.scored:
            return False
        for player_id, (_, now) in change.entrants.items():
            found.entrants[player_id] = now
        found.free.update(change.free)
        for player_id in change.busy:
            found.free.pop(player_id, None)
        found.pending.update(change.pending)
        for match in change.settled:
            del found.pending[match]
        if change.scored is not None:
            found.scored.add(change.scored)
        found.rooms += change.rooms
        found.version += 1
        return True

    async def admin_hash(self, arena_id: str) -> str | None:
        found = self._arenas.get(arena_id)
        return None if found is None else found.admin

    async def starting(self, from_ms: int, until_ms: int, limit: int) -> list[str]:
        found = sorted(
            (arena.starts_ms, arena_id)
            for arena_id, arena in self._arenas.items()
            if from_ms <= arena.starts_ms < until_ms
        )
        return [arena_id for _, arena_id in found[:limit]]

    async def lock(self, arena_id: str, owner: str, ms: int) -> bool:
        return self._locks.setdefault(arena_id, owner) == owner

    async def unlock(self, arena_id: str, owner: str) -> None:
        if self._locks.get(arena_id) == owner:
            del self._locks[arena_id]

    async def seen(self, arena_id: str, player_id: str, until_ms: int) -> None:
        if arena_id in self._arenas:
            self._arenas[arena_id].seen[player_id] = until_ms

    async def gone(self, arena_id: str, player_id: str) -> None:
        if arena_id in self._arenas:
            self._arenas[arena_id].seen.pop(player_id, None)

    async def present(self, arena_id: str, now_ms: int) -> set[str]:
        found = self._arenas.get(arena_id)
        seen = {} if found is None else found.seen
        return {p for p, until in seen.items() if until > now_ms}

    async def close(self) -> None:
        pass
