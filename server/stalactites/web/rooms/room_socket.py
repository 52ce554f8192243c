"""The room websocket ``/ws/rooms/{room_id}``: hello, then frames in, frames out.

Frames in and out, the send queue, bad frames, the hello's wait and the
close codes are :class:`~stalactites.web.connection.Connection`'s; a
player's frames are judged by the rooms service and the engine, and moves are
rate limited per connection and per client address (all of an address's
connections to this process share one allowance).  A connection that keeps on
after ``rate_limited`` (``flood_refusals`` refusals within ``flood_window_s``)
gets a last ``rate_limited`` error and close 1008.

A spectator (hello with ``"spectator": true``) gets room events like a player,
plus the ``board`` frames of the room's
:class:`~stalactites.live.rooms.spectator_boards.SpectatorBoards`;
anything but ``ping`` from it is refused with ``unauthorized``.  One address holds at
most ``address_spectators`` spectator sockets to a process (beyond: ``rate_limited`` and
close 1008), and a spectator that sends nothing, not even ``ping``, for
``spectator_idle_s`` gets ``idle`` and close 4408.

A player's other sockets (the same token) stay in step through ``synced`` frames
(:mod:`...live.rooms.own_sync`).

In a quick race (:mod:`stalactites.matchmaking`) a seat is ready as soon as it is connected.

In a large room (a tournament round) ``progress`` events go out batched, at
most a few a second per connection (:mod:`...live.rooms.progress_batch`).
"""

from __future__ import annotations

import contextlib
import secrets
import time

from starlette.websockets import WebSocket

from ... import room_events
from ...live.rooms.own_sync import OwnSync
from ...live.rooms.progress_batch import ProgressBatch, is_progress
from ...live.rooms.room_stream import RoomStream
from ...live.rooms.spectator_boards import SpectatorBoards
from ...logs import bind
from ...players.sessions import parse_token
from ...protocol.room import (
    CLIENT_FRAMES,
    ClientFrame,
    DeclareStep,
    ErrorFrame,
    Hello,
    MoveFrame,
    Ping,
    Pong,
    Ready,
    Rejected,
    Resign,
    Undo,
)
from ...rooms import RoomError
from ...rooms.wire import AcceptedText
from ..connection import Connection
from ..limits import Flood, TokenBucket
from ..players.session_http import request_token
from ..process import Process, process_of

__all__ = ["RoomConnection", "room_socket"]

BOARDS_READY_S = 10.0
WATCHING = "spectators watch the race; they cannot play"
GONE = "this room is gone (the store lost it); go back to the lobby"


async def room_socket(websocket: WebSocket) -> None:
    process = process_of(websocket)
    room_id = websocket.path_params["room_id"]
    await process.serve_socket(RoomConnection(websocket, process, room_id))


class RoomConnection(Connection[ClientFrame, Hello]):
    """One client's room socket; a :class:`~stalactites.live.fanout.Subscriber` of the room's
    stream once it said hello."""

    frames = CLIENT_FRAMES
    hello_model = Hello
    error_model = ErrorFrame

    def __init__(self, websocket: WebSocket, process: Process, room_id: str) -> None:
        config = process.config
        connection_id = secrets.token_hex(6)
        bind(room_id=room_id, connection_id=connection_id)
        queue = max(config.send_queue, 4)
        label = f"room {room_id}: connection {connection_id}"
        super().__init__(websocket, config, queue, label, connection_id)
        self.process = process
        self.room_id = room_id
        self.spectator = False
        self._counted = False  # counted in its address's spectator sockets
        self.boards: SpectatorBoards | None = None
        self._headroom = max(2, queue // 8)  # kept for the client's own answers
        self._bucket = TokenBucket(config.move_rate, config.move_burst)
        self._flood = Flood(config.flood_refusals, config.flood_window_s)
        client = websocket.client
        self.address = client.host if client is not None else "unknown"
        self._behind_since: float | None = None  # behind at every stall check since then
        self.stream: RoomStream | None = None
        self._batch: ProgressBatch | None = None  # large rooms: progress goes out batched
        self._sync: OwnSync | None = None  # a player's: in step with their other sockets
        self._held: list[str] | None = None  # events that come while an action is in hand

    @property
    def role(self) -> str:
        if self.spectator:
            return "spectator"
        return "pending" if self.player_id is None else "player"

    # Sending.

    def room_for_events(self) -> int:
        """Room events leave the last places of the queue to the client's own answers."""
        return self._outbox.maxsize - self._headroom - self._outbox.qsize()

    def deliver(self, seq: int, frame: str) -> None:
        if self._sync is not None:
            self._sync.offer(frame)
        if self._batch is not None:
            if is_progress(frame):
                return self._batch.hold(seq, frame)
            self._batch.flush()  # the progress before this event goes out before it
        elif self._held is not None:
            return self._held.append(frame)
        self.send_text(frame)

    def lost_track(self) -> None:
        self.kick()

    def stalled(self, now: float, limit_s: float) -> bool:
        """Whether one send has waited longer than ``limit_s``, or room events have waited for
        room in the queue at every check for longer than that: a client that reads only a
        trickle (the kernel taking a few bytes now and then) never keeps one send waiting,
        but never catches up either."""
        if not self.behind:
            self._behind_since = None
        elif self._behind_since is None:
            self._behind_since = now
        trickle = self._behind_since is not None and now - self._behind_since > limit_s
        return trickle or super().stalled(now, limit_s)

    def sent(self) -> None:
        if self.behind and self.stream is not None:
            self.stream.wake()

    # The connection's life.

    async def leave(self) -> None:
        if self._sync is not None:
            self._sync.close()
        if self._batch is not None:
            self._batch.close()
        if self.spectator:
            await self._stop_watching()
        if self.player_id is None:
            return
        await self.process.room_fanout.leave(self.room_id, self)
        with contextlib.suppress(Exception):
            await self.process.store.drop_presence(self.room_id, self.player_id, self.connection_id)
            await self._announce_presence()

    async def greet(self, hello: Hello) -> bool:
        """Welcome the player (or spectator) and join the room's stream."""
        if hello.token is None and not hello.session:
            return await self._watch_hello(hello.last_seq)
        try:
            self.player_id = await self._seat(hello)
            bind(player_id=self.player_id)
            welcome = await self.process.rooms.welcome(self.room_id, self.player_id, hello.last_seq)
        except RoomError as error:
            self.player_id = None
            return self.refuse(error.code, error.message)
        self.cursor = welcome.seq
        self.send(welcome)
        self._sync = OwnSync(self.process.play, self.room_id, self.player_id, self.send)
        await self._batch_if_large()
        self.stream = await self.process.room_fanout.join(self.room_id, self)
        await self.touch()
        await self._announce_presence()
        with contextlib.suppress(Exception):  # (friends' presence: never keeps a racer out)
            await self.process.racer_arrived(self.room_id, self.player_id)
        if (await self.process.rooms.settings(self.room_id)).quick:  # connected is ready
            with contextlib.suppress(RoomError):
                await self.process.rooms.ready(self.room_id, self.player_id)
        return True

    async def _seat(self, hello: Hello) -> str:
        """The seat a hello names: by the room's token, or by the player's session."""
        token = hello.token
        if hello.session or parse_token(token) is not None:
            if hello.session:
                token = request_token(self.websocket)[0]
            player = await self.process.players.resolve(token)
            row = await self.process.rooms.current(self.room_id)
            if player is None or all(p.player_id != player.player_id for p in row.players):
                raise RoomError("unauthorized", "this session has no seat in this room")
            return player.player_id
        assert token is not None
        return await self.process.rooms.authenticate(self.room_id, token)

    async def _watch_hello(self, last_seq: int | None) -> bool:
        """Welcome a spectator: every board as spectators see it now, then events and boards."""
        rooms = self.process.rooms
        try:
            settings = await rooms.settings(self.room_id)
        except RoomError as error:
            return self.refuse(error.code, error.message)
        if settings.deal_withheld(rooms.now()):
            return self.refuse("unauthorized", "a daily deal's attempts are not watched that day")
        if not self.process.limits.spectators.take(self.address):
            return self.refuse("rate_limited", "too many spectator sockets from your address")
        self._counted = True
        self.spectator = True
        if self.config.spectator_idle_s > 0:
            self.idle_s = self.config.spectator_idle_s
        hooks = (await self.process.room_fanout.open(self.room_id)).hooks
        if hooks.boards is None:
            hooks.boards = SpectatorBoards(self.room_id, rooms, self.process.alarms)
        boards = self.boards = hooks.boards
        await self.process.spectator_count.arrive(self.room_id, self.connection_id)
        await boards.ready(BOARDS_READY_S)
        welcome = await rooms.spectator_welcome(
            self.room_id, last_seq, lambda row: boards.admit(self, row)
        )
        self.cursor = welcome.seq
        self.send(welcome)
        await self._batch_if_large()
        self.stream = await self.process.room_fanout.join(self.room_id, self)
        return True

    async def _batch_if_large(self) -> None:
        if (await self.process.rooms.settings(self.room_id)).large:
            self._batch = ProgressBatch(self.send_text)

    async def _stop_watching(self) -> None:
        if self._counted:
            self.process.limits.spectators.give_back(self.address)
            self._counted = False
        await self.process.room_fanout.leave(self.room_id, self)
        if self.boards is not None:
            self.boards.leave(self)
        with contextlib.suppress(Exception):
            await self.process.spectator_count.depart(self.room_id, self.connection_id)

    async def touch(self) -> None:
        """Count this player connected for one presence lease."""
        assert self.player_id is not None
        until = self.process.clock.now_ms() + int(self.process.config.presence_ttl_s * 1000)
        await self.process.store.touch_presence(
            self.room_id, self.player_id, self.connection_id, until
        )

    async def _announce_presence(self) -> None:
        """Tell the room when this player's first socket came or their last one went."""
        assert self.player_id is not None
        events = room_events.presence_events(self.player_id)
        now = self.process.clock.now_ms()
        await self.process.store.announce_presence(self.room_id, self.player_id, now, events)

    async def handle(self, frame: ClientFrame) -> None:
        if self.spectator:
            return self._spectator_frame(frame)
        assert self.player_id is not None
        rooms, room_id, player_id = self.process.rooms, self.room_id, self.player_id
        try:
            if isinstance(frame, Ping):
                self.send(Pong(type="pong"))
            elif isinstance(frame, Hello):
                self.error("bad_message", "hello comes once, first")
            elif isinstance(frame, Ready):
                await rooms.ready(room_id, player_id)
            elif isinstance(frame, Resign):
                await self.process.play.resign(room_id, player_id)
            elif not self._may_move():
                self._rate_limited(frame.id)
            else:
                self._held = []  # its own progress comes from its commit: after its answer
                try:
                    self._answer(await self._act(frame))
                finally:
                    held, self._held = self._held, None
                    for event in held:
                        self.send_text(event)
        except RoomError as error:
            if error.code == "room_not_found":
                return self.end("room_gone", GONE)
            self.error(error.code, error.message)

    def _answer(self, answer: AcceptedText | Rejected) -> None:
        """Send the answer to an action; a room gone since the hello ends the socket."""
        if isinstance(answer, AcceptedText):
            return self.send_text(answer.text)
        if answer.code == "room_not_found":
            self.send(Rejected(type="rejected", id=answer.id, code="room_gone", message=GONE))
            return self.end("room_gone", GONE)
        self.send(answer)

    def _may_move(self) -> bool:
        """The connection's allowance, then its address's."""
        return self._bucket.take() and self.process.limits.moves.take(self.address)

    def _rate_limited(self, frame_id: str | None) -> None:
        self.process.metrics.refused("rate_limited")
        if self._flood.refused():
            return self.end("rate_limited", "too many moves after rate_limited; closing")
        self.send(Rejected(type="rejected", id=frame_id, code="rate_limited", message="slow down"))

    async def _act(self, frame: MoveFrame | Undo | DeclareStep) -> AcceptedText | Rejected:
        """The player's action judged and committed, counted in the metrics."""
        assert self.player_id is not None
        started, sync = time.perf_counter(), self._sync
        if sync is not None:
            sync.acting()
        answer: AcceptedText | Rejected | None = None
        try:
            answer = await self.process.play.act(self.room_id, self.player_id, frame)
        except RoomError as error:  # every answer to an action carries its id
            answer = Rejected(type="rejected", id=frame.id, code=error.code, message=error.message)
        finally:  # before the lock's next holder runs: an accepted action's progress is ours
            if sync is not None:
                sync.acted(isinstance(answer, AcceptedText))
        code = answer.code if isinstance(answer, Rejected) else None
        self.process.metrics.answered(answer.type, code, time.perf_counter() - started)
        return answer

    def _spectator_frame(self, frame: ClientFrame) -> None:
        if isinstance(frame, Ping):
            self.send(Pong(type="pong"))
        elif isinstance(frame, Hello):
            self.error("bad_message", "hello comes once, first")
        elif isinstance(frame, MoveFrame | Undo | DeclareStep):
            self.send(Rejected(type="rejected", id=frame.id, code="unauthorized", message=WATCHING))
        else:
            self.error("unauthorized", WATCHING)
