"""The Starlette application: its routes (health, metrics, rooms, tournaments, the web
client), its error answers (a refusal or a domain error, by :mod:`.errors`; anything else a
500), the cap on request bodies (:mod:`.body_cap`, before every route), and the lifespan that
holds the :class:`~.process.Process`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.types import ASGIApp

from ..clock import Clock, SystemClock
from ..config import ServerConfig
from .arenas.arena_http import arena_routes
from .body_cap import BodyCap
from .daily.daily_http import daily_routes
from .errors import DOMAIN_ERRORS, Refused, answer, refusal
from .fairplay import fairplay_routes
from .friends.friends_http import friends_routes
from .ghosts.ghost_http import ghost_routes
from .headers import SecurityHeaders
from .health import healthz, readyz
from .match.match_socket import match_socket
from .metrics_http import metrics_endpoint
from .players.player_http import player_routes
from .process import process_of, running
from .refusals import QuietRefusals
from .rooms.room_http import room_routes
from .static import client_files
from .tournaments.tournament_http import tournament_routes

__all__ = ["create_app"]


async def _no_client(request: Request) -> JSONResponse:
    raise Refused("not_found", "the web client is not installed on this server", 404)


async def _refused(request: Request, exc: Exception) -> JSONResponse:
    """A route's refusal, or a domain error it let through, as the JSON answer."""
    return answer(refusal(exc, process_of(request).clock.now_ms()))


async def _server_error(request: Request, exc: Exception) -> JSONResponse:
    return answer(Refused("internal", "the server failed; try again", 500))


def _routes(config: ServerConfig) -> list[BaseRoute]:
    routes: list[BaseRoute] = [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics_endpoint),
        *room_routes(),
        *ghost_routes(),
        *tournament_routes(),
        *player_routes(),
        *fairplay_routes(),
        *friends_routes(),
        *arena_routes(),
        *daily_routes(),
        WebSocketRoute("/ws/match", match_socket),
    ]
    client = config.client_path
    if client.is_dir():
        routes.append(Mount("/", client_files(client)))
    else:
        routes.append(Route("/", _no_client))
    return routes


class _App(Starlette):
    """Starlette, the security headers outermost: on every answer, 500s included; inside them,
    refusals a client expects answered 200 (:mod:`.refusals`)."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(QuietRefusals(super().build_middleware_stack()))


def create_app(config: ServerConfig | None = None, clock: Clock | None = None) -> Starlette:
    """The app; ``config`` defaults to the environment's, ``clock`` to the system clock."""
    settings = ServerConfig.from_env() if config is None else config
    time = SystemClock() if clock is None else clock

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        async with running(settings, time) as process:
            app.state.process = process  # for the server's graceful shutdown (web/graceful.py)
            yield {"process": process}

    return _App(
        routes=_routes(settings),
        middleware=[Middleware(BodyCap, max_bytes=settings.max_body_bytes)],
        lifespan=lifespan,
        exception_handlers={
            **{kind: _refused for kind in (Refused, *DOMAIN_ERRORS)},
            Exception: _server_error,
        },
    )
