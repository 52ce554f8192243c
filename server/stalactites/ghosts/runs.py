"""A run a ghost may be made of, read back from a finished room's record.

A run is one seat of a finished room on a certified deal, with every action's race-clock time
(``at_ms``, as :func:`stalactites.rooms.records.room_record` gives it).  :func:`ghost_seat`
refuses, with the code a client is told, whatever cannot be raced: a race not finished, a seat
the room does not have (or a record without its times), one's own run, a chosen deal.
"""

from __future__ import annotations

import secrets
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..rooms import RoomError
from ..rooms.ghost_seat import GHOST_PREFIX, GhostSeat, TimedAction

__all__ = ["RaceRun", "ghost_seat", "new_seat_id", "pool_of"]


class RaceRun(BaseModel):
    """``POST /api/rooms/{room_id}/ghost``: race this run (with a player's session)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    player_id: str = Field(
        min_length=1, max_length=40, description="the run's seat in the room (its player id)"
    )


def new_seat_id() -> str:
    return GHOST_PREFIX + secrets.token_hex(7)


def pool_of(game: str, step: str | None) -> str:
    """The index pool of runs raced under these settings (``stalactites:choice``, ``squadron``)."""
    return game if game == "squadron" else f"{game}:{step or 'choice'}"


def ghost_seat(
    record: dict[str, Any], source_player_id: str, racer_id: str | None, seat_id: str
) -> GhostSeat:
    """The ghost of ``source_player_id``'s run in ``record``, for ``racer_id`` to race."""
    if not record.get("certified"):
        raise RoomError("not_certified", "a ghost races on a deal the server certified only")
    lines = [line for line in record["players"] if line["player_id"] == source_player_id]
    if not lines or "actions" not in lines[0]:
        raise RoomError("run_not_found", "this room has no such run with its times")
    if racer_id is not None and source_player_id == racer_id:
        raise RoomError("own_run", "that run is your own: race someone else's")
    line = lines[0]
    if line.get("ghost_of") is not None:  # a ghost's run is another's: race the original
        raise RoomError("run_not_found", "that seat was a ghost: race the original run")
    return GhostSeat(
        seat_id=seat_id,
        name=line["name"],
        source_room_id=record["room_id"],
        source_player_id=source_player_id,
        status=line["status"],
        elapsed_ms=line["elapsed_ms"],
        foundation_cards=line["foundation_cards"],
        actions=tuple(TimedAction(action=a["action"], at_ms=a["at_ms"]) for a in line["actions"]),
    )
