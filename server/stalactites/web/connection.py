"""What the room and tournament websockets share: frames in, frames out, a connection's life.

A :class:`Connection` accepts the socket, reads the client's frames in order
and sends at once where the socket may be written to now, else through a
bounded queue (its :class:`Outbox`) drained by a writer task that runs only
while frames wait: a client too slow to keep up overflows its queue and is
disconnected (close 1013; it may reconnect with ``last_seq``), and nothing it
does slows anyone else.
Bad frames (over the size cap, binary, malformed, of an unknown type or with
wrong fields) get ``bad_message`` and the connection survives
``max_bad_frames`` of them; no hello within ``hello_timeout_s``, or anything
but hello first, gets ``unauthorized`` and close 1008; an unexpected failure
sends ``internal`` and closes 1011.  A handshake from a web page whose Origin
is not allowed (:mod:`.origin`) is refused before it is accepted (HTTP 403).
A client sending frames of any kind faster than ``frame_rate`` (after a burst
of ``frame_burst``) gets ``rate_limited`` and close 1008.

A subclass says hello (:meth:`Connection.greet`), handles the frames after
it (:meth:`Connection.handle`) and leaves (:meth:`Connection.leave`).  Once it has said hello
it is a :class:`~stalactites.live.fanout.Subscriber` of its room's or tournament's stream.

An idle connection is kept small (thousands are held at once, see ``bench/scale.py``): its
frames are read in the task uvicorn runs the app in (no task of its own), the writer task
exists only while there is something to send, the queue is a plain list, an idle deadline is
a timer rather than a task, and the class has ``__slots__``.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import secrets
import sys
import time
from collections.abc import MutableMapping
from typing import Any, Generic, TypeVar, cast

from pydantic import BaseModel, TypeAdapter, ValidationError
from starlette.websockets import WebSocket

from ..config import ServerConfig
from .invalid import describe
from .limits import TokenBucket
from .origin import origins
from .transport import SEND_NOW

__all__ = [
    "CLOSE_IDLE",
    "CLOSE_INTERNAL",
    "CLOSE_NORMAL",
    "CLOSE_POLICY",
    "CLOSE_RESTART",
    "CLOSE_TOO_SLOW",
    "UNLIMITED",
    "Connection",
    "ConnectionState",
    "Outbox",
]

log = logging.getLogger(__name__)

CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008
CLOSE_INTERNAL = 1011
CLOSE_RESTART = 1012  # the server is restarting: reconnect (elsewhere) at once
CLOSE_TOO_SLOW = 1013
CLOSE_IDLE = 4408  # the client sent nothing, not even ping, for too long
CLOSE_WAIT_S = 2.0
UNLIMITED = sys.maxsize  # events a send queue takes unless a subclass says (overflow: kicked)

FrameT = TypeVar("FrameT")  # the protocol's client frames (a union of models)
HelloT = TypeVar("HelloT", bound=BaseModel)


class Outbox:
    """Frames waiting to be sent, at most ``maxsize`` (0: no limit).  A list, not an
    ``asyncio.Queue`` (three deques and an event, for every connection): it is empty nearly
    always."""

    __slots__ = ("_frames", "maxsize")

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._frames: list[str] = []

    def qsize(self) -> int:
        return len(self._frames)

    def full(self) -> bool:
        return 0 < self.maxsize <= len(self._frames)

    def put(self, text: str) -> bool:
        """Queue one frame; False (and nothing queued) when full."""
        if self.full():
            return False
        self._frames.append(text)
        return True

    def take(self) -> str | None:
        """The oldest frame, taken off the queue; None when it is empty."""
        return self._frames.pop(0) if self._frames else None

    def frames(self) -> list[str]:
        """What waits, oldest first (a copy)."""
        return self._frames[:]

    def clear(self) -> None:
        self._frames.clear()


class ConnectionState(enum.IntEnum):
    """Where a connection's session is: open, or why it stops reading and how it closes.

    It only moves forward (a later state outranks an earlier one): a kicked connection
    stays kicked whatever comes after.
    """

    OPEN = 0  # reading and answering frames
    ENDING = 1  # a last error is queued: read no more, close with its code (see end())
    RESTARTING = 2  # the server restarts: close 1012 once the frame in hand is answered
    KICKED = 3  # too slow or lost track: send nothing more, close 1013


CLOSE_CODES = {ConnectionState.KICKED: CLOSE_TOO_SLOW, ConnectionState.RESTARTING: CLOSE_RESTART}


class Connection(Generic[FrameT, HelloT]):
    """One client's socket: parse ``FrameT`` frames, expect ``HelloT`` first.  ``error_model``
    is the protocol's error frame (``type``, ``code``, ``message``)."""

    frames: TypeAdapter[FrameT]
    hello_model: type[HelloT]
    error_model: type[BaseModel]

    __slots__ = (
        "_bad_frames",
        "_busy",
        "_close_code",
        "_closing",
        "_corked",
        "_cut",
        "_frame_allowance",
        "_outbox",
        "_reader",
        "_sending_since",
        "_state",
        "_writer",
        "behind",
        "config",
        "connection_id",
        "cursor",
        "idle_s",
        "label",
        "player_id",
        "websocket",
    )

    def __init__(
        self,
        websocket: WebSocket,
        config: ServerConfig,
        queue: int,
        label: str,
        connection_id: str | None = None,
    ) -> None:
        self.websocket = websocket
        self.config = config
        self.label = label  # what the log calls the connection
        self.connection_id = connection_id or secrets.token_hex(6)
        self.player_id: str | None = None  # the player's (or entrant's) once the hello says
        self.cursor = 0  # the last event seq handed over
        self.behind = False  # events after the cursor wait for room in the send queue
        self._outbox = Outbox(queue)
        self._bad_frames = 0
        self._frame_allowance = TokenBucket(config.frame_rate, config.frame_burst)
        self._close_code = CLOSE_NORMAL
        self._state = ConnectionState.OPEN
        # The flags below are independent of the state and of one another, so they stay flags.
        self._busy = False  # a frame is being handled (a move may be committing)
        self._reader: asyncio.Task[None] | None = None  # the task reading frames (uvicorn's)
        self._cut = False  # the reader has been cancelled, once (by kick or restart)
        self._writer: asyncio.Task[None] | None = None  # while frames wait to be sent
        self._closing = False  # no writer starts any more: the client is gone, or see _close
        self._corked = False  # frames held until uncork() (see cork)
        self._sending_since: float | None = None
        self.idle_s: float | None = None  # set: a client silent this long is closed (4408)

    @property
    def role(self) -> str:
        """What the connection is, for the metrics; ``pending`` until its hello is answered."""
        return "pending"

    # What a subclass does.

    async def greet(self, hello: HelloT) -> bool:
        """Answer the hello (refusing it closes the socket); True to go on to other frames."""
        raise NotImplementedError

    async def handle(self, frame: FrameT) -> None:
        """Answer one frame after the hello."""
        raise NotImplementedError

    async def leave(self) -> None:
        """Undo what the hello joined (the socket is closing)."""

    def sent(self) -> None:
        """One frame has gone out (the writer calls it)."""

    # Sending.

    def send(self, frame: BaseModel) -> None:
        self.send_text(frame.model_dump_json())

    def send_text(self, text: str) -> None:
        if self._state is ConnectionState.KICKED:
            return
        if not self._outbox.put(text):
            log.info("%s: too slow, closing", self.label)
            self.kick()
            return
        self._pump()

    def cork(self) -> None:
        """Hold what is sent from now until :meth:`uncork`, which sends it in one write where
        the socket may be written to then: a commit's events and the board its action shows a
        spectator go out together (one system call, one read for the client)."""
        self._corked = True

    def uncork(self) -> None:
        self._corked = False
        self._pump()

    def _pump(self) -> None:
        """The one place that decides when queued frames go out, always in the order queued.

        Nothing goes while the connection is kicked or closed, while a writer task is sending
        (it takes what is queued behind it), while corked (see :meth:`cork`), or while the
        reader is handling a frame (it pumps once the frame is handled, so a racer's answer and
        its own progress leave together and take no writer task's turn).  Otherwise everything
        queued goes in one write if the socket may be written to now, else a writer task sends
        it: the reader never waits on a client that does not read, so such a client overflows
        its queue with the answers to what it goes on sending and is disconnected.
        """
        if (
            self._writer is not None
            or self._closing
            or self._corked
            or self._state is ConnectionState.KICKED
            or not self._outbox.qsize()
            or (self._busy and asyncio.current_task() is self._reader)
        ):
            return
        if not self._send_queued_now():
            self._writer = asyncio.create_task(self._write())

    def room_for_events(self) -> int:
        """How many more events the send queue takes now: any number (one that overflows it
        disconnects the client)."""
        return UNLIMITED

    def deliver(self, seq: int, frame: str) -> None:
        self.send_text(frame)

    def lost_track(self) -> None:
        """The event log no longer reaches back to the cursor: disconnect (to resync)."""
        self.kick()

    def error(self, code: str, message: str) -> None:
        self.send(
            self.error_model.model_validate({"type": "error", "code": code, "message": message})
        )

    def kick(self) -> None:
        """Disconnect now (the client may reconnect and resync)."""
        self._advance(ConnectionState.KICKED)
        self._cut_reader()

    def restart(self, now: bool = False) -> None:
        """Close with 1012 (the server restarts): once the frame in hand is answered, or
        ``now``."""
        self._advance(ConnectionState.RESTARTING)
        if now or not self._busy:
            self._cut_reader()

    def _advance(self, state: ConnectionState) -> None:
        self._state = max(self._state, state)

    def _cut_reader(self) -> None:
        """Stop reading frames: cancel the reader where it waits, once.  From the reader
        itself (a frame's answer overflowing the queue) nothing is cancelled: the session
        stops before its next frame (``_stopping``)."""
        reader = self._reader
        if reader is None or self._cut or reader is asyncio.current_task():
            return
        self._cut = True
        reader.cancel()

    def stalled(self, now: float, limit_s: float) -> bool:
        """Whether one send has waited longer than ``limit_s`` (the client is not reading)."""
        return self._sending_since is not None and now - self._sending_since > limit_s

    def _send_now(self, texts: list[str]) -> bool:
        """Send ``texts`` at once, in one write, where the server offers it (``stalactites
        serve``: :data:`~.transport.SEND_NOW`) and the socket may be written to now; False
        (nothing sent) otherwise.  True once the client is gone (nothing more is sent)."""
        send = self.websocket.scope.get("extensions", {}).get(SEND_NOW)
        try:
            if send is None or not send(texts):
                return False
        except Exception:  # the client is gone: the reader sees it and closes
            self._outbox.clear()
            self._closing = True
            return True
        for _ in texts:
            self.sent()
        return True

    def _send_queued_now(self) -> bool:
        """Everything queued sent at once, if the socket may be written to now."""
        if not self._send_now(self._outbox.frames()):
            return False
        self._outbox.clear()
        return True

    async def _write(self) -> None:
        """Send what is queued, then end (the next frame queued starts another writer)."""
        try:
            self._send_queued_now()
            while (text := self._outbox.take()) is not None:
                self._sending_since = time.monotonic()
                await self.websocket.send_text(text)
                self._sending_since = None
                self.sent()
        except Exception:  # the client is gone: the reader sees it and closes
            self._outbox.clear()
            self._closing = True
        finally:
            self._writer = None

    # The connection's life.

    async def serve(self) -> None:
        """Accept, then read and answer frames in this task (kick and restart cancel it)."""
        if not await self._origin_allowed():
            return
        await self.websocket.accept()
        reader = self._reader = asyncio.current_task()
        try:
            await self._session()
        except asyncio.CancelledError:
            if not self._cut or (reader is not None and reader.uncancel() > 0):
                raise  # cancelled from outside, not (only) by kick or restart
        finally:
            self._reader = None
            await self.leave()
            await self._close()

    async def _session(self) -> None:
        try:
            if await self._greeted():
                while not self._stopping() and (frame := await self._next_frame()) is not None:
                    self._busy = True
                    await self.handle(frame)
                    self._busy = False
                    self._pump()
        except Exception:
            log.exception("%s failed", self.label)
            self.error("internal", "the server failed; reconnect to carry on")
            self._close_code = CLOSE_INTERNAL

    async def _greeted(self) -> bool:
        """Wait for the hello and answer it (the hello is not kept): True to go on."""
        hello = await self._wait_hello()
        return hello is not None and await self.greet(hello)

    async def _close(self) -> None:
        kicked = self._state is ConnectionState.KICKED
        code = CLOSE_CODES.get(self._state, self._close_code)
        self._corked = self._busy = False
        self._pump()  # what the reader left (a last error, an answer)
        self._closing = True  # what is queued now is the last
        writer = self._writer
        if writer is not None and (kicked or self._outbox.full()):
            writer.cancel()
        if writer is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(writer, CLOSE_WAIT_S)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code), CLOSE_WAIT_S)

    def _stopping(self) -> bool:
        return self._state is not ConnectionState.OPEN

    def refuse(self, code: str, message: str) -> bool:
        """Answer with an error and close 1008 once it is sent; False (no session)."""
        self.error(code, message)
        self._close_code = CLOSE_POLICY
        return False

    def end(self, code: str, message: str) -> None:
        """From :meth:`handle`: answer with a last error, read no more, close 1008."""
        self.refuse(code, message)
        self._advance(ConnectionState.ENDING)

    async def _origin_allowed(self) -> bool:
        """Refuse the handshake of a page from an origin not allowed (HTTP 403)."""
        headers = self.websocket.headers
        if origins(self.config.allowed_origins).allow(headers.get("origin"), headers.get("host")):
            return True
        log.info("%s: handshake refused, its Origin is not allowed", self.label)
        await self.websocket.close(CLOSE_POLICY)  # before accept: the server answers 403
        return False

    # Receiving.

    async def _wait_hello(self) -> HelloT | None:
        timeout = self.config.hello_timeout_s
        try:
            async with asyncio.timeout(timeout):
                frame = await self._next_frame()
        except TimeoutError:
            self.refuse("unauthorized", f"no hello within {timeout:g} s")
            return None
        if frame is None:
            return None
        if not isinstance(frame, self.hello_model):
            self.refuse("unauthorized", "the first frame must be hello")
            return None
        return frame

    async def _next_frame(self) -> FrameT | None:
        """The next well-formed frame; None once the client is gone or sent too many bad ones."""
        while True:
            try:
                if self.idle_s is None:
                    message = await self.websocket.receive()
                else:
                    async with asyncio.timeout(self.idle_s):  # a timer, not a task
                        message = await self.websocket.receive()
            except TimeoutError:
                self.error("idle", f"nothing received for {self.idle_s:g} s; send ping")
                self._close_code = CLOSE_IDLE
                return None
            if message["type"] == "websocket.disconnect":
                return None
            if not self._frame_allowance.take():
                self.refuse("rate_limited", "too many frames; closing")
                return None
            frame = self._parse(message)
            if frame is not None:
                return frame
            if self._bad_frames > self.config.max_bad_frames:
                self._close_code = CLOSE_POLICY
                return None

    def _parse(self, message: MutableMapping[str, Any]) -> FrameT | None:
        text = message.get("text")
        limit = self.config.max_frame_bytes
        if text is None:
            return self._bad("binary frames are not part of the protocol")
        if len(text) > limit or len(text.encode()) > limit:
            return self._bad(f"a frame is at most {limit} bytes")
        try:  # (the adapter's own validator: validate_json's wrapper adds a call to every frame)
            return cast(FrameT, self.frames.validator.validate_json(text))
        except ValidationError as error:
            return self._bad(describe(error)[1])

    def _bad(self, message: str) -> FrameT | None:
        """Count a bad frame and answer it; no frame to handle."""
        self._bad_frames += 1
        self.error("bad_message", message)
        return None
