"""Arenas' HTTP API (see ``docs/tournaments.md``, "Arenas").

* ``POST /api/arenas`` (a session) with :class:`~stalactites.protocol.arenas.CreateArena`:
  201 ``{"arena", "admin_token"}``.
* ``GET /api/arenas?status=scheduled|running|finished``: ``{"arenas"}``.
* ``GET /api/arenas/{id}[?offset=K]``: the arena, 50 lines of its standings from ``offset``,
  the asking entrant's own line, and the podium once it is over.
* ``POST /api/arenas/{id}/players`` (a session): enter; ``/pause`` and ``/resume``.
* ``/ws/arenas/{id}``: :mod:`.arena_socket`.

Refusals are ``{"code", "message"}`` (and ``"field"`` for bad input, 422) and change nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute

from ...arenas.state import ArenaSettings
from ...protocol.arenas import CreateArena, line_of, status_of, summary_of
from ..bodies import bad_message, body_of
from ..players.session_http import session_player, signed_in
from ..process import process_of
from .arena_socket import arena_socket

__all__ = ["arena_routes"]

PAGE = 50


def arena_routes() -> list[BaseRoute]:
    return [
        Route("/api/arenas", create, methods=["POST"]),
        Route("/api/arenas", listed, methods=["GET"]),
        Route("/api/arenas/{arena_id}", one, methods=["GET"]),
        Route("/api/arenas/{arena_id}/players", _entrant(enter), methods=["POST"]),
        Route("/api/arenas/{arena_id}/pause", _entrant(pause), methods=["POST"]),
        Route("/api/arenas/{arena_id}/resume", _entrant(resume), methods=["POST"]),
        Route("/api/arenas/{arena_id}/berserk", _entrant(berserk), methods=["POST"]),
        WebSocketRoute("/ws/arenas/{arena_id}", arena_socket),
    ]


Act = Callable[[Request, str, str], Awaitable[Response]]


def _entrant(act: Act) -> Callable[[Request], Awaitable[Response]]:
    async def route(request: Request) -> Response:
        player = await signed_in(request, changing=True)
        return await act(request, request.path_params["arena_id"], player.player_id)

    return route


async def create(request: Request) -> Response:
    await signed_in(request, changing=True)
    body = await body_of(request, CreateArena)
    process = process_of(request)
    now = process.clock.now_ms()
    settings = ArenaSettings(
        **body.model_dump(exclude={"starts_ms"}), starts_ms=max(body.starts_ms or now, now)
    )
    made = await process.arenas.create(settings)
    assert made is not None  # (a new random id)
    arena, token = made
    return JSONResponse(
        {"arena": summary_of(arena, now).model_dump(), "admin_token": token}, status_code=201
    )


async def listed(request: Request) -> Response:
    status = request.query_params.get("status", "running")
    if status not in ("scheduled", "running", "finished"):
        raise bad_message("status", "status: scheduled, running or finished")
    process = process_of(request)
    now = process.clock.now_ms()
    found = await process.arenas.listed(status)
    return JSONResponse({"arenas": [summary_of(arena, now).model_dump() for arena in found]})


async def one(request: Request) -> Response:
    process = process_of(request)
    arena = await process.arenas.load(request.path_params["arena_id"])
    try:
        offset = max(int(request.query_params.get("offset", "0")), 0)
    except ValueError:
        raise bad_message("offset", "offset: a whole number") from None
    lines = await process.arena_feeds.lines(arena)
    player = await session_player(request, changing=False)
    mine = player.player_id if player is not None else ""
    now = process.clock.now_ms()
    finished = status_of(arena, now) == "finished"
    you = next((line for line in lines if line.player_id == mine), None)
    entrant = arena.entrants.get(mine)
    racing = entrant.room_id if entrant is not None and entrant.room_id else None
    return JSONResponse(
        {
            "arena": summary_of(arena, now).model_dump(),
            "standings": [line.model_dump() for line in lines[offset : offset + PAGE]],
            "total": len(lines),
            "you": None if you is None else you.model_dump(),
            "room_id": None if racing is None or racing.startswith("pending:") else racing,
            "podium": [line.model_dump() for line in lines[:3]] if finished else None,
        }
    )


async def enter(request: Request, arena_id: str, player_id: str) -> Response:
    process = process_of(request)
    record = await process.player_store.load_player(player_id)
    assert record is not None  # (a live session's)
    arena = await process.arenas.enter(arena_id, record)
    entrant = arena.entrants[player_id]
    return JSONResponse({"entered": True, "you": line_of(entrant, 0).model_dump()})


async def pause(request: Request, arena_id: str, player_id: str) -> Response:
    arena = await process_of(request).arenas.pause(arena_id, player_id, True)
    return JSONResponse({"paused": arena.entrants[player_id].paused})


async def resume(request: Request, arena_id: str, player_id: str) -> Response:
    arena = await process_of(request).arenas.pause(arena_id, player_id, False)
    return JSONResponse({"paused": arena.entrants[player_id].paused})


async def berserk(request: Request, arena_id: str, player_id: str) -> Response:
    arena = await process_of(request).arenas.berserk(arena_id, player_id)
    entrant = arena.entrants[player_id]
    return JSONResponse({"berserk": True, "room_id": entrant.room_id})
