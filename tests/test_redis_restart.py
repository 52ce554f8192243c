"""After Redis restarts or a connection to it is lost, a request is still served: a command
safe to repeat is sent once more on a new connection, and a creation never leaves half a room
(written but unlisted).  A real ``redis-server`` of the test's own (tests/fault_kit.py) is
shut down or killed and started again from its append-only file, and a proxy in front of it
resets the server's connection just as chosen commands go through."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from fault_kit import OwnRedis, Proxy, reset
from server_kit import InProcessServer, ManualClock, ProcessServer, http, make_config

pytestmark = pytest.mark.slow  # a redis-server restarted


class CutAt(Proxy):
    """In front of Redis: resets the connection (both ends) the first time client bytes hold
    ``marker``, after passing them on (``deliver``: Redis runs the command, its reply is lost)
    or before (the command never arrives)."""

    def __init__(self, target_port: int, marker: bytes, deliver: bool) -> None:
        super().__init__(target_port)
        self.marker, self.deliver, self.cuts = marker, deliver, 0
        self._ends: tuple[asyncio.StreamWriter, ...] = ()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _hit(self, data: bytes) -> bool:
        if self.cuts or self.marker not in data:
            return False
        self.cuts += 1
        return True

    async def _pair(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._ends = (writer,)
        await super()._pair(reader, writer)

    async def before(self, data: bytes) -> None:
        if not self.deliver and self._hit(data):
            for end in self._ends:
                reset(end.transport)

    def after(self, data: bytes, ends: tuple[asyncio.StreamWriter, ...]) -> bool:
        if self.deliver and self._hit(data):
            for end in ends:
                reset(end.transport)
            return False
        return True


async def listed(base: str, room_id: str) -> bool:
    status, page = await http("GET", f"{base}/api/rooms?status=waiting&limit=100")
    assert status == 200, page
    return room_id in {view["room_id"] for view in page["rooms"]}


@pytest.mark.parametrize("marker", [b"created", b"rooms:waiting"])
async def test_a_creation_whose_reply_is_lost_is_made_whole(
    tmp_path: Path, clock: ManualClock, marker: bytes
) -> None:
    redis = OwnRedis(tmp_path)
    redis.start()
    try:
        async with CutAt(redis.port, marker, deliver=True) as proxy:
            with InProcessServer(make_config(proxy.url), clock) as server:
                status, room = await http("POST", f"{server.url}/api/rooms", {"deal": "ms:3"})
                assert proxy.cuts == 1
                assert status == 201, room
                assert await listed(server.url, room["room_id"])
                status, view = await http("GET", f"{server.url}/api/rooms/{room['room_id']}")
                assert status == 200 and view == room
    finally:
        redis.stop()


async def test_a_read_on_a_connection_lost_on_its_way_is_sent_again(
    tmp_path: Path, clock: ManualClock
) -> None:
    redis = OwnRedis(tmp_path)
    redis.start()
    try:
        async with CutAt(redis.port, b"HGETALL", deliver=False) as proxy:
            with InProcessServer(make_config(proxy.url), clock) as server:
                status, room = await http("POST", f"{server.url}/api/rooms", {"deal": "ms:3"})
                assert status == 201, room
                status, view = await http("GET", f"{server.url}/api/rooms/{room['room_id']}")
                assert proxy.cuts == 1
                assert status == 200 and view == room
    finally:
        redis.stop()


@pytest.mark.parametrize("stop", ["shutdown", "kill"])
async def test_a_served_process_creates_and_lists_a_room_after_a_restart(
    tmp_path: Path, stop: str
) -> None:
    redis = OwnRedis(tmp_path)
    redis.start()
    server = ProcessServer(redis.url, log=tmp_path / "serve.log")
    try:
        status, before = await http("POST", f"{server.url}/api/rooms")
        assert status == 201, before
        getattr(redis, stop)()
        redis.start()
        status, room = await http("POST", f"{server.url}/api/rooms")
        assert status == 201, room
        assert await listed(server.url, room["room_id"])
        assert await listed(server.url, before["room_id"])  # from the append-only file
    finally:
        server.stop()
        redis.stop()
