"""Hints for solo practice: the solver's next move for a player's board.

Only in a room of one seat (``hint_solo_only`` elsewhere: in a race with others a hint would
be help the others do not get), only for the seat's own token, and only while that player is
racing.  The search runs in a worker process of the process's :class:`SolverPool`, on the
board rebuilt there from the settings and the stored log, never on the event loop; its
budget keeps one hint short.
"""

from __future__ import annotations

from ..solver import hint
from .boards import rebuild
from .errors import RoomError
from .service import RoomService
from .settings import RoomSettings
from .views import player_row, player_status

__all__ = ["HINT_STATES", "hint_move", "room_hint"]

HINT_STATES = 100_000  # positions one hint may search (then: the best line found so far)


def hint_move(settings_json: str, actions: list[str]) -> str | None:
    """In a worker: the next move of the best line from the board these actions leave."""
    game = rebuild(RoomSettings.model_validate_json(settings_json), actions)
    move = hint(game, HINT_STATES)
    return None if move is None else str(move)


async def room_hint(rooms: RoomService, room_id: str, token: str) -> str | None:
    """The hint for the seat holding ``token``: a move in notation, or None (nothing wins)."""
    settings = await rooms.settings(room_id)
    if settings.seats > 1:
        raise RoomError("hint_solo_only", "hints are given in solo practice rooms only")
    player_id = await rooms.authenticate(room_id, token)
    row = await rooms.current(room_id)
    if row.status != "racing":
        raise RoomError("not_started", "a hint is given while the race is on")
    if player_status(row.status, player_row(row, player_id)) != "playing":
        raise RoomError("already_finished", "this player's race is over")
    actions = await rooms.store.read_log(room_id, player_id)
    return await rooms.solver.run(hint_move, settings.model_dump_json(), actions)
