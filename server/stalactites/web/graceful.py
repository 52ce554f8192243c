"""uvicorn with a graceful shutdown of the app's websockets (``stalactites serve`` runs it).

uvicorn's own shutdown stops listening, then cuts every websocket at once
(1012 with ``websockets-sansio``) while the app may be answering a frame. This
server closes the app's websockets first, through the process's drain: each
closes with 1012 once the frame it is handling is answered, so a move being
committed is answered before its client reconnects elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from types import FrameType

import uvicorn
from starlette.applications import Starlette

__all__ = ["GracefulServer"]


class GracefulServer(uvicorn.Server):
    """uvicorn, closing the app's websockets itself (1012, in-flight frames answered) before
    uvicorn's own shutdown, and exiting 0 after a SIGTERM."""

    def __init__(self, config: uvicorn.Config, app: Starlette, grace_s: float) -> None:
        super().__init__(config)
        self.app = app
        self.grace_s = grace_s
        self._loop: asyncio.AbstractEventLoop | None = None
        self._woken: asyncio.Event | None = None

    async def main_loop(self) -> None:
        """uvicorn's loop of ticks (every 0.1 s), woken at once by :meth:`handle_exit`."""
        self._loop, self._woken = asyncio.get_running_loop(), asyncio.Event()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 1) % 864_000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), 0.1)
            should_exit = await self.on_tick(counter)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()  # no new connections from now on
        process = getattr(self.app.state, "process", None)
        if process is not None:
            await process.drain(self.grace_s)
        await super().shutdown(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        if self._loop is not None and self._woken is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed already
                self._loop.call_soon_threadsafe(self._woken.set)
        if sig == signal.SIGTERM:  # uvicorn would raise it again once shut down: exit 0
            with contextlib.suppress(AttributeError, ValueError):
                self._captured_signals.remove(sig)
