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
    base: str, game: str, date: str, total: int, board: str = "guests"
) -> dict[str, Any]:
    """One of the day's boards (by default the anonymous players', whom most tests play as)
    once it holds ``total`` entries (30 s at most: an entry is put on the board in the
    background once its race is over, which a loaded machine delays)."""
    deadline = time.monotonic() + 30
    url = f"{base}/api/daily/{game}/{date}/leaderboard?board={board}"
    while True:
        status, body, _ = await api("GET", url)
        assert status == 200, body
        if body["total"] >= total or time.monotonic() > deadline:
            return dict(body)
        await asyncio.sleep(0.05)
