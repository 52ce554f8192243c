"""Friends' HTTP API (see ``docs/friends.md``); a signed-in player's, every route.

* ``PUT``/``DELETE /api/me/following/{player_id}``: follow, unfollow; ``GET`` it: whether you
  follow and block them.  ``GET /api/me/following``, ``/api/me/followers`` (``?offset=``).
* ``PUT``/``DELETE /api/me/blocked/{player_id}``, ``GET /api/me/blocked``.
* ``GET /api/me/opponents``: recent opponents, each with whether you follow them.
* ``GET``/``PUT /api/me/presence`` ``{"hidden"}``: hide your presence, or show it.
* ``POST /api/challenges`` (:class:`~stalactites.friends.protocol.ChallengeBody`),
  ``GET /api/challenges`` (your open ones), ``POST /api/challenges/{id}/accept``,
  ``/decline``, ``/cancel``.
* ``GET /api/me/notifications``; ``POST /api/me/notifications/read`` ``{"up_to_ms"}``.

Every refusal is ``{"code", "message"}`` (``"field"`` too for bad input, 422) and changes
nothing.  Challenges are limited per player in this process too (:data:`CHALLENGES_PER_HOUR`).
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute

from ...friends.follows import Listed
from ...protocol.friends import ChallengeBody, HiddenBody, ReadBody
from ...store.friends.base import ListName
from ...store.players.base import PlayerRecord
from ..bodies import body_of
from ..errors import Refused, rate_limited
from ..limits import AddressBuckets
from ..players.session_http import signed_in
from ..process import Process, process_of
from .notify_socket import notify_socket

__all__ = ["CHALLENGES_PER_HOUR", "friends_routes"]

CHALLENGES_PER_HOUR = 60
LIST_PAGE = 50

Handler = Callable[[Request, PlayerRecord], Awaitable[Response]]


def friends_routes() -> list[BaseRoute]:
    return [
        Route("/api/me/following", _listed("following"), methods=["GET"]),
        Route("/api/me/followers", _listed("followers"), methods=["GET"]),
        Route("/api/me/blocked", _listed("blocked"), methods=["GET"]),
        Route("/api/me/opponents", _signed_in(opponents), methods=["GET"]),
        Route("/api/me/following/{player_id}", _signed_in(relation), methods=["GET"]),
        Route("/api/me/following/{player_id}", _signed_in(follow, True), methods=["PUT"]),
        Route("/api/me/following/{player_id}", _signed_in(unfollow, True), methods=["DELETE"]),
        Route("/api/me/blocked/{player_id}", _signed_in(block, True), methods=["PUT"]),
        Route("/api/me/blocked/{player_id}", _signed_in(unblock, True), methods=["DELETE"]),
        Route("/api/me/presence", _signed_in(presence_setting), methods=["GET"]),
        Route("/api/me/presence", _signed_in(hide, True), methods=["PUT"]),
        Route("/api/challenges", _signed_in(challenges), methods=["GET"]),
        Route("/api/challenges", _signed_in(challenge, True), methods=["POST"]),
        Route("/api/challenges/{challenge_id}/accept", _signed_in(accept, True), methods=["POST"]),
        Route(
            "/api/challenges/{challenge_id}/decline", _signed_in(decline, True), methods=["POST"]
        ),
        Route("/api/challenges/{challenge_id}/cancel", _signed_in(cancel, True), methods=["POST"]),
        Route("/api/me/notifications", _signed_in(notifications), methods=["GET"]),
        Route("/api/me/notifications/read", _signed_in(read, True), methods=["POST"]),
        WebSocketRoute("/ws/notify", notify_socket),
    ]


def _signed_in(
    handler: Handler, changing: bool = False
) -> Callable[[Request], Awaitable[Response]]:
    """The route: the signed-in player (else 401)."""

    async def route(request: Request) -> Response:
        return await handler(request, await signed_in(request, changing))

    return route


def _offset(request: Request) -> int:
    try:
        return max(int(request.query_params.get("offset", "0")), 0)
    except ValueError:
        raise Refused("bad_message", "offset: a whole number", 422) from None


def _lines(page: list[Listed]) -> list[dict[str, Any]]:
    return [
        {"player_id": one.player_id, "name": one.name, "since_ms": one.since_ms} for one in page
    ]


def _listed(name: ListName) -> Callable[[Request], Awaitable[Response]]:
    async def listed(request: Request, player: PlayerRecord) -> Response:
        page, total = await process_of(request).friends.follows.listed(
            player.player_id, name, _offset(request), LIST_PAGE
        )
        return JSONResponse({"players": _lines(page), "total": total})

    return _signed_in(listed)


async def opponents(request: Request, player: PlayerRecord) -> Response:
    follows = process_of(request).friends.follows
    page, _ = await follows.listed(player.player_id, "opponents", 0, LIST_PAGE)
    following = await follows.store.contains(
        player.player_id, "following", [one.player_id for one in page]
    )
    lines = [line | {"following": f} for line, f in zip(_lines(page), following, strict=True)]
    return JSONResponse({"players": lines})


async def relation(request: Request, player: PlayerRecord) -> Response:
    other = request.path_params["player_id"]
    following, blocked = await process_of(request).friends.follows.relation(player.player_id, other)
    return JSONResponse({"following": following, "blocked": blocked})


async def follow(request: Request, player: PlayerRecord) -> Response:
    await process_of(request).friends.follow(player, request.path_params["player_id"])
    return JSONResponse({"following": True})


async def unfollow(request: Request, player: PlayerRecord) -> Response:
    await process_of(request).friends.follows.unfollow(
        player.player_id, request.path_params["player_id"]
    )
    return JSONResponse({"following": False})


async def block(request: Request, player: PlayerRecord) -> Response:
    await process_of(request).friends.follows.block(player, request.path_params["player_id"])
    return JSONResponse({"blocked": True})


async def unblock(request: Request, player: PlayerRecord) -> Response:
    await process_of(request).friends.follows.unblock(
        player.player_id, request.path_params["player_id"]
    )
    return JSONResponse({"blocked": False})


async def presence_setting(request: Request, player: PlayerRecord) -> Response:
    return JSONResponse(
        {"hidden": await process_of(request).friends.store.hidden(player.player_id)}
    )


async def hide(request: Request, player: PlayerRecord) -> Response:
    body = await body_of(request, HiddenBody)
    await process_of(request).friends.set_hidden(player.player_id, body.hidden)
    return JSONResponse({"hidden": body.hidden})


async def challenges(request: Request, player: PlayerRecord) -> Response:
    found = await process_of(request).friends.challenges.of(player.player_id)
    return JSONResponse({"challenges": [view.model_dump() for view in found]})


class _Hourly:
    def __init__(self) -> None:
        self.players = AddressBuckets(CHALLENGES_PER_HOUR / 3600, CHALLENGES_PER_HOUR)


_LIMITS: weakref.WeakKeyDictionary[Process, _Hourly] = weakref.WeakKeyDictionary()


async def challenge(request: Request, player: PlayerRecord) -> Response:
    body = await body_of(request, ChallengeBody)
    process = process_of(request)
    limits = _LIMITS.setdefault(process, _Hourly()).players
    if not limits.take(player.player_id):
        raise rate_limited("challenges", limits.retry_after(player.player_id))
    view = await process.friends.challenges.send(player, body)
    return JSONResponse({"challenge": view.model_dump()}, status_code=201)


async def accept(request: Request, player: PlayerRecord) -> Response:
    view, token = await process_of(request).friends.challenges.accept(
        player, request.path_params["challenge_id"]
    )
    return JSONResponse({"challenge": view.model_dump(), "room_id": view.room_id, "token": token})


async def decline(request: Request, player: PlayerRecord) -> Response:
    challenges = process_of(request).friends.challenges
    view = await challenges.answer(player, request.path_params["challenge_id"], "declined")
    return JSONResponse({"challenge": view.model_dump()})


async def cancel(request: Request, player: PlayerRecord) -> Response:
    challenges = process_of(request).friends.challenges
    view = await challenges.answer(player, request.path_params["challenge_id"], "cancelled")
    return JSONResponse({"challenge": view.model_dump()})


async def notifications(request: Request, player: PlayerRecord) -> Response:
    notes, unread, read_ms = await process_of(request).friends.notes.inbox(player.player_id)
    return JSONResponse(
        {
            "notifications": [note.model_dump() for note in notes],
            "unread": unread,
            "read_ms": read_ms,
        }
    )


async def read(request: Request, player: PlayerRecord) -> Response:
    body = await body_of(request, ReadBody)
    notes = process_of(request).friends.notes
    await notes.mark_read(player.player_id, body.up_to_ms)
    return JSONResponse({"unread": await notes.unread(player.player_id)})
