"""The daily deal's HTTP API: today's deal, attempts, a day's leaderboard, the archive.

* ``GET /api/daily/{game}``: ``{"date", "game", "step", "room_id", "token"}`` (``room_id``:
  the signed-in player's official attempt today, else null; ``token``: their seat's token in
  it, so that a player who left their attempt gets back to it from any tab or device where
  they are signed in); never the deal.
* ``POST /api/daily/{game}/attempts`` (a session): 201 ``{"room_id", "player_id", "token",
  "official", "date", "game"}``, a solo room on today's deal, the player seated (official
  if it is the first of theirs to start); limited per address as new rooms are.
* ``GET /api/daily/{game}/{date}/leaderboard?limit&offset``: ``{"date", "game", "total",
  "entries"}``, official attempts ranked.
* ``GET /api/daily/{game}/archive?before&limit``: ``{"days": [...]}``, past days newest
  first, each with its deal revealed and its winner.
"""

from __future__ import annotations

import datetime
import re

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from ...daily import DAILY_GAMES
from ...daily.service import entry_view
from ...store.daily.base import DailyBoard
from ..bodies import bad_message
from ..errors import Refused
from ..limits import CREATIONS, within_limit
from ..players.session_http import session_player, signed_in
from ..process import process_of

__all__ = ["daily_routes"]

WHOLE = re.compile(r"[0-9]{1,7}")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def daily_routes() -> list[BaseRoute]:
    base = "/api/daily/{game}"
    return [
        Route(base, today, methods=["GET"]),
        Route(f"{base}/attempts", attempt, methods=["POST"]),
        Route(f"{base}/archive", archive, methods=["GET"]),
        Route(f"{base}/{{date}}/leaderboard", leaderboard, methods=["GET"]),
    ]


def _game(request: Request) -> str:
    """The path's game, or 404 ``no_daily``."""
    game = request.path_params["game"]
    if game not in DAILY_GAMES:
        raise Refused("no_daily", f"a daily deal is one of {sorted(DAILY_GAMES)}", 404)
    return str(game)


def _date(text: str | None) -> str | None:
    if text is None or not DATE.fullmatch(text):
        return None
    try:
        return datetime.date.fromisoformat(text).isoformat()
    except ValueError:
        return None


def _whole(request: Request, name: str, default: int, top: int) -> int | None:
    text = request.query_params.get(name, str(default))
    if not WHOLE.fullmatch(text) or int(text) > top:
        return None
    return int(text)


async def today(request: Request) -> JSONResponse:
    game = _game(request)
    daily = process_of(request).daily
    day = daily.today(game)
    player = await session_player(request, changing=False)
    mine = token = None
    if player is not None:
        mine = await daily.official_room(game, player.player_id)
        token = None if mine is None else daily.seat_token(mine, player.player_id)
    body = {"date": day.date, "game": game, "step": day.step, "room_id": mine, "token": token}
    return JSONResponse(body)


async def attempt(request: Request) -> JSONResponse:
    game = _game(request)
    within_limit(request, process_of(request).limits.creations, CREATIONS)
    player = await signed_in(request, changing=True)
    made = await process_of(request).daily.attempt(game, player.player_id, player.name)
    answer = {
        "room_id": made.room_id,
        "player_id": made.player_id,
        "token": made.token,
        "official": made.official,
        "date": made.date,
        "game": game,
    }
    return JSONResponse(answer, status_code=201)


async def leaderboard(request: Request) -> JSONResponse:
    game = _game(request)
    date = _date(request.path_params["date"])
    if date is None:
        raise bad_message("date", "date: a day as YYYY-MM-DD")
    limit = _whole(request, "limit", 50, 100)
    if limit is None or limit == 0:
        raise bad_message("limit", "limit: a whole number from 1 to 100")
    offset = _whole(request, "offset", 0, 1_000_000)
    if offset is None:
        raise bad_message("offset", "offset: a whole number")
    board = request.query_params.get("board", "ranked")
    if board not in ("ranked", "guests"):
        raise bad_message("board", "board: ranked (registered players) or guests (anonymous ones)")
    daily = process_of(request).daily
    which: DailyBoard = "guests" if board == "guests" else "ranked"
    page = await daily.leaderboard(game, date, offset, limit, which)
    entries = [entry_view(entry) for entry in page.entries]
    body = {"date": date, "game": game, "board": board, "total": page.total, "entries": entries}
    return JSONResponse(body)


async def archive(request: Request) -> JSONResponse:
    game = _game(request)
    before = request.query_params.get("before")
    if before is not None and _date(before) is None:
        raise bad_message("before", "before: a day as YYYY-MM-DD")
    limit = _whole(request, "limit", 30, 100)
    if limit is None or limit == 0:
        raise bad_message("limit", "limit: a whole number from 1 to 100")
    days = await process_of(request).daily.archive(game, _date(before), limit)
    return JSONResponse({"game": game, "days": days})
