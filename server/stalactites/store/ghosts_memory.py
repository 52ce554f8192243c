"""The ghosts' store in memory (see :mod:`.ghosts_base`)."""

from __future__ import annotations

from .ghosts_base import IndexedRun

__all__ = ["MemoryGhostStore"]


class MemoryGhostStore:
    def __init__(self) -> None:
        self._runs: dict[tuple[str, bool], dict[str, IndexedRun]] = {}
        self._due: dict[str, int] = {}

    async def add_run(self, pool: str, run: IndexedRun) -> None:
        self._runs.setdefault((pool, run.won), {})[run.member] = run

    async def near(
        self, pool: str, rating: int, window: int, won: bool, limit: int
    ) -> list[IndexedRun]:
        runs = self._runs.get((pool, won), {}).values()
        close = [run for run in runs if abs(run.rating - rating) <= window]
        close.sort(key=lambda run: (abs(run.rating - rating), run.member))
        return close[:limit]

    async def set_due(self, room_id: str, at_ms: int) -> None:
        self._due[room_id] = at_ms

    async def drop_due(self, room_id: str) -> None:
        self._due.pop(room_id, None)

    async def due(self, now_ms: int, limit: int) -> list[str]:
        ready = sorted((at, room) for room, at in self._due.items() if at <= now_ms)
        return [room for _, room in ready[:limit]]

    async def close(self) -> None:
        pass
