"""Nothing is lost and nothing is applied twice: reconnecting with ``last_seq``, re-sent move
ids, and a client too slow to keep up, over real websockets."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import json
import os
import socket
import time
from typing import Any

import pytest

from server_kit import (
    WAIT_S,
    Client,
    InProcessServer,
    ManualClock,
    http,
    make_config,
    new_room,
    player,
    start_race,
    winning_line,
)

pytestmark = pytest.mark.usefixtures("close_clients")

DEAL = "ms:4"
LINE = winning_line(DEAL, "ones")


async def two_racers(server: Any, **settings: Any) -> tuple[str, Client, Client]:
    room_id = await new_room(server.url, deal=DEAL, step="ones", countdown_s=0, **settings)
    ann = await player(server, room_id, "Ann")
    bob = await player(server, room_id, "Bob")
    await start_race(ann, bob)
    return room_id, ann, bob


async def reconnect(server: Any, room_id: str, client: Client, **hello: Any) -> Client:
    again = await Client.open(server.ws_url(room_id))
    again.token = client.token
    welcome = await again.hello(client.token, **hello)
    if welcome["resumed"]:
        again.last_seq = welcome["seq"]
    return again


async def test_reconnecting_with_last_seq_delivers_every_missed_event(
    any_server: InProcessServer,
) -> None:
    room_id, ann, bob = await two_racers(any_server)
    seen = bob.last_seq
    await bob.close()
    for index, move in enumerate(LINE[:5]):
        assert (await ann.move(f"a{index}", move))["type"] == "accepted"
    bob = await reconnect(any_server, room_id, bob, last_seq=seen)
    welcome = bob.frames[0]
    assert (welcome["resumed"], welcome["seq"]) == (True, seen)
    # Every event from seen + 1 on, in order with no gap (the client checks each seq): Ann's
    # five moves, and Bob's own presence going and coming among them.
    missed = [await bob.expect("progress") for _ in range(5)]
    assert missed[0]["seq"] > seen
    assert [frame["moves"] for frame in missed] == [1, 2, 3, 4, 5]
    assert all(frame["player_id"] == ann.you for frame in missed)
    assert (await ann.move("a5", LINE[5]))["type"] == "accepted"
    live = await bob.expect("progress")
    assert live["moves"] == 6


async def test_a_reconnect_the_log_no_longer_reaches_gets_a_fresh_welcome(
    clock: ManualClock,
) -> None:
    with InProcessServer(make_config("memory://", max_events=8), clock) as server:
        room_id, ann, bob = await two_racers(server)
        seen = bob.last_seq
        await bob.close()
        for index, move in enumerate(LINE[:12]):
            assert (await ann.move(f"a{index}", move))["type"] == "accepted"
        bob = await reconnect(server, room_id, bob, last_seq=seen)
        welcome = bob.frames[0]
        assert welcome["resumed"] is False
        # Ann's twelve moves, and Bob's presence event when his socket went (if the server saw
        # it go before he came back)
        assert welcome["seq"] in (seen + 12, seen + 13)
        ann_view = [p for p in welcome["room"]["players"] if p["player_id"] == ann.you][0]
        assert ann_view["moves"] == 12
        assert (await ann.move("a12", LINE[12]))["type"] == "accepted"
        assert (await bob.expect("progress"))["moves"] == 13  # next in seq (the client checks)


async def test_a_last_seq_from_the_future_gets_a_fresh_welcome(server: InProcessServer) -> None:
    room_id, ann, bob = await two_racers(server)
    again = await reconnect(server, room_id, bob, last_seq=10_000)
    assert again.frames[0]["resumed"] is False
    assert again.frames[0]["seq"] == bob.last_seq


async def test_a_resent_move_id_gets_the_original_answer_and_is_not_applied_twice(
    any_server: InProcessServer,
) -> None:
    room_id, ann, bob = await two_racers(any_server)
    first = await ann.move("m1", LINE[0])
    again = await ann.move("m1", LINE[0])
    assert again == first
    await ann.move("m2", LINE[1])
    later = await ann.move("m1", LINE[0])  # the board has moved on; the answer has not
    assert later == first
    different = await ann.move("m1", "t8-c2")  # even with other text, an id is used once
    assert different == first
    _, view = await http("GET", f"{any_server.url}/api/rooms/{room_id}")
    assert [p["moves"] for p in view["players"]] == [2, 0]


async def test_a_move_resent_after_a_lost_connection_is_applied_once(
    any_server: InProcessServer,
) -> None:
    room_id, ann, bob = await two_racers(any_server)
    await ann.send(type="move", id="lost-1", move=LINE[0])
    await ann.close()  # the answer, if any, is lost with the connection
    again = await reconnect(any_server, room_id, ann, last_seq=ann.last_seq)
    answer = await again.move("lost-1", LINE[0])
    assert answer["type"] == "accepted" and answer["move"] == LINE[0]
    assert again.frames[0]["state"] is not None
    answer = await again.move("lost-2", LINE[1])
    assert answer["type"] == "accepted"
    _, view = await http("GET", f"{any_server.url}/api/rooms/{room_id}")
    assert [p["moves"] for p in view["players"]] == [2, 0]


async def test_the_welcome_after_a_reconnect_shows_the_board_as_stored(
    server: InProcessServer,
) -> None:
    room_id, ann, bob = await two_racers(server)
    for index, move in enumerate(LINE[:3]):
        answer = await ann.move(f"a{index}", move)
    again = await reconnect(server, room_id, ann)
    welcome = again.frames[0]
    assert welcome["state"] == answer["state"]
    assert welcome["legal"] == answer["legal"]
    assert welcome["resumed"] is False


class RawSocket:
    """A websocket client that never reads: a handshake, then masked text frames out."""

    def __init__(self, url: str) -> None:
        host, port = url.removeprefix("ws://").split("/", 1)[0].split(":")
        self.path = "/" + url.removeprefix("ws://").split("/", 1)[1]
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # backs up quickly
        self.sock.settimeout(10)
        self.sock.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {self.path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            head += self.sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def send(self, **frame: Any) -> None:
        payload = json.dumps(frame).encode()
        mask = os.urandom(4)
        size = len(payload)
        head = bytes([0x81, 0x80 | size]) if size < 126 else bytes([0x81, 0xFE]) + size.to_bytes(2)
        body = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        self.sock.sendall(head + mask + body)

    def flood(self, count: int, move: str) -> None:
        """Send move, undo, move, ... and never read; stop when the server cuts it off (or
        stops reading it for a second)."""
        self.sock.settimeout(1)
        with contextlib.suppress(OSError):
            for index in range(count):
                action = {"type": "move", "move": move} if index % 2 == 0 else {"type": "undo"}
                self.send(id=f"b{index}", **action)
        self.sock.settimeout(10)

    def drain(self) -> bytes:
        """Everything the server sent, read up to its close frame (1013) or the connection's
        end: without a reply to its close frame the server would wait a while to hang up."""
        data = b""
        while CLOSE_1013 not in data and (chunk := self.sock.recv(1 << 16)):
            data += chunk
        self.sock.close()
        return data


CLOSE_1013 = b"\x88\x02\x03\xf5"  # a close frame, unmasked, code 1013


async def until_disconnected(server: Any, room_id: str, player_id: str) -> None:
    """Wait until the room shows this player disconnected."""
    for _ in range(200):
        _, view = await http("GET", f"{server.url}/api/rooms/{room_id}")
        if not [p for p in view["players"] if p["player_id"] == player_id][0]["connected"]:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the slow client was never disconnected")


async def read_all(client: Client, into: list[dict[str, Any]]) -> None:
    """Read frames as fast as they come (a client that keeps up), until cancelled."""
    while True:
        into.append(json.loads(await client.ws.recv()))


async def test_a_client_too_slow_to_read_is_disconnected_and_slows_no_one(
    clock: ManualClock,
) -> None:
    config = make_config("memory://", send_queue=16)
    with InProcessServer(config, clock, sndbuf=16_384) as server:
        room_id, ann, bob = await two_racers(server)
        seen = bob.last_seq
        await bob.close()
        watched: list[dict[str, Any]] = []
        watcher = asyncio.create_task(read_all(ann, watched))
        slow = RawSocket(server.ws_url(room_id))
        slow.send(type="hello", token=bob.token, last_seq=seen)
        await asyncio.to_thread(slow.flood, ROUNDS, LINE[0])
        await until_disconnected(server, room_id, bob.you or "")  # still reading nothing
        received = await asyncio.to_thread(slow.drain)  # ends: the server closed it
        assert received.count(b'"type":"accepted"') < ROUNDS
        await asyncio.sleep(0.2)
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
        seen_by_ann = [f for f in watched if f["type"] == "progress"]
        assert seen_by_ann and all(f["player_id"] == bob.you for f in seen_by_ann)
        assert (await ann.move("a0", LINE[0]))["type"] == "accepted"  # ann was never held up
        again = await reconnect(server, room_id, bob, last_seq=seen)
        assert again.frames[0]["resumed"] is True
        resent = [await again.expect("progress") for _ in range(len(seen_by_ann) + 1)]
        assert resent[:-1] == seen_by_ann
        assert resent[-1]["player_id"] == ann.you


ROUNDS = 3000


async def test_a_client_that_stops_reading_room_events_is_disconnected(
    clock: ManualClock,
) -> None:
    config = make_config("memory://", send_queue=16, send_timeout_s=0.5)
    with InProcessServer(config, clock, sndbuf=16_384) as server:
        room_id, ann, bob = await two_racers(server)
        seen = bob.last_seq
        await bob.close()
        silent = RawSocket(server.ws_url(room_id))
        silent.send(type="hello", token=bob.token, last_seq=seen)
        # Room events pile up for bob until the server gives up on him: half a second of his
        # socket not taking them (wall clock), however many actions that is.
        played, deadline = 0, time.monotonic() + WAIT_S
        connected = True
        while connected:
            assert time.monotonic() < deadline, "bob was never disconnected"
            for _ in range(100):
                action = {"type": "move", "move": LINE[0]} if played % 2 == 0 else {"type": "undo"}
                await ann.send(id=f"a{played}", **action)
                assert (await ann.answer(f"a{played}"))["type"] == "accepted"
                played += 1
            _, view = await http("GET", f"{server.url}/api/rooms/{room_id}")
            connected = view["players"][1]["connected"]
        await asyncio.to_thread(silent.drain)
        # Bob's resumed socket reads a long backlog: the test's own reading, on a loaded
        # machine, may stall past the half second that found the silent socket too slow.
        process = server.app.state.process
        process.config = dataclasses.replace(process.config, send_timeout_s=WAIT_S)
        again = await reconnect(server, room_id, bob, last_seq=seen)
        assert again.frames[0]["resumed"] is True
        caught_up = [await again.expect("progress") for _ in range(played)]  # more than a queue
        assert [frame["moves"] for frame in caught_up] == [1, 0] * (played // 2)
