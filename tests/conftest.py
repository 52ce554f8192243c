"""Shared fixtures: stores, Redis key prefixes, running servers, and a websocket client.

Redis tests use the real server on 127.0.0.1:6379 (``tests/run.sh`` starts it);
each test gets its own key prefix and its keys are deleted afterwards.  Servers
run in-process (uvicorn in a thread, so coverage counts) or as subprocesses
when a test needs two processes or kills one.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
import redis

from server_kit import (
    OPEN_CLIENTS,
    REDIS_URL,
    InProcessServer,
    ManualClock,
    ProcessServer,
    make_config,
)
from stalactites.store import MemoryStore, Store
from stalactites.store.rooms_redis import RedisStore

__all__ = ["REDIS_URL"]


def _delete_prefix(prefix: str) -> None:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.fixture
async def close_clients() -> AsyncIterator[None]:
    """Every websocket a test opened is closed when it ends (server test modules use it)."""
    yield
    while OPEN_CLIENTS:
        await OPEN_CLIENTS.pop().close()


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix of this test's own; every key under it is deleted afterwards."""
    prefix = f"test:{uuid.uuid4().hex[:12]}:"
    yield prefix
    _delete_prefix(prefix)


@pytest.fixture(params=["memory", "redis"])
async def store(request: pytest.FixtureRequest, redis_prefix: str) -> AsyncIterator[Store]:
    """The store contract holds for both implementations."""
    made: Store
    if request.param == "memory":
        made = MemoryStore(max_events=50)
    else:
        made = RedisStore(REDIS_URL, redis_prefix, max_events=50)
    yield made
    await made.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def server(clock: ManualClock) -> Iterator[InProcessServer]:
    """A server on the in-memory store, in this process, with a clock the test moves."""
    with InProcessServer(make_config("memory://"), clock) as running:
        yield running


@pytest.fixture(params=["memory", "redis"])
def any_server(
    request: pytest.FixtureRequest, clock: ManualClock, redis_prefix: str
) -> Iterator[InProcessServer]:
    """A server in this process on either store."""
    url = "memory://" if request.param == "memory" else REDIS_URL
    with InProcessServer(make_config(url, prefix=redis_prefix), clock) as running:
        yield running


@pytest.fixture
def redis_server(clock: ManualClock, redis_prefix: str) -> Iterator[InProcessServer]:
    """A server in this process on the real Redis."""
    with InProcessServer(make_config(REDIS_URL, prefix=redis_prefix), clock) as running:
        yield running


@pytest.fixture
def spawn(redis_prefix: str) -> Iterator[type[ProcessServer]]:
    """Start server subprocesses on Redis with this test's prefix; all are stopped afterwards."""
    started: list[ProcessServer] = []

    class Spawned(ProcessServer):
        def __init__(self) -> None:
            super().__init__(REDIS_URL, redis_prefix)
            started.append(self)

    yield Spawned
    for process in started:
        process.stop()
