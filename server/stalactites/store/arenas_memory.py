"""The arenas' store in memory, for one process (see :mod:`.arenas_base`)."""

from __future__ import annotations

__all__ = ["MemoryArenaStore"]


class MemoryArenaStore:
    def __init__(self) -> None:
        self._arenas: dict[str, tuple[str, int, str, int]] = {}  # id: (doc, version, admin, start)
        self._seen: dict[str, dict[str, int]] = {}  # arena: player: lease until

    async def create(
        self, arena_id: str, document: str, admin_hash: str, starts_ms: int, ttl_ms: int
    ) -> bool:
        if arena_id in self._arenas:
            return False
        self._arenas[arena_id] = (document, 1, admin_hash, starts_ms)
        return True

    async def read(self, arena_id: str) -> tuple[str | None, int]:
        found = self._arenas.get(arena_id)
        return (None, 0) if found is None else (found[0], found[1])

    async def write(self, arena_id: str, document: str, version: int) -> bool:
        found = self._arenas.get(arena_id)
        if found is None or found[1] != version:
            return False
        self._arenas[arena_id] = (document, version + 1, found[2], found[3])
        return True

    async def admin_hash(self, arena_id: str) -> str | None:
        found = self._arenas.get(arena_id)
        return None if found is None else found[2]

    async def starting(self, from_ms: int, until_ms: int, limit: int) -> list[str]:
        found = sorted(
            (start, arena_id)
            for arena_id, (_, _, _, start) in self._arenas.items()
            if from_ms <= start < until_ms
        )
        return [arena_id for _, arena_id in found[:limit]]

    async def seen(self, arena_id: str, player_id: str, until_ms: int) -> None:
        self._seen.setdefault(arena_id, {})[player_id] = until_ms

    async def gone(self, arena_id: str, player_id: str) -> None:
        self._seen.get(arena_id, {}).pop(player_id, None)

    async def present(self, arena_id: str, now_ms: int) -> set[str]:
        return {p for p, until in self._seen.get(arena_id, {}).items() if until > now_ms}

    async def close(self) -> None:
        pass
