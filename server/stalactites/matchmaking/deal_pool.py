"""Certified deals kept ready for quick races, so that a pairing's room is made at once.

Picking a certified deal runs the solver (in the process's worker pool) and may take a second;
the pool keeps ``size`` deals per game and step ready in this process, picked afresh for each
room and refilled in the background.  A deal is never given twice.  (A cache: a process that
dies loses only deals nobody has seen.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from ..rooms.deals import ChosenDeal, pick_deal
from ..workers import SolverPool

__all__ = ["DealPool"]

log = logging.getLogger(__name__)


class DealPool:
    def __init__(self, solver: SolverPool, size: int) -> None:
        self._solver = solver
        self._size = size
        self._ready: dict[tuple[str, str | None], list[ChosenDeal]] = {}
        self._filling: dict[tuple[str, str | None], asyncio.Task[None]] = {}

    async def take(self, game: str, step: str | None) -> ChosenDeal:
        """A certified deal of that game and step: a ready one, or one picked now."""
        key = (game, step)
        ready = self._ready.setdefault(key, [])
        self.fill(game, step)
        if ready:
            return ready.pop()
        return await pick_deal(self._solver, game, step)

    def fill(self, game: str, step: str | None) -> None:
        """Start picking deals for this queue up to the pool's size, if not already."""
        key = (game, step)
        task = self._filling.get(key)
        if self._size > 0 and (task is None or task.done()):
            self._filling[key] = asyncio.create_task(self._fill(key), name=f"deals:{game}")

    async def _fill(self, key: tuple[str, str | None]) -> None:
        ready = self._ready.setdefault(key, [])
        while len(ready) < self._size:
            try:
                ready.append(await pick_deal(self._solver, *key))
            except Exception:
                log.exception("picking a quick race's deal failed")
                return

    async def close(self) -> None:
        for task in self._filling.values():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
