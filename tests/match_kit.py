"""Quick races over a real server: a matchmaking socket's client and a queued player."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import TypeAdapter

from players_kit import anonymous
from server_kit import Client
from stalactites.protocol.match import MATCH_SERVER_FRAMES

__all__ = ["MatchClient", "match_url", "queued_player", "race_client"]


def match_url(server: Any) -> str:
    url: str = server.url
    return url.replace("http://", "ws://") + "/ws/match"


class MatchClient(Client):
    """One ``/ws/match`` socket; every frame it receives is checked against the protocol."""

    schema: ClassVar[TypeAdapter[Any]] = MATCH_SERVER_FRAMES
    session: dict[str, Any] = {}  # noqa: RUF012  (set per client by queued_player)

    @classmethod
    async def said_hello(cls, server: Any, session: dict[str, Any]) -> MatchClient:
        client = await cls.open(match_url(server))
        client.session = session
        await client.send(type="hello", token=session["token"])
        welcome = await client.expect("welcome")
        assert welcome["player_id"] == session["player_id"]
        return client

    async def queue(self, game: str = "stalactites", step: str | None = "ones") -> dict[str, Any]:
        """Queue; the first ``queued`` frame (or ``matched`` if one comes first)."""
        await self.send(type="queue", game=game, step=step)
        while True:
            frame = await self.recv()
            if frame["type"] in ("queued", "matched", "error"):
                return frame


async def queued_player(
    server: Any, session: dict[str, Any] | None = None, step: str | None = "ones"
) -> MatchClient:
    """A new anonymous player (or ``session``'s), queued on ``server``."""
    client = await MatchClient.said_hello(server, session or await anonymous(server.url))
    frame = await client.queue(step=step)
    assert frame["type"] in ("queued", "matched"), frame
    if frame["type"] == "matched":
        client.frames.append(frame)
    return client


async def race_client(server: Any, matched: dict[str, Any]) -> Client:
    """The matched player's room socket on ``server``, hello said with the seat's token."""
    room = await Client.open(
        server.url.replace("http://", "ws://") + f"/ws/rooms/{matched['room_id']}"
    )
    await room.hello(matched["token"])
    return room
