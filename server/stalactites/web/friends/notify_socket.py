"""The notification socket ``/ws/notify``: one per tab of the web client, for its whole life.

The first frame is ``hello`` with the player's session (as on ``/ws/match``); the answer is
``welcome`` with the followed players online now, the unread notifications' count and the open
challenges.  Then the server sends ``presence``, ``challenge`` and ``notification`` frames as
things happen; the client sends ``ping`` (answered ``pong``).  While it is open the player is
online (:mod:`stalactites.friends.presence`).  Frames in and out, bad frames and close codes
are :class:`~stalactites.web.connection.Connection`'s.
"""

from __future__ import annotations

from starlette.websockets import WebSocket

from ...logs import bind
from ...protocol.friends import (
    NOTIFY_CLIENT_FRAMES,
    NotifyClientFrame,
    NotifyErrorFrame,
    NotifyWelcome,
)
from ...protocol.match import MatchHello, MatchPing, MatchPong
from ..connection import Connection
from ..players.session_http import request_token
from ..process import Process, process_of

__all__ = ["NotifyConnection", "notify_socket"]


async def notify_socket(websocket: WebSocket) -> None:
    process = process_of(websocket)
    await process.serve_socket(NotifyConnection(websocket, process))


class NotifyConnection(Connection[NotifyClientFrame, MatchHello]):
    frames = NOTIFY_CLIENT_FRAMES
    hello_model = MatchHello
    error_model = NotifyErrorFrame

    def __init__(self, websocket: WebSocket, process: Process) -> None:
        super().__init__(websocket, process.config, process.config.send_queue, "notify socket")
        self.process = process
        self.opened = False
        self.topic = ""  # every frame of the player's channel but arenas'
        self._early: list[str] | None = None  # frames heard before the welcome went out

    @property
    def role(self) -> str:
        return "pending" if self.player_id is None else "notify"

    async def greet(self, hello: MatchHello) -> bool:
        token = request_token(self.websocket)[0] if hello.session else hello.token
        player = await self.process.players.resolve(token)
        if player is None:
            return self.refuse("unauthorized", "say hello with a live session")
        self.player_id = player.player_id
        bind(player_id=player.player_id)
        friends = self.process.friends
        self._early = []  # (listening before the welcome is read: nothing missed between)
        await self.process.tabs.open(player.player_id, self)
        self.opened = True
        welcome = NotifyWelcome(
            type="welcome",
            player_id=player.player_id,
            name=player.name,
            online=await friends.presence.online_followed(player.player_id),
            unread=await friends.notes.unread(player.player_id),
            challenges=await friends.challenges.of(player.player_id),
        )
        early, self._early = self._early, None
        self.send(welcome)
        for frame in early:  # (after the welcome, which the client starts its state from)
            self.send_text(frame)
        return True

    def offer(self, text: str) -> None:
        """A frame of the player's channel: held until the welcome is sent."""
        if self._early is not None:
            self._early.append(text)
        else:
            self.send_text(text)

    async def handle(self, frame: NotifyClientFrame) -> None:
        if isinstance(frame, MatchPing):
            self.send(MatchPong(type="pong"))
        else:
            self.error("bad_message", "hello comes once, first")

    async def leave(self) -> None:
        if self.opened and self.player_id is not None:
            self.opened = False
            await self.process.tabs.close(self.player_id, self)
