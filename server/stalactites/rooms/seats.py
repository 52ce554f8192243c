"""Who may take a seat: one seat per persistent player, no two names in a room confusable,
only players with a session in a rated room, and no one in a rematch's room (its seats are
the finished race's players', seated as it opens: :mod:`.rematch`).

A persistent player's seat has the player's own id (``p.`` and 16 hex digits) as its id in
the room; a guest's seat a random one (16 hex digits, no ``p.``), so the two never meet.
:func:`check_seat` reads the room as it is; two requests racing could both pass it, so the
store's join checks the seat's id and the name's skeleton again, atomically (the room keeps
its seated names' skeletons), and :func:`seat_refusal` names what it refused.

Every seat is made by :func:`new_seat`: a player's join, a ghost's, a tournament round's and
a rematch's seats alike.
"""

from __future__ import annotations

from .. import room_events
from ..engine import Game
from ..players.names import skeleton
from ..protocol.room import PlayerView
from ..store import JoinResult, NewPlayer, ProgressRow, RoomRow
from .errors import RoomError
from .settings import RoomSettings

__all__ = [
    "check_seat",
    "is_persistent",
    "new_seat",
    "seat_refusal",
    "seat_view",
    "seated_progress",
    "skeleton",
]


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


def seated_progress(game: Game) -> ProgressRow:
    """The progress of a seat's board before its first action (``game``: the deal): the
    deal's foundation cards, no moves, no foundation card reached yet."""
    return ProgressRow(game.foundation_cards, 0, None)


def seat_view(
    player_id: str,
    name: str,
    deal: Game,
    *,
    ready: bool = False,
    connected: bool = False,
    ghost_of: str | None = None,
) -> PlayerView:
    """How a seat just taken looks: waiting, on the deal (``deal``) with no move made."""
    return PlayerView(
        player_id=player_id,
        name=name,
        connected=connected,
        ready=ready,
        foundation_cards=deal.foundation_cards,
        moves=0,
        status="waiting",
        place=None,
        elapsed_ms=None,
        ghost_of=ghost_of,
    )


def new_seat(
    player_id: str,
    name: str,
    token_hash: str,
    now_ms: int,
    deal: Game,
    *,
    ready: bool = False,
    connected: bool = False,
    ghost_of: str | None = None,
) -> NewPlayer:
    """A seat to store, taken at ``now_ms``: its board's progress on the deal, the ``player``
    event announcing it (:func:`seat_view`) and its name's skeleton."""
    view = seat_view(player_id, name, deal, ready=ready, connected=connected, ghost_of=ghost_of)
    event = room_events.player_event(view)
    progress = seated_progress(deal)
    return NewPlayer(player_id, name, token_hash, now_ms, progress, event, skeleton(name))
