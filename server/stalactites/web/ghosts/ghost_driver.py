"""A ghost's replay timer in one process: it sleeps until the ghost's next action is due and
has :class:`~stalactites.ghosts.GhostReplay` apply it.

Every process serving a ghost race (holding the room's stream, beside its deadline timer)
runs one; the replay keeps its place in the store (the ghost's log), so each action is applied
once whichever timer fires first, and when a process dies, the timer of any other process
serving the room carries the ghost on.  The timer is (re)started by the events that move a
deadline (``countdown``, ``started``, ``results``) and stops once the ghost has nothing due.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ... import logs
from ...clock import Clock

__all__ = ["GhostTimer"]

log = logging.getLogger(__name__)

POLL_S = 0.5  # the timer re-reads the clock at least this often
RETRY_S = 0.2  # after a failed step (the store unreachable?)

Advance = Callable[[str], Awaitable[int | None]]
"""Apply a room's ghost's due actions; when it is next due (unix ms), None: nothing left."""


class GhostTimer:
    def __init__(self, room_id: str, advance: Advance, clock: Clock) -> None:
        self.room_id = room_id
        self._advance, self._clock = advance, clock
        self._timer: asyncio.Task[None] | None = None
        self.schedule()

    def schedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = logs.task(self._run(), f"ghost:{self.room_id}", room_id=self.room_id)

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            await asyncio.gather(self._timer, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            try:
                due = await self._advance(self.room_id)
            except Exception:
                log.exception("room %s: the ghost's step failed; retrying", self.room_id)
                await asyncio.sleep(RETRY_S)
                continue
            if due is None:
                return
            while (left := due - self._clock.now_ms()) > 0:
                await asyncio.sleep(min(left / 1000, POLL_S))
