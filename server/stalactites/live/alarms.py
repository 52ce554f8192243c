"""Alarms on the server clock: one timer per process for every room's deadline, ghost and
spectators' boards.

A time on the server clock (unix ms, :mod:`stalactites.clock`) cannot be handed to the event
loop's timers as it is: the loop's clock is monotonic and the server's may jump (the machine's
clock is set; a test moves its clock forward).  So a sleeper re-reads the clock now and then.
One loop timer serves every alarm, so that a process with many rooms wakes once per due time
rather than once per room: it fires when the earliest alarm is due, or after ``POLL_S`` if
that is later, reads the clock once and rings every alarm due.  With no alarm set (cancelled
ones aside) it stops.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections.abc import Callable

from ..clock import Clock

__all__ = ["POLL_S", "Alarm", "Alarms"]

log = logging.getLogger(__name__)

POLL_S = 0.5  # the clock is re-read at least this often while an alarm is set
COMPACT_PAST = 64  # cancelled alarms are dropped before they are due once they are this many


class Alarm:
    """One alarm set: ``cancel`` it and its callback is not called."""

    __slots__ = ("_alarms", "callback", "due_ms", "spent")

    def __init__(self, alarms: Alarms, due_ms: int, callback: Callable[[], object]) -> None:
        self._alarms, self.due_ms, self.callback = alarms, due_ms, callback
        self.spent = False  # rung or cancelled

    def cancel(self) -> None:
        if not self.spent:
            self.spent = True
            self._alarms._forget()


class Alarms:
    """A process's alarms on ``clock``, on one event loop."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._due: list[tuple[int, int, Alarm]] = []  # a heap by due time, then order set
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self._armed_for = 0  # the due time the loop timer was armed for
        self._dead = 0  # cancelled alarms still in the heap
        self._closed = False

    def __len__(self) -> int:
        """Alarms set and not yet rung (cancelled ones included until they are due)."""
        return len(self._due)

    def at(self, due_ms: int, callback: Callable[[], object]) -> Alarm:
        """Call ``callback`` (from the loop) once the clock reads ``due_ms`` or later."""
        alarm = Alarm(self, due_ms, callback)
        if self._closed:
            alarm.spent = True
            return alarm
        heapq.heappush(self._due, (due_ms, next(self._order), alarm))
        if self._timer is None or due_ms < self._armed_for:
            self._arm()
        return alarm

    async def until(self, due_ms: int) -> None:
        """Sleep until the clock reads ``due_ms`` or later."""
        if due_ms <= self.clock.now_ms():
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        alarm = self.at(due_ms, wake)
        try:
            await woken
        finally:
            alarm.cancel()

    def close(self) -> None:
        """Ring nothing more, now or later (a sleeper in :meth:`until` is left to its owner to
        cancel: the process closes the rooms' timers first)."""
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for entry in self._due:
            entry[2].spent = True
        self._due.clear()
        self._dead = 0

    def _forget(self) -> None:
        self._dead += 1
        if self._dead > COMPACT_PAST and self._dead * 2 > len(self._due):
            # In place: a callback cancelling others runs inside _ring's walk of this list.
            self._due[:] = [entry for entry in self._due if not entry[2].spent]
            heapq.heapify(self._due)
            self._dead = 0

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        due = self._due
        while due and due[0][2].spent:  # cancelled: no reason to wake for it
            heapq.heappop(due)
            self._dead -= 1
        if not due:
            return
        self._armed_for = due[0][0]
        wait_s = min(max(self._armed_for - self.clock.now_ms(), 0) / 1000, POLL_S)
        self._timer = asyncio.get_running_loop().call_later(wait_s, self._ring)

    def _ring(self) -> None:
        self._timer = None
        now = self.clock.now_ms()
        due = self._due
        while due and due[0][0] <= now:
            alarm = heapq.heappop(due)[2]
            if alarm.spent:
                self._dead -= 1
                continue
            alarm.spent = True
            try:
                alarm.callback()
            except Exception:
                log.exception("an alarm's callback failed")
        self._arm()
