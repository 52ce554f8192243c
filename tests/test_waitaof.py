"""A race's finish waits for Redis's append-only file where Redis can say so (``WAITAOF``,
7.2 and later), and goes on as before where it cannot: the tests' Redis decides which, and
each test checks what that Redis's version promises.  ``STALACTITES_TEST_REDIS_SERVER`` names
another ``redis-server`` binary for the tests that start their own."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from players_kit import anonymous, race_rated
from server_kit import REDIS_URL, InProcessServer, end_process, free_port
from stalactites.store.redis.resp import Address, Pipe
from stalactites.store.results.durable import AofWait

pytestmark = pytest.mark.usefixtures("close_clients")

BINARY = os.environ.get("STALACTITES_TEST_REDIS_SERVER", "redis-server")


def knows_waitaof(client: redis.Redis) -> bool:
    """Whether this Redis has WAITAOF (Redis 7.2; Valkey, from Redis 7.2, has it too)."""
    info = client.info("server")
    version = str(info.get("valkey_version") or info["redis_version"])
    return tuple(int(part) for part in version.split(".")[:2]) >= (7, 2)


@pytest.fixture(params=["yes", "no"], ids=["aof", "no-aof"])
def own_redis(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[redis.Redis, bool]]:
    """A Redis of the test's own, with its append-only file on (``everysec``) or off."""
    port = free_port()
    command = [BINARY, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp_path)]
    command += ["--appendonly", request.param, "--appendfsync", "everysec", "--save", ""]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    client = redis.Redis(port=port)
    deadline = time.monotonic() + 15
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            assert time.monotonic() < deadline and process.poll() is None, "no redis-server"
            time.sleep(0.05)
    yield client, request.param == "yes"
    client.close()
    end_process(process)


async def test_many_finishes_share_the_waits_or_none_wait_where_redis_cannot(
    own_redis: tuple[redis.Redis, bool],
) -> None:
    client, aof = own_redis
    port = client.connection_pool.connection_kwargs["port"]
    pipe = Pipe(Address(port=port))
    wait = AofWait(pipe, "test:{results:0}:aof")
    try:
        await asyncio.gather(*(wait.wait() for _ in range(50)))
        await asyncio.gather(*(wait.wait() for _ in range(50)))
        can = knows_waitaof(client) and aof
        assert wait.available is can
        if can:  # 100 callers; the first wait, then the rest share a wait or two each round
            assert 2 <= wait.waits <= 6
        else:  # found out once; nothing is sent after
            markers = int(client.get("test:{results:0}:aof") or 0)
            await wait.wait()
            assert (wait.waits, int(client.get("test:{results:0}:aof") or 0)) == (0, markers)
    finally:
        await pipe.close()


async def test_races_finish_and_are_recorded_whether_or_not_redis_can_wait(
    redis_server: InProcessServer,
) -> None:
    base = redis_server.url
    sessions = [await anonymous(base), await anonymous(base)]
    await race_rated(base, sessions, 2)  # each history shows both races
    results = redis_server.app.state.process.store.results
    client = redis.Redis.from_url(REDIS_URL)
    try:
        aof = client.config_get("appendonly")["appendonly"] == "yes"
        assert results.aof_available is (knows_waitaof(client) and aof)
    finally:
        client.close()
