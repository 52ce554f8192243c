"""The rooms' deadlines kept in the store, advanced by any process (:mod:`..store.results.base`).

A room's timer in a process serving its sockets (:mod:`..live.deadlines`) is the fast path; the
:class:`Sweep` of every process is the one that cannot be missed: every ``poll_s`` it takes the
rooms whose deadline has come (each leased to it for :data:`LEASE_MS`), brings each up to date
with the clock (the rooms service's ``current``: the store lets one transition happen), and
writes its next deadline.  A finished room still there has not been recorded: it is put back
in the results log.
"""

from __future__ import annotations

import asyncio
import logging

from ..clock import Clock
from ..protocol.room import RoomStatus
from ..rooms import RoomError, RoomService
from ..rooms.settings import next_deadline
from ..store import RECHECK_MS, Due

__all__ = ["LEASE_MS", "Sweep"]

log = logging.getLogger(__name__)

LEASE_MS = 10_000  # a room taken by a process is taken by no other for this long
BATCH = 64  # rooms taken at once


class Sweep:
    def __init__(self, rooms: RoomService, clock: Clock, poll_s: float) -> None:
        self.rooms, self.clock, self.poll_s = rooms, clock, poll_s
        self.advanced = 0  # rooms this process took from the store's deadlines

    async def run_forever(self) -> None:
        while True:
            await asyncio.sleep(self.poll_s)
            try:
                while await self.step() == BATCH:
                    pass
            except Exception:
                log.exception("the rooms' deadlines failed; trying again in %.1f s", self.poll_s)

    async def step(self) -> int:
        """Advance the rooms that are due; how many there were."""
        results = self.rooms.store.results
        due = await results.take_due(self.clock.now_ms(), LEASE_MS, BATCH)
        found = await asyncio.gather(
            *(self.advance(room_id) for room_id in due), return_exceptions=True
        )
        for room_id, failed in zip(due, found, strict=True):
            if isinstance(failed, Exception):  # taken again once its lease is over
                log.warning("room %s: its deadline failed: %r", room_id, failed)
        self.advanced += len(due)
        return len(due)

    async def advance(self, room_id: str) -> None:
        """Bring one due room up to date and write its next deadline."""
        results = self.rooms.store.results
        try:
            row = await self.rooms.load(room_id)
            if row.status == RoomStatus.FINISHED:  # not recorded yet: its entry is lost, or late
                await results.record_again(room_id)
                await results.due(room_id, self.clock.now_ms() + RECHECK_MS, Due.KEPT)
                return
            row = await self.rooms.current(room_id)
        except RoomError:  # gone (expired): nothing is left to do
            await results.due(room_id, None)
            return
        # (ended now: its finish appended it and wrote its recheck)
        if row.status != RoomStatus.FINISHED:
            await results.due(room_id, next_deadline(row), Due.KEPT)
