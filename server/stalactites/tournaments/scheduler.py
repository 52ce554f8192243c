"""The scheduler: this process's share of keeping every tournament on time.

Each process runs one.  It sleeps until the earliest due time in the store's
due index (at most ``poll_s``, so that deadlines set by other processes are
seen), claims what is due, advances each claimed tournament, and releases it
with its next deadline.  Claims make the work single-flight across
processes; a process that dies mid-way loses its claims when their lease
runs out, and another process carries on.  :meth:`Scheduler.now_due` lets
this process act at once on something it knows is due (an admin start, a
round room that just finished).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from ..clock import Clock
from ..store.tournaments.base import Claim, TournamentStore
from .service import TournamentService

__all__ = ["Scheduler"]

log = logging.getLogger(__name__)

BATCH = 50
FAILED_RETRY_MS = 1_000


class Scheduler:
    def __init__(
        self,
        service: TournamentService,
        clock: Clock,
        poll_s: float = 0.25,
        lease_ms: int = 30_000,
    ) -> None:
        self.service = service
        self.store: TournamentStore = service.store
        self.clock = clock
        self.poll_s = poll_s
        self.lease_ms = lease_ms
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._work: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="tournament-scheduler")

    async def close(self) -> None:
        tasks = [*self._work, *([self._task] if self._task is not None else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def wake(self) -> None:
        self._wake.set()

    async def now_due(self, tournament_id: str) -> None:
        """Make the tournament due now, and advance it here unless another process has it."""
        now = self.clock.now_ms()
        await self.store.poke(tournament_id, now)
        claim = await self.store.claim(tournament_id, now, self.lease_ms)
        if claim is not None:
            await self._process(claim)
        else:
            self.wake()

    def spawn_now_due(self, tournament_id: str) -> None:
        """:meth:`now_due` in the background."""
        task = asyncio.create_task(self.now_due(tournament_id))
        self._work.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._work.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("tournament work failed", exc_info=task.exception())

    async def _run(self) -> None:
        while True:
            try:
                await self._round_trip()
            except Exception:
                log.exception("tournament scheduler failed; trying again")
                await asyncio.sleep(self.poll_s)

    async def _round_trip(self) -> None:
        now = self.clock.now_ms()
        claims = await self.store.claim_due(now, self.lease_ms, BATCH)
        for claim in claims:
            task = asyncio.create_task(self._process(claim))
            self._work.add(task)
            task.add_done_callback(self._finished)
        if len(claims) == BATCH:
            return  # more may be due
        earliest = await self.store.next_due()
        wait = self.poll_s
        if earliest is not None:
            wait = min(max((earliest - self.clock.now_ms()) / 1000, 0.0), self.poll_s)
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), wait)

    async def _process(self, claim: Claim) -> None:
        try:
            next_ms = await self.service.advance(claim.tournament_id)
        except Exception:
            log.exception("tournament %s: advancing failed; retrying", claim.tournament_id)
            next_ms = self.clock.now_ms() + FAILED_RETRY_MS
        await self.store.release(claim, next_ms, self.clock.now_ms())
