"""A finished room's analysis (:mod:`stalactites.analysis`), made once and kept in the store.

Never before the race has finished: an analysis during the race would be a hint, so it is
refused with ``not_finished``.  After it, the first request makes it in a worker process of
the solver pool from the room's record and keeps it beside the record (the first writer
wins, so every process serves the same one); requests meanwhile in this process wait for
that one making.  Analyses are a kind of solver work of their own (:data:`ANALYSIS`), never
waiting behind hints.
"""

from __future__ import annotations

import asyncio
import json

from ..analysis import analyse_json
from ..protocol.room import RoomStatus
from ..workers import Kind, SolverPool
from .errors import RoomError
from .service import RoomService

__all__ = ["ANALYSIS", "Analyses"]

ANALYSIS = Kind("analysis")  # first come among the pool's first kinds, before any hint


class Analyses:
    """The analyses of the rooms, made in ``solver`` and kept in the rooms' store."""

    def __init__(self, rooms: RoomService, solver: SolverPool) -> None:
        self.rooms, self.solver = rooms, solver
        self._making: dict[str, asyncio.Future[str]] = {}

    async def get(self, room_id: str) -> str:
        """The room's analysis as JSON text; ``not_finished`` during the race (or before)."""
        row = await self.rooms.current(room_id)
        if row.status != RoomStatus.FINISHED:
            raise RoomError("not_finished", "the analysis is shown once the race has finished")
        if (await self.rooms.settings(room_id)).deal_withheld(self.rooms.now()):
            raise RoomError("not_finished", "a daily deal's analyses open once its day is over")
        kept = await self.rooms.store.read_analysis(room_id)
        if kept is not None:
            return kept
        making = self._making.get(room_id)
        if making is None:
            making = asyncio.ensure_future(self._make(room_id))
            self._making[room_id] = making
            making.add_done_callback(lambda _: self._making.pop(room_id, None))
        return await asyncio.shield(making)

    async def _make(self, room_id: str) -> str:
        record = await self.rooms.record(room_id)
        analysis = await self.solver.run(analyse_json, record, kind=ANALYSIS)
        made = json.dumps(analysis, separators=(",", ":"))
        kept = await self.rooms.store.keep_analysis(room_id, made)
        if kept is None:
            raise RoomError("room_not_found", f"no room {room_id!r}")
        return kept
