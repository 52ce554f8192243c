"""The players' HTTP API: sessions, accounts, profiles, histories and leaderboards.

Every refusal is ``{"code", "message"}`` (and ``"field"`` for bad input, 422) and changes
nothing; a body that is not a JSON object (or is nested too deeply to read) is 422
``bad_message``.  New anonymous players and registrations are limited per client address,
sign-in attempts (``POST /api/session`` with a username) per address, per username from one
address and per username, in this process (:mod:`.player_limits`): over a limit, 429
``rate_limited`` with ``Retry-After``; a recovery code's use and a new set of codes take
from the sign-in limits too.  Sessions: :mod:`.session_http`.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...players import BadLimit
from ...players.export import player_export
from ...players.recovery import new_codes
from ...players.service import DAY_MS, NewSession, Profile
from ...store.players.base import PlayerRecord
from ..bodies import bad_message, json_object
from ..errors import Refused
from ..limits import client_address, within_limit
from ..process import process_of
from .player_limits import EXPORTS, NEW_PLAYERS, REGISTRATIONS, player_limits
from .session_http import forget_cookie, request_token, session_player, set_cookie, signed_in

__all__ = ["player_routes"]


def player_routes() -> list[BaseRoute]:
    return [
        Route("/api/session", new_session, methods=["POST"]),
        Route("/api/session", end_session, methods=["DELETE"]),
        Route("/api/session", who_am_i, methods=["GET"]),
        Route("/api/accounts", register, methods=["POST"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me", delete_me, methods=["DELETE"]),
        Route("/api/me", rename, methods=["PATCH"]),
        Route("/api/me/export", export_me, methods=["GET"]),
        Route("/api/me/recovery-codes", codes_left, methods=["GET"]),
        Route("/api/me/recovery-codes", renew_codes, methods=["POST"]),
        Route("/api/recover", recover, methods=["POST"]),
        Route("/api/players/{who}", profile, methods=["GET"]),
        Route("/api/players/{player_id}/races", races, methods=["GET"]),
        Route("/api/leaderboards/{game}", leaderboard, methods=["GET"]),
    ]


def _session_answer(request: Request, made: NewSession, status: int) -> JSONResponse:
    body = {"player_id": made.player_id, "name": made.name, "token": made.token}
    response = JSONResponse(body, status_code=status)
    set_cookie(request, response, made.token)
    return response


async def new_session(request: Request) -> Response:
    """``{}``: a new anonymous player (201); ``{"username", "password"}``: sign in (200)."""
    await session_player(request, changing=True)
    body = await json_object(request)
    players, limits = process_of(request).players, player_limits(request)
    if not body:
        within_limit(request, limits.new_players, NEW_PLAYERS)
        return _session_answer(request, await players.create_anonymous(), 201)
    limits.sign_in.take(client_address(request), body.get("username"))
    made = await players.sign_in(body.get("username"), body.get("password"))
    return _session_answer(request, made, 200)


async def end_session(request: Request) -> Response:
    """Sign out (``?everywhere=1``: every session of the player); 204 even without one."""
    await session_player(request, changing=True)
    token, _ = request_token(request)
    everywhere = request.query_params.get("everywhere") in ("1", "true")
    await process_of(request).players.sign_out(token, everywhere)
    response = Response(status_code=204)
    forget_cookie(request, response)
    return response


async def who_am_i(request: Request) -> Response:
    """``{"player": PROFILE or null}``, 200 either way: a page asks who it is without a failed
    request before it has a session.  A cookie that is no longer a live session is cleared."""
    player = await session_player(request, changing=False)
    if player is None:
        response = JSONResponse({"player": None})
        token, from_cookie = request_token(request)
        if token is not None and from_cookie:
            forget_cookie(request, response)
        return response
    found = await process_of(request).players.profile(player.player_id)
    return JSONResponse({"player": await _profile(request, found)})


async def register(request: Request) -> Response:
    player = await signed_in(request, changing=True)
    body = await json_object(request)
    within_limit(request, player_limits(request).registrations, REGISTRATIONS)
    players, codes = process_of(request).players, new_codes()
    await players.register(player.player_id, body.get("username"), body.get("password"), codes)
    found = await players.profile(player.player_id)
    answer = await _profile(request, found) | {"recovery_codes": codes}  # shown this once
    return JSONResponse(answer, status_code=201)


async def recover(request: Request) -> Response:
    """``{"username", "code", "password"}``: a recovery code used, the password new, every
    other session ended; 200 the new session, as a sign-in's."""
    await session_player(request, changing=True)
    body = await json_object(request)
    player_limits(request).sign_in.take(client_address(request), body.get("username"))
    players = process_of(request).players
    made = await players.recover(body.get("username"), body.get("code"), body.get("password"))
    return _session_answer(request, made, 200)


async def codes_left(request: Request) -> Response:
    player = await signed_in(request, changing=False)
    return JSONResponse({"left": await process_of(request).players.recovery.left(player.player_id)})


async def renew_codes(request: Request) -> Response:
    """``{"password"}`` (the current one): a new set of recovery codes in place of the old;
    201 ``{"recovery_codes"}``, shown this once."""
    player = await signed_in(request, changing=True)
    body = await json_object(request)
    player_limits(request).sign_in.take(client_address(request), player.username)
    codes = await process_of(request).players.recovery.renew(player, body.get("password"))
    return JSONResponse({"recovery_codes": codes}, status_code=201)


async def export_me(request: Request) -> Response:
    """The signed-in player's own data, a JSON file to keep (:mod:`...players.export`)."""
    player = await signed_in(request, changing=False)
    within_limit(request, player_limits(request).exports, EXPORTS)
    process, player_id = process_of(request), player.player_id
    fair = await process.fairplay.record_of(player_id)
    document = await player_export(
        process.players,
        player_id,
        profile=await _profile(request, await process.players.profile(player_id)),
        fair_play={
            "under_review": fair.under_review(),
            "marked": fair.marked,
            "appeal": fair.appeal,
        },
        moves_of=process.rooms.store.read_log,
        secret_deals=process.daily.secret_deals,
        now_ms=process.clock.now_ms(),
    )
    day = time.strftime("%Y-%m-%d", time.gmtime(document["exported_at"] / 1000))
    name = f"stalactites-{player_id}-{day}.json"
    return JSONResponse(document, headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def me(request: Request) -> Response:
    player = await signed_in(request, changing=False)
    found = await process_of(request).players.profile(player.player_id)
    return JSONResponse(await _profile(request, found))


async def delete_me(request: Request) -> Response:
    player = await signed_in(request, changing=True)
    await process_of(request).players.delete(player.player_id)
    response = Response(status_code=204)
    forget_cookie(request, response)
    return response


async def rename(request: Request) -> Response:
    """``{"name"}``: the signed-in player's new display name, once a day; ``{"bot": true}``:
    the account is a bot from now on (never once it has raced rated); 200 the profile."""
    player = await signed_in(request, changing=True)
    body = await json_object(request)
    process = process_of(request)
    players = process.players
    if "bot" in body:
        await _declare_bot(request, player, body["bot"])
    if "name" in body or "bot" not in body:
        await players.rename(player.player_id, body.get("name"))
    return JSONResponse(await _profile(request, await players.profile(player.player_id)))


async def _declare_bot(request: Request, player: PlayerRecord, bot: object) -> None:
    """Declare the account a bot, or refuse."""
    if bot is not True:
        raise bad_message("bot", "bot: true (a bot stays one)")
    if not player.registered:
        message = "register the account first: bots are accounts"
        raise Refused("not_registered", message, 409)
    rated = sum(rating.races for rating in player.ratings.values())
    await process_of(request).fairplay.declare_bot(player.player_id, rated)


async def profile(request: Request) -> Response:
    found = await process_of(request).players.profile(request.path_params["who"])
    return JSONResponse(await _profile(request, found))


async def races(request: Request) -> Response:
    query = request.query_params
    limit = _whole(query.get("limit", "20"), "limit")
    process = process_of(request)
    page = await process.players.history(
        request.path_params["player_id"], limit, query.get("before")
    )
    # A race finished today may be an attempt at today's daily deal: its deal stays unnamed.
    today = process.clock.now_ms() // DAY_MS * DAY_MS
    games = {entry.game for entry in page.races if entry.finished_at >= today}
    secret = await process.daily.secret_deals(games) if games else set()
    races = [
        _plain(entry) | ({"deal": None} if entry.deal in secret else {}) for entry in page.races
    ]
    viewer = await session_player(request, changing=False)
    if isinstance(viewer, PlayerRecord) and viewer.player_id == request.path_params["player_id"]:
        held = set((await process.fairplay.record_of(viewer.player_id)).under_review())
        for race in races:  # only its player sees that a run is held
            race["under_review"] = race["room_id"] in held
    return JSONResponse({"races": races, "next": page.next})


async def leaderboard(request: Request) -> Response:
    query, players = request.query_params, process_of(request).players
    game = request.path_params["game"]
    limit = _whole(query.get("limit", "50"), "limit")
    board = "bots" if query.get("bots") in ("1", "true") else ""  # the bots' own board
    if "around" in query:
        if query["around"] != "me":
            raise BadLimit("around: only 'me'")
        player = await signed_in(request, changing=False)
        lines = await players.leaderboard_around(game, player.player_id, limit, board)
    else:
        offset = _whole(query.get("offset", "0"), "offset")
        lines = await players.leaderboard(game, limit, offset, board)
    return JSONResponse({"players": [line._asdict() for line in lines]})


class BadOffset(BadLimit):
    field = "offset"


def _whole(text: str, name: str) -> int:
    if not text.isdigit() or len(text) > 7:
        raise (BadOffset if name == "offset" else BadLimit)(f"{name}: a whole number")
    return int(text)


async def _profile(request: Request, found: Profile) -> dict[str, Any]:
    """The profile's answer, with the daily deal's streak (``daily_streak``: days in a row
    with an official attempt)."""
    data = _plain(found)
    data["ratings"] = {game: _plain(rating) for game, rating in found.ratings.items()}
    data["stats"] = {key: _plain(stats) for key, stats in found.stats.items()}
    data["daily_streak"] = await process_of(request).daily.streak(found.player_id)
    data["marked"] = await process_of(request).fairplay.marked(found.player_id)
    data["bot"] = await process_of(request).fairplay.is_bot(found.player_id)
    for stats in data["stats"].values():
        stats["win_rate"] = round(stats["wins"] / stats["races"], 4) if stats["races"] else None
    return data


def _plain(value: Any) -> dict[str, Any]:
    """A dataclass's fields as a dict, one level down only (its values are plain already:
    ``dataclasses.asdict`` would copy every value deeply, for nothing)."""
    kind = type(value)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(field.name for field in dataclasses.fields(value))
    return {name: getattr(value, name) for name in names}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # each answer's dataclass: its fields' names
