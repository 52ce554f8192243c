"""The room websocket ``/ws/rooms/{room_id}``: hello, then frames in, frames out.

Each connection reads its frames in order and sends through a bounded queue
drained by its own writer task: a client too slow to keep up overflows its
queue and is disconnected (close 1013; it may reconnect with ``last_seq``),
and nothing it does slows anyone else.  Bad frames get ``bad_message`` and
the connection survives ``max_bad_frames`` of them; a bad hello closes 1008;
an unexpected failure sends ``internal`` and closes 1011.

A spectator (hello with ``"spectator": true``) gets room events like a player,
plus the ``board`` frames of the room's :class:`~stalactites.web.watch.Watch`;
anything but ``ping`` from it is refused with ``unauthorized``.

In a large room (a tournament round) ``progress`` events go out batched, at
most a few a second per connection (:mod:`.progress_batch`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import MutableMapping
from typing import Any

from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocket

from ..protocol import (
    CLIENT_FRAMES,
    ClientFrame,
    DeclareStep,
    ErrorCode,
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
from ..rooms import RoomError
from .hub import Hub
from .limits import TokenBucket
from .progress_batch import ProgressBatch, is_progress
from .runtime import Runtime
from .watch import Watch

__all__ = ["Connection", "room_socket"]

log = logging.getLogger(__name__)

CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008
CLOSE_INTERNAL = 1011
CLOSE_TOO_SLOW = 1013
CLOSE_WAIT_S = 2.0
WATCH_READY_S = 10.0
WATCHING = "spectators watch the race; they cannot play"


async def room_socket(websocket: WebSocket) -> None:
    runtime: Runtime = websocket.state.runtime
    await Connection(websocket, runtime, websocket.path_params["room_id"]).serve()


class Connection:
    """One client's socket; a :class:`~stalactites.web.hub.Subscriber` once it said hello."""

    def __init__(self, websocket: WebSocket, runtime: Runtime, room_id: str) -> None:
        config = runtime.config
        self.websocket = websocket
        self.runtime = runtime
        self.room_id = room_id
        self.connection_id = secrets.token_hex(6)
        self.player_id: str | None = None
        self.spectator = False
        self.watch: Watch | None = None
        self.cursor = 0
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue(maxsize=max(config.send_queue, 4))
        self._headroom = max(2, self._outbox.maxsize // 8)  # kept for the client's own answers
        self._bucket = TokenBucket(config.move_rate, config.move_burst)
        self._bad_frames = 0
        self._close_code = CLOSE_NORMAL
        self._kicked = False
        self._reader: asyncio.Task[None] | None = None
        self._sending_since: float | None = None
        self.behind = False
        self.hub: Hub | None = None
        self._batch: ProgressBatch | None = None  # large rooms: progress goes out batched

    # Sending.

    def send(self, frame: BaseModel) -> None:
        self.send_text(frame.model_dump_json())

    def send_text(self, text: str) -> None:
        if self._kicked:
            return
        try:
            self._outbox.put_nowait(text)
        except asyncio.QueueFull:
            log.info("room %s: connection %s too slow, closing", self.room_id, self.connection_id)
            self.kick()

    def error(self, code: ErrorCode, message: str) -> None:
        self.send(ErrorFrame(type="error", code=code, message=message))

    def room_for_events(self) -> int:
        """Room events leave the last places of the queue to the client's own answers."""
        return self._outbox.maxsize - self._headroom - self._outbox.qsize()

    def deliver(self, seq: int, frame: str) -> None:
        if self._batch is not None:
            if is_progress(frame):
                return self._batch.hold(seq, frame)
            self._batch.flush()  # the progress before this event goes out before it
        self.send_text(frame)

    def stalled(self, now: float, limit_s: float) -> bool:
        """Whether one send has waited longer than ``limit_s`` (the client is not reading)."""
        return self._sending_since is not None and now - self._sending_since > limit_s

    def lost_track(self) -> None:
        self.kick()

    def kick(self) -> None:
        """Disconnect now (the client may reconnect and resync)."""
        self._kicked = True
        if self._reader is not None:
            self._reader.cancel()

    async def _write(self) -> None:
        while (text := await self._outbox.get()) is not None:
            self._sending_since = time.monotonic()
            await self.websocket.send_text(text)
            self._sending_since = None
            if self.behind and self.hub is not None:
                self.hub.wake()

    # The connection's life.

    async def serve(self) -> None:
        await self.websocket.accept()
        writer = asyncio.create_task(self._write())
        self._reader = asyncio.create_task(self._session())
        try:
            await asyncio.wait({self._reader})
        finally:
            self._reader.cancel()
            if self._batch is not None:
                self._batch.close()
            await self._leave()
            await self._close(writer)

    async def _session(self) -> None:
        try:
            if await self._hello():
                while (frame := await self._next_frame()) is not None:
                    await self._handle(frame)
                    await asyncio.sleep(0)  # let hubs and writers run between frames
        except Exception:
            log.exception("room %s: connection %s failed", self.room_id, self.connection_id)
            self.error("internal", "the server failed; reconnect to carry on")
            self._close_code = CLOSE_INTERNAL

    async def _leave(self) -> None:
        if self.spectator:
            await self._stop_watching()
        if self.player_id is None:
            return
        self.runtime.hubs.leave(self.room_id, self)
        with contextlib.suppress(Exception):
            await self.runtime.store.drop_presence(self.room_id, self.player_id, self.connection_id)

    async def _close(self, writer: asyncio.Task[None]) -> None:
        code = CLOSE_TOO_SLOW if self._kicked else self._close_code
        if self._kicked or self._outbox.full():
            writer.cancel()
        else:
            self._outbox.put_nowait(None)  # the writer sends what is queued, then stops
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(writer, CLOSE_WAIT_S)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code), CLOSE_WAIT_S)

    # Receiving.

    async def _next_frame(self) -> ClientFrame | None:
        """The next well-formed frame; None once the client is gone or sent too many bad ones."""
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return None
            frame = self._parse(message)
            if frame is not None:
                return frame
            if self._bad_frames > self.runtime.config.max_bad_frames:
                self._close_code = CLOSE_POLICY
                return None

    def _parse(self, message: MutableMapping[str, Any]) -> ClientFrame | None:
        text = message.get("text")
        limit = self.runtime.config.max_frame_bytes
        if text is None:
            return self._bad("binary frames are not part of the protocol")
        if len(text) > limit or len(text.encode()) > limit:
            return self._bad(f"a frame is at most {limit} bytes")
        try:
            return CLIENT_FRAMES.validate_json(text)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            return self._bad(f"{where}: {first['msg']}" if where else first["msg"])

    def _bad(self, message: str) -> ClientFrame | None:
        """Count a bad frame and answer it; no frame to handle."""
        self._bad_frames += 1
        self.error("bad_message", message)
        return None

    async def _hello(self) -> bool:
        """Wait for hello; on success, welcome the player and join the room's hub."""
        timeout = self.runtime.config.hello_timeout_s
        try:
            frame = await asyncio.wait_for(self._next_frame(), timeout)
        except TimeoutError:
            return self._refuse("unauthorized", f"no hello within {timeout:g} s")
        if frame is None:
            return False
        if not isinstance(frame, Hello):
            return self._refuse("unauthorized", "the first frame must be hello")
        if frame.token is None:
            return await self._watch_hello(frame.last_seq)
        try:
            self.player_id = await self.runtime.rooms.authenticate(self.room_id, frame.token)
            welcome = await self.runtime.rooms.welcome(self.room_id, self.player_id, frame.last_seq)
        except RoomError as error:
            self.player_id = None
            return self._refuse(error.code, error.message)
        self.cursor = welcome.seq
        self.send(welcome)
        await self._batch_if_large()
        self.hub = await self.runtime.hubs.join(self.room_id, self)
        await self.touch()
        return True

    async def _watch_hello(self, last_seq: int | None) -> bool:
        """Welcome a spectator: every board as spectators see it now, then events and boards."""
        rooms = self.runtime.rooms
        try:
            await rooms.settings(self.room_id)
        except RoomError as error:
            return self._refuse(error.code, error.message)
        self.spectator = True
        hub = await self.runtime.hubs.open(self.room_id)
        if hub.watch is None:
            hub.watch = Watch(self.room_id, rooms)
        watch = self.watch = hub.watch
        await self.runtime.audience.arrive(self.room_id, self.connection_id)
        await watch.ready(WATCH_READY_S)
        welcome = await rooms.spectator_welcome(
            self.room_id, last_seq, lambda row: watch.admit(self, row)
        )
        self.cursor = welcome.seq
        self.send(welcome)
        await self._batch_if_large()
        self.hub = await self.runtime.hubs.join(self.room_id, self)
        return True

    async def _batch_if_large(self) -> None:
        if (await self.runtime.rooms.settings(self.room_id)).large:
            self._batch = ProgressBatch(self.send_text)

    async def _stop_watching(self) -> None:
        self.runtime.hubs.leave(self.room_id, self)
        if self.watch is not None:
            self.watch.leave(self)
        with contextlib.suppress(Exception):
            await self.runtime.audience.depart(self.room_id, self.connection_id)

    def _refuse(self, code: ErrorCode, message: str) -> bool:
        self.error(code, message)
        self._close_code = CLOSE_POLICY
        return False

    async def touch(self) -> None:
        """Count this player connected for one presence lease."""
        assert self.player_id is not None
        until = self.runtime.clock.now_ms() + int(self.runtime.config.presence_ttl_s * 1000)
        await self.runtime.store.touch_presence(
            self.room_id, self.player_id, self.connection_id, until
        )

    async def _handle(self, frame: ClientFrame) -> None:
        if self.spectator:
            return self._spectator_frame(frame)
        assert self.player_id is not None
        rooms, room_id, player_id = self.runtime.rooms, self.room_id, self.player_id
        try:
            if isinstance(frame, Ping):
                self.send(Pong(type="pong"))
            elif isinstance(frame, Hello):
                self.error("bad_message", "hello comes once, first")
            elif isinstance(frame, Ready):
                await rooms.ready(room_id, player_id)
            elif isinstance(frame, Resign):
                await self.runtime.play.resign(room_id, player_id)
            elif not self._bucket.take():
                self.send(
                    Rejected(type="rejected", id=frame.id, code="rate_limited", message="slow down")
                )
            else:
                self.send(await self.runtime.play.act(room_id, player_id, frame))
        except RoomError as error:
            self.error(error.code, error.message)

    def _spectator_frame(self, frame: ClientFrame) -> None:
        if isinstance(frame, Ping):
            self.send(Pong(type="pong"))
        elif isinstance(frame, Hello):
            self.error("bad_message", "hello comes once, first")
        elif isinstance(frame, MoveFrame | Undo | DeclareStep):
            self.send(Rejected(type="rejected", id=frame.id, code="unauthorized", message=WATCHING))
        else:
            self.error("unauthorized", WATCHING)
