"""Room deadlines in one process: a timer per room served here, which sleeps until the
countdown's or the race's end and asks the rooms service to advance the room.

A quick race (:mod:`stalactites.matchmaking`) has one more: the end of its seats' time to
connect, after which those absent are made ready (and are out when it starts).  Every process
serving a room runs one; the store lets one transition happen, so it does not
matter which fires first.  The timer is (re)started from the room's stored state whenever an
event that moves a deadline comes (``countdown``, ``started``, ``results``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from .. import logs
from ..clock import Clock
from ..rooms.settings import RoomSettings, quick_deadline
from ..store import RoomRow

__all__ = ["DEADLINE_EVENTS", "Advance", "RoomDeadline", "next_deadline"]

log = logging.getLogger(__name__)

DEADLINE_EVENTS = ("countdown", "started", "results")
POLL_S = 0.5  # the timer re-reads the clock at least this often

Advance = Callable[[str], Awaitable[RoomRow]]
"""Bring a room up to date with the clock (the rooms service's ``current``)."""


class RoomDeadline:
    """The deadline timer of one room; started at once."""

    def __init__(self, room_id: str, advance: Advance, clock: Clock) -> None:
        self.room_id = room_id
        self.status: str | None = None  # the room's, as the timer last read it
        self._advance = advance
        self._clock = clock
        self._timer: asyncio.Task[None] | None = None
        self.schedule()

    def schedule(self) -> None:
        """(Re)start the timer from the room's stored state."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = logs.task(self._run(), f"deadline:{self.room_id}", room_id=self.room_id)

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            await asyncio.gather(self._timer, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            try:
                row = await self._advance(self.room_id)
                self.status = row.status
                deadline = next_deadline(row)
            except Exception:
                log.exception("room %s: advancing the room failed; retrying", self.room_id)
                deadline = self._clock.now_ms()
            if deadline is None:
                return
            if deadline <= self._clock.now_ms():  # it did not advance: try again shortly
                await asyncio.sleep(POLL_S)
                continue
            while (left := deadline - self._clock.now_ms()) > 0:
                await asyncio.sleep(min(left / 1000, POLL_S))


def next_deadline(row: RoomRow) -> int | None:
    """When the room's next deadline falls (unix ms), if it has one; a waiting quick race's
    is the end of its seats' time to connect."""
    if row.status == "waiting":
        return quick_deadline(row, RoomSettings.model_validate_json(row.settings_json))
    if row.status == "countdown":
        return row.starts_at
    if row.status == "racing":
        return row.ends_at
    return None
