"""The tournament websocket ``/ws/tournaments/{tournament_id}``: hello, then events out.

The first frame is ``hello`` with an entrant's token or ``"spectator": true``;
the answer is ``welcome`` (the tournament view), then tournament events in
seq order and ``standings`` at most once a second.  Clients send nothing
else but ``ping``.  Frames go out through a bounded queue drained by the
connection's own writer: a client too slow to keep up is disconnected (close
1013) and may reconnect with ``last_seq``.  A bad hello gets an ``error`` and
close 1008; bad frames get ``bad_message``, and too many of them close 1008
(all of that is :class:`~stalactites.web.connection.Connection`'s).
"""

from __future__ import annotations

from starlette.websockets import WebSocket

from ...logs import bind
from ...protocol.tournament import (
    TOURNAMENT_CLIENT_FRAMES,
    TournamentClientFrame,
    TournamentErrorFrame,
    TournamentHello,
    TournamentPong,
)
from ...tournaments import TournamentError
from ..connection import Connection
from ..process import Process, process_of

__all__ = ["TournamentConnection", "tournament_socket"]


async def tournament_socket(websocket: WebSocket) -> None:
    process = process_of(websocket)
    tournament_id = websocket.path_params["tournament_id"]
    bind(tournament_id=tournament_id)
    await process.serve_socket(TournamentConnection(websocket, process, tournament_id))


class TournamentConnection(Connection[TournamentClientFrame, TournamentHello]):
    """One client's tournament socket; a :class:`~stalactites.live.fanout.Subscriber` of the
    tournament's stream once it said hello."""

    frames = TOURNAMENT_CLIENT_FRAMES
    hello_model = TournamentHello
    error_model = TournamentErrorFrame

    def __init__(self, websocket: WebSocket, process: Process, tournament_id: str) -> None:
        label = f"tournament {tournament_id}: a connection"
        super().__init__(websocket, process.config, process.config.send_queue, label)
        self.process = process
        self.tournament_id = tournament_id
        self._joined = False
        self._welcomed = False

    @property
    def role(self) -> str:
        return "tournament" if self._welcomed else "pending"

    async def greet(self, hello: TournamentHello) -> bool:
        """Welcome the client and join the tournament's stream."""
        service = self.process.tournaments
        try:
            if hello.token is not None:
                self.player_id = await service.authenticate(self.tournament_id, hello.token)
                bind(player_id=self.player_id)
            welcome = await service.welcome(self.tournament_id, self.player_id, hello.last_seq)
        except TournamentError as error:
            return self.refuse(error.code, error.message)
        self.cursor = welcome.seq
        self._welcomed = True
        self.send(welcome)
        await self.process.tournament_fanout.join(self.tournament_id, self)
        self._joined = True
        return True

    async def handle(self, frame: TournamentClientFrame) -> None:
        if isinstance(frame, TournamentHello):
            self.error("bad_message", "hello comes once, first")
        else:
            self.send(TournamentPong(type="pong"))

    async def leave(self) -> None:
        if self._joined:
            await self.process.tournament_fanout.leave(self.tournament_id, self)
