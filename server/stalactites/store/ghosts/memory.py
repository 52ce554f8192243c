"""The ghosts' store in memory (see :mod:`.base`)."""

from __future__ import annotations

from .base import DEFAULT_BOUNDS, IndexBounds, IndexedRun

__all__ = ["MemoryGhostStore"]


class MemoryGhostStore:
    def __init__(self, bounds: IndexBounds = DEFAULT_BOUNDS) -> None:
        self._bounds = bounds
        self._runs: dict[tuple[str, bool], dict[str, IndexedRun]] = {}
        self._added: dict[tuple[str, str], tuple[int, str]] = {}  # pool, run -> when, deal
        self._due: dict[str, int] = {}

    async def add_run(self, pool: str, run: IndexedRun, deal: str, at_ms: int) -> None:
        self._runs.setdefault((pool, run.won), {})[run.member] = run
        self._added.setdefault((pool, run.member), (at_ms, deal))
        on_deal = [m for (p, m), (_, d) in self._added.items() if p == pool and d == deal]
        for member in self._oldest(pool, on_deal)[: max(len(on_deal) - self._bounds.per_deal, 0)]:
            self._drop(pool, member)
        width = self._bounds.band
        runs = self._runs[(pool, run.won)].values()
        band = [one.member for one in runs if one.rating // width == run.rating // width]
        for member in self._oldest(pool, band)[: max(len(band) - self._bounds.per_band, 0)]:
            self._drop(pool, member)

    def _oldest(self, pool: str, members: list[str]) -> list[str]:
        return sorted(members, key=lambda member: (self._added[(pool, member)][0], member))

    def _drop(self, pool: str, member: str) -> None:
        del self._added[(pool, member)]
        for won in (True, False):
            self._runs.get((pool, won), {}).pop(member, None)

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
