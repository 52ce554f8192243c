"""One address cannot lock everyone out (issue 18, item 3): its open connections and spectator
sockets are capped, slow request heads and silent spectators time out, and another address
still creates a room meanwhile.  Real sockets to a real ``stalactites serve`` process, with
low caps set here; "another address" is 127.0.0.2 (the loopback network takes any 127/8)."""

from __future__ import annotations

import asyncio
import http.client
import json
import resource
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server_kit import Client, InProcessServer, ProcessServer, make_config, new_room, spectator

pytestmark = pytest.mark.usefixtures("close_clients")

CAPS = {
    "STALACTITES_ADDRESS_CONNECTIONS": "4",
    "STALACTITES_ADDRESS_SPECTATORS": "2",
    "STALACTITES_HEAD_TIMEOUT_S": "1",
    "FORWARDED_ALLOW_IPS": "10.255.255.1",  # 127.0.0.1 is a client here, not a trusted proxy
}
OTHER = "127.0.0.2"


@pytest.fixture
def capped() -> Iterator[ProcessServer]:
    server = ProcessServer(None, env=CAPS)
    yield server
    server.stop()


def create_from(address: str, port: int) -> int:
    """POST /api/rooms from ``address``: the status."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=5, source_address=(address, 0)
    )
    try:
        body = json.dumps({"deal": "ms:4", "step": "ones"})
        connection.request("POST", "/api/rooms", body, {"Content-Type": "application/json"})
        return connection.getresponse().status
    finally:
        connection.close()


def slow_head(port: int) -> socket.socket:
    """A connection that sends half a request head and then nothing."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    return sock


def refused(port: int) -> bool:
    """Whether a new connection (that sends nothing) is answered 503 and closed."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        return read_all(sock).startswith(b"HTTP/1.1 503")


def whole_request(port: int) -> bytes:
    """The answer to a prompt GET /healthz."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return read_all(sock)


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes."""
    chunks = []
    while chunk := sock.recv(4096):
        chunks.append(chunk)
    return b"".join(chunks)


async def test_slow_heads_beyond_the_cap_are_refused_and_time_out(capped: ProcessServer) -> None:
    heads = [slow_head(capped.port) for _ in range(4)]
    assert refused(capped.port), "the fifth connection is refused"
    assert create_from(OTHER, capped.port) == 201, "another address is not locked out"
    started = time.monotonic()
    for head in heads:
        assert read_all(head).startswith(b"HTTP/1.1 408")
        head.close()
    waited = time.monotonic() - started
    assert waited < 3, f"the heads timed out after {waited:.1f} s (the deadline is 1 s)"
    assert create_from("127.0.0.1", capped.port) == 201, "the address's count was released"


async def test_websockets_count_towards_the_connection_cap(capped: ProcessServer) -> None:
    room_id = await new_room(capped.url, deal="ms:4", step="ones")
    watchers = [await spectator(capped, room_id) for _ in range(2)]
    heads = [slow_head(capped.port) for _ in range(2)]
    assert refused(capped.port)
    await watchers[0].close()
    await asyncio.sleep(0)
    for _ in range(50):  # the server releases the count once it sees the close
        if whole_request(capped.port).startswith(b"HTTP/1.1 200"):
            break
        await asyncio.sleep(0.05)
    else:
        pytest.fail("a closed websocket's connection was not released")
    for head in heads:
        head.close()


async def test_spectator_sockets_beyond_the_cap_are_refused(capped: ProcessServer) -> None:
    room_id = await new_room(capped.url, deal="ms:4", step="ones")
    watchers = [await spectator(capped, room_id) for _ in range(2)]
    third = await Client.open(capped.ws_url(room_id))
    await third.send(type="hello", spectator=True)
    refused = await third.expect("error")
    assert refused["code"] == "rate_limited"
    assert await third.closed() == 1008
    assert create_from(OTHER, capped.port) == 201
    await watchers[0].close()
    for _ in range(50):  # its departure is counted once the server sees the close
        fourth = await Client.open(capped.ws_url(room_id))
        await fourth.send(type="hello", spectator=True)
        frame = await fourth.recv()
        if frame["type"] == "welcome":
            break
        await fourth.close()
        await asyncio.sleep(0.05)
    else:
        pytest.fail("a closed spectator socket was still counted")


async def test_a_silent_spectator_is_closed_and_a_pinging_one_stays() -> None:
    # The limit is real time on the server's loop: 3 s leaves a ping sent every 0.2 s room for
    # a loaded machine's slow round trips, and the silent one is still closed within it.
    with InProcessServer(make_config("memory://", spectator_idle_s=3.0)) as server:
        room_id = await new_room(server.url, deal="ms:4", step="ones")
        silent = await spectator(server, room_id)
        pinging = await spectator(server, room_id)
        started = time.monotonic()
        while time.monotonic() - started < 4.5:
            await pinging.send(type="ping")
            await pinging.expect("pong")
            await asyncio.sleep(0.2)
        idle = await silent.expect("error")
        assert idle["code"] == "idle"
        assert await silent.closed() == 4408
        await pinging.send(type="ping")
        await pinging.expect("pong")


def test_serve_raises_its_open_file_limit_to_the_hard_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    lowered = min(256, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (lowered, hard))  # the child inherits it
    try:
        server = ProcessServer(None)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        limits = Path(f"/proc/{server.process.pid}/limits").read_text()
        line = next(row for row in limits.splitlines() if row.startswith("Max open files"))
        assert line.split()[3:5] == [str(hard), str(hard)], line
    finally:
        server.stop()
