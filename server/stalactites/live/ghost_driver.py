"""A ghost's replay timer in one process: it sleeps until the ghost's next action is due and
has :class:`~stalactites.ghosts.GhostReplay` apply it.

Every process serving a ghost race (holding the room's stream, beside its deadline timer)
runs one; the replay keeps its place in the store (the ghost's log), so each action is applied
once whichever timer fires first, and when a process dies, the timer of any other process
serving the room carries the ghost on.  The timer is (re)started by the events that move a
deadline (``countdown``, ``started``, ``results``) and stops once the ghost has nothing due.
"""

from __future__ import annotations

from .alarms import Alarms
from .deadlines import RoomTimer, Step

__all__ = ["Advance", "GhostTimer"]

RETRY_S = 0.2  # after a failed step (the store unreachable?)

Advance = Step
"""Apply a room's ghost's due actions; when it is next due (unix ms), None: nothing left."""


class GhostTimer(RoomTimer):
    """A ghost's replay timer: ``advance`` (``GhostReplay.advance``) applies the ghost's due
    actions and answers when the next is due; one already due is applied at once."""

    def __init__(self, room_id: str, advance: Advance, alarms: Alarms) -> None:
        super().__init__(room_id, advance, alarms, "ghost", RETRY_S, 0.0)
