"""The matchmaking websocket ``/ws/match``: hello with a session, then queue, then matched.

The first frame is ``hello`` with the player's session (``"session": true`` for the
handshake's cookie, or ``token``); the answer is ``welcome``.  ``queue`` puts the socket's
player in the game's and step's queue (one entry per player, whatever their tabs: each socket
holds a lease on it, renewed by :class:`~stalactites.matchmaking.Matchmaker`) and is answered
with ``queued``, then ``queued`` at most once a second, then ``matched`` with the room and the
seat's token.  ``queued`` says how many others wait and whether a recorded run is there to race
(``ghost_ready``, looked at as the socket queues, and again every 5 s while none): a client
alone with no run to race offers something else meanwhile (a solo race, the daily deal)
instead of promising a ghost.
``leave``, or closing the socket, leaves the queue.  A player waiting in another queue
(another tab) is answered ``already_queued``, one in a quick race not over
``in_quick_race``.  The socket's client address goes into the player's entry (the rated queue
never pairs two of one address).  Frames in and out, bad frames and close codes are
:class:`~stalactites.web.connection.Connection`'s.
"""

from __future__ import annotations

import asyncio
import contextlib

from starlette.websockets import WebSocket

from ...engine import GameName
from ...engine.variants import GAMES
from ...logs import bind
from ...matchmaking.service import rating_of
from ...protocol.match import (
    MATCH_CLIENT_FRAMES,
    LeaveQueue,
    Left,
    MatchClientFrame,
    MatchErrorFrame,
    MatchHello,
    MatchPing,
    MatchPong,
    MatchWelcome,
    Queued,
    QueueFrame,
)
from ...store.players.base import PlayerRecord
from ...store.queue.base import QueueRefused, queue_name
from ..connection import Connection
from ..players.session_http import request_token
from ..process import Process, process_of

__all__ = ["MatchConnection", "match_socket"]

GHOST_LOOK_MS = 5_000  # a queued socket with no run to race looks for one this often


async def match_socket(websocket: WebSocket) -> None:
    process = process_of(websocket)
    await process.serve_socket(MatchConnection(websocket, process))


class MatchConnection(Connection[MatchClientFrame, MatchHello]):
    """One player's matchmaking socket; a :class:`~stalactites.matchmaking.Waiter` while
    queued."""

    frames = MATCH_CLIENT_FRAMES
    hello_model = MatchHello
    error_model = MatchErrorFrame

    def __init__(self, websocket: WebSocket, process: Process) -> None:
        super().__init__(websocket, process.config, process.config.send_queue, "match socket")
        self.process = process
        self.player: PlayerRecord | None = None
        self.queue: QueueFrame | None = None  # what the socket waits for
        self.pool = ""  # who the player races (fair play: bots, marked players apart)
        self.ghost_ready = False  # a recorded run is there to race (looked at when queued...
        self._ghost_looked_ms = 0  # ...and again every GHOST_LOOK_MS while there is none)
        self._looking: asyncio.Task[None] | None = None
        client = websocket.client
        self.address = client.host if client is not None else ""

    @property
    def role(self) -> str:
        return "pending" if self.player is None else "match"

    async def greet(self, hello: MatchHello) -> bool:
        token = request_token(self.websocket)[0] if hello.session else hello.token
        player = await self.process.players.resolve(token)
        if player is None:
            return self.refuse("unauthorized", "say hello with a live session")
        self.player, self.player_id = player, player.player_id
        bind(player_id=player.player_id)
        ratings = {game: rating_of(player, game) for game in sorted(GAMES)}
        self.send(
            MatchWelcome(
                type="welcome", player_id=player.player_id, name=player.name, ratings=ratings
            )
        )
        return True

    async def handle(self, frame: MatchClientFrame) -> None:
        if isinstance(frame, MatchPing):
            self.send(MatchPong(type="pong"))
        elif isinstance(frame, MatchHello):
            self.error("bad_message", "hello comes once, first")
        elif isinstance(frame, QueueFrame):
            await self._queue(frame)
        elif isinstance(frame, LeaveQueue):
            if self.queue is None:
                return self.error("not_queued", "this socket is not queued")
            await self.leave()
            self.send(Left(type="left"))

    async def _queue(self, frame: QueueFrame) -> None:
        maker = self.process.matchmaker
        if frame.ghost and maker.fallback is None:
            return self.error("ghost_unavailable", "this server has no ghost races")
        if self.queue is not None and frame.ghost and _same_queue(self.queue, frame):
            return await self._ghost_instead(frame)
        if self.queue is not None:
            return self.error("already_queued", "this socket is queued already; leave first")
        assert self.player is not None
        self.queue = frame
        self.pool = await self.process.fairplay.pool_of(self.player.player_id)
        self.ghost_ready = not self.pool and await maker.ghost_ready(
            self.player.player_id, frame.game, frame.step
        )
        self._ghost_looked_ms = maker.now()
        try:
            joined = await maker.join(
                self, self.player, frame.game, frame.step, frame.ghost, self.pool
            )
        except QueueRefused as refusal:
            return self.refused(refusal)
        if joined is not None and self.queue is frame:
            waiting = await maker.waiting(frame.game, frame.step, self.pool)
            self.queued(max(maker.now() - joined, 0), waiting)

    async def _ghost_instead(self, frame: QueueFrame) -> None:
        """Queued already: a ghost at once, or (none to race) ``queued`` again, the place and
        the time waited kept."""
        maker = self.process.matchmaker
        try:
            if await maker.ghost_now(self, frame.game, frame.step, self.pool) or self.queue is None:
                return
        except QueueRefused as refusal:
            return self.refused(refusal)
        self.ghost_ready = False  # none could be raced just now
        queue = _queue_of(frame, self.pool)
        status = await maker.store.status(queue, self.player_id or "", maker.now())
        joined = maker.now() if status.joined_ms is None else status.joined_ms
        self.queued(max(maker.now() - joined, 0), status.waiting)

    # A waiter's (the matchmaker calls these).

    def queued(self, waited_ms: int, waiting: int) -> None:
        frame = self.queue
        if frame is None:
            return
        self._look_for_ghost(frame)
        step = (frame.step or "choice") if frame.game == GameName.STALACTITES else None
        self.send(
            Queued(
                type="queued",
                game=frame.game,
                step=step,
                waited_ms=waited_ms,
                waiting=max(waiting, 1),
                others=max(waiting - 1, 0),
                ghost_ready=self.ghost_ready,
            )
        )

    def _look_for_ghost(self, frame: QueueFrame) -> None:
        """While no run is there to race, look again now and then (a race recorded meanwhile
        may have made one): the next ``queued`` frame says so."""
        maker, now = self.process.matchmaker, self.process.matchmaker.now()
        if self.ghost_ready or self._looking is not None or self.player is None or self.pool:
            return
        if now - self._ghost_looked_ms < GHOST_LOOK_MS:
            return
        self._ghost_looked_ms = now
        player_id = self.player.player_id

        async def look() -> None:
            try:
                found = await maker.ghost_ready(player_id, frame.game, frame.step)
                if self.queue is frame:
                    self.ghost_ready = found
            except Exception:  # the next look may do better
                pass
            finally:
                self._looking = None

        self._looking = asyncio.create_task(look())

    def matched(self, frame: str) -> None:
        self.queue = None
        self.send_text(frame)

    def refused(self, refusal: QueueRefused) -> None:
        self.queue = None
        self.error(refusal.code, str(refusal))

    async def leave(self) -> None:
        frame, self.queue = self.queue, None
        if frame is not None:
            with contextlib.suppress(Exception):
                await self.process.matchmaker.leave(self, frame.game, frame.step, self.pool)


def _queue_of(frame: QueueFrame, pool: str = "") -> str:
    step = (frame.step or "choice") if frame.game == GameName.STALACTITES else None
    return queue_name(frame.game, step, pool)


def _same_queue(one: QueueFrame, other: QueueFrame) -> bool:
    return _queue_of(one) == _queue_of(other)
