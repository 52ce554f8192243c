"""Friends in tests: registered players, their notification sockets, and reading frames."""

from __future__ import annotations

import itertools
from typing import Any, ClassVar

from pydantic import TypeAdapter

from players_kit import anonymous, api
from server_kit import Client
from stalactites.protocol.friends import NotifyServerFrame

_names = itertools.count(1)


class NotifyClient(Client):
    """A tab's notification socket (``/ws/notify``)."""

    schema: ClassVar[TypeAdapter[Any]] = TypeAdapter(NotifyServerFrame)

    async def welcome(self, token: str) -> dict[str, Any]:
        await self.send(type="hello", token=token)
        frame = await self.recv()
        assert frame["type"] == "welcome", frame
        return frame


async def registered(base: str, stem: str = "friend") -> dict[str, Any]:
    """A new registered player's session: ``{"player_id", "name", "token", "username"}``."""
    made = await anonymous(base)
    username = f"{stem}{next(_names)}x{made['player_id'][-4:]}"
    body = {"username": username, "password": "correct horse battery"}
    status, answer, _ = await api("POST", f"{base}/api/accounts", body, made["token"])
    assert status == 201, answer
    return made | {"username": username, "name": answer.get("name", made["name"])}


async def tab(base: str, player: dict[str, Any]) -> tuple[NotifyClient, dict[str, Any]]:
    """A tab of ``player``'s on the server at ``base``: its notification socket, and its
    welcome."""
    client = await NotifyClient.open(base.replace("http://", "ws://") + "/ws/notify")
    return client, await client.welcome(player["token"])


async def follow(base: str, player: dict[str, Any], other: dict[str, Any]) -> None:
    url = f"{base}/api/me/following/{other['player_id']}"
    status, answer, _ = await api("PUT", url, None, player["token"])
    assert status == 200, answer


async def presence_of(client: NotifyClient, player_id: str, status: str) -> dict[str, Any]:
    """Read the tab's frames until ``player_id`` is shown with ``status``: the friend."""
    while True:
        frame = await client.recv(15)
        friend = frame.get("friend") or {}
        if frame["type"] == "presence" and friend["player_id"] == player_id:
            if friend["status"] == status:
                return dict(friend)
