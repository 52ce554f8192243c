"""A run a ghost may be made of, read back from a finished room's record.

A run is one seat of a finished room on a certified deal, with every action's race-clock time
(``at_ms``, as :func:`stalactites.rooms.records.room_record` gives it).  :func:`ghost_seat`
refuses, with the code a client is told, whatever cannot be raced: a race not finished, a seat
the room does not have (or a record without its times), one's own run, a chosen deal.

A ghost the server chooses for a racer (:meth:`~.service.GhostService.race_ghost`) must
moreover have raced (:func:`raced`): at least ``MIN_MOVES`` moves on its board at its finish
(its standing's ``moves``), over at least ``MIN_ELAPSED_MS`` of its race's clock.  A run asked
for by name ("race this run") needs neither.
"""

from __future__ import annotations

import secrets
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..engine import GameName
from ..rooms import RoomError
from ..rooms.ghost_seat import GHOST_PREFIX, GhostSeat, TimedAction

__all__ = [
    "MIN_ELAPSED_MS",
    "MIN_MOVES",
    "RaceRun",
    "ghost_seat",
    "new_seat_id",
    "pool_of",
    "raced",
]

MIN_MOVES = 10  # moves a chosen ghost's run has on its board at its finish, at least
MIN_ELAPSED_MS = 20_000  # and its time (elapsed_ms), at least


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
    return game if game == GameName.SQUADRON else f"{game}:{step or 'choice'}"


def raced(moves: int, elapsed_ms: int) -> bool:
    """Whether a run ending with ``moves`` moves on its board after ``elapsed_ms`` raced enough
    to be a ghost the server chooses (a resignation with no move never is)."""
    return moves >= MIN_MOVES and elapsed_ms >= MIN_ELAPSED_MS


def ghost_seat(
    record: dict[str, Any],
    source_player_id: str,
    racer_id: str | None,
    seat_id: str,
    *,
    raced_only: bool = False,
) -> GhostSeat:
    """The ghost of ``source_player_id``'s run in ``record``, for ``racer_id`` to race; with
    ``raced_only``, a run that has not :func:`raced` is refused too (``run_not_found``)."""
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
    if raced_only and not raced(line["moves"], line["elapsed_ms"]):
        raise RoomError("run_not_found", "that run is too short to be chosen as a ghost")
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
