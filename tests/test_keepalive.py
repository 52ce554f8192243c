"""Keepalive pings (``web/transport.py``): a socket whose client sends frames is not pinged;
one gone silent is, and is closed if it does not answer.  uvicorn in this process with the
protocols ``stalactites serve`` uses, its ping interval and timeout shortened; the client
speaks the websocket protocol by hand, so that it sees the pings and may leave them
unanswered."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from urllib.parse import urlsplit

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from server_kit import InProcessServer, make_config, new_room
from stalactites.web.transport import guarded_protocols

INTERVAL_S = 0.2  # the server's ping interval and timeout here


@pytest.fixture(scope="module")
def pinging() -> Iterator[InProcessServer]:
    config = make_config("memory://")
    server = InProcessServer(config)
    settings = server.server.config
    settings.http, settings.ws = guarded_protocols(config)
    settings.ws_ping_interval = settings.ws_ping_timeout = INTERVAL_S
    with server:
        yield server


class Raw:
    """A spectator's socket spoken by hand: every frame seen, pongs sent only if asked."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.protocol: ClientProtocol | None = None
        self.pings = 0

    @classmethod
    async def spectate(cls, url: str) -> Raw:
        parts = urlsplit(url)
        assert parts.hostname is not None and parts.port is not None
        raw = cls(*await asyncio.open_connection(parts.hostname, parts.port))
        raw.protocol = ClientProtocol(parse_uri(url))
        raw.protocol.send_request(raw.protocol.connect())
        raw.flush()
        while raw.protocol.state is State.CONNECTING:  # the handshake's answer
            raw.protocol.receive_data(await raw.reader.read(65_536))
        raw.send({"type": "hello", "spectator": True})
        assert (await raw.text())["type"] == "welcome"
        return raw

    def send(self, frame: dict[str, object]) -> None:
        assert self.protocol is not None
        self.protocol.send_text(json.dumps(frame).encode())
        self.flush()

    def flush(self) -> None:
        """Write what the protocol has to send (the pongs it makes for pings among it)."""
        assert self.protocol is not None
        self.writer.write(b"".join(self.protocol.data_to_send()))

    async def frames(self, answer: bool) -> AsyncIterator[Frame]:
        """The frames that come (pings counted; answered if ``answer``), until the end."""
        assert self.protocol is not None
        while data := await self.reader.read(65_536):
            self.protocol.receive_data(data)
            for event in self.protocol.events_received():
                if isinstance(event, Frame):
                    self.pings += event.opcode is Opcode.PING
                    yield event
            if answer:
                self.flush()
            else:
                self.protocol.data_to_send()  # its pongs, dropped

    async def text(self) -> dict[str, object]:
        async for frame in self.frames(answer=True):
            if frame.opcode is Opcode.TEXT:
                answer: dict[str, object] = json.loads(bytes(frame.data))
                return answer
        raise AssertionError("closed before a text frame")

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()


@pytest.mark.slow
async def test_a_client_that_sends_frames_is_never_pinged(pinging: InProcessServer) -> None:
    raw = await Raw.spectate(pinging.ws_url(await new_room(pinging.url)))
    try:
        for _ in range(8):  # four ping intervals, a frame every half of one
            raw.send({"type": "ping"})
            assert (await asyncio.wait_for(raw.text(), 5))["type"] == "pong"
            await asyncio.sleep(INTERVAL_S / 2)
        assert raw.pings == 0
    finally:
        await raw.close()


@pytest.mark.slow
async def test_a_silent_client_is_pinged_and_kept_while_it_answers(
    pinging: InProcessServer,
) -> None:
    raw = await Raw.spectate(pinging.ws_url(await new_room(pinging.url)))
    try:

        async def pinged(times: int) -> None:
            async for _ in raw.frames(answer=True):
                if raw.pings >= times:
                    return
            raise AssertionError("closed while answering its pings")

        await asyncio.wait_for(pinged(3), 10 * INTERVAL_S * 3)
        raw.send({"type": "ping"})  # still open, and served
        assert (await asyncio.wait_for(raw.text(), 5))["type"] == "pong"
    finally:
        await raw.close()


@pytest.mark.slow
async def test_a_silent_client_that_does_not_answer_is_closed(pinging: InProcessServer) -> None:
    raw = await Raw.spectate(pinging.ws_url(await new_room(pinging.url)))
    try:

        async def until_closed() -> list[Opcode]:
            return [frame.opcode async for frame in raw.frames(answer=False)]

        seen = await asyncio.wait_for(until_closed(), 20 * INTERVAL_S)
        assert raw.pings >= 1
        assert seen[-1] is Opcode.CLOSE
    finally:
        await raw.close()
