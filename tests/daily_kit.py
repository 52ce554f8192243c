"""What the daily deal's tests share: attempts over HTTP, played (resigned) over the room's
websocket, and the leaderboard read until it shows what the background recording put there."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from players_kit import api
from server_kit import Client

__all__ = ["attempt", "board_until", "resign_attempt"]


async def attempt(base: str, game: str, token: str) -> dict[str, Any]:
    status, body, _ = await api("POST", f"{base}/api/daily/{game}/attempts", {}, token)
    assert status == 201, body
    return dict(body)


async def resign_attempt(base: str, made: dict[str, Any]) -> dict[str, Any]:
    """Start the attempt's race, resign it: the results (with the deal revealed)."""
    url = base.replace("http://", "ws://") + f"/ws/rooms/{made['room_id']}"
    client = await Client.open(url)
    try:
        await client.hello(made["token"])
        await client.send(type="ready")
        await client.expect("started")
        await client.send(type="resign")
        return await client.expect("results")
    finally:
        await client.close()


async def board_until(
    base: str, game: str, date: str, *player_ids: str, board: str = "guests"
) -> dict[str, Any]:
    """One of the day's boards (by default the anonymous players', whom most tests play as)
    once it holds an entry of each of ``player_ids``: an entry is put on the board in the
    background once its race is over (a loaded machine delays it), and other tests on a shared
    server put theirs on the same day's board."""
    deadline = time.monotonic() + 60
    url = f"{base}/api/daily/{game}/{date}/leaderboard?board={board}&limit=100"
    while True:
        status, body, _ = await api("GET", url)
        assert status == 200, body
        entered = {entry["player_id"] for entry in body["entries"]}
        if entered.issuperset(player_ids):
            return dict(body)
        assert time.monotonic() < deadline, (player_ids, body)
        await asyncio.sleep(0.05)
