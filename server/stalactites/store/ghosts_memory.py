"""The ghosts' store in memory (see :mod:`.ghosts_base`)."""

from __future__ import annotations

from .ghosts_base import IndexedRun

__all__ = ["MemoryGhostStore"]


class MemoryGhostStore:
    def __init__(self) -> None:
        self._runs: dict[tuple[str, bool], dict[str, IndexedRun]] = {}

    async def add_run(self, pool: str, run: IndexedRun) -> None:
        self._runs.setdefault((pool, run.won), {})[run.member] = run

    async def near(
        self, pool: str, rating: int, window: int, won: bool, limit: int
    ) -> list[IndexedRun]:
        runs = self._runs.get((pool, won), {}).values()
        close = [run for run in runs if abs(run.rating - rating) <= window]
        close.sort(key=lambda run: (abs(run.rating - rating), run.member))
        return close[:limit]

    async def close(self) -> None:
        pass
