"""``POST /api/rooms/{room_id}/ghost``: race this run.

With a player's session, ``{"player_id": SEAT}`` names a finished run of the room (another
player's, on a certified deal); the answer, 201, is a new room on that deal with the run's
ghost seated and ready, and the caller's seat: ``{"room_id", "player_id", "token", "room"}``.
Refusals: 401 ``session_required``, 404 ``room_not_found`` / ``run_not_found``, 409
``not_finished`` / ``own_run`` / ``not_certified``, 422 ``bad_message``; limited as seats are.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from ...ghosts import RaceRun
from ..bodies import body_of
from ..errors import Refused
from ..limits import JOINS, within_limit
from ..players.session_http import request_token, session_player
from ..process import process_of

__all__ = ["ghost_routes", "race_this_run"]


def ghost_routes() -> list[BaseRoute]:
    path = "/api/rooms/{room_id}/ghost"
    return [Route(path, race_this_run, methods=["POST"])]


async def race_this_run(request: Request) -> JSONResponse:
    within_limit(request, process_of(request).limits.joins, JOINS)
    player = await session_player(request, changing=True)
    if player is None:
        held = request_token(request)[0] is not None
        message = "this session is not alive" if held else "a ghost race needs a session"
        code = "unauthorized" if held else "session_required"
        raise Refused(code, message, 401)
    body = await body_of(request, RaceRun)
    ghosts = process_of(request).ghosts
    matched = await ghosts.race_this_run(
        request.path_params["room_id"], body.player_id, player.player_id
    )
    room = await process_of(request).rooms.view(matched.room_id)
    answer = {
        "room_id": matched.room_id,
        "player_id": player.player_id,
        "token": matched.token,
        "room": room.model_dump(),
    }
    return JSONResponse(answer, status_code=201)
