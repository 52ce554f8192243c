"""Rematch: after the results any seated player proposes one, for the same players.

The rematch room has the finished room's settings and a new deal the server picks (certified:
a deal the creator chose is not repeated), and is private.  It opens whole in one store step
(:class:`~stalactites.store.rooms.base.RematchRoom`), as a tournament round's room does: the
finished room's players (not a ghost: a ghost race's rematch is its racer's alone) seated,
each under their seat id and token there, none ready; it seats no one else (``seats_reserved``),
so an outsider who reads its id (the finished room's view, the spectators' ``rematch`` event)
can watch it but never take a seat.  Each player goes to it with the token they hold and says
``ready``; it starts when all have.  The store makes it the room's one rematch atomically:
when several propose at once, each may open a room, but only the first stored becomes the
rematch and every proposer is told that one (the others are never announced and expire unused).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from .. import room_events
from ..protocol.room import RoomStatus
from ..store import NewRoom, RoomRow
from ..store.rooms.base import RematchRoom
from .boards import new_board
from .errors import RoomError
from .ghost_seat import GHOST_PREFIX
from .seats import new_seat
from .service import RoomService, new_room_id
from .settings import CreateRoom, RoomSettings, new_salt

__all__ = ["ProposeRematch", "open_rematch", "propose_rematch", "rematch_body"]


class ProposeRematch(BaseModel):
    """``POST /api/rooms/{room_id}/rematch``: the proposer's seat token in the finished room."""

    model_config = ConfigDict(extra="forbid", strict=True)

    token: str = Field(min_length=1, max_length=128)


def rematch_body(settings: RoomSettings, seats: int) -> CreateRoom:
    """The creation of a room like this one for ``seats`` players, on a new deal, private."""
    return CreateRoom(
        game=settings.game,
        step=settings.step,
        seats=seats,
        time_limit_s=settings.time_limit_s,
        undo=settings.undo,
        countdown_s=settings.countdown_s,
        spectator_delay_s=settings.spectator_delay_s,
        rated=settings.rated,
        private=True,
    )


async def propose_rematch(rooms: RoomService, room_id: str, token: str) -> str:
    """The rematch room's id: opened now, or the one another player proposed first."""
    player_id = await rooms.authenticate(room_id, token)
    row = await rooms.current(room_id)
    if row.status != RoomStatus.FINISHED:
        raise RoomError("not_finished", "a rematch is proposed once the race is over")
    if row.rematch is not None:
        return row.rematch
    made = await open_rematch(rooms, row, await rooms.settings(room_id))
    event = room_events.rematch_event(made, player_id)
    stored = await rooms.store.rematch(room_id, made, event, player_id)
    if stored is None:
        raise RoomError("room_not_found", f"no room {room_id!r}")
    return stored


async def open_rematch(rooms: RoomService, row: RoomRow, settings: RoomSettings) -> str:
    """A new room for a rematch of the finished room ``row``, its players seated: its id."""
    racers = [p for p in row.players if not p.player_id.startswith(GHOST_PREFIX)]
    body = rematch_body(settings, len(racers))
    chosen = await rooms.pick_deal(body.game, body.step)
    made = RoomSettings.resolve(body, chosen.deal, chosen.certified, chosen.solution, new_salt())
    room_id, now = new_room_id(), rooms.now()
    deal = new_board(made)
    seated = [new_seat(p.player_id, p.name, p.token_hash, now, deal) for p in racers]
    room = NewRoom(room_id, made.model_dump_json(), len(seated), now, listed=False)
    ttl_ms = rooms.config.room_ttl_s * 1000
    if not await rooms.store.open_rematch(RematchRoom(room, row.room_id, seated), ttl_ms):
        raise RuntimeError(f"rematch room {room_id}: the id is taken")
    return room_id
