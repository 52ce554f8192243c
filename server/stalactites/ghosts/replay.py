"""A ghost's run replayed with its original timing: each action is due at the race's start
plus its original race-clock time, and a resigned run resigns at its original time.

:meth:`GhostReplay.advance` is the one step: it applies every action now due and answers when
the next one falls.  It keeps nothing: the ghost's place in its run is the length of its seat's
stored log, so any process may advance it, and two that do so at once apply each action once —
an action goes through :class:`~stalactites.rooms.Play` with the client id ``gN`` (its index in
the run), and the store answers a used id as a duplicate instead of applying it again.  A ghost
whose process died is carried on by the next process to advance it: every process serving the
room times it precisely (:mod:`..live.ghost_driver`), and every process, serving the
room or not, polls the store's list of ghost races due (:meth:`GhostReplay.poll_forever`), so a
ghost goes on with nobody connected and whichever processes die.
"""

from __future__ import annotations

import asyncio
import logging

from ..engine.actions import STEP_PREFIX, UNDO
from ..protocol.room import DeclareStep, MoveFrame, RoomStatus, Undo
from ..rooms import Play, RoomError, RoomService
from ..rooms.ghost_seat import GhostSeat, TimedAction
from ..rooms.play import ActionFrame
from ..store import GhostStore, RoomRow

__all__ = ["GhostReplay", "frame_of"]

log = logging.getLogger(__name__)

POLL_S = 0.25  # how often each process looks for ghost races due
WAITING_RECHECK_MS = 5000  # a ghost race still waiting for its racer's ready: look again then
FRESH_MS = 600_000  # ...unless it is younger than this (or its racer is connected): every poll
BATCH = 50  # ghost races advanced in one poll


def frame_of(index: int, timed: TimedAction) -> ActionFrame:
    """The frame that plays the run's action number ``index`` (client id ``g{index}``)."""
    client_id = f"g{index}"
    if timed.action == UNDO:
        return Undo(type="undo", id=client_id)
    if timed.action.startswith(STEP_PREFIX):
        step = timed.action.removeprefix(STEP_PREFIX)
        return DeclareStep(type="declare_step", step=step, id=client_id)  # type: ignore[arg-type]
    return MoveFrame(type="move", id=client_id, move=timed.action)


class GhostReplay:
    def __init__(self, rooms: RoomService, play: Play, due: GhostStore) -> None:
        self.rooms, self.play, self.due = rooms, play, due

    async def poll_forever(self, period_s: float = POLL_S) -> None:
        while True:
            try:
                await self.poll()
            except Exception:
                log.exception("polling the ghost races due failed; trying again")
            await asyncio.sleep(period_s)

    async def poll(self) -> int:
        """Advance every ghost race due now; how many there were."""
        rooms = await self.due.due(self.rooms.now(), BATCH)
        for room_id in rooms:
            await self.poll_room(room_id)
        return len(rooms)

    async def poll_room(self, room_id: str) -> None:
        """Advance the ghost race and note when it is next due (or that nothing is), judged on
        one reading of the room: read twice, a race that started in between looked neither
        waiting nor due, and was dropped from the list while its ghost had its run ahead."""
        try:
            due = await self._advance(room_id, polled=True)
        except RoomError:  # the room is gone (expired)
            due = None
        if due is None:
            await self.due.drop_due(room_id)
        else:
            await self.due.set_due(room_id, due)

    def _recheck(self, row: RoomRow) -> int:
        """When to look again at a ghost race waiting for its racer: at the next poll while it
        is new or its racer is connected (they may say ready at any moment), else in a few
        seconds."""
        now = self.rooms.now()
        fresh = now - row.created_ms < FRESH_MS
        connected = any(player.connected for player in row.players)
        return now + (0 if fresh or connected else WAITING_RECHECK_MS)

    async def advance(self, room_id: str) -> int | None:
        """Apply the ghost's due actions; when it is next due (unix ms, noted in the store's
        list of ghost races due), or None: no ghost, the race not yet counting down, or the
        ghost's run over."""
        due = await self._advance(room_id)
        if due is not None:
            await self.due.set_due(room_id, due)
        return due

    async def _advance(self, room_id: str, polled: bool = False) -> int | None:
        """:meth:`advance`'s answer; ``polled``: a race waiting for its racer is due again
        (:meth:`_recheck`), not None."""
        settings = await self.rooms.settings(room_id)
        ghost = settings.ghost
        if ghost is None:
            return None
        row = await self.rooms.current(room_id)
        if row.status == RoomStatus.WAITING:
            return self._recheck(row) if polled else None
        if row.status == RoomStatus.COUNTDOWN:
            return row.starts_at
        if row.status != RoomStatus.RACING or row.starts_at is None:
            return None
        seat = next((p for p in row.players if p.player_id == ghost.seat_id), None)
        if seat is None or seat.finish is not None:
            return None
        return await self._due(room_id, ghost, row.starts_at)

    async def _due(self, room_id: str, ghost: GhostSeat, start: int) -> int | None:
        while True:
            done = len(await self.rooms.store.read_log(room_id, ghost.seat_id))
            if done < len(ghost.actions):
                due = start + ghost.actions[done].at_ms
            elif ghost.status == "resigned":
                due = start + ghost.elapsed_ms
            else:
                return None  # won or lost on its last action, or timed out: nothing left
            if due > self.rooms.now():
                return due
            if not await self._apply(room_id, ghost, done):
                return None

    async def _apply(self, room_id: str, ghost: GhostSeat, done: int) -> bool:
        """Play the run's next step; False when it cannot go on (its race is over)."""
        if done >= len(ghost.actions):
            try:
                await self.play.resign(room_id, ghost.seat_id)
            except RoomError:
                pass  # resigned by another process already, or the race is over
            return False
        answer = await self.play.act(room_id, ghost.seat_id, frame_of(done, ghost.actions[done]))
        if answer.type == "rejected" and answer.code != "retry":
            log.warning("room %s: the ghost's action %d refused: %s", room_id, done, answer.code)
            return False
        return True
