"""The arena socket ``/ws/arenas/{arena_id}``: an entrant's (hello with their session) or a
spectator's (hello with neither token nor session).

The answer is ``welcome`` (the arena, the entrant's line and their race now, if any); then
``standings`` at most once a second while they change, ``paired`` with each next race's room
and seat token (the client goes there at once: no click between races), and ``ended`` with
the podium once the arena is over.  While an entrant's socket is open they are present: they
are paired, and not paused when a race ends.
"""

from __future__ import annotations

from starlette.websockets import WebSocket

from ...arenas import ArenaError
from ...arenas.state import standings
from ...logs import bind
from ...protocol.arenas import (
    ARENA_CLIENT_FRAMES,
    ArenaClientFrame,
    ArenaErrorFrame,
    ArenaHello,
    ArenaPing,
    ArenaPong,
    ArenaWelcome,
    line_of,
    summary_of,
)
from ..connection import Connection
from ..players.session_http import request_token
from ..process import Process, process_of

__all__ = ["ArenaConnection", "arena_socket"]


async def arena_socket(websocket: WebSocket) -> None:
    process = process_of(websocket)
    arena_id = websocket.path_params["arena_id"]
    await process.serve_socket(ArenaConnection(websocket, process, arena_id))


class ArenaConnection(Connection[ArenaClientFrame, ArenaHello]):
    frames = ARENA_CLIENT_FRAMES
    hello_model = ArenaHello
    error_model = ArenaErrorFrame

    def __init__(self, websocket: WebSocket, process: Process, arena_id: str) -> None:
        super().__init__(websocket, process.config, process.config.send_queue, "arena socket")
        self.process, self.arena_id = process, arena_id
        self.topic = f"arena:{arena_id}"
        self.joined = False

    @property
    def role(self) -> str:
        return "arena"

    async def greet(self, hello: ArenaHello) -> bool:
        try:
            arena = await self.process.arenas.load(self.arena_id)
        except ArenaError as error:
            return self.refuse(error.code, error.message)
        you = room_id = token = None
        if hello.session or hello.token is not None:
            session = request_token(self.websocket)[0] if hello.session else hello.token
            player = await self.process.players.resolve(session)
            if player is None:
                return self.refuse("unauthorized", "say hello with a live session")
            self.player_id = player.player_id
            bind(player_id=player.player_id)
            entrant = arena.entrants.get(player.player_id)
            if entrant is not None:
                ranks = {e.player_id: rank for rank, e in enumerate(standings(arena), 1)}
                you = line_of(entrant, ranks[player.player_id])
                if entrant.room_id is not None and not entrant.room_id.startswith("pending:"):
                    room_id, token = entrant.room_id, entrant.token
            await self.process.tabs.open(player.player_id, self, presence=False)
        await self.process.arena_feeds.add(self.arena_id, self)
        self.joined = True
        now = self.process.clock.now_ms()
        self.send(
            ArenaWelcome(
                type="welcome",
                arena=summary_of(arena, now),
                you=you,
                room_id=room_id,
                token=token,
            )
        )
        await self.process.arena_feeds.tell(arena, {self})
        if self.player_id is not None:
            await self.process.arenas.pair_now(self.arena_id)
        return True

    def offer(self, text: str) -> None:
        """A frame of the player's channel for this arena (a pairing)."""
        self.send_text(text)

    async def handle(self, frame: ArenaClientFrame) -> None:
        if isinstance(frame, ArenaPing):
            self.send(ArenaPong(type="pong"))
        else:
            self.error("bad_message", "hello comes once, first")

    async def leave(self) -> None:
        if not self.joined:
            return
        self.joined = False
        await self.process.arena_feeds.remove(self.arena_id, self)
        if self.player_id is not None:
            await self.process.tabs.close(self.player_id, self)
