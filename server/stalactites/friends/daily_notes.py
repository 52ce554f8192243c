"""``daily_beaten``: a player you follow beat your time on today's deal.

An effect of the results log (:mod:`stalactites.results`), so made once per race even when it
runs again (each note's id names the room and the follower).  Only an official attempt that
goes on the day's board tells (not one fair play holds), and only followers whose own official
attempt of the day is over and was slower, or not won.  The note names the game and the day,
never the deal.
"""

from __future__ import annotations

import json

from ..daily import DailyService
from ..protocol.room import Standing
from ..rooms import RoomError, RoomService
from . import Friends

__all__ = ["FOLLOWERS_TOLD", "daily_beaten"]

FOLLOWERS_TOLD = 200  # followers looked at for one attempt, newest first


async def daily_beaten(
    friends: Friends, daily: DailyService, rooms: RoomService, room_id: str
) -> None:
    try:
        settings = await rooms.settings(room_id)
    except RoomError:
        return
    if settings.daily is None:
        return
    game, date, _ = settings.daily.split("|")
    row = await rooms.load(room_id)
    if row.results_json is None:
        return
    for data in json.loads(row.results_json):
        line = Standing.model_validate(data)
        if line.status != "won" or await daily.board_of(line.player_id, room_id) is None:
            continue
        if await daily.store.official(game, date, line.player_id) != room_id:
            continue  # (a practice run)
        followers = await friends.store.members(line.player_id, "followers", 0, FOLLOWERS_TOLD)
        for follower, _ in followers:
            if await _slower(daily, rooms, game, date, follower, line.elapsed_ms):
                await friends.notes.add(
                    follower,
                    f"daily:{room_id}:{follower}",
                    "daily_beaten",
                    {
                        "player_id": line.player_id,
                        "name": line.name,
                        "game": game,
                        "date": date,
                        "elapsed_ms": line.elapsed_ms,
                    },
                )


async def _slower(
    daily: DailyService, rooms: RoomService, game: str, date: str, player_id: str, elapsed_ms: int
) -> bool:
    """Whether the player's official attempt of the day is over, and lost or slower."""
    room_id = await daily.store.official(game, date, player_id)
    if room_id is None:
        return False
    try:
        row = await rooms.load(room_id)
    except RoomError:
        return False
    if row.results_json is None:
        return False
    for data in json.loads(row.results_json):
        line = Standing.model_validate(data)
        if line.player_id == player_id:
            return line.status != "won" or line.elapsed_ms > elapsed_ms
    return False
