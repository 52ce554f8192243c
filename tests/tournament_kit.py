"""What the tournament tests share: the HTTP calls, and a client of the tournament socket.

Every frame the client receives is checked against the tournament protocol's
server union, and tournament events must arrive in seq order with no gap.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from typing import Any

from server_kit import Client, http
from stalactites.protocol.tournament import TOURNAMENT_SERVER_FRAMES


def ws_base(url: str) -> str:
    return url.replace("http://", "ws://")


async def new_tournament(base: str, **settings: Any) -> tuple[str, str]:
    """(tournament id, admin token) of a new tournament."""
    status, body = await http("POST", f"{base}/api/tournaments", {"name": "Cup", **settings})
    assert status == 201, body
    return body["tournament_id"], body["admin_token"]


async def enter(base: str, tournament_id: str, name: str) -> tuple[str, str]:
    """(player id, token) of a new entrant."""
    url = f"{base}/api/tournaments/{tournament_id}/players"
    status, body = await http("POST", url, {"name": name})
    assert status == 201, body
    return body["player_id"], body["token"]


def _start(url: str, authorization: str | None) -> tuple[int, Any, dict[str, str]]:
    request = urllib.request.Request(url, data=b"{}", method="POST")
    if authorization is not None:
        request.add_header("Authorization", authorization)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read()), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), dict(error.headers)


async def start(
    base: str, tournament_id: str, authorization: str | None
) -> tuple[int, Any, dict[str, str]]:
    """POST .../start with this Authorization header: (status, body, headers)."""
    url = f"{base}/api/tournaments/{tournament_id}/start"
    return await asyncio.to_thread(_start, url, authorization)


def start_now(base: str, tournament_id: str, admin_token: str) -> None:
    """The organiser starts the tournament (from a synchronous test: the browser tests)."""
    url = f"{base}/api/tournaments/{tournament_id}/start"
    status, body, _ = _start(url, f"Bearer {admin_token}")
    assert status == 200, body


async def view(base: str, tournament_id: str) -> dict[str, Any]:
    status, body = await http("GET", f"{base}/api/tournaments/{tournament_id}")
    assert status == 200, body
    result: dict[str, Any] = body
    return result


class Watcher(Client):
    """One tournament socket, as the tournament page would use it."""

    schema = TOURNAMENT_SERVER_FRAMES

    # Unlike a room's Client, opened by the tournament's id and said hello with any fields.
    @classmethod
    async def open(  # type: ignore[override]
        cls, base: str, tournament_id: str, **options: Any
    ) -> Watcher:
        url = f"{ws_base(base)}/ws/tournaments/{tournament_id}"
        watcher = await super().open(url, max_queue=None, **options)
        assert isinstance(watcher, Watcher)
        return watcher

    async def hello(self, **hello: Any) -> dict[str, Any]:  # type: ignore[override]
        await self.send(type="hello", **hello)
        welcome = await self.recv()
        assert welcome["type"] == "welcome", welcome
        self.last_seq, self.you = welcome["seq"], welcome["you"]
        return welcome


async def seat_in_round(server: Any, room_id: str, token: str) -> Client:
    """An entrant's socket on a round's room, said hello with the tournament token (reading
    without flow control, so that a test may leave other players' progress unread)."""
    client = await Client.open(server.ws_url(room_id), max_queue=None)
    client.token = token
    await client.hello(token)
    return client


def points(line: dict[str, Any]) -> int:
    """The documented formula, applied to a reported round line: foundation cards, plus a
    point for each whole 10 s left of a 60 s round if the entrant won."""
    bonus = (60_000 - line["elapsed_ms"]) // 10_000 if line["status"] == "won" else 0
    return int(line["foundation_cards"]) + bonus
