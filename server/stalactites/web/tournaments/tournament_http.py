"""The tournament HTTP API and the routes of tournaments (HTTP and websocket).

Creating tournaments and entering them count against the same per-address
limits as creating rooms and taking seats (:mod:`..limits`): 429 ``rate_limited``.
"""

from __future__ import annotations

import asyncio
import re

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route, WebSocketRoute

from ...rooms.settings import TakeSeat
from ...store.tournaments.base import TOURNAMENT_LISTS
from ...tournaments import CreateTournament, TournamentError
from ..bodies import body_of
from ..limits import CREATIONS, JOINS, within_limit
from ..players.session_http import request_token, session_player
from ..process import process_of
from .tournament_socket import tournament_socket

__all__ = [
    "create_tournament",
    "enter_tournament",
    "get_tournament",
    "list_tournaments",
    "start_tournament",
    "tournament_routes",
]

LIST_PAGE, LIST_MAX = 10, 50  # tournaments in a list: by default, at most
START_WAIT_S = 5.0  # how long a start waits for the first round to begin before answering
START_WAIT_STEPS = 100


def tournament_routes() -> list[BaseRoute]:
    base = "/api/tournaments"
    return [
        Route(base, create_tournament, methods=["POST"]),
        Route(base, list_tournaments, methods=["GET"]),
        Route(f"{base}/{{tournament_id}}/players", enter_tournament, methods=["POST"]),
        Route(f"{base}/{{tournament_id}}/start", start_tournament, methods=["POST"]),
        Route(f"{base}/{{tournament_id}}", get_tournament),
        WebSocketRoute("/ws/tournaments/{tournament_id}", tournament_socket),
    ]


LIST_LIMIT = re.compile(r"[1-9][0-9]?")  # 1-99; checked to at most LIST_MAX


async def list_tournaments(request: Request) -> JSONResponse:
    """``GET /api/tournaments?status=scheduled|running[&limit=N]``: the lobby's lists."""
    query = request.query_params
    status = query.get("status")
    if status not in TOURNAMENT_LISTS:
        raise TournamentError("bad_message", "status: 'scheduled' or 'running'", "status")
    limit = query.get("limit", str(LIST_PAGE))
    if not LIST_LIMIT.fullmatch(limit) or int(limit) > LIST_MAX:
        message = f"limit: a whole number from 1 to {LIST_MAX}"
        raise TournamentError("bad_message", message, "limit")
    rows = await process_of(request).tournaments.listing(status, int(limit))
    return JSONResponse({"tournaments": [row.model_dump() for row in rows]})


async def create_tournament(request: Request) -> JSONResponse:
    within_limit(request, process_of(request).limits.creations, CREATIONS)
    body = await body_of(request, CreateTournament)
    created = await process_of(request).tournaments.create(body)
    return JSONResponse(created.model_dump(), status_code=201)


async def enter_tournament(request: Request) -> JSONResponse:
    """A guest entry (``{"name"}``), or with a session the player's own (``name`` optional)."""
    within_limit(request, process_of(request).limits.joins, JOINS)
    player = await session_player(request, changing=True)
    body = await body_of(request, TakeSeat)
    if player is None and request_token(request)[0] is not None:
        raise TournamentError("unauthorized", "this session is not alive")
    name = body.name or (player.name if player else None)
    if name is None:
        raise TournamentError("bad_message", "name: a guest entry needs a name", "name")
    owner = player.player_id if player else None
    tournament_id = request.path_params["tournament_id"]
    entry = await process_of(request).tournaments.enter(tournament_id, name, owner)
    return JSONResponse(entry.model_dump(), status_code=201)


async def start_tournament(request: Request) -> JSONResponse:
    """Start now, with ``Authorization: Bearer <admin token>``; the answer is the view."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TournamentError("unauthorized", "send Authorization: Bearer <admin token>")
    process, tournament_id = process_of(request), request.path_params["tournament_id"]
    await process.tournaments.start(tournament_id, token.strip())
    await process.scheduler.now_due(tournament_id)
    view = await process.tournaments.view(tournament_id)
    for _ in range(START_WAIT_STEPS):  # another scheduler claimed it first: it is on its way
        if view.status != "scheduled":
            break
        await asyncio.sleep(START_WAIT_S / START_WAIT_STEPS)
        view = await process.tournaments.view(tournament_id)
    return JSONResponse(view.model_dump())


async def get_tournament(request: Request) -> JSONResponse:
    view = await process_of(request).tournaments.view(request.path_params["tournament_id"])
    return JSONResponse(view.model_dump())
