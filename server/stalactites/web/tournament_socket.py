"""The tournament websocket ``/ws/tournaments/{tournament_id}``: hello, then events out.

The first frame is ``hello`` with an entrant's token or ``"spectator": true``;
the answer is ``welcome`` (the tournament view), then tournament events in
seq order and ``standings`` at most once a second.  Clients send nothing
else but ``ping``.  Frames go out through a bounded queue drained by the
connection's own writer: a client too slow to keep up is disconnected (close
1013) and may reconnect with ``last_seq``.  A bad hello gets an ``error`` and
close 1008; bad frames get ``bad_message``, and too many of them close 1008.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import MutableMapping
from typing import Any

from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocket

from ..tournament_protocol import (
    TOURNAMENT_CLIENT_FRAMES,
    TournamentClientFrame,
    TournamentErrorCode,
    TournamentErrorFrame,
    TournamentHello,
    TournamentPong,
)
from ..tournaments import TournamentError
from .tournament_host import TournamentHost

__all__ = ["TournamentConnection", "tournament_socket"]

log = logging.getLogger(__name__)

CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008
CLOSE_INTERNAL = 1011
CLOSE_TOO_SLOW = 1013
CLOSE_WAIT_S = 2.0


async def tournament_socket(websocket: WebSocket) -> None:
    host: TournamentHost = websocket.state.tournaments
    tournament_id = websocket.path_params["tournament_id"]
    await TournamentConnection(websocket, host, tournament_id).serve()


class TournamentConnection:
    """One client's tournament socket; a feed :class:`~.tournament_feed.Listener` after hello."""

    def __init__(self, websocket: WebSocket, host: TournamentHost, tournament_id: str) -> None:
        self.websocket = websocket
        self.host = host
        self.tournament_id = tournament_id
        self.cursor = 0
        self.you: str | None = None
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue(host.config.send_queue)
        self._bad_frames = 0
        self._close_code = CLOSE_NORMAL
        self._joined = False
        self._reader: asyncio.Task[None] | None = None

    # Sending.

    def send(self, frame: BaseModel) -> None:
        self.send_text(frame.model_dump_json())

    def send_text(self, text: str) -> None:
        if self._close_code == CLOSE_TOO_SLOW:
            return
        try:
            self._outbox.put_nowait(text)
        except asyncio.QueueFull:
            self._close_code = CLOSE_TOO_SLOW
            if self._reader is not None:
                self._reader.cancel()

    def deliver(self, seq: int, frame: str) -> None:
        self.send_text(frame)

    def error(self, code: TournamentErrorCode, message: str) -> None:
        self.send(TournamentErrorFrame(type="error", code=code, message=message))

    async def _write(self) -> None:
        while (text := await self._outbox.get()) is not None:
            await self.websocket.send_text(text)

    # The connection's life.

    async def serve(self) -> None:
        await self.websocket.accept()
        writer = asyncio.create_task(self._write())
        self._reader = asyncio.create_task(self._session())
        try:
            await asyncio.wait({self._reader})
        finally:
            self._reader.cancel()
            if self._joined:
                await self.host.feeds.leave(self.tournament_id, self)
            await self._close(writer)

    async def _session(self) -> None:
        try:
            if await self._hello():
                while (frame := await self._next_frame()) is not None:
                    if isinstance(frame, TournamentHello):
                        self.error("bad_message", "hello comes once, first")
                    else:
                        self.send(TournamentPong(type="pong"))
        except Exception:
            log.exception("tournament %s: a connection failed", self.tournament_id)
            self.error("internal", "the server failed; reconnect to carry on")
            self._close_code = CLOSE_INTERNAL

    async def _close(self, writer: asyncio.Task[None]) -> None:
        if self._close_code == CLOSE_TOO_SLOW or self._outbox.full():
            writer.cancel()
        else:
            self._outbox.put_nowait(None)  # the writer sends what is queued, then stops
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(writer, CLOSE_WAIT_S)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(self._close_code), CLOSE_WAIT_S)

    # Receiving.

    async def _next_frame(self) -> TournamentClientFrame | None:
        """The next well-formed frame; None once the client is gone or sent too many bad ones."""
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return None
            frame = self._parse(message)
            if frame is not None:
                return frame
            if self._bad_frames > self.host.config.max_bad_frames:
                self._close_code = CLOSE_POLICY
                return None

    def _parse(self, message: MutableMapping[str, Any]) -> TournamentClientFrame | None:
        text = message.get("text")
        limit = self.host.config.max_frame_bytes
        if text is None:
            return self._bad("binary frames are not part of the protocol")
        if len(text.encode()) > limit:
            return self._bad(f"a frame is at most {limit} bytes")
        try:
            return TOURNAMENT_CLIENT_FRAMES.validate_json(text)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            return self._bad(f"{where}: {first['msg']}" if where else first["msg"])

    def _bad(self, message: str) -> TournamentClientFrame | None:
        """Count a bad frame and answer it; no frame to handle."""
        self._bad_frames += 1
        self.error("bad_message", message)
        return None

    async def _hello(self) -> bool:
        """Wait for hello; on success, welcome the client and join the tournament's feed."""
        timeout = self.host.config.hello_timeout_s
        try:
            frame = await asyncio.wait_for(self._next_frame(), timeout)
        except TimeoutError:
            return self._refuse("unauthorized", f"no hello within {timeout:g} s")
        if frame is None:
            return False
        if not isinstance(frame, TournamentHello):
            return self._refuse("unauthorized", "the first frame must be hello")
        service = self.host.service
        try:
            if frame.token is not None:
                self.you = await service.authenticate(self.tournament_id, frame.token)
            welcome = await service.welcome(self.tournament_id, self.you, frame.last_seq)
        except TournamentError as error:
            return self._refuse(error.code, error.message)
        self.cursor = welcome.seq
        self.send(welcome)
        await self.host.feeds.join(self.tournament_id, self)
        self._joined = True
        return True

    def _refuse(self, code: TournamentErrorCode, message: str) -> bool:
        self.error(code, message)
        self._close_code = CLOSE_POLICY
        return False
