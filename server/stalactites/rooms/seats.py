"""Who may take a seat: one seat per persistent player, no two names in a room confusable,
only players with a session in a rated room, and no one in a rematch's room (its seats are
the finished race's players', seated as it opens: :mod:`.rematch`).

A persistent player's seat has the player's own id (``p.`` and 16 hex digits) as its id in
the room; a guest's seat a random one (16 hex digits, no ``p.``), so the two never meet.
:func:`check_seat` reads the room as it is; two requests racing could both pass it, so the
store's join checks the seat's id and the name's skeleton again, atomically (the room keeps
its seated names' skeletons), and :func:`seat_refusal` names what it refused.
"""

from __future__ import annotations

from ..players.names import skeleton
from ..store import JoinResult, RoomRow
from .errors import RoomError
from .settings import RoomSettings

__all__ = ["check_seat", "is_persistent", "seat_refusal", "skeleton"]


def is_persistent(player_id: str) -> bool:
    """Whether a seat belongs to a persistent player (who gets a history and maybe a rating)."""
    return player_id.startswith("p.")


def check_seat(row: RoomRow, settings: RoomSettings, player_id: str | None, name: str) -> None:
    """Refuse the seat (:class:`RoomError`) or let it be taken; ``player_id`` None: a guest."""
    if row.rematch_of is not None:
        raise RoomError(
            "seats_reserved", "a rematch's seats are its players', those of the race before it"
        )
    if settings.rated and player_id is None:
        raise RoomError("session_required", "a rated room seats players with a session only")
    if player_id is not None and any(p.player_id == player_id for p in row.players):
        raise RoomError("already_seated", "you have a seat in this room already")
    mark = skeleton(name)
    for player in row.players:
        if skeleton(player.name) == mark:
            raise RoomError(
                "name_confusable", f"{name!r} looks like {player.name!r}, seated already"
            )


def seat_refusal(joined: JoinResult, name: str) -> RoomError:
    """The error for a join the store refused on its own check."""
    if joined is JoinResult.ALREADY_SEATED:
        return RoomError("already_seated", "you have a seat in this room already")
    return RoomError("name_confusable", f"{name!r} looks like a name seated already")
