"""Finished races recorded from the store's results log (:mod:`..store.results.base`).

Each process runs a :class:`Recorder`, one consumer of the log.  For each entry it takes, it
runs every effect of the race in turn (ratings and histories, the daily board, the ghosts'
index, the tournament's standings: each keyed by room and player so that running it again
changes nothing) and acknowledges the entry only once all of them are stored.  A process that
dies leaves its entries pending; any other takes them once they have been pending
``claim_idle_ms``.  A race whose recording fails is tried again later, each time twice as much
later (up to :data:`MOST_BACKOFF_S`), and logged; the others go on meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from ..clock import Clock
from ..store import Entry, ResultsLog

__all__ = ["BATCH", "Effect", "MOST_BACKOFF_S", "Recorder"]

log = logging.getLogger(__name__)

Effect = Callable[[str], Awaitable[None]]
"""Store one effect of a finished room's race (given the room id); idempotent."""

BATCH = 32  # entries taken at once
FIRST_BACKOFF_S = 1.0  # a failed recording is tried again after this at the soonest, then 2x
MOST_BACKOFF_S = 300.0


class Recorder:
    def __init__(
        self, results: ResultsLog, consumer: str, clock: Clock, claim_idle_ms: int, poll_s: float
    ) -> None:
        self.results, self.consumer, self.clock = results, consumer, clock
        self.claim_idle_ms, self.poll_s = claim_idle_ms, poll_s
        self._effects: list[tuple[str, Effect]] = []
        self._wake = asyncio.Event()
        self._failures: dict[str, tuple[int, int]] = {}  # room -> (failures, not before ms)
        self.recorded = 0  # races recorded by this process
        self.failures = 0  # recordings that failed here (each tried again later)

    def add(self, name: str, effect: Effect) -> None:
        """An effect of every finished race, run after those added before it."""
        self._effects.append((name, effect))

    def wake(self, room_id: str | None = None) -> None:
        """Look at the log now (a race has just ended here: a finish listener)."""
        self._wake.set()

    async def run_forever(self) -> None:
        """Record what the log holds whenever woken, and every ``poll_s`` (entries appended by
        a process that died before it could record them); every half ``claim_idle_ms``, take
        the entries left pending that long."""
        claimed_at = 0
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_s)
            self._wake.clear()
            now = self.clock.now_ms()
            claim = None
            if now - claimed_at >= self.claim_idle_ms // 2:
                claim, claimed_at = self.claim_idle_ms, now
            try:
                while await self.step(claim):
                    claim = None
            except Exception:
                log.exception("reading the results log failed; trying again in %.1f s", self.poll_s)

    async def step(self, claim_idle_ms: int | None = None) -> int:
        """Take entries from the log and record them (those of races whose last recording
        failed only once their back-off is over); how many were taken."""
        entries = await self.results.to_record(self.consumer, BATCH, claim_idle_ms)
        now = self.clock.now_ms()
        due = [entry for entry in entries if self._failures.get(entry.room_id, (0, 0))[1] <= now]
        await asyncio.gather(*(self.record(entry) for entry in due))
        return len(entries)

    async def record(self, entry: Entry) -> bool:
        """Run every effect of the entry's race, then acknowledge it; whether it was recorded."""
        room_id = entry.room_id
        try:
            for _, effect in self._effects:
                await effect(room_id)
            await self.results.recorded(entry)
        except Exception:
            self.failures += 1
            count = self._failures.get(room_id, (0, 0))[0] + 1
            wait_s = min(FIRST_BACKOFF_S * 2 ** (count - 1), MOST_BACKOFF_S)
            self._failures[room_id] = (count, self.clock.now_ms() + int(wait_s * 1000))
            log.exception(
                "room %s: recording its race failed (%d times); trying again in %.0f s at the "
                "soonest",
                room_id,
                count,
                wait_s,
                extra={"room_id": room_id},
            )
            return False
        self._failures.pop(room_id, None)
        self.recorded += 1
        return True
