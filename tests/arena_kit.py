"""Arenas in tests: an arena socket's client."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import TypeAdapter

from server_kit import Client
from stalactites.protocol.arenas import ArenaServerFrame


class ArenaClient(Client):
    """An arena socket (``/ws/arenas/{id}``)."""

    schema: ClassVar[TypeAdapter[Any]] = TypeAdapter(ArenaServerFrame)

    async def welcome(self, token: str | None) -> dict[str, Any]:
        await self.send(type="hello", **({} if token is None else {"token": token}))
        frame = await self.recv()
        assert frame["type"] == "welcome", frame
        return frame
