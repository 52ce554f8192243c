"""The small Redis client (store/redis/resp.py) when the network stalls rather than breaks.

A stalled connection gives no error of its own: the bytes just stop.  These tests put a
proxy between the client and the real Redis on 127.0.0.1:6379 that holds everything the
client sends, while replies would still come back.
"""

from __future__ import annotations

import asyncio
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from fault_kit import StallProxy
from server_kit import end_process, free_port
from stalactites.store.redis.listener import Listener
from stalactites.store.redis.resp import Address, Packed, Pipe, Script

REDIS_PORT = 6379
HANG_GUARD_S = 60  # only so that a broken client fails the test instead of hanging it


class CountingProxy(StallProxy):
    """A :class:`StallProxy` that counts the connections made through it."""

    def __init__(self, target_port: int) -> None:
        super().__init__(target_port)
        self.connections = 0

    async def _pair(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        await super()._pair(reader, writer)


async def until(condition: object, what: str) -> None:
    for _ in range(HANG_GUARD_S * 20):
        if callable(condition) and condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


@pytest.mark.slow
async def test_a_command_on_a_stalled_connection_fails_and_the_next_one_reconnects() -> None:
    async with CountingProxy(REDIS_PORT) as gate:
        pipe = Pipe(Address(port=gate.port), stall_s=0.5)
        assert await pipe.call("PING") == "PONG"
        gate.stall()
        with pytest.raises(ConnectionError, match="answered nothing in time"):
            await asyncio.wait_for(pipe.call("PING"), HANG_GUARD_S)
        gate.stalled.clear()  # new bytes pass again (the dropped connection's stay held)
        assert await asyncio.wait_for(pipe.call("PING"), HANG_GUARD_S) == "PONG"
        assert gate.connections == 2
        gate.release()
        await pipe.close()


@pytest.mark.slow
async def test_a_busy_connection_that_keeps_answering_is_not_dropped() -> None:
    async with CountingProxy(REDIS_PORT) as gate:
        pipe = Pipe(Address(port=gate.port), stall_s=0.5)
        for _ in range(20):  # replies awaited all along, for longer than stall_s in all
            await asyncio.gather(*(pipe.call("PING") for _ in range(50)))
            await asyncio.sleep(0.05)
        assert gate.connections == 1
        await pipe.close()


@pytest.mark.slow
async def test_a_silent_subscription_is_made_again_and_resyncs_once_confirmed() -> None:
    channel = f"test-resp-{uuid.uuid4().hex}"
    heard: list[str] = []
    resyncs: list[int] = []
    async with CountingProxy(REDIS_PORT) as gate:
        listener = Listener(
            Address(port=gate.port),
            lambda _channel, data: heard.append(data),
            lambda: resyncs.append(gate.connections),
            health_s=0.2,
        )
        await listener.subscribe(channel)
        publisher = redis.Redis(port=REDIS_PORT)
        publisher.publish(channel, "one")
        await until(lambda: heard == ["one"], "the first message")

        gate.stall()  # its ping goes unanswered: the listener drops the connection ...
        await until(lambda: gate.connections >= 2, "a second connection")
        await asyncio.sleep(0.5)
        assert resyncs == []  # ... and its new SUBSCRIBE is held: nothing is confirmed yet

        gate.stalled.clear()
        gate.release()  # the held SUBSCRIBE reaches Redis and is confirmed: now resync
        await until(lambda: len(resyncs) >= 1, "a resync")
        publisher.publish(channel, "two")
        await until(lambda: heard[-1:] == ["two"], "a message after the resync")
        publisher.close()
        await listener.close()


@pytest.fixture
def locked_redis(tmp_path: Path) -> Iterator[int]:
    """A ``redis-server`` of the test's own that asks for a password (``pw``): its port."""
    port = free_port()
    command = [
        "redis-server",
        "--port", str(port),
        "--bind", "127.0.0.1",
        "--requirepass", "pw",
        "--save", "",
        "--dir", str(tmp_path),
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    client = redis.Redis(port=port, password="pw")
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"redis-server did not start on port {port}") from None
            time.sleep(0.05)
    client.close()
    yield port
    end_process(process)


async def calls_over_time(pipe: Pipe, count: int) -> list[Any]:
    """``INCR hits`` ``count`` times, a few calls a turn of the event loop (so that some are
    made while a connection and its greeting are under way); their answers or errors."""
    calls = []
    for _ in range(count // 4):
        calls += [asyncio.create_task(pipe.call("INCR", "hits")) for _ in range(4)]
        await asyncio.sleep(0)
    return await asyncio.gather(*calls, return_exceptions=True)


async def test_commands_sent_while_the_connection_is_made_run_in_the_urls_database(
    locked_redis: int,
) -> None:
    pipe = Pipe(Address.parse(f"redis://:pw@127.0.0.1:{locked_redis}/5").named("greeted"))
    admin = redis.Redis(port=locked_redis, password="pw", db=5)
    in_db0 = redis.Redis(port=locked_redis, password="pw", db=0)
    answers = await calls_over_time(pipe, 400)
    assert sorted(answers) == list(range(1, 401))  # every one on the first connection's db 5
    assert in_db0.get("hits") is None
    for entry in admin.client_list():  # drop the connection: the next calls make a new one
        if entry.get("name") == "greeted":
            admin.client_kill_filter(_id=entry["id"])
    again = await calls_over_time(pipe, 400)
    failed = [answer for answer in again if isinstance(answer, BaseException)]
    assert all(isinstance(answer, ConnectionError) for answer in failed)
    assert int(admin.get("hits") or 0) == 800 - len(failed)
    assert in_db0.get("hits") is None
    await pipe.close()
    admin.close()
    in_db0.close()


async def test_a_ping_says_whether_redis_lets_this_client_in(locked_redis: int) -> None:
    right = Pipe(Address.parse(f"redis://:pw@127.0.0.1:{locked_redis}/3"))
    wrong = Pipe(Address.parse(f"redis://:nope@127.0.0.1:{locked_redis}/3"))
    assert await right.ping()
    assert not await wrong.ping()  # the greeting's AUTH is refused: the connection is dropped
    assert not await Pipe(Address(port=free_port()), stall_s=0.5).ping()  # nothing listens
    await right.close()
    await wrong.close()


ECHO = "return {KEYS[1], KEYS[2], #KEYS, unpack(ARGV)}"


async def test_arguments_reach_redis_as_given_and_a_packed_head_as_its_keys_and_arguments() -> None:
    pipe = Pipe(Address())
    tag = f"test-resp:{uuid.uuid4().hex[:8]}:"
    name = "Ünïcödé 名前 \r\n$3"  # not ASCII, and protocol text inside
    assert await pipe.call("SET", f"{tag}text", name) == "OK"
    assert await pipe.call("GET", f"{tag}text") == name
    await pipe.call("SET", f"{tag}bytes", b"\xff\x00\r\n")
    raw = redis.Redis()
    assert raw.get(f"{tag}bytes") == b"\xff\x00\r\n"
    assert await pipe.call("SET", f"{tag}int", -12) == "OK"
    assert await pipe.call("GET", f"{tag}int") == "-12"
    script = Script(pipe, f"{ECHO} -- {tag}")  # new to Redis: sent whole first (EVAL)
    head = Packed([f"{tag}a", f"{tag}{name}"], [name, 7])
    packed = await script(head, ["", "x"])
    listed = await script([f"{tag}a", f"{tag}{name}"], [name, 7, "", "x"])  # EVALSHA
    assert packed == listed
    assert listed == [f"{tag}a", f"{tag}{name}", 2, name, "7", "", "x"]
    raw.delete(f"{tag}text", f"{tag}bytes", f"{tag}int")
    raw.close()
    await pipe.close()
