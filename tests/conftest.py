"""Shared fixtures: stores, Redis key prefixes, running servers, and a websocket client.

Redis tests use the real server on 127.0.0.1:6379 (``tests/run.sh`` starts it);
each test gets its own key prefix (or its module's, for a module's shared server) and
its keys are deleted afterwards.  Servers run in-process (uvicorn in a thread, so
coverage counts) or as subprocesses when a test needs two processes or kills one.
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from pathlib import Path

import pytest
import redis

from cluster_kit import LocalCluster
from server_kit import (
    OPEN_CLIENTS,
    REDIS_URL,
    InProcessServer,
    LoggedServer,
    ManualClock,
    ProcessServer,
    Spawn,
    make_config,
)
from stalactites.store import GhostStore, MemoryStore, Store, open_ghost_store
from stalactites.store.queue.base import QueueStore
from stalactites.store.queue.memory import MemoryQueueStore
from stalactites.store.queue.redis import RedisQueueStore
from stalactites.store.rooms.redis import RedisStore

__all__ = ["QUEUE_T0", "REDIS_URL"]

QUEUE_T0 = 1_700_000_000_000  # the in-memory queue store's time in the queue tests
LOG_TAIL = 40  # the lines of each spawned server's log a failing test's report shows
SPAWNED = pytest.StashKey[list[ProcessServer]]()  # a test's server subprocesses


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failing test's report ends with the end of each of its spawned servers' logs (what
    the processes did is otherwise lost with them)."""
    report: pytest.TestReport = yield
    if report.failed and report.when == "call":
        servers: list[ProcessServer] = item.stash.get(SPAWNED, [])
        for index, server in enumerate(servers):
            lines = server.log_text().splitlines()[-LOG_TAIL:]
            report.sections.append((f"spawned server {index}: its log's end", "\n".join(lines)))
    return report


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


@pytest.fixture(scope="session")
def cluster() -> Iterator[LocalCluster]:
    """A three-master Redis Cluster of local ``redis-server`` processes, for the whole run."""
    with LocalCluster() as running:
        yield running


@pytest.fixture(params=["memory", "redis", "cluster"])
async def ghost_store(
    request: pytest.FixtureRequest, redis_prefix: str
) -> AsyncIterator[GhostStore]:
    """The ghosts' index: in memory, on the real Redis, or on the session's Redis Cluster."""
    urls = {"memory": "memory://", "redis": REDIS_URL}
    if request.param == "cluster":
        urls["cluster"] = request.getfixturevalue("cluster").url
    made = open_ghost_store(urls[request.param], redis_prefix, request.param == "cluster")
    yield made
    await made.close()


@pytest.fixture(params=["memory", "redis"])
async def store(request: pytest.FixtureRequest, redis_prefix: str) -> AsyncIterator[Store]:
    """A room store keeping at most 50 events per room: in memory, on the real Redis, or on
    the session's Redis Cluster where a test parametrizes ``store`` with ``"cluster"``."""
    made: Store
    if request.param == "memory":
        made = MemoryStore(max_events=50)
    elif request.param == "redis":
        made = RedisStore(REDIS_URL, redis_prefix, max_events=50)
    else:
        cluster: LocalCluster = request.getfixturevalue("cluster")
        made = RedisStore(cluster.url, redis_prefix, max_events=50, cluster=True)
    yield made
    await made.close()


@pytest.fixture(params=["memory", "redis", "cluster"])
async def qstore(request: pytest.FixtureRequest, redis_prefix: str) -> AsyncIterator[QueueStore]:
    """The quick-race queue's store: in memory (its clock at ``QUEUE_T0``), on the real Redis,
    or on the session's Redis Cluster."""
    made: QueueStore
    if request.param == "memory":
        made = MemoryQueueStore(lambda: QUEUE_T0)
    elif request.param == "redis":
        made = RedisQueueStore(REDIS_URL, redis_prefix)
    else:
        cluster: LocalCluster = request.getfixturevalue("cluster")
        made = RedisQueueStore(cluster.url, redis_prefix, cluster=True)
    yield made
    await made.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


# The in-process servers.  A test that neither moves a clock nor looks at the server's Redis
# keys shares its module's server on that store (each test makes rooms and tournaments of
# its own); a test that takes ``clock`` or ``redis_prefix``, or is marked ``own_server``, gets
# a server of its own, on that clock and under that prefix.


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "own_server: the test gets a fresh server, not its module's shared one"
    )


# What makes a test ``slow`` (left out of the fast loop, ``-m "not slow"``) by the fixtures it
# takes: chromium, a running server over real sockets (the server test modules close their
# clients), the session's Redis Cluster (taken, or a store parametrized ``"cluster"``).
# Other slow tests are marked where they are written.
SLOW_FIXTURES = {"browser", "close_clients", "cluster"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that takes ``browser`` (browser_kit's chromium) is a ``browser`` test; that,
    the ``SLOW_FIXTURES`` and a ``"cluster"`` parameter make a test ``slow``."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        on_cluster = callspec is not None and "cluster" in callspec.params.values()
        if "browser" in fixtures:
            item.add_marker(pytest.mark.browser)
        if fixtures & SLOW_FIXTURES or on_cluster or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="module")
def module_redis_prefix() -> Iterator[str]:
    """A key prefix of this module's own (its shared Redis server's); deleted afterwards."""
    prefix = f"test:{uuid.uuid4().hex[:12]}:"
    yield prefix
    _delete_prefix(prefix)


@pytest.fixture(scope="module")
def shared_memory_server() -> Iterator[InProcessServer]:
    """The module's server on the in-memory store, on a clock no test moves."""
    with InProcessServer(make_config("memory://"), ManualClock()) as running:
        yield running


@pytest.fixture(scope="module")
def shared_redis_server(module_redis_prefix: str) -> Iterator[InProcessServer]:
    """The module's server on the real Redis, on a clock no test moves."""
    config = make_config(REDIS_URL, prefix=module_redis_prefix)
    with InProcessServer(config, ManualClock()) as running:
        yield running


def _server_for(request: pytest.FixtureRequest, store: str) -> Iterator[InProcessServer]:
    """The module's shared server on ``store`` ("memory" or "redis"), or one of the test's own."""
    own = {"clock", "redis_prefix"} & set(request.fixturenames)
    if not own and request.node.get_closest_marker("own_server") is None:
        yield request.getfixturevalue(f"shared_{store}_server")
        return
    clock: ManualClock = request.getfixturevalue("clock")
    if store == "memory":
        config = make_config("memory://")
    else:
        config = make_config(REDIS_URL, prefix=request.getfixturevalue("redis_prefix"))
    with InProcessServer(config, clock) as running:
        yield running


@pytest.fixture
def server(request: pytest.FixtureRequest) -> Iterator[InProcessServer]:
    """A server on the in-memory store, in this process."""
    yield from _server_for(request, "memory")


@pytest.fixture(params=["memory", "redis"])
def any_server(request: pytest.FixtureRequest) -> Iterator[InProcessServer]:
    """A server in this process on either store."""
    yield from _server_for(request, request.param)


@pytest.fixture
def redis_server(request: pytest.FixtureRequest) -> Iterator[InProcessServer]:
    """A server in this process on the real Redis."""
    yield from _server_for(request, "redis")


@pytest.fixture
def spawned(request: pytest.FixtureRequest) -> list[ProcessServer]:
    """The test's server subprocesses: a failing test's report shows the end of each one's
    log (a fixture that starts servers adds them here)."""
    started: list[ProcessServer] = request.node.stash.setdefault(SPAWNED, [])
    return started


@pytest.fixture
def spawn(redis_prefix: str, spawned: list[ProcessServer], tmp_path: Path) -> Iterator[Spawn]:
    """Start server subprocesses on Redis with this test's prefix, each logging to a file (a
    failing test's report shows their ends); all are stopped afterwards."""
    started: list[ProcessServer] = []

    class Spawned(ProcessServer):
        def __init__(self, **env: str) -> None:
            log = tmp_path / f"server{len(started)}.log"
            super().__init__(REDIS_URL, redis_prefix, log=log, env=env)
            started.append(self)
            spawned.append(self)

    yield Spawned
    for process in started:
        process.stop()


@pytest.fixture
def logged(tmp_path: Path) -> Iterator[Callable[..., LoggedServer]]:
    """Start ``LoggedServer``s (keyword arguments: their environment), each logging to a file
    of its own in ``tmp_path``; all are stopped afterwards."""
    servers: list[LoggedServer] = []

    def start(**env: str) -> LoggedServer:
        server = LoggedServer(tmp_path / f"server{len(servers)}.log", **env)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def workdir() -> Iterator[Path]:
    """nginx's files.  Started as root, nginx runs its workers as ``nobody``, which must reach
    its temp folders, so this folder is world-readable (pytest's tmp_path is not)."""
    path = Path(tempfile.mkdtemp(prefix="stalactites-nginx-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)
