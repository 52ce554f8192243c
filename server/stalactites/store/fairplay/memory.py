"""The fair-play store in memory (see :mod:`.base`)."""

from __future__ import annotations

from .base import AUDIT_KEPT, ListName

__all__ = ["MemoryFairPlayStore"]


class MemoryFairPlayStore:
    def __init__(self) -> None:
        self._records: dict[str, tuple[str, int]] = {}
        self._lists: dict[str, dict[str, int]] = {}
        self._audit: list[str] = []

    async def read(self, player_id: str) -> tuple[str | None, int]:
        return self._records.get(player_id, (None, 0))

    async def write(self, player_id: str, record: str, version: int) -> bool:
        if self._records.get(player_id, ("", 0))[1] != version:
            return False
        self._records[player_id] = (record, version + 1)
        return True

    async def put(self, name: ListName, member: str, score: int) -> None:
        self._lists.setdefault(name, {})[member] = score

    async def drop(self, name: ListName, member: str) -> None:
        self._lists.get(name, {}).pop(member, None)

    async def has(self, name: ListName, member: str) -> bool:
        return member in self._lists.get(name, {})

    async def members(self, name: ListName, offset: int, limit: int) -> list[tuple[str, int]]:
        found = sorted(self._lists.get(name, {}).items(), key=lambda item: (item[1], item[0]))
        return found[offset : offset + limit]

    async def audit(self, entry: str) -> None:
        self._audit.insert(0, entry)
        del self._audit[AUDIT_KEPT:]

    async def audit_log(self, offset: int, limit: int) -> list[str]:
        return self._audit[offset : offset + limit]

    async def close(self) -> None:
        pass
