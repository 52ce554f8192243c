"""The room HTTP API and the routes of rooms (HTTP and websocket): creating and listing
rooms, taking seats, a room's view and record.

Creating rooms, asking for analyses and taking seats are limited per client address (in
this process): over the limit the answer is 429 ``rate_limited`` with ``Retry-After``.
"""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute

from ...rooms import CreateRoom
from ...rooms.hints import room_hint
from ...rooms.listing import list_rooms, parse_cursor
from ...rooms.rematch import ProposeRematch, propose_rematch
from ...rooms.settings import AskHint, TakeSeat
from ..bodies import bad_message, body_of
from ..errors import Refused
from ..limits import CREATIONS, JOINS, within_limit
from ..players.session_http import bad_origin, request_token, session_player
from ..process import process_of
from .room_socket import room_socket

__all__ = [
    "create_room",
    "get_analysis",
    "get_hint",
    "get_record",
    "get_room",
    "join_room",
    "rematch",
    "room_list",
    "room_routes",
]

LIMIT = re.compile(r"[0-9]{1,3}")  # ASCII digits only: str.isdigit() takes '²', int() does not
PAGE = 20  # rooms in a page of a room list, unless ``limit`` says (1-100)
ANALYSES = "analyses (counted with new rooms)"  # over the creations' limit


def room_routes() -> list[BaseRoute]:
    base = "/api/rooms"
    return [
        Route(base, create_room, methods=["POST"]),
        Route(base, room_list, methods=["GET"]),
        Route(f"{base}/{{room_id}}/players", join_room, methods=["POST"]),
        Route(f"{base}/{{room_id}}/rematch", rematch, methods=["POST"]),
        Route(f"{base}/{{room_id}}", get_room),
        Route(f"{base}/{{room_id}}/record", get_record),
        Route(f"{base}/{{room_id}}/analysis", get_analysis),
        Route(f"{base}/{{room_id}}/hint", get_hint, methods=["POST"]),
        WebSocketRoute("/ws/rooms/{room_id}", room_socket),
    ]


async def create_room(request: Request) -> JSONResponse:
    within_limit(request, process_of(request).limits.creations, CREATIONS)
    bad_origin(request, request_token(request)[1])
    body = await body_of(request, CreateRoom)
    view = await process_of(request).rooms.create(body)
    return JSONResponse(view.model_dump(), status_code=201)


async def join_room(request: Request) -> JSONResponse:
    within_limit(request, process_of(request).limits.joins, JOINS)
    player = await session_player(request, changing=True)
    body = await body_of(request, TakeSeat)
    if player is None and request_token(request)[0] is not None:
        raise Refused("unauthorized", "this session is not alive", 401)
    name = body.name or (player.name if player else None)
    if name is None:
        raise bad_message("name", "name: a guest seat needs a name")
    owner = player.player_id if player else None
    player_id, token = await process_of(request).rooms.join(
        request.path_params["room_id"], name, owner
    )
    return JSONResponse({"player_id": player_id, "token": token}, status_code=201)


async def rematch(request: Request) -> JSONResponse:
    """``{"token"}`` (a seat in the finished room): 200 ``{"room_id"}``, the one rematch."""
    within_limit(request, process_of(request).limits.creations, CREATIONS)
    body = await body_of(request, ProposeRematch)
    rooms = process_of(request).rooms
    room_id = await propose_rematch(rooms, request.path_params["room_id"], body.token)
    return JSONResponse({"room_id": room_id})


async def room_list(request: Request) -> JSONResponse:
    """``GET /api/rooms?status=waiting|racing[&limit=N][&after=CURSOR]``: one page."""
    query = request.query_params
    status = query.get("status")
    if status not in ("waiting", "racing"):
        raise bad_message("status", "status: 'waiting' or 'racing'")
    limit = query.get("limit", str(PAGE))
    if not LIMIT.fullmatch(limit) or not 1 <= int(limit) <= 100:
        raise bad_message("limit", "limit: a whole number from 1 to 100")
    try:
        after = parse_cursor(query["after"]) if "after" in query else None
    except ValueError:
        raise bad_message("after", "after: not a cursor from a room list") from None
    views, following = await list_rooms(process_of(request).rooms, status, after, int(limit))
    return JSONResponse({"rooms": [view.model_dump() for view in views], "next": following})


async def get_room(request: Request) -> JSONResponse:
    view = await process_of(request).rooms.view(request.path_params["room_id"])
    return JSONResponse(view.model_dump())


async def get_record(request: Request) -> JSONResponse:
    record = await process_of(request).rooms.record(request.path_params["room_id"])
    return JSONResponse(record)


async def get_analysis(request: Request) -> Response:
    """The analysis (JSON text as kept in the store), once the race has finished; limited
    per address as new rooms are (the first one asked for is solver work)."""
    within_limit(request, process_of(request).limits.creations, ANALYSES)
    analysis = await process_of(request).analyses.get(request.path_params["room_id"])
    return Response(analysis, media_type="application/json")


async def get_hint(request: Request) -> JSONResponse:
    """``POST /api/rooms/{room_id}/hint`` with the seat's token: the solver's next move for
    that board (solo practice rooms only; computed in a solver worker).  403 ``hints_off`` in
    a race that counts; 429 ``rate_limited`` with ``Retry-After`` over the hints' limits."""
    body = await body_of(request, AskHint)
    rooms = process_of(request).rooms
    move = await room_hint(rooms, request.path_params["room_id"], body.token)
    return JSONResponse({"move": move})
