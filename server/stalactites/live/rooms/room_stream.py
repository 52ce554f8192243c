"""What a room's stream does in this process besides delivering its events: it keeps the
room's deadline timer, its ghost's replay timer (a ghost race), and while spectators are
connected here, their boards.

A room's :class:`~stalactites.live.fanout.Stream` is made with a :class:`RoomHooks`: events
that move a deadline restart the timer (:mod:`..deadlines`); news of events tells the
spectators' boards (:mod:`.spectator_boards`) there may be new actions to read (or, on Redis,
the action a commit's doorbell carried), the
``started`` event that every board is the deal (to be judged), and the ``results`` event that
the race is over.  The ``started`` event also calls ``started`` (the process has the boards of
the room's players connected here made: :meth:`~stalactites.rooms.Play.race_started`).
"""

from __future__ import annotations

from collections.abc import Callable

from ...rooms.settings import next_deadline
from ...store.rooms.base import ActionRow
from ..alarms import Alarms
from ..deadlines import DEADLINE_EVENTS, Advance, Due, RoomDeadline
from ..fanout import Stream
from ..ghost_driver import Advance as GhostAdvance
from ..ghost_driver import GhostTimer
from .spectator_boards import SpectatorBoards

__all__ = ["RoomHooks", "RoomStream"]


class RoomHooks:
    """One room's deadline timer, ghost timer and spectators' boards."""

    def __init__(
        self,
        room_id: str,
        advance: Advance,
        alarms: Alarms,
        ghost: GhostAdvance | None = None,
        started: Callable[[], None] | None = None,
        due: Due = next_deadline,
    ) -> None:
        self.deadline = RoomDeadline(room_id, advance, alarms, due)
        self.ghost = None if ghost is None else GhostTimer(room_id, ghost, alarms)
        self.started = started
        self.boards: SpectatorBoards | None = None  # made by the first spectator's connection

    def news(self) -> None:
        if self.boards is not None:
            self.boards.poke()

    def acted(self, count: int, row: ActionRow) -> None:
        if self.boards is not None:
            self.boards.acted(count, row)

    def missed(self) -> None:
        if self.boards is not None:
            self.boards.missed()

    def kept(self, kind: str | None) -> None:
        if kind in DEADLINE_EVENTS:
            self.deadline.schedule()
            if self.ghost is not None:
                self.ghost.schedule()
        if kind == "started":
            if self.started is not None:
                self.started()
            if self.boards is not None:
                self.boards.race_started()
        if kind == "finished" and self.boards is not None:
            self.boards.racer_finished()
        if kind == "results" and self.boards is not None:
            self.boards.race_over()

    def delivered(self) -> None:
        pass

    async def close(self) -> None:
        await self.deadline.close()
        if self.ghost is not None:
            await self.ghost.close()
        if self.boards is not None:
            await self.boards.close()


RoomStream = Stream[RoomHooks]
"""A room's events in this process, with its deadline timer and spectators' boards."""
