"""Rematch: after the results any seated player proposes one; the others take a seat in it.

The rematch room has the finished room's settings and a new deal the server picks (certified:
a deal the creator chose is not repeated), and is private (joined through the offer).  The
store makes it the room's one rematch atomically: when several propose at once, each may
create a room, but only the first stored becomes the rematch and every proposer is told that
one (the others are never announced and expire unused).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from .. import room_events
from .errors import RoomError
from .service import RoomService
from .settings import CreateRoom, RoomSettings

__all__ = ["ProposeRematch", "propose_rematch", "rematch_body"]


class ProposeRematch(BaseModel):
    """``POST /api/rooms/{room_id}/rematch``: the proposer's seat token in the finished room."""

    model_config = ConfigDict(extra="forbid", strict=True)

    token: str = Field(min_length=1, max_length=128)


def rematch_body(settings: RoomSettings) -> CreateRoom:
    """The creation of a room like this one, on a new deal, private."""
    return CreateRoom(
        game=settings.game,
        step=settings.step,
        seats=settings.seats,
        time_limit_s=settings.time_limit_s,
        undo=settings.undo,
        countdown_s=settings.countdown_s,
        spectator_delay_s=settings.spectator_delay_s,
        rated=settings.rated,
        private=True,
    )


async def propose_rematch(rooms: RoomService, room_id: str, token: str) -> str:
    """The rematch room's id: made now, or the one another player proposed first."""
    player_id = await rooms.authenticate(room_id, token)
    row = await rooms.current(room_id)
    if row.status != "finished":
        raise RoomError("not_finished", "a rematch is proposed once the race is over")
    if row.rematch is not None:
        return row.rematch
    made = await rooms.create(rematch_body(await rooms.settings(room_id)))
    event = room_events.rematch_event(made.room_id, player_id)
    stored = await rooms.store.rematch(room_id, made.room_id, event)
    if stored is None:
        raise RoomError("room_not_found", f"no room {room_id!r}")
    return stored
