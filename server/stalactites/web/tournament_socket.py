"""The tournament websocket ``/ws/tournaments/{tournament_id}``: hello, then events out.

The first frame is ``hello`` with an entrant's token or ``"spectator": true``;
the answer is ``welcome`` (the tournament view), then tournament events in
seq order and ``standings`` at most once a second.  Clients send nothing
else but ``ping``.  Frames go out through a bounded queue drained by the
connection's own writer: a client too slow to keep up is disconnected (close
1013) and may reconnect with ``last_seq``.  A bad hello gets an ``error`` and
close 1008; bad frames get ``bad_message``, and too many of them close 1008
(all of that is :class:`~stalactites.web.framesocket.FrameSocket`'s).
"""

from __future__ import annotations

from starlette.websockets import WebSocket

from ..logs import bind
from ..tournament_protocol import (
    TOURNAMENT_CLIENT_FRAMES,
    TournamentClientFrame,
    TournamentErrorFrame,
    TournamentHello,
    TournamentPong,
)
from ..tournaments import TournamentError
from .framesocket import FrameSocket
from .runtime import Runtime
from .tournament_host import TournamentHost

__all__ = ["TournamentConnection", "tournament_socket"]


async def tournament_socket(websocket: WebSocket) -> None:
    host: TournamentHost = websocket.state.tournaments
    runtime: Runtime = websocket.state.runtime
    tournament_id = websocket.path_params["tournament_id"]
    bind(tournament_id=tournament_id)
    await runtime.serve_socket(TournamentConnection(websocket, host, tournament_id))


class TournamentConnection(FrameSocket[TournamentClientFrame, TournamentHello]):
    """One client's tournament socket; a feed :class:`~.tournament_feed.Listener` after hello."""

    frames = TOURNAMENT_CLIENT_FRAMES
    hello_model = TournamentHello
    error_model = TournamentErrorFrame

    def __init__(self, websocket: WebSocket, host: TournamentHost, tournament_id: str) -> None:
        label = f"tournament {tournament_id}: a connection"
        super().__init__(websocket, host.config, host.config.send_queue, label)
        self.host = host
        self.tournament_id = tournament_id
        self.you: str | None = None
        self._joined = False
        self._welcomed = False

    @property
    def role(self) -> str:
        return "tournament" if self._welcomed else "pending"

    async def greet(self, hello: TournamentHello) -> bool:
        """Welcome the client and join the tournament's feed."""
        service = self.host.service
        try:
            if hello.token is not None:
                self.you = await service.authenticate(self.tournament_id, hello.token)
                bind(player_id=self.you)
            welcome = await service.welcome(self.tournament_id, self.you, hello.last_seq)
        except TournamentError as error:
            return self.refuse(error.code, error.message)
        self.cursor = welcome.seq
        self._welcomed = True
        self.send(welcome)
        await self.host.feeds.join(self.tournament_id, self)
        self._joined = True
        return True

    async def handle(self, frame: TournamentClientFrame) -> None:
        if isinstance(frame, TournamentHello):
            self.error("bad_message", "hello comes once, first")
        else:
            self.send(TournamentPong(type="pong"))

    async def leave(self) -> None:
        if self._joined:
            await self.host.feeds.leave(self.tournament_id, self)
