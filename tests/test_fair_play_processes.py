"""Fair play across processes on one real Redis: a process killed once it has held a solver
bot's run (SIGKILL, wherever it was in the race's recording: before or after the day's board,
the ratings, the ghosts' index) leaves the run held, on no board, and the race recorded once
by the other process."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import redis

from daily_kit import attempt
from players_kit import anonymous, api, recorded
from server_kit import REDIS_URL, Client, Spawn, stored_solution

pytestmark = pytest.mark.usefixtures("close_clients")

HOLDING = {
    "STALACTITES_FAIRPLAY_HOLDS": "1",
    "STALACTITES_RESULTS_CLAIM_S": "1",
    "STALACTITES_DAILY_SECRET": "fair-play-processes",
}


def _held(prefix: str, player_id: str, room_id: str) -> bool:
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    try:
        record = client.hget(f"{prefix}{{fair:{player_id}}}", "record")
    finally:
        client.close()
    return record is not None and any(
        run["room_id"] == room_id and run["held"] for run in json.loads(record)["runs"]
    )


async def test_a_process_killed_after_the_hold_leaves_the_run_held_and_on_no_board(
    spawn: Spawn, redis_prefix: str
) -> None:
    doomed, survivor = spawn(**HOLDING), spawn(**HOLDING)
    bot = await anonymous(doomed.url)
    body = {"username": "killedbot", "password": "correct horse battery"}
    assert (await api("POST", f"{doomed.url}/api/accounts", body, bot["token"]))[0] == 201
    made = await attempt(doomed.url, "stalactites", bot["token"])
    client = await Client.open(doomed.ws_url(made["room_id"]))
    await client.hello(made["token"])
    await client.send(type="ready")
    await client.expect("started")
    for number, move in enumerate(stored_solution(redis_prefix, made["room_id"])):
        await client.send(type="move", id=f"m{number}", move=move)  # as fast as it can
    deadline = time.monotonic() + 30
    while not _held(redis_prefix, bot["player_id"], made["room_id"]):
        assert time.monotonic() < deadline, "the run was never held"
        await asyncio.sleep(0.005)
    doomed.kill()
    [race] = await recorded(survivor.url, bot["player_id"])
    assert race["room_id"] == made["room_id"] and race["status"] == "won"
    board = f"{survivor.url}/api/daily/stalactites/{made['date']}/leaderboard"
    for which in ("ranked", "guests"):
        _, day, _ = await api("GET", f"{board}?board={which}")
        assert day["total"] == 0, day
    _, mine, _ = await api("GET", f"{survivor.url}/api/me/fairplay", None, bot["token"])
    assert mine["under_review"] == [made["room_id"]]
