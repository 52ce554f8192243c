"""Room deadlines in one process: a timer per room served here, which sleeps until the
countdown's or the race's end and asks the rooms service to advance the room.  Its
:class:`RoomTimer` is every room timer's (a ghost's replay runs on one too,
:mod:`.ghost_driver`).

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
from ..protocol.room import RoomStatus
from ..rooms.settings import next_deadline
from ..store import RoomRow
from .alarms import Alarms

__all__ = ["DEADLINE_EVENTS", "Advance", "Due", "RoomDeadline", "RoomTimer", "Step"]

log = logging.getLogger(__name__)

DEADLINE_EVENTS = ("countdown", "started", "results")
AGAIN_S = 0.5  # a deadline step that failed, or left its deadline past, is run again after this

Advance = Callable[[str], Awaitable[RoomRow]]
"""Bring a room up to date with the clock (the rooms service's ``current``)."""

Due = Callable[[RoomRow], int | None]
"""When a room's next deadline falls (the rooms service's ``due``)."""

Step = Callable[[str], Awaitable[int | None]]
"""Do a room's work that is due: when more is next due (unix ms); None: nothing left."""


class RoomTimer:
    """One room's timer, started at once: it runs ``step``, sleeps until the time the step
    said (on the process's ``alarms``), and runs it again, until the step says nothing is left.
    A step that fails is run again after ``retry_s``; one that answers a time already past,
    after ``past_s`` (the deadline's: the transition did not happen yet; a ghost's: its next
    action is due now)."""

    def __init__(
        self, room_id: str, step: Step, alarms: Alarms, name: str, retry_s: float, past_s: float
    ) -> None:
        self.room_id, self.name = room_id, name
        self._step, self._alarms = step, alarms
        self._retry_s, self._past_s = retry_s, past_s
        self._timer: asyncio.Task[None] | None = None
        self._stepping = False  # a step is under way
        self._again = False  # asked to run once more when the step under way ends
        self.schedule()

    def schedule(self) -> None:
        """Have the step run now: a sleeping timer is restarted; a step under way is never
        cancelled (its room's own events, which it may have stored, ask for this), but runs
        once more as soon as it ends."""
        if self._stepping:
            self._again = True
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer = logs.task(self._run(), f"{self.name}:{self.room_id}", room_id=self.room_id)

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            await asyncio.gather(self._timer, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            self._stepping, self._again = True, False
            try:
                due = await self._step(self.room_id)
            except Exception:
                log.exception("room %s: the %s step failed; retrying", self.room_id, self.name)
                await asyncio.sleep(self._retry_s)
                continue
            finally:
                self._stepping = False
            if self._again:
                continue
            if due is None:
                return
            if due <= self._alarms.clock.now_ms():
                await asyncio.sleep(self._past_s)
                continue
            await self._alarms.until(due)


class RoomDeadline(RoomTimer):
    """The deadline timer of one room; started at once (from the room's stored state)."""

    def __init__(
        self, room_id: str, advance: Advance, alarms: Alarms, due: Due = next_deadline
    ) -> None:
        self.status: RoomStatus | None = None  # the room's, as the timer last read it
        self._advance, self._due = advance, due
        super().__init__(room_id, self._deadline, alarms, "deadline", AGAIN_S, AGAIN_S)

    async def _deadline(self, room_id: str) -> int | None:
        row = await self._advance(room_id)
        self.status = row.status
        return self._due(row)
