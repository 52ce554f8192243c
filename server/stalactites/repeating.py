"""A step run again and again in the background, a fixed time apart, until stopped: a step
that fails is logged, and the next one comes as usual."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

__all__ = ["Repeating"]

log = logging.getLogger(__name__)


class Repeating:
    def __init__(self, name: str, period_s: float, step: Callable[[], Awaitable[None]]) -> None:
        self.name, self.period_s, self._step = name, period_s, step
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            try:
                await self._step()
            except Exception:
                log.exception("%s failed; again in %.0f s", self.name, self.period_s)
            await asyncio.sleep(self.period_s)
