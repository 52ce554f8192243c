"""The tournament HTTP API and the routes of tournaments (HTTP and websocket).

Creating tournaments and entering them count against the same per-address
limits as creating rooms and taking seats (:mod:`..limits`): 429 ``rate_limited``.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from functools import wraps
from typing import Any

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route, WebSocketRoute

from ...rooms.settings import TakeSeat
from ...store.tournaments.base import TOURNAMENT_LISTS
from ...tournaments import CreateTournament, TournamentError
from ..invalid import describe
from ..limits import CREATIONS, JOINS, limited
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

Handler = Callable[[Request], Awaitable[JSONResponse]]

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


def _answers_errors(handler: Handler) -> Handler:
    """A refused request is answered with its code, message and HTTP status."""

    @wraps(handler)
    async def handle(request: Request) -> JSONResponse:
        try:
            return await handler(request)
        except TournamentError as error:
            body: dict[str, Any] = {"code": error.code, "message": error.message}
            headers = {}
            if error.code == "bad_message":
                body["field"] = error.field
            if error.code == "unauthorized":
                headers["WWW-Authenticate"] = "Bearer"
            return JSONResponse(body, status_code=error.http_status, headers=headers)

    return handle


async def _json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    try:
        data: Any = json.loads(raw) if raw.strip() else {}
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        message = "the body is not JSON (or nested too deeply)"
        raise TournamentError("bad_message", message) from None
    if not isinstance(data, dict):
        raise TournamentError("bad_message", "the body is a JSON object")
    return data


def _invalid(error: ValidationError) -> TournamentError:
    field, message = describe(error)
    return TournamentError("bad_message", message, field)


LIST_LIMIT = re.compile(r"[1-9][0-9]?")  # 1-99; checked to at most LIST_MAX


@_answers_errors
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


@_answers_errors
async def create_tournament(request: Request) -> JSONResponse:
    refused = limited(request, process_of(request).limits.creations, CREATIONS)
    if refused is not None:
        return refused
    try:
        body = CreateTournament.model_validate(await _json_body(request))
    except ValidationError as error:
        raise _invalid(error) from None
    created = await process_of(request).tournaments.create(body)
    return JSONResponse(created.model_dump(), status_code=201)


@_answers_errors
async def enter_tournament(request: Request) -> JSONResponse:
    """A guest entry (``{"name"}``), or with a session the player's own (``name`` optional)."""
    refused = limited(request, process_of(request).limits.joins, JOINS)
    if refused is not None:
        return refused
    player = await session_player(request, changing=True)
    if isinstance(player, JSONResponse):
        return player
    try:
        body = TakeSeat.model_validate(await _json_body(request))
    except ValidationError as error:
        raise _invalid(error) from None
    if player is None and request_token(request)[0] is not None:
        raise TournamentError("unauthorized", "this session is not alive")
    name = body.name or (player.name if player else None)
    if name is None:
        raise TournamentError("bad_message", "name: a guest entry needs a name", "name")
    owner = player.player_id if player else None
    tournament_id = request.path_params["tournament_id"]
    entry = await process_of(request).tournaments.enter(tournament_id, name, owner)
    return JSONResponse(entry.model_dump(), status_code=201)


@_answers_errors
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


@_answers_errors
async def get_tournament(request: Request) -> JSONResponse:
    view = await process_of(request).tournaments.view(request.path_params["tournament_id"])
    return JSONResponse(view.model_dump())
