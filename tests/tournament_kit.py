"""What the tournament tests share: the HTTP calls, and a client of the tournament socket.

Every frame the client receives is checked against the tournament protocol's
server union, and tournament events must arrive in seq order with no gap.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server_kit import OPEN_CLIENTS, Client, http
from stalactites.tournament_protocol import TOURNAMENT_SERVER_FRAMES


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


async def view(base: str, tournament_id: str) -> dict[str, Any]:
    status, body = await http("GET", f"{base}/api/tournaments/{tournament_id}")
    assert status == 200, body
    result: dict[str, Any] = body
    return result


@dataclass
class Watcher:
    """One tournament socket, as the tournament page would use it."""

    ws: ClientConnection
    frames: list[dict[str, Any]] = field(default_factory=list)
    arrivals: list[float] = field(default_factory=list)  # monotonic time of each frame
    last_seq: int = 0
    you: str | None = None

    @classmethod
    async def open(cls, base: str, tournament_id: str) -> Watcher:
        url = f"{ws_base(base)}/ws/tournaments/{tournament_id}"
        ws = await connect(url, open_timeout=10, max_queue=None)
        watcher = cls(ws)
        OPEN_CLIENTS.append(watcher)  # type: ignore[arg-type]
        return watcher

    async def send(self, **frame: Any) -> None:
        await self.ws.send(json.dumps(frame))

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        frame: dict[str, Any] = json.loads(raw)
        TOURNAMENT_SERVER_FRAMES.validate_python(frame)
        self.frames.append(frame)
        self.arrivals.append(time.monotonic())
        if "seq" in frame and frame["type"] != "welcome":
            assert frame["seq"] == self.last_seq + 1, (frame, self.last_seq)
            self.last_seq = frame["seq"]
        return frame

    async def expect(self, kind: str, timeout: float = 10.0, **match: Any) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.recv(max(deadline - time.monotonic(), 0.01))
            if frame["type"] == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame

    async def hello(self, **hello: Any) -> dict[str, Any]:
        await self.send(type="hello", **hello)
        welcome = await self.recv()
        assert welcome["type"] == "welcome", welcome
        self.last_seq, self.you = welcome["seq"], welcome["you"]
        return welcome

    async def closed(self, timeout: float = 10.0) -> int | None:
        try:
            while True:
                await self.recv(timeout)
        except ConnectionClosed as closed:
            return None if closed.rcvd is None else closed.rcvd.code

    async def close(self) -> None:
        await self.ws.close()


async def seat_in_round(server: Any, room_id: str, token: str) -> Client:
    """An entrant's socket on a round's room, said hello with the tournament token (reading
    without flow control, so that a test may leave other players' progress unread)."""
    client = await Client.open(server.ws_url(room_id), max_queue=None)
    client.token = token
    await client.hello(token)
    return client
