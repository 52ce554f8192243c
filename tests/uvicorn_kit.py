"""uvicorn as the in-process test servers run it: stopped at once, not at its next tick.

uvicorn's ``Server`` looks at ``should_exit`` every 0.1 s, then on the way out pauses a
fixed 0.1 s after asking its connections to close, then looks every 0.1 s until they and
their tasks are gone: about 0.18 s for each server the tests start and stop, hundreds of
times in a run.  :class:`PromptServer` waits on events instead: :meth:`PromptServer.stop`
wakes its main loop, and its shutdown waits for the last connection and the last task to
end (uvicorn's own steps otherwise: stop listening, ask each connection to close, let the
app's lifespan shut down).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from typing import Any

import uvicorn
from websockets.exceptions import InvalidState

__all__ = ["Emptying", "PromptServer"]


class Emptying(set[Any]):
    """A set that says when it becomes empty: uvicorn's open connections, its running tasks.

    uvicorn's protocols and tasks add and remove themselves in the server's event loop, so
    ``empty`` is only ever set or cleared there."""

    def __init__(self) -> None:
        super().__init__()
        self.empty = asyncio.Event()
        self.empty.set()

    def add(self, item: Any) -> None:
        super().add(item)
        self.empty.clear()

    def discard(self, item: Any) -> None:
        super().discard(item)
        if not self:
            self.empty.set()

    def remove(self, item: Any) -> None:
        super().remove(item)
        if not self:
            self.empty.set()


class PromptServer(uvicorn.Server):
    """A uvicorn server that another thread stops with :meth:`stop`, without polling.

    ``ready`` is set once its start-up is over, whether it started (``started``) or not."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.connections = Emptying()
        self.tasks = Emptying()
        self.server_state.connections = self.connections
        self.server_state.tasks = self.tasks
        self.ready = threading.Event()
        self.stopping = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        try:
            await super().startup(sockets)
        finally:
            self.ready.set()

    def stop(self) -> None:
        """Ask the server to stop (from any thread); its thread ends once it has."""
        self.should_exit = True
        if self.loop is not None:
            with contextlib.suppress(RuntimeError):  # its loop is closed: it has stopped
                self.loop.call_soon_threadsafe(self.stopping.set)

    async def main_loop(self) -> None:
        # A tick of uvicorn's every second (counter 0: the Date header is renewed), and at once
        # when stop() is called.
        while not await self.on_tick(0):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), 1.0)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for connection in list(self.connections):
            try:
                connection.shutdown()
            except InvalidState:  # its client began closing first: uvicorn then fails to
                connection.transport.close()
        await self.connections.empty.wait()
        await self.tasks.empty.wait()
        for server in self.servers:
            await server.wait_closed()
        await self.lifespan.shutdown()
